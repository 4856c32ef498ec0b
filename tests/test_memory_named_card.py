"""A card given only by its memory ('24G显卡', 'a card with 96GB', '两张48G的卡') through ``sizing-bot ask``:
sized with exactly the stated memory, never another card's (was: '96GB' unread and sized on an 80 GB
A100); the reply says no card was named and whose speed times it (the catalog card of that memory)."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_quietly


@pytest.mark.parametrize(
    ("text", "gib", "count"),
    [
        ("24G显卡能跑7B吗", 24, 1),
        ("I have a card with 96GB, can it serve a 70B model?", 96, None),
        ("I have a GPU with 24GB, can I run a 7B model?", 24, 1),
        ("两张48G的卡能微调14B吗", 48, 2),
    ],
)
def test_stated_memory_is_the_cards_memory(
    capsys: pytest.CaptureFixture[str], text: str, gib: float, count: int | None
) -> None:
    data = ask_in_process(capsys, text)
    assert data["request"]["gpu_memory_gib"] == gib
    assert data["report"]["hardware"]["memory_gib"] == gib
    if count is not None:
        assert data["request"]["gpu_count"] == count
    assert not [i for i in data["interpretation"]["ignored"] if i["text"].startswith(str(gib))]
    subs = {s["reason"]: s for s in data["interpretation"]["substitutions"]}
    assert subs["gpu_by_memory"]["typed"] == f"{gib}G"


def test_ninety_six_gigabytes_serve_seventy_b() -> None:
    """70B in bf16 = 140 GB of weights (2 B per parameter): more than one 96 GiB card, so 2 cards (TP 2),
    not the 80 GB A100 the unread '96GB' used to leave."""
    text = ask_quietly("I have a card with 96GB, can it serve a 70B model?")
    lines = text.splitlines()
    # s31-catalog: the RTX PRO 6000 (96 GB) joined the catalog, the 96 GB card one means by "I have a card";
    # s47-verdict: the headline names the card as typed, 'GPU 96G' (the user never typed 'RTX PRO 6000'),
    # and the substitution line names the card whose speed times it
    assert lines[0] == "70B bf16 inference: 2 × GPU 96G (TP=2)"
    assert lines[1].startswith(
        "No card named, only “96G”: sized as a card of that memory, timed at the speed of RTX PRO 6000"
    )
    assert "A100 80G" not in text and "80 GiB" not in text


def test_no_card_named_said_in_chinese() -> None:
    text = ask_quietly("24G显卡能跑7B吗")
    assert "没说是哪张卡，只说了“24G”：按这个显存估算，速度按 RTX 4090" in text
