"""Issue 23 item 7 (session 35): which parse readers run on a question, and on how many they find anything.

Usage: ``python bench/parse_readers.py [TOP]`` (from a tree's root, in its venv). Over the 125 questions of
tests/data/questions.json (after two warm passes: the gates are built from the second message on), for each
function of ``bot/parse/``: the questions on which it ran, those on which it returned something (not None,
not empty, not its first argument unchanged: a rewrite that rewrote nothing, a reader that read nothing),
and its cumulative time a question under ``cProfile`` (µs; the profiler inflates Python frames ~3-4×, so
read the column as a ranking). Sorted by the time spent on questions where nothing was found:
``cumulative × (1 - found / questions)``. A reader at the top that runs on every question and finds
something on a few is where a gate at its call site would pay (the brief of session 35, item 1).

"Found" is read from the return value only: a step that fills a field of its caller's object and returns
None (``_Parse._numbers``) reads as never finding anything; check such a row in its code.
"""

from __future__ import annotations

import cProfile
import json
import pstats
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "questions.json"
_PARSE_DIR = "/bot/parse/"


def _key(code: Any) -> tuple[str, int, str] | None:
    filename = code.co_filename
    if _PARSE_DIR not in filename:
        return None
    return (filename.split(_PARSE_DIR, 1)[1], code.co_firstlineno, code.co_name)


def _nothing(value: Any, first: Any) -> bool:
    """Whether a return value says the reader found nothing (see the module docstring)."""
    if value is None or value is first:
        return True
    try:
        return not value
    except Exception:  # an object without a truth value (a numpy-like): something
        return False


def runs_and_finds(texts: list[str]) -> tuple[dict[Any, set[int]], dict[Any, set[int]]]:
    """For each bot/parse function: the indexes of the texts it ran on, and of those it found something on."""
    from bot.parse import parse

    ran: dict[Any, set[int]] = defaultdict(set)
    found: dict[Any, set[int]] = defaultdict(set)
    at = [0]

    firsts: dict[Any, Any] = {}  # a running frame → its first argument as called (a reader rebinds it)

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            code = frame.f_code
            if code.co_argcount and _PARSE_DIR in code.co_filename:
                firsts[frame] = frame.f_locals.get(code.co_varnames[0])
            return
        if event != "return":
            return
        key = _key(frame.f_code)
        if key is None:
            return
        ran[key].add(at[0])
        if not _nothing(arg, firsts.pop(frame, None)):
            found[key].add(at[0])

    sys.setprofile(profile)
    try:
        for i, text in enumerate(texts):
            at[0] = i
            parse(text)
    finally:
        sys.setprofile(None)
    return ran, found


def cumulative(texts: list[str]) -> dict[Any, tuple[float, float, int]]:
    """For each bot/parse function: cumulative and own seconds, and calls, over one parse of each text."""
    from bot.parse import parse

    profiler = cProfile.Profile()
    profiler.enable()
    for text in texts:
        parse(text)
    profiler.disable()
    out = {}
    for (filename, line, name), (_cc, calls, own, cum, _callers) in pstats.Stats(profiler).stats.items():  # type: ignore[attr-defined]
        if _PARSE_DIR in filename:
            out[(filename.split(_PARSE_DIR, 1)[1], line, name)] = (cum, own, calls)
    return out


def main(top: int = 60) -> None:
    sys.path.insert(0, str(REPO))
    from bot.parse import parse

    texts = [q["text"] for q in json.loads(CORPUS.read_text(encoding="utf-8"))]
    for text in texts * 2:
        parse(text)
    ran, found = runs_and_finds(texts)
    times = cumulative(texts)
    n = len(texts)
    rows = []
    for key, on in ran.items():
        cum, own, calls = times.get(key, (0.0, 0.0, 0))
        rows.append((cum * (1 - len(found[key]) / n), len(on), len(found[key]), cum, own, calls, key))
    rows.sort(reverse=True)
    print(f"{n} questions; µs a question under cProfile")
    print("  no-find µs  ran found    cum µs    own µs  calls  function")
    for wasted, on, hits, cum, own, calls, (path, line, name) in rows[:top]:
        print(
            f"{wasted / n * 1e6:11.1f} {on:4d} {hits:5d} {cum / n * 1e6:9.1f} {own / n * 1e6:9.1f} {calls:6d}"
            f"  {path}:{line} {name}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
