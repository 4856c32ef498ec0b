"""Counts tried that ran out of memory are a lower bound (session 17, issue 24 item 1 of s17-fix).

"试过 4 卡和 8 卡都 OOM" / "OOM on 4x and on 8x A100" recommended 8: the answer now never recommends a
count the user saw fail, says whether the estimate agrees with their run, and sizes the fewest count
above what failed (bot.core.failed_counts). '也不' before an adjective ('8 卡也不够快') is no failure.
"""

from __future__ import annotations

import pytest

from bot.core.failed_counts import FAILED_AGREES, FAILED_DISAGREES, fewest_above
from bot.core.pipeline import Context, answer
from bot.parse import parse
from bot.parse.counts_tried import COUNTS_FAILED
from bot.render.renderer import render
from tests.cli_run import ask_in_process

GIB = 2**30
LLAMA3_8B = 8.03e9  # meta-llama/Meta-Llama-3-8B config.json: 8,030,261,248 parameters
LLAMA3_70B = 70.55e9  # meta-llama/Meta-Llama-3-70B: 70,553,706,496 parameters

FAILED = [
    "试过 4 卡和 8 卡都 OOM，Llama-3-8B 全参微调，A100 80G",
    "Llama-3-8B 全参 4 卡和 8 卡都爆显存，A100 80G 要几张",
    "Llama-3-8B 全参，4 张 A100 不够，8 张也不够，要几张",
    "4 卡和 8 卡都试过了，Llama-3-8B 全参都跑不起来，要几张 A100",
    "Full fine-tune of Llama-3-8B: OOM on 4x and on 8x A100 80GB. How many GPUs do I need?",
    "I tried both 4 and 8 A100s for full fine-tuning Llama-3-8B, both OOM",
    "Llama-3-8B full fine-tune crashed with 4 GPUs and with 8 GPUs: out of memory. A100 80GB, how many?",
]


@pytest.mark.parametrize("text", FAILED)
def test_counts_tried_that_failed_are_read_as_failed(text: str) -> None:
    p = parse(text)
    assert (p.request.gpu_count, p.request.gpu_count_max) == (4, 8)
    assert COUNTS_FAILED in p.notes
    assert "4" not in [raw for raw, _ in p.unused_numbers]  # the bare 4 of 'tried 4 and 8' is read


@pytest.mark.parametrize(
    "text",
    [
        "4 卡太慢了，8 卡也不够快，Llama-3-8B 全参微调要几张 A100",
        "8 卡也不便宜，4 卡 A100 训 Llama-3-8B 全参要多久",
        "4 卡和 8 卡都不便宜，Llama-3-8B 全参用 A100 要多久",
    ],
)
def test_ye_bu_before_an_adjective_is_no_tried_count(text: str) -> None:
    p = parse(text)
    assert p.request.gpu_count_max is None and COUNTS_FAILED not in p.notes


def test_one_count_failed_beside_another_setups_count_is_no_pair() -> None:
    text = (  # the guide's '2x40GB' is another setup's (real question en-136's form)
        "FSDP + QLoRA of Llama3-8B OOMs on 4x A40 with 16GB of CPU RAM. The guide says FSDP + QLoRA of the "
        "70B fits 2x40GB. Why can't an 8B fit?"
    )
    p = parse(text)
    assert (p.request.gpu_count, p.request.gpu_count_max) == (4, None) and COUNTS_FAILED not in p.notes


def test_counts_tried_that_worked_are_no_failure() -> None:
    p = parse("I tried 4 and 8 GPUs, both work, Llama-3-8B full fine-tune, which is faster?")
    assert (p.request.gpu_count, p.request.gpu_count_max) == (4, 8) and COUNTS_FAILED not in p.notes


@pytest.mark.parametrize(
    ("failed", "per_node", "above"),
    [(8, 8, 16), (4, 8, 8), (2, 8, 4), (1, 8, 2), (16, 8, 24), (3, 4, 4), (1, 1, 2)],
)
def test_fewest_above_is_the_next_count_the_search_tries(failed: int, per_node: int, above: int) -> None:
    assert fewest_above(failed, per_node) == above  # 1, 2, 4 below a node, then whole nodes


@pytest.mark.parametrize("text", [FAILED[0], FAILED[4]])
def test_estimate_fits_where_the_run_failed_sizes_above_it(text: str) -> None:
    a = answer(text, Context())
    m = a.report.memory
    assert m.plan_gpus == 16 and m.fits_requested  # 8 × A100 80G per node: the next whole node
    assert m.min_gpus == 16 and m.recommended_gpus >= 16  # never the 8 that failed
    note = a.report.warnings[0]
    assert note.code == FAILED_DISAGREES and note.params["next_gpus"] == 16 and note.params["gpu_count"] == 8
    # by hand, ZeRO-1 on 8: bf16 weights 2 B + grads 2 B + AdamW states 12 B / 8 per parameter
    states_on_8 = LLAMA3_8B * (2 + 2 + 12 / 8) / GIB  # 41.1 GiB, activations on top
    assert states_on_8 < note.params["per_gpu_gib"] < note.params["usable_gib"] == 80
    text_en = render(a, "text")
    assert "ran out of memory" in text_en or "爆了显存" in text_en
    assert "8 GPUs:" not in text_en and "推荐 8 张" not in text_en


def test_estimate_agrees_with_the_failed_run() -> None:
    a = answer(
        "Full fine-tune of Llama-3-70B: I tried 4 and 8 A100 80GB, both OOM. How many GPUs?", Context()
    )
    note = a.report.warnings[0]
    assert note.code == FAILED_AGREES and note.params["gpu_count"] == 8
    # by hand: 16 B/param of model states sharded over 8 GPUs (ZeRO-3) alone is 131 GiB > 80 GiB
    assert note.params["per_gpu_gib"] >= LLAMA3_70B * 16 / 8 / GIB
    m = a.report.memory
    assert m.min_gpus == 16 and m.plan_gpus == m.recommended_gpus == 24  # the estimate's own sizes, > 8
    assert "the estimate agrees" in render(a, "text")


def test_the_json_request_keeps_the_counts_said(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask_in_process(capsys, FAILED[4])  # the contract: the counts said, the count sized beside them
    assert (data["request"]["gpu_count"], data["request"]["gpu_count_max"]) == (4, 8)
    assert data["report"]["memory"]["plan_gpus"] == 16


def test_chinese_reply_says_the_run_disagrees() -> None:
    text = render(answer(FAILED[0], Context()), "text")
    assert text.startswith("Meta Llama 3 8B 全参微调：16 张 A100 80G 放得下")
    assert "你说 4 张和 8 张都爆了显存，但估算 8 张时" in text and "这里按 16 张估算" in text
