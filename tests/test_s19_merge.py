"""Session 19's merge fix-ups: a card's memory written after its name is that card's variant, never a
"memory with a verdict and no card" ('24G 够吗', s19-r13zh's reader), and a step count is planned from the
parse result, not a search of the message in core (tests/test_core_one_pass.py)."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


@pytest.mark.parametrize(
    ("text", "gpu", "memory_gib"),
    [
        ("部署Llama-2-13B，1张A100 40G够吗", "A100-SXM4-40GB", 40.0),  # the catalog's 40 GB A100
        ("一张 A100 40G 够不够跑 Qwen2.5-14B 推理", "A100-SXM4-40GB", 40.0),
        ("Serve Llama-2-13B on one A100 40GB, is it enough?", "A100-SXM4-40GB", 40.0),
    ],
)
def test_a_cards_memory_after_its_name_is_that_card(text: str, gpu: str, memory_gib: float) -> None:
    data = answer_json(text)
    assert data["request"]["gpu"] == gpu
    assert data["report"]["hardware"]["memory_gib"] == pytest.approx(memory_gib, rel=0.01)


@pytest.mark.parametrize(
    "text",
    [
        "跑 Qwen2.5-14B 推理，24G 够吗",
        "Qwen2.5-14B 24G 够吗",
        "24GB is not enough for Qwen2.5-32B, how many?",
    ],
)
def test_a_memory_with_a_verdict_and_no_card_is_still_one_card_of_it(text: str) -> None:
    data = answer_json(text)
    assert data["report"]["hardware"]["memory_gib"] == pytest.approx(24.0, rel=0.03)  # a 24 GB card
