"""Session 42, part swap: an unknown GPU, model, tool or runtime is named as typed, never swapped.

1. A card memory of 2–4 GB is that card's memory (bot.parse.card_memory.SMALLEST_CARD_GIB): 'a GTX 1060 3GB'
   (GeForce GTX 1060 3GB: 3 GB GDDR5, NVIDIA product page), '3G 显存' (zh37-027), 'a 2GB card' (GeForce MX
   laptop cards: 2 GB) are sized on that memory, not on the default A100 80G. Host RAM, a model file, a
   quantized size and '3G' as a network generation are no card's memory.
"""

from __future__ import annotations

import pytest


def _parse(question: str):
    from bot.parse import parse

    return parse(question)


def _json(question: str) -> dict:
    import json

    from bot.cli import ask

    return json.loads(ask(question, None, "json")[0])


# 1. a card of 2-4 GB ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gib"),
    [
        ("Can I run Llama 3 8B on a GTX 1060 3GB?", 3.0),
        ("I have a 3 GB GPU, can it run Qwen2.5 0.5B?", 3.0),
        ("Fine-tune Qwen2.5 0.5B on my laptop with a 2GB GPU", 2.0),
        ("Can a GTX 1050 Ti 4GB run Qwen2.5 1.5B?", 4.0),
        ("训练 Doupo 需要多大显存？我的显卡是 3G 显存", 3.0),
        ("我有一张 2G 显存的卡，能跑 Qwen2.5 0.5B 吗", 2.0),
        ("Qwen2.5 0.5B 用 2G 显存的显卡够吗", 2.0),
    ],
)
def test_a_small_card_memory_is_read(text: str, gib: float) -> None:
    """Must read: a stated card memory of 2-4 GB is the card's (en36-011, zh37-027)."""
    assert _parse(text).request.gpu_memory_gib == gib


@pytest.mark.parametrize(
    "text",
    [
        "Can I run Qwen2.5 0.5B with 2GB of RAM?",
        "The model file is 3GB, which GPU do I need to serve it?",
        "Q4 is 3GB, how much VRAM do I need for Llama 3 8B?",
        "Llama 3 8B Q4 3GB: how many tokens per second on an RTX 4090?",
        "Qwen2.5 0.5B needs 3 GB of VRAM? How many on one L4?",
        "在 3G 网络下用 RTX 3060 跑 Qwen2.5 0.5B 可以吗",
        "内存只有 2G，能跑 Qwen2.5 0.5B 吗",
        "模型文件 3G，部署需要多大显存",
        "Qwen2.5 0.5B 量化后 3G，用 4090 能跑多少并发",
        "微调 Qwen2.5 0.5B 占用 3G 显存，A100 上能开多大 batch",
    ],
)
def test_a_small_size_that_is_no_card_stays_unread(text: str) -> None:
    """Must not misread: host RAM, a file, a quantized size, a need, a use, a network generation."""
    assert _parse(text).request.gpu_memory_gib is None


def test_the_gtx_1060_3gb_is_sized_by_its_memory() -> None:
    """en36-011: the GTX 1060 3GB is named as typed and sized as a 3 GiB card, not on the A100 80G."""
    out = _json("Can I run Qwen2.5 0.5B on a GTX 1060 3GB with llama.cpp?")
    assert out["request"]["gpu_memory_gib"] == 3.0
    assert out["interpretation"]["unknown_gpu"] == "GTX 1060"
    assert not any(s["used"].startswith("A100") for s in out["interpretation"]["substitutions"])
    assert "A100" not in out["reply"].split("\n")[0]


def test_a_3g_card_in_chinese_is_sized_by_its_memory() -> None:
    """zh37-027's card: '显卡是 3G 显存' is a 3 GiB card, never the default A100 80G."""
    out = _json("我的显卡是 3G 显存，能跑 Qwen2.5 0.5B 推理吗")
    assert out["request"]["gpu_memory_gib"] == 3.0
    assert "A100" not in out["reply"].split("\n")[0]
