"""A KV flag then a card with its memory (s20-fixb item 9): '-ctk q8_0 … 一张 4060 Ti 16G 够吗' — 16 is the
card's memory (the 16 GB variant), not a need; the card's suffix written apart ('4060 Ti', '4070 Ti Super')
hid the card before the memory, so '16G 够吗' was read as what the model needs and the 8 GB variant sized.
Sentences of our own."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


@pytest.mark.parametrize(
    ("text", "gpu", "kv"),
    [
        ("llama.cpp -ctk q8_0 -ctv q8_0 跑 Qwen2.5-14B，一张 4060 Ti 16G 够吗", "RTX-4060-Ti-16GB", "q8_0"),
        ("llama.cpp 跑 Qwen2.5-14B，一张 4060 Ti 16G 够吗", "RTX-4060-Ti-16GB", None),
        (
            "llama.cpp -ctk q8_0 -ctv q8_0, Qwen2.5-14B, one 4060 Ti 16G, enough?",
            "RTX-4060-Ti-16GB",
            "q8_0",
        ),
        ("跑 Qwen2.5-14B，一张 4070 Ti Super 16G 够吗", "RTX-4070-Ti-Super", None),
    ],
)
def test_the_memory_after_a_card_is_the_cards(text: str, gpu: str, kv: str | None) -> None:
    data = answer_json(text)
    assert data["request"]["gpu"] == gpu
    assert data["request"]["kv_precision"] == kv
    assert not [i for i in data["interpretation"]["ignored"] if i["reason"] == "stated_need"]


def test_a_need_before_the_card_stays_a_need() -> None:
    data = answer_json("模型 16G 够吗，用 4090 跑 Qwen2.5-7B")
    assert {"text": "16", "reason": "stated_need"} in data["interpretation"]["ignored"]
