"""The normalization's scans of session 12 (issue 23 item 7) answer as the patterns they stand for: the
typo test by runs of letters (a set) instead of the typo alternation behind a look-behind, the glued
count's look-behind moved after its first character, and the 'a1o0' fix behind a substring test. Each is
compared with the former pattern, written out here, on the corpus questions, every real-question file and
texts made to sit on each one's edge."""

from __future__ import annotations

import re

import pytest
from corpus import question_texts

from bot.parse import spelling_tables as sp
from bot.parse.normalize import _TIMES_GLUED_RE, _TYPO_WORD_RE, normalize, typo_word_in

QUESTIONS, REAL = question_texts()
TEXTS = [t.lower() for t in (*QUESTIONS, *REAL)]

TYPO_EDGES = [
    "lama 3 ful fine-tuen", "fine-tuen.", "xfine-tuen", "fine-tuen-x", "fine-tuenx", "x-lama", "lama3",
    "ful-", "-ful", "ollama", "lama_3", "über-lama", "ülama", "lamaé", "", "ful", "fulll", "full",
    "qwne-coder", "7b-lama", "a full trilion tokns", "LAMA", "lama\n", "\tlama", "lamma lama",
]  # fmt: skip
GLUED_EDGES = [
    "a100 x8", "a100x8", "a100 ×8", "a100 *8 ", " x8", "x8", "\nx12345", "a x123456", "a x8.5", "a x8,5",
    "a x8k", "a x8 k", "a x8 kb", "a x8 b", "a x8,000", "\u3000x8", "a  x8 x9", "a x8x9", "8 * 8", "a\tx0",
    "摩尔线程 x300", "mtt x300", "mtt *8", "线程 ×8",
]  # fmt: skip
O_EDGES = ["a1oo", "a10o", "v1o0", "h1oo 80g", "a100", "xa1oo", "a1o", "a1ooo", "a1o0o", "a1 oo", "1o", "10o"]

_TIMES_GLUED_BEFORE = re.compile(
    r"(?<=\s)(?:(?<!mtt\s)(?<!线程\s)x|[×*])(\d{1,5})(?![\d.]|,\d|\s*[kmbt](?![a-z]))", re.ASCII
)
"""The former pattern, and round 22 zh's exception: Moore Threads' X300 after its maker ('摩尔线程 X300')."""


@pytest.mark.parametrize("text", TYPO_EDGES)
def test_typo_test_on_edges(text: str) -> None:
    assert typo_word_in(text) == (_TYPO_WORD_RE.search(text) is not None)


def test_typo_test_on_every_question() -> None:
    typos = sorted(sp.TYPOS)
    made = [f"{a} {t}{b}" for t in typos for a, b in (("", ""), ("x", ""), ("-", "-"), ("", "s"), ("7", "."))]
    for text in [*TEXTS, *made]:
        assert typo_word_in(text) == (_TYPO_WORD_RE.search(text) is not None), text


@pytest.mark.parametrize("text", GLUED_EDGES)
def test_glued_count_on_edges(text: str) -> None:
    assert _TIMES_GLUED_RE.sub(r"x \1", text) == _TIMES_GLUED_BEFORE.sub(r"x \1", text)


def test_glued_count_on_every_question() -> None:
    for text in TEXTS:
        assert _TIMES_GLUED_RE.sub(r"x \1", text) == _TIMES_GLUED_BEFORE.sub(r"x \1", text), text


def test_o_for_zero_gate_never_skips_a_match() -> None:
    for text in [*TEXTS, *O_EDGES]:
        if sp.GPU_O_FOR_ZERO_RE.search(text):
            assert "1o" in text or "10o" in text, text


def test_normalize_fixes_o_for_zero() -> None:
    assert normalize("A1OO 80G") == "a100 80g"
    assert normalize("H1oo x8") == "h100 x 8"
