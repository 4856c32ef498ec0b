"""Session 12 review of the merge (s12-int at 7450af9), parser findings: a recompute the user turns off
(2), a model described as trained with reinforcement learning (3), ms-swift GRPO's completion default (4),
the 'at N tokens' sequence (17). Each case failed on 7450af9."""

from __future__ import annotations

import pytest

from bot.parse import parse
from tests.cli_run import ask_in_process


@pytest.mark.parametrize(
    "text",
    [
        "全参微调 7B，8 张 A100，seq 4096，不需要重计算",
        "全参微调 7B，8 张 A100，seq 4096，无需重计算",
        "全参微调 7B，8 张 A100，seq 4096，别开重计算",
        "全参微调 7B，8 张 A100，seq 4096，不必开重计算",
        "全参微调 7B，8 张 A100，seq 4096，关了重计算",
        "全参微调 7B，8 张 A100，seq 4096，重计算关了",
        "full fine-tune 7B on 8 A100, seq 4096, no need for gradient checkpointing",
        "full fine-tune 7B on 8 A100, seq 4096, we don't need gradient checkpointing",
    ],
)
def test_a_recompute_turned_off_is_none(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Was 'full' ('your setting') on 7450af9: the bare '重计算' read past the negation."""
    data = ask_in_process(capsys, text)
    assert data["request"]["recompute"] == "none"


@pytest.mark.parametrize(
    ("text", "mode"),
    [
        ("全参微调 7B，8 张 A100，seq 4096，开重计算", "full"),
        ("全参微调 7B，8 张 A100，seq 4096，重计算", "full"),
        ("全参微调 7B，8 张 A100，seq 4096，不开完全重计算", "selective"),
        ("full fine-tune 7B on 8 A100, seq 4096, with gradient checkpointing", "full"),
    ],
)
def test_a_recompute_turned_on_stays(text: str, mode: str) -> None:
    assert parse(text).request.recompute == mode
