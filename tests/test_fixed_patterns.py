"""Session 18 (s18-sp-parse), the parse's call budget: what replaced Python frames answers as before."""

from __future__ import annotations

import re

import pytest

from bot.parse import fixed_patterns as fp
from bot.parse.first_chars import parse_pattern, start_chars
from bot.parse.module_gates import GATED, gate_module_patterns
from bot.parse.regex import LazyPattern
from bot.parse.regex_gate import gate_literals, gate_pays
from tests.cli_run import CORPUS_QUESTIONS


@pytest.mark.parametrize(
    "text", ["a.b", "x-y z", "(1)[2]{3}?*+|^$\\.&~# \t\n\r\v\f", "llama-3.1_8b", "中文\x00#%"]
)
def test_escaped_is_re_escape(text: str) -> None:
    assert list(fp.escaped([text])) == [re.escape(text)]


def test_ignorecase_int_is_the_same_cached_pattern() -> None:
    assert fp.IGNORECASE == 2 and re.compile("ab", fp.IGNORECASE) is re.compile("ab", re.IGNORECASE)


def test_fixed_patterns_answer_as_re_module_functions() -> None:
    """Each compiled pattern finds what ``re``'s module function with its source found, on corpus texts.
    From the second message on, bot.parse.module_gates rebinds those whose gate pays to a gated
    stand-in (session 20): they are checked through their gate, whichever test ran first."""
    gate_module_patterns()
    patterns = [v for v in vars(fp).values() if isinstance(v, (re.Pattern, LazyPattern))]
    assert any(id(v) in GATED for v in patterns)
    assert len(patterns) == 25  # s29: six more (sizes, versions, keys, paths); s43 fixjob +1; s47 r43zh +1
    # s50 leftovers +1: MEMORY_EACH ('32x H200 141GB each': the memory's 'each')
    texts = [q.lower() for q in CORPUS_QUESTIONS] + ["4x8 a100s", "2机16卡", "256 of them", "g5.48xlarge"]
    for pattern in patterns:
        for text in texts:
            got = [m.span() for m in pattern.finditer(text)]
            assert got == [m.span() for m in re.finditer(pattern.pattern, text, pattern.flags)]


@pytest.mark.parametrize(
    ("name", "raw", "typed"),
    [
        ("qwen2.5-7b", "Can I LoRA Qwen2.5 7B on a 4090?", "Qwen2.5 7B"),
        ("mtt s4000", "8 张 MTT-S4000 训练", "MTT-S4000"),
        ("llama-3-70b", "llama3 70b 推理", "llama3 70b"),
        ("deepseek-v3", "DeepSeek V3 部署", "DeepSeek V3"),
        ("qwen2.5-72b", "qwen 2.5 72b", None),  # a gap inside a word: not the name as written
        ("a+b (c)", "A+B  (C) x", "A+B  (C)"),  # escaped: '+', '(' are themselves
        ("-_ ", "anything", None),  # no word: no pattern
    ],
)
def test_typed_name_finds_what_re_search_found(name: str, raw: str, typed: str | None) -> None:
    """Session 29: a name's as-typed pattern, compiled once per name, finds what ``re.search`` of the
    same source found (the readers' ``as_typed`` before); the second call returns the same object."""
    parts = list(filter(None, re.split(r"[\s\-_]+", name)))
    pattern = fp.typed_name(name)
    assert pattern is fp.typed_name(name)
    if not parts:
        assert pattern is None and typed is None
        return
    m = pattern.search(raw)
    old = re.search(r"[\s\-_]*".join(map(re.escape, parts)), raw, re.IGNORECASE)
    assert (m and m.group(0)) == (old and old.group(0)) == typed


def test_reordered_word_is_the_pattern_it_replaced() -> None:
    raw = "微调 Qwenvl2.5VL-7B 和 qwen1.5-72b-chat"
    old = r"(?<![\w.])qwen[\w.\-]*?7b(?![\w])"
    got = fp.reordered_word("qwen", "7b")
    assert got is fp.reordered_word("qwen", "7b")
    assert [m.span() for m in got.finditer(raw)] == [m.span() for m in re.finditer(old, raw, re.IGNORECASE)]
    assert got.search(raw).group(0) == "Qwenvl2.5VL-7B"


def test_model_keys_are_the_ids_keys() -> None:
    """unknown_tools._known's catalog keys, made once per catalog: each id's letters and digits, and each run
    of its whole parts (s46 leftovers: 'qwen25' of 'Qwen2.5-7B'; 'tiny' inside 'tinyllama' is none)."""
    from bot.parse import unknown_tools
    from estimator import catalog

    keys = unknown_tools._model_keys()
    assert keys is unknown_tools._model_keys()
    assert {re.sub(r"[^a-z0-9]", "", m.lower()) for m in catalog.models()} <= keys
    assert "qwen25" in keys and "tiny" not in keys
    assert "qwen257b" in keys or any("qwen" in k for k in keys)
    assert unknown_tools._known("Qwen2.5-7B") and not unknown_tools._known("Zyxwvut")


@pytest.mark.parametrize(
    ("pattern", "pays"),
    [
        (r"(?<![a-z0-9])lora(?![a-z0-9])", True),  # one literal: an `in` test
        (r"(?<![a-z])(mfu|bs|batch|epochs?|ctx)(?=\d)", False),  # starts m, b, e, c: a narrow scan
        (r"(?<![\w.])(?P<n>\d{1,3}(?:,\d{3})+|\d+)\s*(?:k|千|万)", False),  # no literal required: no gate
        (r"(?<![\d.])(?P<n>\d{1,4})\s*(?:台|节点|nodes?\b)", True),  # starts with a digit: wide
        (r"\b(?:with|using|via|through|in|on|at|by|for|of)\s+(?:8|16)", True),  # 11 letters first: wide
    ],
)
def test_gate_pays(pattern: str, pays: bool | None) -> None:
    parsed = parse_pattern(pattern, re.ASCII)
    lits = gate_literals(pattern, re.ASCII, parsed)
    if lits is None:
        assert not pays
        return
    assert gate_pays(lits, start_chars(parsed, re.ASCII)) is pays
