"""Session 31 fixa: defects a fresh-user trial found (each with the user's own sentences, both languages)."""

from __future__ import annotations

import pytest

from bot.parse import parse


@pytest.mark.parametrize(
    ("text", "load", "per_card"),
    [
        ("一张 L40S 大概能带 40 个用户，我们要 200 个，要几张", 200, "40"),
        ("一块4090能跑20个并发，我需要 100 个，需要几张", 100, "20"),
        ("单卡 L40S 能扛 25 个用户，要撑 150，要几张", 150, "25"),
        ("one L4 serves 20 users, we need 200, how many L4s?", 200, "20"),
        ("one H100 handles about 50 users, how many for 400 of them?", 400, "50"),
    ],
)
def test_target_without_unit_takes_the_ceilings(text: str, load: int, per_card: str) -> None:
    """#1: a target after a per-card ceiling that drops the unit is the same unit, sized (was: unread)."""
    p = parse(text)
    assert p.request.concurrency == load
    assert (per_card, "per_card_load") in p.unused_numbers


@pytest.mark.parametrize(
    "text",
    [
        "一张 L40S 能带 40 个用户，我们要 200 个文档，要几张",
        "one L4 serves 20 users, we need 200 documents a day, how many?",
    ],
)
def test_target_with_another_noun_is_not_the_load(text: str) -> None:
    """#1 must-not: '40 个用户 … 200 个文档' — a different noun stays unread as load."""
    p = parse(text)
    assert p.request.concurrency != 200
    assert not any(why == "per_card_load" for _, why in p.unused_numbers)


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("一张 A100 能带 30 个用户，我们要 300 个，要几张", 10),
        ("one A100 handles 30 users, we need 300, how many?", 10),
    ],
)
def test_target_without_unit_answer_counts_cards(text: str, cards: int) -> None:
    """#1 end to end: ⌈300 ÷ 30⌉ = 10 × A100 (was: not understood, help text)."""
    from bot.core.ceiling_cards import ceiling_cards

    got = ceiling_cards(parse(text))
    assert got is not None
    assert (got.per_card, got.load, got.cards, got.gpu) == (30, 300, cards, "A100")
