"""'How many cards' on a personal card sizes the count, not one card (issue 22, a user trial's finding
after item 14): `QLoRA Qwen2.5-72B on RTX 4090s: how many cards?` used to lead with "does not fit on
1 × RTX 4090" and chart that layout at 204 %. A personal card named *without* the question of how
many is still one card ("Can I run Qwen2.5-7B on my RTX 4090?")."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(["ask", *args])
    return capsys.readouterr().out


@pytest.mark.parametrize(
    "question",
    ["QLoRA Qwen2.5-72B on RTX 4090s: how many cards?", "QLoRA微调Qwen2.5-72B，4090要几张卡？"],
)
def test_how_many_cards_sizes_the_count_not_one_card(capsys, question: str) -> None:
    d = json.loads(ask(capsys, "--format", "json", question))
    assert d["request"]["count_asked"] is True and d["request"]["gpu_count"] is None
    memory = d["report"]["memory"]
    # NF4 base 0.516·N ≈ 37.5 GB of a 72.7B model alone exceeds one 24 GiB card: the answer is a count > 1
    assert memory["min_gpus"] > 1 and memory["plan_gpus"] == memory["min_gpus"]
    assert memory["per_gpu_bytes"] <= memory["usable_bytes"]  # the layout shown fits
    head = ask(capsys, question).splitlines()[0]
    assert f"{memory['min_gpus']}" in head and "1 × RTX 4090" not in head and "1 张 RTX 4090" not in head


def test_a_personal_card_without_how_many_is_still_one_card(capsys) -> None:
    d = json.loads(ask(capsys, "--format", "json", "Can I run Qwen2.5-7B on my RTX 4090?"))
    assert d["request"]["count_asked"] is None and d["request"]["gpu_count"] == 1
