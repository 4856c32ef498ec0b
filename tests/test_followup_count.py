"""A follow-up that changes the job and asks how many GPUs sizes the count for the new job (s14 trial):
'7B LoRA on 2 A100, 1B tokens, how long?' then 'what about 70B, how many do I need?' answered on the
2 A100 of the first question ("≈ 19 days … borderline"), never the count the 70B needs."""

from __future__ import annotations

import pytest

from bot.core.conversation import Conversation
from bot.render.renderer import render
from tests.cli_run import ask_in_process


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("7B LoRA on 2 A100, 1B tokens, how long?", "what about 70B, how many do I need?"),
        ("7B LoRA 用 2 张 A100，10 亿 token，要多久？", "那 70B 呢，要几张卡？"),
    ],
)
def test_how_many_after_the_model_changes_sizes_the_count(capsys, first: str, then: str) -> None:
    chat = Conversation()
    before = chat.ask(1, 1, first)
    assert before.request.gpu_count == 2
    after = chat.ask(1, 1, then)
    assert after.followup and after.request.params_total == 70e9 and after.request.tokens == 1e9
    assert after.request.gpu_count is None and after.request.count_asked is True
    assert "gpu_count" in after.changed
    fresh = ask_in_process(capsys, "70B LoRA on A100, 1B tokens, how many GPUs do I need?")
    report = after.answer.report
    assert report is not None and report.memory is not None
    # 70B LoRA on 80 GB: 2 GPUs hold it (TP 2), 624 A100-hours at 40 % MFU: as asked afresh
    assert report.memory.min_gpus == fresh["report"]["memory"]["min_gpus"] == 2
    assert report.gpu_hours.likely == pytest.approx(fresh["report"]["gpu_hours"]["likely"])
    assert report.gpu_hours.likely == pytest.approx(624, abs=1)
    first_line = render(after.answer, "plain").splitlines()[0]
    assert "2 × A100" not in first_line and "2 张 A100" not in first_line  # no longer "with 2 × A100 80G"
    # s40-fixh #3: the 2 recomputing GPUs' own GPU-hours, 623.x × 1.5 = 935 (the one figure of the reply)
    assert "935" in first_line


def test_a_follow_up_without_how_many_keeps_the_count() -> None:
    chat = Conversation()
    chat.ask(1, 1, "7B LoRA on 2 A100, 1B tokens, how long?")
    after = chat.ask(1, 1, "what about 70B?")
    assert after.request.gpu_count == 2 and not after.request.count_asked
