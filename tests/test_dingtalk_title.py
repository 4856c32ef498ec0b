"""A DingTalk message title is never cut inside a word or a card's name (trial s18 #5: 'Meta Llama 3.1 70B
QLoRA fine-tuning does not fit on 1 × RTX'). Titles of our own."""

from __future__ import annotations

import pytest

from bot.dingtalk.card import TITLE_MAX, short_title

CASES = [
    # the first clause is 66 characters: whole words, '… fit on 1 ×' drops its joining words and count
    (
        "Meta Llama 3.1 70B QLoRA fine-tuning does not fit on 1 × RTX 4090: "
        "at least 2 GPUs needed, 4 recommended",
        "Meta Llama 3.1 70B QLoRA fine-tuning does not fit…",
    ),
    # the bracketed settings dropped: the verdict fits whole (46 characters)
    (
        "Qwen2.5 72B 全参微调（LLaMA-Factory：只能数据并行，不支持张量并行，ZeRO-3，"
        "序列长度 2,048）：8 张 A800 放不下，至少要 16 张，推荐 64 张",
        "Qwen2.5 72B 全参微调：8 张 A800 放不下，至少要 16 张，推荐 64 张",
    ),
    # its first clause fits
    (
        "Qwen2.5 7B LoRA fine-tuning on 1 × RTX 4090: fits, about 18.2 GiB per GPU "
        "with gradient checkpointing on",
        "Qwen2.5 7B LoRA fine-tuning on 1 × RTX 4090",
    ),
    ("Qwen2.5 7B inference: 1 × L4", "Qwen2.5 7B inference: 1 × L4"),
]


@pytest.mark.parametrize(("title", "short"), CASES)
def test_title_cut_at_a_boundary(title: str, short: str) -> None:
    assert short_title(title) == short
    assert len(short) <= TITLE_MAX
