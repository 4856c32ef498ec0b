"""A machine of two different cards is named as it is in the headline (session 18, s18-fix item 1).

The trial's '一张4090加一张3090, llama.cpp 32B Q4_K_M -ngl 40' answered '2 张 RTX 4090'. The request is
still sized as k equal cards (bot.parse.mixed_rig.rig_choice), now the slower of equal-memory cards; the
headline names both cards and says which card's memory per GPU was used (bot.render.rig_text); where
the cards' memory is the same (24 GB each), it says so, never 'least memory' (session 19).
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import Context, answer
from bot.render.renderer import render
from estimator import catalog

TRIAL = "一张4090加一张3090, llama.cpp 32B Q4_K_M -ngl 40"


@pytest.mark.parametrize(
    ("text", "head"),
    [
        (
            TRIAL,
            "RTX 4090 + RTX 3090（按 2 张 RTX 3090 计：每张卡显存相同，速度按较慢的那张）",
        ),  # 24 GB each (s19)
        (
            "一台机器一张 RTX 4090 加一张 RTX 3090，跑 Qwen2.5-32B 推理",
            "RTX 4090 + RTX 3090（按 2 张 RTX 3090 计",
        ),
        (
            "I have a 4090 plus a 3090 in one box, can I serve Qwen2.5-32B in 4-bit?",
            "on RTX 4090 + RTX 3090, sized as 2 × RTX 3090 "
            "(the same memory per card; the slower card's speed)",
        ),
        (
            "LoRA fine-tune Qwen2.5-7B on an RTX 3090 plus an RTX 4090",
            "on RTX 3090 + RTX 4090, sized as 2 × RTX 3090 "
            "(the same memory per card; the slower card's speed)",
        ),
        (
            "With an RTX 5090 plus an RTX 3080, can I fit Qwen2.5-32B in 4-bit with llama.cpp?",
            "on RTX 5090 + RTX 3080 10GB, sized as 2 × RTX 5090 (llama.cpp splits layers by each card's "
            "free memory: the cards' memory summed, 42 GiB, 21 GiB a card)",
        ),  # s19: llama.cpp's split by free memory holds 32 + 10 GiB (was: the 5090 alone)
    ],
)
def test_the_headline_names_both_cards_and_the_card_sized(text: str, head: str) -> None:
    first = render(answer(text, Context()), "text").splitlines()[0]
    assert head in first
    assert "2 × RTX 4090" not in first and "2 张 RTX 4090" not in first


def test_equal_memory_rig_is_sized_on_the_slower_card() -> None:
    a = answer(TRIAL, Context())
    assert (a.report.request.gpu, a.report.request.gpu_count) == ("RTX-3090", 2)
    # NVIDIA's specifications: both 24 GB; 936 GB/s (3090) < 1,008 GB/s (4090): the rig's pace
    assert catalog.gpu("RTX-3090").memory_gib == catalog.gpu("RTX-4090").memory_gib == 24
    assert (
        catalog.gpu("RTX-3090").memory_bandwidth_gbps == 936 < catalog.gpu("RTX-4090").memory_bandwidth_gbps
    )
    assert a.report.gpu_spec.memory_gib == 24  # the memory verdict: 24 GB a card


def test_one_card_of_a_kind_keeps_the_plain_headline() -> None:
    first = render(answer("Serve Qwen2.5-32B in 4-bit on 2 RTX 4090s", Context()), "text").splitlines()[0]
    assert "on 2 × RTX 4090" in first and "+" not in first
