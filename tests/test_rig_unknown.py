"""A card not in the catalog, joined to a catalog card as a part of one machine (bot/parse/rig_unknown.py,
s24, issue 24): named as left out of the sizing (``mixed_rig_largest``: the machine's count is the cards
sized plus it), its written memory its own, never the catalog card's (an RTX 4090 has 24 GB: NVIDIA's RTX
4090 spec page). A card weighed as an option, or a device beside the card, stays ``unknown_other_device``."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


def _items(answer: dict) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in answer["interpretation"]["ignored"]}


@pytest.mark.parametrize(
    ("text", "card", "item"),
    [
        (
            "I have a 4090 + a 2080 Super (8GB) in my PC, can I run Qwen2.5-32B at Q4?",
            "RTX-4090",
            "2080 Super (8 GB)",
        ),
        (
            "My rig: an RTX 3090 with 24 GB and an RTX 2070 Super with 8 GB. Does Qwen2.5-14B fit at Q4?",
            "RTX-3090",
            "RTX 2070 Super (8 GB)",
        ),
        (
            "A 2080 Super (8GB) plus a 3090 in my box: can Llama-3.1-8B run in fp16?",
            "RTX-3090",
            "2080 Super (8 GB)",
        ),
        (
            "我的电脑是一张 4090 加一张 2080 Super 8G，能跑 Qwen2.5-32B 的 Q4 吗？",
            "RTX-4090",
            "2080 Super (8 GB)",
        ),
        (
            "我的机器里有一张 3090 和一张 1660 Super 6G，跑 Qwen2.5-14B 的 Q4 够吗？",
            "RTX-3090",
            "1660 Super (6 GB)",
        ),
        (
            "主机装了 4090 再加一张 2060 Super 8G，Llama-3.1-8B fp16 推理放得下吗？",
            "RTX-4090",
            "2060 Super (8 GB)",
        ),
    ],
)
def test_unknown_card_in_the_machine_is_left_out(text: str, card: str, item: str) -> None:
    answer = answer_json(text)
    request = answer["request"]
    assert request["gpu"] == card
    assert request["gpu_count"] == 1
    assert request["gpu_memory_gib"] in (None, 24.0)  # the unknown card's 8 GB is not the sized card's
    assert _items(answer).get(item) == "mixed_rig_largest"


@pytest.mark.parametrize(
    "text",
    [
        "Should I buy an RTX 4090 or an RTX 2080 Super 8GB to run Qwen2.5-7B?",
        "my macbook / rtx 3090: can I run Qwen2.5-7B?",
        "买 4090 还是 2080 Super 8G 来跑 Qwen2.5-7B？",
        "4090 和 2080 Super 8G 对比，跑 Qwen2.5-7B 哪个快？",
    ],
)
def test_option_or_other_device_is_not_a_rig(text: str) -> None:
    assert "mixed_rig_largest" not in _items(answer_json(text)).values()
