"""What a follow-up keeps of a count that ran out of memory (session 18, s18-fix item 3).

A failed count is a fact about the card it failed on and the job that ran: after '8 张 H100 爆显存了',
'多少钱？' or '那 2B token 呢' still size above the 8 that failed; '那换 H200 呢' sizes 8 × H200 afresh (the 8
failed on H100s), and '换成 LoRA 呢' sizes the new job at the count said (bot.core.failed_counts.KEPT_BY).
"""

from __future__ import annotations

import pytest

from bot.core.conversation import Conversation
from bot.core.failed_counts import ONE_DISAGREES, failed_carries
from bot.web.state import Asked, converse

FAILED = "全参微调 Qwen2.5-7B，8 张 H100 爆显存了，要几张"


def _codes(answer) -> list[str]:  # type: ignore[no-untyped-def]
    return [w.code for w in answer.report.warnings]


@pytest.mark.parametrize(("followup", "tokens"), [("多少钱？", None), ("那 2B token 呢", 2e9)])
def test_a_followup_on_the_same_card_and_job_keeps_the_failed_count(
    followup: str, tokens: float | None
) -> None:
    conv = Conversation(ttl_seconds=600, max_entries=10)
    first = conv.ask(1, 10, FAILED).answer
    assert ONE_DISAGREES in _codes(first) and first.report.memory.plan_gpus == 16
    a = conv.ask(1, 10, followup).answer
    assert a.followup and a.report.request.tokens == tokens
    assert ONE_DISAGREES in _codes(a)
    assert a.report.memory.plan_gpus == 16  # 8 H100s a node, 8 failed: the next whole node, again


@pytest.mark.parametrize(
    ("followup", "gpu", "count"),
    [("那换 H200 呢", "H200-SXM-141GB", 8), ("换成 LoRA 呢", "H100-SXM5-80GB", 8)],
)
def test_a_new_card_or_job_sizes_afresh(followup: str, gpu: str, count: int) -> None:
    conv = Conversation(ttl_seconds=600, max_entries=10)
    conv.ask(1, 10, FAILED)
    a = conv.ask(1, 10, followup).answer
    assert a.followup and not {"count_failed", "count_failed_fit"} & set(_codes(a))
    assert (a.report.request.gpu, a.report.request.gpu_count) == (gpu, count)  # the count said, as asked
    assert a.report.memory.plan_gpus == count


def test_the_web_api_keeps_the_failed_count_through_its_previous_questions() -> None:
    a = converse(Asked(q="多少钱？", prev=[FAILED]))
    assert ONE_DISAGREES in _codes(a) and a.report.memory.plan_gpus == 16


def test_what_carries() -> None:
    assert failed_carries([]) and failed_carries(["tokens", "currency"])
    assert not failed_carries(["gpu"]) and not failed_carries(["method"]) and not failed_carries(["seq_len"])
