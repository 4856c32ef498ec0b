"""No option of a comparison table is called cheapest on a tie or across currencies (s19-fix item 4).

Training ties were named since session 17 (tie_line); serving ties were not: the first option of equal
cost per million output tokens was called 'Cheapest per token'. Across currencies (no exchange rate)
there is no winner (session 18); checked again here for serving and training.
"""

from __future__ import annotations

import pytest

from bot.core.compare_currency import priced_cheapest
from bot.core.pipeline import answer
from bot.render.compare import tie_line
from bot.render.renderer import render

SERVING_ZH = "对比 A100 和 A800 部署 Qwen2.5-7B，每卡每小时 10 元"


def test_a_serving_tie_is_named_not_a_winner() -> None:
    a = answer(SERVING_ZH)
    first, second = a.compared[0], a.compared[1]
    cost = first.inference.cost_per_million_tokens
    # both A100 80G and A800 decode at ≈ 860 tokens/s (2,039 GB/s each): give the A800 the same price
    tied_inf = second.inference.model_copy(update={"cost_per_million_tokens": cost})
    reports = [first, second.model_copy(update={"inference": tied_inf})]
    best = priced_cheapest(reports)
    line = tie_line(reports, best, "zh")
    assert line is not None and line.startswith("打平") and "A100 80G" in line and "A800" in line
    assert "每 token 成本相同" in line
    assert tie_line(reports, best, "en").startswith("A tie: A100 80G and A800 80G cost the same per token")


def test_unequal_serving_costs_keep_the_cheapest() -> None:
    a = answer("对比 A100 和 A800 部署 Qwen2.5-7B")  # catalog ranges: A100 ¥1.20–2.41, A800 ¥0.97–2.27
    assert tie_line(a.compared, a.cheapest_index, "zh") is None
    assert render(a, "text").startswith("每 token 最省钱：A800")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (SERVING_ZH, "不评最省钱：你给的每卡·时价格只用于 A100 80G；A800 80G 按目录里的价格区间计"),
        (
            "compare A100 vs H100 for full fine-tuning Qwen2.5-7B on 1B tokens at $2 per GPU-hour",
            "No lowest-cost verdict: your price per GPU-hour is for A100 80G; H100 80G at the catalog's",
        ),
    ],
)
def test_a_price_said_for_one_option_only_names_no_winner(question: str, said: str) -> None:
    a = answer(question)  # ¥10 (or $2) on the first card only, the other at its catalog range
    assert a.cheapest_index is None
    assert render(a, "text").startswith(said)


def test_two_currencies_have_no_winner() -> None:
    for q in (
        "compare A100 vs A800 for serving Qwen2.5-7B at $2 per GPU-hour",
        "compare A100 vs A800 for full fine-tuning Qwen2.5-7B on 1B tokens at $2 per GPU-hour",
    ):
        a = answer(q)
        assert a.cheapest_index is None  # the A800 has a CNY price only: no exchange rate
        head = render(a, "text").split("\n")[0]
        assert "Cheapest" not in head and "Lowest cost" not in head


def test_a_training_tie_is_named() -> None:
    text = render(answer("对比 H100 和 H800 训练 7B 1T token"), "text")
    assert text.startswith("打平：H100 80G、H800 成本相同")
