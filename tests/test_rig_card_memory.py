"""The memory written with a rig's card is that card's (session 19, s19-fix item 3).

'a 4090 plus a 3060 12GB' on llama.cpp (no engine named for serving) is sized on the largest card alone,
the RTX 4090 with its own 24 GB; before, the 3060's '12GB' was put on the 4090 (sized as a 12 GB 4090).
Trained, the same rig is 2 × RTX 3060 12G (the least memory per card). A rig whose cards have the same
memory ('a 3090 plus a 4090', 24 GB each) never says 'least memory' / '最小': it says 'same'.
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render


@pytest.mark.parametrize(
    "question",
    [
        "a 4090 plus a 3060 12GB, serve Qwen2.5-14B?",
        "4090+3060 12GB run Qwen2.5-14B inference",
        "一张 4090 加一张 12G 的 3060 能跑 Qwen2.5-14B 推理吗",
        "一张 4090 加一张 3060 12G，部署 Qwen2.5-14B",
    ],
)
def test_the_second_cards_memory_stays_with_it_when_serving(question: str) -> None:
    a = answer(question)
    r = a.report.request
    assert r.gpu == "RTX-4090" and r.gpu_count == 1
    assert r.gpu_memory_gib in (None, 24.0)  # the 4090's own 24 GB, never the 3060's 12
    assert "RTX 4090 12G" not in render(a, "text")


@pytest.mark.parametrize(
    "question",
    ["a 4090 plus a 3060 12GB to LoRA fine-tune Qwen2.5-7B", "4090 加 3060 12G 能 LoRA 微调 Qwen2.5-7B 吗"],
)
def test_the_rig_trained_is_sized_on_the_12gb_card(question: str) -> None:
    r = answer(question).report.request
    assert (r.gpu, r.gpu_count, r.gpu_memory_gib) == ("RTX-3060", 2, 12.0)


@pytest.mark.parametrize(
    ("question", "same", "smaller"),
    [
        ("a 3090 plus a 4090, LoRA fine-tune Qwen2.5-7B?", "the same memory", "least memory"),
        ("一张 3090 加一张 4090，能 LoRA 微调 Qwen2.5-7B 吗", "显存相同", "最小"),
    ],
)
def test_cards_of_the_same_memory_are_not_called_smaller(question: str, same: str, smaller: str) -> None:
    a = answer(question)
    assert (a.report.request.gpu, a.report.request.gpu_count) == ("RTX-3090", 2)  # 936 < 1,008 GB/s
    text = render(a, "text")
    assert same in text.split("\n")[0] and smaller not in text
    assert any(
        same in line
        for line in text.split("\n")
        if "RTX 4090" in line and ("Not used" in line or "未使用" in line)
    )
