"""Session 50 workmiss (issue 24 item 4, two setups in one message): one card tried first, more cards
after ('单张 A100 上全参微调溢出，后来用了 8 张卡'): the cards that ran are sized, the single card named
as another setup's count (bot.parse.later_single), where it was dropped without a word; English already
read both. A per-card figure ('单卡 batch 4'), a single card after the turn and a single card with no turn
keep their readings. Both languages, must-read and must-not-misread, on sentences of our own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import ask


def _answer(text: str) -> dict[str, Any]:
    out, _ = ask(text, None, "json")
    return json.loads(out)


def _ignored(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


READ = [
    # (question, count sized, the other setup's count named)
    (
        "单卡 A100 全参微调 Llama-3-8B 会溢出，后来起了 8 张卡。最少要几张 A100？",
        8,
        ("单卡 (1)", "other_setup"),
    ),
    (
        "单张 H100 上 LoRA 微调 Qwen2.5-32B 很慢，然后换了 4 张 H100，训 1B token 要多久？",
        4,
        ("单张 (1)", "other_setup"),
    ),
    ("单块 4090 部署 Qwen2.5-14B 显存不够，改用 2 张 4090 能撑多少并发？", 2, ("单块 (1)", "other_setup")),
    # English read both before this session: one count sized, the other named
    (
        "On a single A100 a full fine-tune of Llama-3-8B ran out of memory; later I launched 8 GPUs. "
        "How many A100s does it need at least?",
        1,
        ("8", "other_setup"),
    ),
]


@pytest.mark.parametrize(("text", "count", "item"), READ)
def test_single_card_before_the_turn_is_named(text: str, count: int, item: tuple[str, str]) -> None:
    answer = _answer(text)
    assert answer["request"]["gpu_count"] == count
    assert item in _ignored(answer)


NOT_NAMED = [
    # a per-card figure, not a one-card setup
    ("单卡 batch 4，后来用了 8 张 A100 全参微调 Llama-3-8B，要多久？", 8),
    # a per-card memory, not a one-card setup
    ("单张卡显存 80G，然后 8 张 A100 一起全参微调 Llama-3-8B 要多久？", 8),
    ("单卡 80G 显存，后来用 8 张 A100 全参微调 Llama-3-8B 要多久？", 8),
    # no turn between the single card and the count
    ("单张 A100 显存不够，8 张 A100 全参微调 Llama-3-8B 要多久？", 8),
    # English: a per-GPU batch, then the cards
    ("Per GPU batch 4 on a single node, then 8 A100s for a full fine-tune of Llama-3-8B: how long?", 8),
]


@pytest.mark.parametrize(("text", "count"), NOT_NAMED)
def test_no_single_card_setup_named(text: str, count: int) -> None:
    answer = _answer(text)
    assert answer["request"]["gpu_count"] == count
    assert not [t for t, r in _ignored(answer) if r == "other_setup" and "(1)" in t]
    assert not [t for t, r in _ignored(answer) if r == "other_setup" and t == "1"]


def test_single_card_after_the_turn_is_not_named_as_earlier() -> None:
    """The single card after the turn is the later setup: never named as the earlier one."""
    for text in (
        "8 张卡全参微调 Llama-3-8B，后来换成单卡 A100 会怎样？",
        "8 A100s first, then a single A100 for Llama-3-8B",
    ):
        assert not [t for t, _ in _ignored(_answer(text)) if t.endswith("(1)")]


def test_reader_is_deferred() -> None:
    import subprocess
    import sys

    code = "import sys; from bot.cli import ask; ask('7B模型1万亿token要多少A100', None, 'text'); "
    code += "print('bot.parse.later_single' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


LISTED = [
    # (question, card sized first, the count named) — one card of each listed; the count says how many
    (
        "手上有 RTX 4070、RTX 4090 和 A100 三块卡，QLoRA 微调 Llama-3-8B 能跑通吗？",
        "RTX-4070",
        "3",
    ),
    ("手上有 RTX 4090 和 A100 两张卡，QLoRA 微调 Llama-3-8B 能跑通吗？", "RTX-4090", "2"),
    ("手上有 RTX 4090、A100 共两张卡，QLoRA 微调 Llama-3-8B 能跑通吗？", "RTX-4090", "2"),
    # English read so before this session
    ("I have an RTX 4090 and an A100, two cards: can each QLoRA Llama-3-8B?", "RTX-4090", "two"),
]


@pytest.mark.parametrize(("text", "gpu", "named"), LISTED)
def test_count_of_the_cards_listed_is_one_of_each(text: str, gpu: str, named: str) -> None:
    answer = _answer(text)
    assert answer["request"]["gpu"] == gpu
    assert answer["request"]["gpu_count"] == 1
    assert (named, "repeated") in _ignored(answer)


KEPT = [
    # a count per card ('各 8 张'), a count of kinds ('两种卡'), counts said with each card: kept
    ("有 A100 和 H100 各 8 张卡，全参微调 Llama-3-8B 要多久？", 8),
    ("A100 和 H100 两种卡各有 8 张，全参微调 Llama-3-8B 要多久？", 8),
    ("4 张 A100 和 4 张 H100，全参微调 Llama-3-8B 要多久？", 4),
    ("An A100 and an H100 box, 8 cards each: how long to fully fine-tune Llama-3-8B?", 8),
    # one card only, its count kept
    ("手上有三块 RTX 4090 卡，QLoRA 微调 Llama-3-8B 能跑通吗？", 3),
]


@pytest.mark.parametrize(("text", "count"), KEPT)
def test_count_said_of_cards_kept(text: str, count: int) -> None:
    assert _answer(text)["request"]["gpu_count"] == count


def test_listed_cards_reader_is_deferred() -> None:
    import subprocess
    import sys

    code = "import sys; from bot.cli import ask; ask('7B模型1万亿token要多少A100', None, 'text'); "
    code += "print('bot.parse.listed_cards' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
