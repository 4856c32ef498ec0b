"""Prices after both cards, in order (s20-fixb item 6): 'H100 and A100 at $2.49 and $1.19 an hour',
'H100、A100 分别 2.49 和 1.19 美元每小时', 'H100 and A100, respectively $2.49 and $1.19 per GPU-hour' — each
card its own price (before: the first price a budget or unread, both cards priced at $1.19). Sentences of
our own."""

from __future__ import annotations

import pytest

from bot.core.pipeline import Context, answer
from bot.parse import parse
from bot.render.renderer import render


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama-3-70B: compare H100 and A100 at $2.49 and $1.19 an hour",
        "Qwen2.5-72B 推理，H100、A100 分别 2.49 和 1.19 美元每小时，哪个便宜",
        "Tune Qwen2.5-7B on 100M tokens: H100 and A100, respectively $2.49 and $1.19 per GPU-hour",
        "LoRA Qwen2.5-7B: H100 at $2.49/GPU-hour vs A100 at $1.19/GPU-hour",  # each after its own card
    ],
)
def test_each_card_has_its_own_price(text: str) -> None:
    p = parse(text)
    assert (p.request.gpu, p.request.price_per_gpu_hour) == ("H100-SXM5-80GB", 2.49)
    assert p.gpu_alternative_prices == {"A100-SXM4-80GB": 1.19}
    assert p.request.budget is None
    assert not [t for t, _ in p.unused_numbers if t in ("2.49", "1.19")]


def test_the_reply_prices_each_card() -> None:
    out = render(
        answer("Qwen2.5-72B 推理，H100、A100 分别 2.49 和 1.19 美元每小时，哪个便宜", Context()), "text"
    )
    assert out.startswith("每 token 最省钱：A100 80G")


def test_a_budget_and_one_price_stay_what_they_are() -> None:
    p = parse("H100 and A100, budget $5000, price $2 an hour, fine-tune 7B on 1B tokens")
    assert (p.request.budget, p.request.price_per_gpu_hour, p.gpu_alternative_prices) == (5000.0, 2.0, {})
