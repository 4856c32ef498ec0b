"""'How many RTX 4090 …?' asks for the count (session 19, s19-fix item 2).

A question for the number of cards with the card named in it ('how many RTX 4090 do I need', 'how many
H100 for …') is answered with the count that fits first, as Chinese '要几张 4090' is; the single card is
the user's own setting only when they state it ('I have one RTX 4090'). Qwen2.5-14B LoRA on 24 GB cards:
34.2 GiB on one card (27.4 GiB of bf16 weights alone), so 2 at least.
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.parse import parse
from bot.render.renderer import render


@pytest.mark.parametrize(
    "question",
    [
        "How many RTX 4090 do I need to LoRA fine-tune Qwen2.5-14B?",
        "how many 4090 for LoRA fine-tuning Qwen2.5-14B",
        "LoRA 微调 Qwen2.5-14B 要几张 4090",
    ],
)
def test_how_many_named_cards_is_answered_with_the_count(question: str) -> None:
    p = parse(question)
    assert p.request.gpu_count is None and p.request.count_asked
    a = answer(question)
    assert a.report.memory.min_gpus == 2
    line1 = render(a, "text").split("\n")[0]
    assert "1 × RTX 4090" not in line1 and "1 张" not in line1
    assert "2 × RTX 4090" in line1 or "2 张 RTX 4090" in line1


@pytest.mark.parametrize(
    "question",
    [
        "I have one RTX 4090. How many RTX 4090 do I need to LoRA fine-tune Qwen2.5-14B?",
        "我有一张 4090，LoRA 微调 Qwen2.5-14B 要几张",
    ],
)
def test_the_one_card_stated_stays_the_users_setting(question: str) -> None:
    a = answer(question)
    assert a.report.request.gpu_count == 1
    line1 = render(a, "text").split("\n")[0]
    assert "1 × RTX 4090" in line1 or "1 张 RTX 4090" in line1
    assert "2 GPUs" in line1 or "2 张" in line1


def test_how_many_h100_is_a_count_question() -> None:
    assert parse("how many H100 for full fine-tuning Qwen2.5-72B").request.count_asked
