"""Session 36 (s36-sppipe2), issue 23 item 7: a wide alternation dispatched by its first character
(bot/parse/char_dispatch.py, applied from the parse's second message on by bot/parse/regex.add_gates).

The rewritten pattern must find what the pattern finds, everywhere: checked on the corpus questions, the
working splits of the real questions (never a held-out one), sentences of our own in both languages and
random strings over the characters the branches start with; and never made where it could differ."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bot.parse import lexicon as lx
from bot.parse import parse
from bot.parse.char_dispatch import MIN_BRANCHES, dispatched, split_alternation
from bot.parse.regex import add_gates

DATA = Path(__file__).parent / "data"


def _working_texts() -> list[str]:
    from tests.real_questions import HELD_OUT_WHOLE, ROUNDS, records

    splits = ["work"] + [f"{t}work" for t in ROUNDS if t not in HELD_OUT_WHOLE]
    return [r["text"] for s in splits for r in records(s)]


def _texts() -> list[str]:
    questions = [q["text"] for q in json.loads((DATA / "questions.json").read_text(encoding="utf-8"))]
    found = questions + _working_texts() + OWN
    return sorted({v for t in found for v in (t, t.lower())})


OWN = [
    "我有两张 RTX 4090，能微调 7B 吗",
    "两张rtx4090d 跑 qwen 14b 推理",
    "Can a GTX 1080 Ti fine-tune a 1B model?",
    "我手上是 1060 的显卡",
    "an Apple M2 Ultra with 192GB, serve llama 70b",
    "Mac Studio M3 Max 能跑 32B 吗",
    "macbook pro m1 pro 16g",
    "昇腾910B 八卡训练 72B",
    "Ascend 910B2 x 16, pretraining",
    "华为 Atlas 310P 推理卡",
    "鲲鹏920 CPU 跑推理",
    "摩尔线程 S4000 能训练吗",
    "tesla v100 32g * 8",
    "p40 cards, 24GB each",
    "K80 还能用吗",
    "a4000 and a5000 side by side",
    "no card named here at all, just 7B on 8 cards",
    "310B 的模型要多少显存",  # a size, not the Ascend 310B card
    "",
]


def test_the_unknown_card_pattern_is_dispatched() -> None:
    source = dispatched(lx.UNKNOWN_GPU_RE.pattern, lx.UNKNOWN_GPU_RE._flags)
    assert source is not None
    assert source.count("(?=[") > 20  # one group per set of first characters sharing their branches


def test_dispatched_unknown_cards_match_as_before_on_every_text() -> None:
    flags = lx.UNKNOWN_GPU_RE._flags
    before = re.compile(lx.UNKNOWN_GPU_RE.pattern, flags)
    after = re.compile(dispatched(lx.UNKNOWN_GPU_RE.pattern, flags) or "", flags)
    texts = _texts()
    assert len(texts) > 1500
    for text in texts:
        assert [m.span() for m in after.finditer(text)] == [m.span() for m in before.finditer(text)], text


@pytest.mark.parametrize(
    ("name", "card"),
    [("rtx 4090", True), ("910b2", True), ("mac studio m2 ultra", True), ("p40", True), ("a5000", True),
     ("4090 ti", True), ("7b", False), ("70b", False), ("hello", False), ("p99", False)],
)  # fmt: skip
def test_dispatched_fullmatch_as_before(name: str, card: bool) -> None:
    flags = lx.UNKNOWN_GPU_RE._flags
    after = re.compile(dispatched(lx.UNKNOWN_GPU_RE.pattern, flags) or "", flags)
    assert bool(after.fullmatch(name)) is card
    assert bool(re.compile(lx.UNKNOWN_GPU_RE.pattern, flags).fullmatch(name)) is card


WORDS = [f"{a}{b}{n}" for a in "abcdefgh" for b in "xyz" for n in "12"]  # 48 branches, 8 first characters
TOY = r"(?<![a-z])(?=[a-z\d])(?:" + "|".join(WORDS[:40]) + r"|\d{2}x|[a-c]\d+|ax1q)(?![a-z])"


def test_a_toy_alternation_is_dispatched_and_matches_the_same() -> None:
    source = dispatched(TOY)
    assert source is not None and source != TOY
    assert split_alternation(TOY) is not None
    before, after = re.compile(TOY, re.ASCII), re.compile(source, re.ASCII)
    rng = random.Random(36)
    alphabet = "abcdefghxyz0123456789q -"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert [m.span() for m in after.finditer(text)] == [m.span() for m in before.finditer(text)], text
        assert bool(after.fullmatch(text)) == bool(before.fullmatch(text)), text
    # the order of the branches is kept within a group: 'ax1' before 'ax1q' (a later branch) and '[a-c]\d+'
    assert after.search("ax1q").group() == before.search("ax1q").group()


@pytest.mark.parametrize(
    "pattern",
    [
        "(?:" + "|".join(WORDS[: MIN_BRANCHES - 1]) + ")",  # narrow: the engine's own try costs less
        "(?:(" + "|".join(WORDS) + "))",  # a capturing group
        "(?:" + "|".join(WORDS) + "|(?P<n>zz))",  # a named group in one branch
        "(?i:" + "|".join(WORDS) + ")",  # not a plain group
        "(?:" + "|".join(WORDS) + "|x?)",  # a branch that can match nothing
        "(?:" + "|".join(WORDS) + "|[^a]b)",  # a branch starting with any character but one
        "(?:" + "|".join(WORDS) + "|[\u4e00-\u9fff]+)",  # a whole CJK block
        "(?:" + "|".join(WORDS) + "|.x)",
    ],
)
def test_not_dispatched_where_it_could_differ(pattern: str) -> None:
    assert dispatched(pattern) is None


def test_not_dispatched_under_ignorecase() -> None:
    assert dispatched(TOY, re.ASCII | re.IGNORECASE) is None
    assert dispatched("(?i)" + TOY) is None


def test_wired_from_the_second_message() -> None:
    parse("两张 RTX 4090 微调 7B")
    parse("an Ascend 910B cluster, 7B pretraining")
    add_gates()
    compiled = lx.UNKNOWN_GPU_RE.compiled
    assert compiled.pattern == dispatched(lx.UNKNOWN_GPU_RE.pattern, lx.UNKNOWN_GPU_RE._flags)
    assert lx.UNKNOWN_GPU_RE.pattern.startswith("(?<![a-z0-9])")  # the source as written, kept
    assert [m.group() for m in lx.UNKNOWN_GPU_RE.finditer("两张rtx 4090，摩尔线程s4000")] == [
        "rtx 4090",
        "摩尔线程s4000",
    ]
