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


def test_merge_memory_is_the_16_bit_base_plus_a_stated_rank_adapter():
    """estimator.merge_memory (PEFT merge_and_unload: the base at 2 B a parameter). Llama-2-7B, rank 16, all
    linear layers: Hu et al. 2021 §4, 16 × 32 × (4 × 8192 + 3 × (4096 + 11008)) = 39,976,960 adapter
    parameters (tests/test_memory.py), 2 B each; with no rank, no adapter; with no parameter count, None."""
    from estimator.merge_memory import merge_memory
    from estimator.models import SizingRequest, Stage

    base = SizingRequest(stage=Stage.inference, model="Llama-2-7B", params_total=6.74e9)
    memory = merge_memory(base)
    assert memory is not None and memory.bytes == 13.48e9 and memory.adapter_bytes is None
    assert memory.total_bytes == 13.48e9
    ranked = merge_memory(base.model_copy(update={"lora_rank": 16}))
    assert ranked is not None and ranked.adapter_params == 39_976_960
    assert ranked.adapter_bytes == 79_953_920 and ranked.total_bytes == 13.48e9 + 79_953_920
    assert merge_memory(SizingRequest(stage=Stage.inference)) is None
