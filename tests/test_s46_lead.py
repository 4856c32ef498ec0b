"""Session 46 merge: a card number before a rate unit stays the card (CI preview A on 4c373fb9: the new
count-noun reader, bot.parse.counted_numbers, took '4090 tokens/s' as 4,090 tokens and sized an A100)."""

from __future__ import annotations

import pytest

from bot.parse import parse


@pytest.mark.parametrize(
    "text",
    [
        "ollama run llama3:8b on 4090 tokens/s",
        "用4090 tokens/s 能到多少，llama3 8b",
        "llama3 8b on 4090 tokens per second?",
    ],
)
def test_a_card_number_before_a_rate_is_the_card(text):
    assert parse(text).request.gpu == "RTX-4090"


@pytest.mark.parametrize(
    "text",
    [
        "fine-tune a 7B on 5070 samples with LoRA on one A100",
        "用 4090 条数据 LoRA 微调 7B，一张 A100",
        "generate 5080 tokens per request with a 7B on one A100",
    ],
)
def test_a_card_number_before_a_count_noun_is_the_count(text):
    assert parse(text).request.gpu == "A100-SXM4-80GB"
