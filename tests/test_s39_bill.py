"""s39-bill: billing per started hour on each card, one rule for the text and the JSON.

A cloud that bills hourly bills each instance per started hour, with no averaging across instances
(AWS EC2's hourly rule: "each partial instance-hour consumed will be billed as a full hour"), so n cards
that each run h wall hours bill n × ⌈h⌉ GPU-hours (estimator.compute.billed_gpu_hours). Values by hand.
"""

from __future__ import annotations

import json

import pytest

from estimator.compute import billed_gpu_hours


@pytest.mark.parametrize(
    ("gpu_hours", "gpus", "billed"),
    [
        (5.36, 4, 8),  # 4 × A100 for 1.34 h each: 4 × ⌈1.34⌉ = 4 × 2 = 8 (⌈5.36⌉ = 6 was wrong)
        (93_482.9, 136, 93_568),  # the seed on 136 cards: 136 × ⌈687.4⌉ = 136 × 688
        (4.8, 8, 8),  # 0.6 h on 8 cards: 8 × ⌈0.6⌉ = 8
        (9.0, 8, 16),  # a GRPO on 8 × H100 for 1.125 h: 8 × 2 = 16 (not ⌈9⌉ = 9)
        (16.0, 8, 16),  # exactly 2 h a card: 8 × 2, nothing rounded
        (3.4, 2, 4),  # 2 × ⌈1.7⌉ = 4
        (6.43, 1, 7),  # one card (or no count): ⌈6.43⌉
        (0.3, 1, 1),
        (7.000000000001, 1, 7),  # float noise stays on the whole hour
        (0.0, 8, 0),  # no work, no bill
    ],
)
def test_billed_per_card_per_started_hour(gpu_hours: float, gpus: int, billed: int) -> None:
    assert billed_gpu_hours(gpu_hours, gpus) == billed


def test_no_count_bills_the_total_rounded_up() -> None:
    """Count-free hours (no count known): ⌈GPU-hours⌉, the default of one card."""
    assert billed_gpu_hours(93_482.9) == 93_483
    assert billed_gpu_hours(5.36) == 6


def _ask(question: str, fmt: str = "text") -> str:
    from bot.cli import ask

    out, code = ask(question, None, fmt)
    assert code == 0, out
    return out


TRIAL_EN = "llama3.1 8b full finetune on 4 x A100 40G, 50M tokens, how much will it cost?"
TRIAL_ZH = "llama3.1 8b 全参微调，4 张 A100 40G，5000万 token，要花多少钱？"


def test_trial_text_bills_each_card_once_en() -> None:
    """The fresh-user trial: 5.4 GPU-hours on 4 cards bill 4 × 2 = 8, said once."""
    out = _ask(TRIAL_EN)
    assert "billed per started hour on each of 4 GPUs: 4 × 2 h = 8 GPU-hours" in out
    assert "6 GPU-hours" not in out


def test_trial_text_bills_each_card_once_zh() -> None:
    out = _ask(TRIAL_ZH)
    assert "4 张卡：4 × 2 小时 = 8 卡·时" in out
    assert "6 卡·时" not in out


def test_trial_json_agrees_with_the_text() -> None:
    """report.cost and report.shown.cost both bill the 4 cards: 8 GPU-hours; the price × 8."""
    data = json.loads(_ask(TRIAL_EN, "json"))
    rep = data["report"]
    assert rep["shown"]["gpus"] == 4
    assert rep["shown"]["cost"]["billed_gpu_hours"] == 8
    assert rep["cost"]["billed_gpu_hours"] == 8
    c = rep["shown"]["cost"]
    assert c["low"] == pytest.approx(8 * c["price_low"]) and c["high"] == pytest.approx(8 * c["price_high"])
