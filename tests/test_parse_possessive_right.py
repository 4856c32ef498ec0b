"""The four right-hand memory and budget patterns with possessive white-space loops (session 12, issue 23
item 7) match exactly what the former greedy patterns, written out here, matched: after every number of
the corpus questions and every real-question file (raw and normalized), and on windows made of runs of
spaces and hyphens between each filler, currency, '的' and memory or budget word."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from bot.parse import parse, roles
from bot.parse import role_left as rl
from bot.parse.normalize import MARKS, normalize

DATA = Path(__file__).parent / "data"
TEXTS = [q["text"] for q in json.loads((DATA / "questions.json").read_text(encoding="utf-8"))] + [
    q["text"]
    for path in sorted((DATA / "real_questions").glob("*.json"))
    for q in json.loads(path.read_text(encoding="utf-8"))
    if isinstance(q, dict) and isinstance(q.get("text"), str)
]

_LEAD = r"^\s*(?:的)?\s*(?:左右|上下)?\s*(?:的)?\s*"
BEFORE = {
    "R_MEM_GPU": _LEAD  # s23: + npu, xpu, accelerator ('eight 64GB NPUs')
    + r"(?:显存|vram|gpu|npu|xpu|accelerator|卡|显卡|card|memory\s+per|的卡|each|per\s+(?:gpu|card)|["
    + MARKS
    + "])",
    "R_MEM_TOTAL": _LEAD + r"(?:显存|vram|of\s+(?:vram|(?:gpu\s+)?memory)|gpu\s+memory)",
    "R_MEMORY_WORD": _LEAD
    + r"(?:显存|vram|of\s+(?:vram|(?:gpu\s+)?memory)|gpu\s+memory|memory)"
    + r"(?!\s*(?:的)?\s*(?:卡|显卡)|\s*的\s*gpu)",
    "R_BUDGET": "^"
    + rl.FILL
    + r"(?:(?:元|块钱?|人民币|rmb\b|cny\b|美元|美金|刀)?\s*(?:的)?\s*(?:预算|经费|资金|budget\b))",
}
NOW = {"R_MEM_GPU": rl.R_MEM_GPU, "R_MEM_TOTAL": rl.R_MEM_TOTAL, "R_MEMORY_WORD": rl.R_MEMORY_WORD}
NOW["R_BUDGET"] = roles.R_BUDGET

_DIGITS_END = re.compile(r"\d(?!\d)")


def _parse_windows() -> list[str]:
    """The windows the parse itself hands the four patterns (masked names leave runs of spaces)."""
    seen: list[str] = []
    saved = []
    for pattern in NOW.values():
        match = pattern.compiled.match
        saved.append((pattern, object.__getattribute__(pattern, "match")))
        object.__setattr__(pattern, "match", lambda w, *a, _m=match: (seen.append(w), _m(w, *a))[1])
    try:
        for text in TEXTS:
            parse(text)
    finally:
        for pattern, method in saved:
            object.__setattr__(pattern, "match", method)
    return seen


def _windows() -> list[str]:
    out = _parse_windows()
    for text in TEXTS:
        for s in (text.lower(), normalize(text)):
            out += [s[m.end() : m.end() + 64] for m in _DIGITS_END.finditer(s)]
    return out


def _made() -> list[str]:
    gaps = ["", " ", "  ", "-", " - ", "\t", "     ", " " * 12]
    words = ["", "的", "左右", "多", "+", "元", "块钱", "rmb", "美元"]
    ends = ["显存", "vram", "gpu", "卡", "的卡", "each", "of vram", "of gpu memory", "memory", "memory per",
            "预算", "budget", "budgets", "显存的卡", "memory 的 gpu", MARKS[0], "x", ""]  # fmt: skip
    made = []
    for g1, w1, g2, w2, g3, end in itertools.product(gaps[:5], words, gaps[:4], words[:3], gaps[:3], ends):
        made.append(g1 + w1 + g2 + w2 + g3 + end)
    made += [" " * n + end for n in (20, 40) for end in ends]
    return made


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_possessive_matches_as_greedy(name: str) -> None:
    before = re.compile(BEFORE[name], re.ASCII)
    now = NOW[name]
    assert now.pattern != BEFORE[name]
    windows = [*_windows(), *_made()]
    hits = 0
    for window in windows:
        old = before.match(window)
        new = now.match(window)
        assert (old and old.span()) == (new and new.span()), (name, window)
        hits += old is not None
    assert hits > 20, name  # the windows reach the patterns' matches
    assert sum(w.startswith("    ") for w in windows) > 40  # runs of masked spaces among them
