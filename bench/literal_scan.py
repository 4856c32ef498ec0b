"""Issue 23 item 7 (session 35): one C multi-literal scan a text against the presence gates' own searches.

Usage: ``python bench/literal_scan.py [AHOCORASICK_DIR]`` (from a tree's root, in its venv). Records, over
a warm parse of each of the 125 questions of tests/data/questions.json, every presence-gate test of
:func:`bot.parse.regex_gate.gate` (the literal set and the string it is asked of), then replays them:

- ``current``: what the gates do now (``literal in string`` for one literal, a search of the literals'
  alternation, compiled once, for several);
- ``ahocorasick``: one pass of a ``pyahocorasick`` automaton over every gate literal a distinct string
  (memoized by the string), then ``not found.isdisjoint(literals)`` a gate — the shared pre-pass of the
  brief; only when the package imports (``pip install --target DIR pyahocorasick`` and pass ``DIR``: it is
  no dependency of the project);
- per distinct string, the cost of finding every literal present: the automaton, a ``re`` findall of one
  look-ahead alternation of all literals (overlapping hits), and ``str.__contains__`` over the set.

Each replay checks it answers every gate as the gate does. Best of 9, µs a question.
"""

from __future__ import annotations

import gc
import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "questions.json"


def record(texts: list[str]) -> list[tuple[frozenset[str], str]]:
    """(literals, string) of every gate test of one warm parse of each text."""
    import bot.parse.regex as regex

    calls: list[tuple[frozenset[str], str]] = []
    made = regex.gate

    def recording(compiled: Any, name: str, lits: frozenset[str]) -> Callable[..., Any]:
        method = made(compiled, name, lits)

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            calls.append((lits, args[1] if name == "sub" else args[0]))
            return method(*args, **kwargs)

        return wrapped

    regex.gate = recording  # before the first gates are added (the second message)
    try:
        from bot.parse import parse

        for text in texts * 2:
            parse(text)
        calls.clear()
        for text in texts:
            parse(text)
    finally:
        regex.gate = made
    return calls


def best(fn: Callable[[], Any], rounds: int = 9) -> float:
    gc.disable()
    try:
        out = float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            fn()
            out = min(out, time.perf_counter() - start)
        return out
    finally:
        gc.enable()


def main() -> None:
    sys.path.insert(0, str(REPO))
    texts = [q["text"] for q in json.loads(CORPUS.read_text(encoding="utf-8"))]
    calls = record(texts)
    n = len(texts)
    literals = sorted(set().union(*(lits for lits, _ in calls)), key=lambda s: (-len(s), s))
    strings = list(dict.fromkeys(s for _, s in calls))
    print(f"gate tests a question {len(calls) / n:.1f}, distinct strings a question {len(strings) / n:.2f}, ")
    print(f"literals {len(literals)}, mean string length {sum(map(len, strings)) / len(strings):.0f}")
    tests: dict[frozenset[str], Callable[[str], Any]] = {}
    for lits, _ in calls:
        if lits not in tests:
            options = sorted(lits, key=len, reverse=True)
            alternation = re.compile("|".join(map(re.escape, options))).search
            tests[lits] = (lambda s, lit=options[0]: lit in s) if len(options) == 1 else alternation
    replay = [(tests[lits], s) for lits, s in calls]
    truth = [bool(test(s)) for test, s in replay]
    print(f"current gates: {best(lambda: [test(s) for test, s in replay]) / n * 1e6:.1f} µs a question")
    look = re.compile("(?=(" + "|".join(map(re.escape, literals)) + "))")
    findall = best(lambda: [set(look.findall(s)) for s in strings]) / n * 1e6
    print(f"re look-ahead findall, every distinct string: {findall:.1f} µs a question")
    contains = best(lambda: [set(filter(s.__contains__, literals)) for s in strings]) / n * 1e6
    print(f"str.__contains__ over the set, every distinct string: {contains:.1f} µs a question")
    if len(sys.argv) > 1:
        sys.path.insert(0, sys.argv[1])
    try:
        start = time.perf_counter()
        import ahocorasick  # type: ignore[import-not-found]
    except ImportError:
        print("ahocorasick: not importable (pass the folder it is installed in)")
        return
    print(f"import ahocorasick {(time.perf_counter() - start) * 1e3:.2f} ms")
    start = time.perf_counter()
    automaton = ahocorasick.Automaton()
    for lit in literals:
        automaton.add_word(lit, lit)
    automaton.make_automaton()
    print(f"automaton built {(time.perf_counter() - start) * 1e3:.1f} ms, {automaton.get_stats()}")

    def pre_pass() -> list[bool]:
        memo: dict[str, frozenset[str]] = {}
        out = []
        for lits, s in calls:
            found = memo.get(s)
            if found is None:
                found = memo[s] = frozenset(v for _, v in automaton.iter(s))
            out.append(not found.isdisjoint(lits))
        return out

    assert pre_pass() == truth, "the automaton answers a gate otherwise"
    print(f"automaton pre-pass + isdisjoint a gate: {best(pre_pass) / n * 1e6:.1f} µs a question")
    every = best(lambda: [frozenset(v for _, v in automaton.iter(s)) for s in strings])
    print(f"automaton, every distinct string: {every / n * 1e6:.1f} µs a question")


if __name__ == "__main__":
    main()
