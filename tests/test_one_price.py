"""A single stated price gives one cost, not a degenerate range (s8 fix item 7): "Within budget: $204 –
$204 of your $500" / "这需要 ¥1,530 – ¥1,530". 102 billed A100-hours (C = 6·7.61e9·1e9 at 40 % of the
A100's 312 TFLOPS: 101.6 h) × $2 = $204; × ¥15 = ¥1,530."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


@pytest.mark.parametrize(
    ("question", "line", "cost"),
    [
        (
            "full fine-tune Qwen2.5-7B on 8 A100 with 1B tokens at $2 per GPU-hour, budget $500",
            "Within budget: $204 of your $500.",
            204,
        ),
        (
            "full fine-tune Qwen2.5-7B on 8 A100 with 1B tokens at $2 per GPU-hour, budget $100",
            "Over budget: this costs $204, more than the $100 you have.",
            204,
        ),
        (
            "full fine-tune Qwen2.5-7B on 8 A100 with 1B tokens at $2 per GPU-hour, budget $250",
            "Within budget at the likely speed: $204 of your $250; a slower run",
            204,
        ),
        (
            "全参微调 Qwen2.5-7B，8张A100，10亿token，每卡时15元，预算1000元",
            "预算不够：这需要 ¥1,530，超过你的 ¥1,000。",
            1530,
        ),
        (
            "全参微调 Qwen2.5-7B，8张A100，10亿token，每卡时15元，预算3000元",
            "预算够：需要 ¥1,530，预算 ¥3,000。",
            1530,
        ),
    ],
)
def test_one_price_one_cost(capsys, question: str, line: str, cost: float) -> None:
    assert main(["ask", "--format", "json", question]) == 0
    answer = json.loads(capsys.readouterr().out)
    c = answer["report"]["cost"]
    assert c["price_low"] == c["price_high"] and c["low"] == c["high"] == cost
    assert c["billed_gpu_hours"] == 102
    assert line in answer["reply"].splitlines()[1]
    assert f"{cost:,} – " not in answer["reply"] and f"{cost:,}–" not in answer["reply"]


def test_a_price_range_keeps_its_range(capsys) -> None:
    main(["ask", "full fine-tune Qwen2.5-7B on 8 A100 with 1B tokens, budget $250"])
    assert "Borderline for the budget: $122 – $255 against $250" in capsys.readouterr().out
