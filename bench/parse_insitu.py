"""Issue 23 item 7 (session 47, s47-speedparse): the parse's costs measured *in situ* — inside a real parse,
between the other readers — beside the same work replayed alone, and the shared-cue candidates sized
before any is built.

Usage: ``python bench/parse_insitu.py [--repeat N]`` (from a tree's root, in its venv). Over
tests/data/questions.json (125 questions, two warm passes first: the gates and cue tables are built from
the second message on), in this thread's CPU time (``time.thread_time_ns``), ``gc`` off:

1. **whole parse, first vs again**: each question parsed after another one, then twice more at once
   (the memos are emptied at each parse's start): the median of each, least of ``--repeat`` passes.
   Equal medians: the parse as a whole is not slowed by what the previous message left in the caches.
2. **pydantic in situ**: each ``BaseModel.__init__`` of the parse timed where it runs, then the same
   class built again at once from the same keyword arguments (warm), then all of them replayed in a loop
   (session 45's method): µs a construction each way.
3. **cue tables** (:class:`bot.parse.cue_index.CueTable`): µs a question in situ per table, its calls,
   cues and kind; replayed alone, µs a call and the share of its ``in`` tests (``filter``); how many
   texts hold no cue (what a prefilter search could skip).
4. **multi-literal presence gates** (:func:`bot.parse.regex_gate.gate`): calls a question, those on the
   parse's own texts (the prepared text, its normalized and raw forms), and how many of those a per-text
   set of characters and character pairs (one pass a text) would answer 'absent' before their search.

No answer is changed: the script wraps functions in this process only and reads clocks.
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import statistics
import sys
import time
from collections import Counter
from contextlib import suppress
from operator import add
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def whole_parse(parse: Any, texts: list[str], repeat: int) -> tuple[float, float]:
    """Median µs of a parse after another question's, and of the same parse at once again."""
    first: list[list[int]] = []
    again: list[list[int]] = []
    for _ in range(repeat):
        f, a = [], []
        for q in texts:
            t = time.thread_time_ns()
            parse(q)
            f.append(time.thread_time_ns() - t)
            t = time.thread_time_ns()
            parse(q)
            a.append(time.thread_time_ns() - t)
        first.append(f)
        again.append(a)
    least = [min(x) for x in zip(*first, strict=True)], [min(x) for x in zip(*again, strict=True)]
    return statistics.median(least[0]) / 1e3, statistics.median(least[1]) / 1e3


def pydantic_in_situ(parse: Any, texts: list[str]) -> dict[str, tuple[float, float, float, int]]:
    """Class name → (µs in situ, µs built again at once, µs replayed in a loop, constructions)."""
    import pydantic

    orig = pydantic.BaseModel.__init__
    acc: dict[str, list[Any]] = {}
    busy = [False]

    def init(self: Any, /, **kw: Any) -> None:
        if busy[0]:
            return orig(self, **kw)
        t = time.thread_time_ns()
        orig(self, **kw)
        d = time.thread_time_ns() - t
        busy[0] = True
        t = time.thread_time_ns()
        with suppress(Exception):  # a rejected value: the caller's fallback, timed alike
            type(self)(**kw)
        d2 = time.thread_time_ns() - t
        busy[0] = False
        row = acc.setdefault(type(self).__name__, [0, 0, 0, type(self), []])
        row[0] += d
        row[1] += d2
        row[2] += 1
        row[4].append(kw)

    pydantic.BaseModel.__init__ = init  # type: ignore[method-assign]
    try:
        for q in texts:
            parse(q)
    finally:
        pydantic.BaseModel.__init__ = orig  # type: ignore[method-assign]
    out = {}
    for name, (d, d2, n, cls, kws) in acc.items():
        t = time.thread_time_ns()
        for kw in kws:
            with suppress(Exception):
                cls(**kw)
        out[name] = (d / n / 1e3, d2 / n / 1e3, (time.thread_time_ns() - t) / n / 1e3, n)
    return out


def cue_tables(parse: Any, texts: list[str]) -> list[str]:
    """One line a table: in situ µs a question and calls, cues, folded; replayed µs a call, the ``in``
    tests' µs a call, texts with no cue."""
    ci = sys.modules["bot.parse.cue_index"]
    orig = ci.CueTable.candidates
    spent: Counter[int] = Counter()
    asked: dict[int, tuple[Any, list[str]]] = {}

    def candidates(self: Any, text: str) -> Any:
        t = time.thread_time_ns()
        found = orig(self, text)
        spent[id(self)] += time.thread_time_ns() - t
        asked.setdefault(id(self), (self, []))[1].append(text)
        return found

    ci.CueTable.candidates = candidates
    try:
        for q in texts:
            parse(q)
    finally:
        ci.CueTable.candidates = orig
    lines = []
    for key, (table, seen) in sorted(asked.items(), key=lambda kv: -spent[kv[0]]):
        within = [ci.fold(x) for x in seen] if table.folded else seen
        t = time.thread_time_ns()
        for x in seen:
            table._memo = None
            orig(table, x)
        replay = (time.thread_time_ns() - t) / len(seen) / 1e3
        t = time.thread_time_ns()
        for w in within:
            list(filter(w.__contains__, table._all))
        tests = (time.thread_time_ns() - t) / len(seen) / 1e3
        none = sum(not any(map(w.__contains__, table._all)) for w in within)
        lines.append(
            f"{spent[key] / len(texts) / 1e3:7.2f} µs/q in situ, {len(seen) / len(texts):4.2f} calls/q, "
            f"{len(table._all)} cues, folded {table.folded}; replayed {replay:5.2f} µs/call, its `in` tests "
            f"{tests:5.2f}; {none}/{len(seen)} texts hold no cue"
        )
    ci.forget()  # the replays' memos: none carried into the next measure
    return lines


def gate_census(parse: Any, texts: list[str]) -> Counter[str]:
    """Multi-literal gate calls (a question): all, on the parse's own texts, absent, pair-set rejects."""
    assemble = sys.modules["bot.parse.assemble"]
    own: set[int] = set()
    prepare = assemble.prepare

    def prepared(raw: str) -> Any:
        out = prepare(raw)
        own.update((id(out[0]), id(out[2]), id(raw)))
        return out

    counts: Counter[str] = Counter()

    def profile(frame: Any, event: str, _arg: Any) -> None:
        code = frame.f_code
        gated = code.co_filename.endswith("regex_gate.py") and "present" in code.co_freevars
        if event != "call" or not gated:
            return
        string = frame.f_locals.get("string")
        counts["multi-literal gate calls"] += 1
        if not isinstance(string, str) or id(string) not in own:
            return
        counts["on the parse's own texts"] += 1
        lits = [re.sub(r"\\(.)", r"\1", x) for x in frame.f_locals["present"].__self__.pattern.split("|")]
        if not any(map(string.__contains__, lits)):
            counts["no literal present"] += 1
        grams = set(map(add, string, string[1:]))
        grams.update(string)
        if grams.isdisjoint({lit[:2] for lit in lits}):
            counts["answered by a pair set"] += 1

    assemble.prepare = prepared
    sys.setprofile(profile)
    try:
        for q in texts:
            own.clear()
            parse(q)
    finally:
        sys.setprofile(None)
        assemble.prepare = prepare
    return counts


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sys.path.insert(0, str(REPO))
    from bot.parse import parse

    texts = [q["text"] for q in json.loads((REPO / "tests/data/questions.json").read_text("utf-8"))]
    for text in texts * 2:
        parse(text)
    gc.disable()
    first, again = whole_parse(parse, texts, args.repeat)
    print(f"1. parse median µs: after another question {first:.0f}, the same again at once {again:.0f}")
    print("2. pydantic µs a construction: in situ / built again at once / replayed in a loop (count)")
    for name, (situ, warm, loop, n) in pydantic_in_situ(parse, texts).items():
        print(f"   {name}: {situ:.1f} / {warm:.1f} / {loop:.1f} ({n})")
    print("3. cue tables")
    for line in cue_tables(parse, texts):
        print("   " + line)
    print("4. multi-literal presence gates, a question")
    for what, n in gate_census(parse, texts).items():
        print(f"   {n / len(texts):6.2f}  {what}")


if __name__ == "__main__":
    main()
