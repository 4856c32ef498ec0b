"""Session 36 fix i (issue 24: models compared, as a design review found them).

Item 1: 'which' must govern the two models (哪个模型 / 哪个更 / which one / which is … right before or after
the pair), never the card ('哪个卡', 'which GPU'): a message that merely used two models and asks which card
keeps the second named as not used, and the card question is answered for the model it asks about."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.parse import parse
from bot.render.renderer import render

CARD_ZH = "我先用 Qwen2-7B 和 Llama-3-8B 做了测试，现在哪个卡适合部署 Qwen2-7B？"


@pytest.mark.parametrize(
    "text",
    [
        CARD_ZH,
        "我用 Qwen2-7B 和 Llama-3-8B 做过测试，哪种显卡部署 Qwen2-7B 最便宜？",
        "I tested Qwen2-7B and Llama-3-8B last week; which GPU should I use to serve Qwen2-7B?",
        "I tested Qwen2-7B and Llama-3-8B, which card is best to serve Qwen2-7B?",
        "I tested Qwen2-7B and Llama-3-8B last week. Which one should I serve on an A100?",  # next sentence
    ],
)
def test_which_card_after_two_models_is_not_a_comparison(text: str) -> None:
    p = parse(text)
    assert p.compared_models == ()
    assert p.request.model == "Qwen2-7B"
    assert ("model: Llama-3-8B", "other_setup") in p.unused_numbers  # named as not used (design §8)


@pytest.mark.parametrize(
    "text",
    [
        "Qwen2-7B 和 Llama-3-8B 哪个更适合部署在 A100 上？",
        "Qwen2-7B 和 Llama-3-8B 哪个模型在一张 A100 上部署更便宜？",
        "Qwen2-7B and Llama-3-8B: which one is cheaper to serve on an A100?",
        "Which is cheaper to serve on one A100, Qwen2-7B and Llama-3-8B?",  # which before the pair
        "Qwen2-7B 还是 Llama-3-8B，哪张卡都行吗",  # 还是 between the names sets them against each other
    ],
)
def test_which_model_near_the_pair_compares(text: str) -> None:
    p = parse(text)
    assert p.compared_models == ("Llama-3-8B",)
    assert p.request.model == "Qwen2-7B"


def test_the_card_question_is_not_answered_with_a_model_choice() -> None:
    a = answer(CARD_ZH)
    reply = render(a, "text")
    assert a.compared_models == []
    assert "更划算的是" not in reply
    assert reply.startswith("Qwen2 7B bf16 推理：需要 1 张 A100 80G")
    assert "Llama-3-8B" in reply  # named as not used
