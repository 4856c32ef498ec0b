"""Issue 23 item 7, parse stage: the card-name and model-name patterns with a look-ahead of the
characters a name can start with (bot.parse.gpus._first_chars: ~65 → ~20 µs a message; model names
bot.parse.regex.starts_with_one_of: ~28 → ~17 µs) find exactly the mentions the patterns without it
find, and cards and models are still read through the real CLI."""

from __future__ import annotations

import json
import re

import pytest

import bot.parse
from bot.parse import gpus, model_index
from bot.parse.regex import starts_with_one_of
from tests.cli_run import CORPUS_QUESTIONS, ask_quietly
from tests.real_questions import records

TRICKY = [
    "NVIDIA A100 80GB x 8",
    "华为 910B 和 昇腾910b",
    "8xA100, A100x8x80G, 2*H100",
    "H100s or H800s?",
    "一张4090能跑多大的模型，rtx 4090 24g",
    "geforce rtx 3090 ti vs tesla v100-sxm2-32gb",
    "amd instinct mi300x, mi250",
    "apple m2 ultra 192g, m3 max",
    "l40s，l20，h20 -- a10g",
]


def _texts() -> list[str]:
    return CORPUS_QUESTIONS + [r["text"] for r in records("work") + records("r2work")] + TRICKY


def test_the_look_ahead_changes_no_match():
    """Over the texts the name step reads (the corpus and working questions, normalized), every match
    of the full pattern (span and text) is a match of the pattern without the look-ahead."""
    bot.parse.parse(CORPUS_QUESTIONS[0])
    index = gpus._gpu_index()
    with_it = index.regex.compiled
    without = re.compile(re.sub(r"\(\?=\[[^\]]*\]\)", "", with_it.pattern, count=1), with_it.flags)
    assert without.pattern != with_it.pattern and "(?=[" not in without.pattern
    found = 0
    for text in _texts():
        s = bot.parse.parse(text).normalized
        spans = [(m.span(), m.group(0)) for m in with_it.finditer(s)]
        assert spans == [(m.span(), m.group(0)) for m in without.finditer(s)], s
        found += len(spans)
    assert found > 100


def test_first_chars_cover_every_name_and_vendor():
    index = gpus._gpu_index()
    starts = re.compile(f"[{gpus._first_chars(list(index.names))}]")
    assert all(starts.match(key) for key in index.names)
    assert all(starts.match(word) for word in gpus._VENDOR_WORDS)
    assert set(gpus._first_chars(["a100"])) >= set("anti") and "4" not in gpus._first_chars(["a100"])
    assert set(" -_").issubset(gpus._first_chars([" x"]))  # an empty first chunk: a separator may start it


@pytest.mark.parametrize(
    ("question", "gpu", "count"),
    [
        ("7B模型1万亿token要多少A100", "A100-SXM4-80GB", None),
        ("用8张NVIDIA H100训练13B模型，1000亿token要多久", "H100-SXM5-80GB", 8),
        ("serve Llama-3-70B on 4x H200", "H200-SXM-141GB", 4),
    ],
)
def test_cards_are_read_through_the_cli(question: str, gpu: str, count: int | None):
    request = json.loads(ask_quietly("--format", "json", "--", question))["request"]
    assert request["gpu"] == gpu
    if count is not None:
        assert request["gpu_count"] == count


def _without_look_ahead(pattern: re.Pattern[str]) -> re.Pattern[str]:
    bare = re.sub(r"\(\?=\[[^\]]*\]\)", "", pattern.pattern, count=1)
    assert bare != pattern.pattern
    return re.compile(bare, pattern.flags)


def test_the_model_look_aheads_change_no_match():
    bot.parse.parse(CORPUS_QUESTIONS[0])
    index = model_index._model_index()
    texts = [bot.parse.parse(t).normalized for t in _texts()]
    for pattern in (index.regex.compiled, index.starts.compiled):
        without = _without_look_ahead(pattern)
        found = 0
        for s in texts:
            got = [(m.span(), m.groups()) for m in pattern.finditer(s)]
            assert got == [(m.span(), m.groups()) for m in without.finditer(s)], s
            found += len(got)
        assert found > 100


def test_starts_with_one_of():
    assert starts_with_one_of(["qwen", "llama", "q-x", "]x"]) == r"(?=[\]lq])"
    assert starts_with_one_of(["a", ""]) == ""  # an empty word: anything may start a match
    assert starts_with_one_of([]) == ""


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("Qwen2.5-72B推理需要几张A100", "Qwen2.5-72B"),
        ("fine-tune llama-3-8b with LoRA on 2 4090", "Llama-3-8B"),
        ("部署DeepSeek-R1，32K上下文，100并发", "DeepSeek-R1"),
    ],
)
def test_models_are_read_through_the_cli(question: str, model: str):
    request = json.loads(ask_quietly("--format", "json", "--", question))["request"]
    assert request["model"] == model


_ASCII_CATEGORIES = {
    "CATEGORY_DIGIT": "0123456789",
    "CATEGORY_SPACE": " \t\n\r\f\v",
    "CATEGORY_WORD": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
}


def _first(items) -> tuple[set[str] | None, bool]:
    """The characters a match of the parsed sequence can start with (None: any) and whether it can be
    empty; zero-width items (\\b, ^, look-arounds) are skipped (ASCII mode)."""
    chars: set[str] = set()
    for op, av in items:
        name = str(op)
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        if name == "LITERAL":
            return chars | {chr(av)}, False
        if name == "IN":
            for sub_op, sub_av in av:
                if str(sub_op) == "LITERAL":
                    chars.add(chr(sub_av))
                elif str(sub_op) == "RANGE":
                    chars.update(chr(c) for c in range(sub_av[0], sub_av[1] + 1))
                elif str(sub_op) == "CATEGORY" and str(sub_av) in _ASCII_CATEGORIES:
                    chars.update(_ASCII_CATEGORIES[str(sub_av)])
                else:
                    return None, False
            return chars, False
        if name in ("SUBPATTERN", "ATOMIC_GROUP", "MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT", "BRANCH"):
            if name == "BRANCH":
                found = [_first(branch) for branch in av[1]]
            else:
                found = [_first(av[-1] if name != "ATOMIC_GROUP" else av)]
            if any(first is None for first, _ in found):
                return None, False
            for first, _ in found:
                chars |= first
            empty = any(e for _, e in found) or (name.endswith("REPEAT") and av[0] == 0)
            if not empty:
                return chars, False
            continue
        return None, False
    return chars, True


VENDORS = "鲲鹏920 昇腾910b 寒武纪mlu370 摩尔线程 mtt s4000 壁仞br104 沐曦 c500 昆仑芯 p800 燧原 t20"
VENDORS += " 海光 k100 天数智芯 bi-v150"
NUMBERS = (
    "−8张, -2 gpus, 两千亿token, 一万亿, 三点五万, a dozen cards, a pair of 4090, one hundred million, 1,000"
)


@pytest.mark.parametrize(
    ("name", "must", "extra"),
    [("UNKNOWN_GPU_RE", "a0鲲昇沐", VENDORS), ("NUMBER_RE", "-−0a一亿", NUMBERS)],
)
def test_a_hand_written_look_ahead_names_every_first_character(name: str, must: str, extra: str):
    """The hand-written look-ahead of UNKNOWN_GPU_RE and NUMBER_RE holds every character a match can
    start with (derived from the parsed pattern without it), and no match over the texts changes."""
    from re import _parser

    from bot.parse import lexicon, numbers

    pattern = getattr(lexicon, name, None) or getattr(numbers, name)
    look = re.search(r"\(\?=\[([^\]]*)\]\)", pattern.pattern)
    assert look is not None
    bare = pattern.pattern.replace(look.group(0), "", 1)
    first, empty = _first(list(_parser.parse(bare, re.ASCII)))
    assert first is not None and not empty
    allowed = re.compile(f"[{look.group(1)}]")
    assert [c for c in sorted(first) if not allowed.fullmatch(c)] == []
    assert set(must) <= first
    with_it, without = pattern.compiled, re.compile(bare, re.ASCII)
    texts = [bot.parse.parse(t).normalized for t in [*_texts(), extra]]
    found = 0
    for s in texts:
        got = [(m.span(), m.groups()) for m in with_it.finditer(s)]
        assert got == [(m.span(), m.groups()) for m in without.finditer(s)], s
        found += len(got)
    assert found > 20


def test_a_keycap_digit_is_still_read_through_the_cli():
    """'7️⃣B': the keycap pass runs only when U+20E3 is in the text, as every keycap has it."""
    request = json.loads(ask_quietly("--format", "json", "--", "7\ufe0f\u20e3B模型1万亿token要多少A100"))
    assert request["request"]["params_total"] == 7e9


def test_first_characters_of_a_pattern():
    from re import _parser

    def first(pattern: str) -> set[str] | None:
        return _first(list(_parser.parse(pattern, re.ASCII)))[0]

    assert first(r"(?<![a-z])\bab|c") == {"a", "c"}
    assert first(r"(?:x\s*)?y") == {"x", "y"}
    assert first(r"\d{2}") == set("0123456789")
    assert first(r".a") is None and first(r"[^a]") is None
