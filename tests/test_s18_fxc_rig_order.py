"""A rig is written in the order the user wrote its cards (s18-fxc #7): '4090 plus a 3060 12GB' printed
"RTX 3060 + RTX 4090" — the order was found by the card's last digit-word, its memory '12G', not its model
number '4090'."""

from __future__ import annotations

from bot.render.rig_text import _written_at


def test_model_number_places_the_card() -> None:
    raw = "i have a 4090 plus a 3060 12gb, how fast with llama.cpp?"
    assert _written_at(raw, "RTX 4090 12G") == raw.find("4090")  # not 12g's place
    assert _written_at(raw, "RTX 4090 12G") < _written_at(raw, "RTX 3060")


def test_zh_order_as_written() -> None:
    raw = "我有一张 4090 加一张 3060 12g，用 llama.cpp 跑"
    assert sorted(["RTX 3060", "RTX 4090 12G"], key=lambda c: _written_at(raw, c)) == [
        "RTX 4090 12G",
        "RTX 3060",
    ]
