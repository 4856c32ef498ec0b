"""A run on the user's own card has no rental price to miss (session 17, s17-fix item 3:
bot.core.home_card). The RTX 3090 has no rental price in the catalog (estimator.ledger notes 'no_price')."""

from __future__ import annotations

import pytest

from bot.core.home_card import OWN_CARD_COST, OWN_CARD_ENERGY
from bot.core.pipeline import Context, answer
from bot.render.renderer import render


def codes(text: str) -> list[str]:
    return [n.code for n in answer(text, Context()).report.warnings]


@pytest.mark.parametrize(
    "text",
    [
        "I have an RTX 3090 at home. LoRA fine-tune Qwen2.5-7B on 100M tokens, how long?",
        "我家里有一张 3090，LoRA 微调 Qwen2.5-7B，1 亿 token 要多久？",
        "用我的 4090 LoRA 微调 Qwen2.5-7B，1 亿 token 要多久",
    ],
)
def test_no_cost_asked_on_the_own_card_says_nothing_of_a_price(text: str) -> None:
    found = codes(text)
    assert "no_price" not in found and OWN_CARD_COST not in found


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("How much will it cost on my 3090? LoRA Qwen2.5-7B, 100M tokens", "RTX 3090 is your own card"),
        ("在我的 3090 上 LoRA 微调 Qwen2.5-7B 1 亿 token 要花多少钱", "RTX 3090 是你自己的卡"),
    ],
)
def test_a_cost_asked_on_the_own_card_says_it_is_theirs(text: str, said: str) -> None:
    a = answer(text, Context())
    # the 3090's board power is on file (NVIDIA: 350 W): the own-card note carries its kWh (s17-2 #3)
    assert [n.code for n in a.report.warnings].count(OWN_CARD_ENERGY) == 1
    assert "no_price" not in [n.code for n in a.report.warnings]
    reply = render(a, "text")
    assert said in reply and "No rental price" not in reply and "租用价格" not in reply


def test_a_card_not_said_to_be_theirs_keeps_the_missing_price() -> None:
    found = codes("LoRA fine-tune Qwen2.5-7B on 100M tokens on an RTX 3090, how much?")
    assert "no_price" in found and OWN_CARD_COST not in found
