"""Issue 23 item 7 (session 36): where a warm parse's time goes, measured without the profiler's inflation.

Usage: ``python bench/parse_costs.py [TOP]`` (from a tree's root, in its venv). Over the 125 questions of
tests/data/questions.json, after two warm passes (the gates are built from the second message on):

1. **Steps**: CPU time (``time.thread_time_ns``) a question of each step of :class:`bot.parse.assemble._Parse`
   and of the functions the stage step, the normalisation, the settings step and the count forms call
   (each wrapped in one timing frame, ~0.3 µs a call: a row holds the frames of the timed calls within
   it, so read it beside the first line's two totals, the parse's with and without the frames).
   cProfile (bench/parse_readers.py) inflates every Python frame ~5-7× on this machine and attributes its
   hook's own time to whatever runs, so its "own" column is a ranking at best; these are the times.
2. **Regex calls**: every call of a :class:`bot.parse.regex.LazyPattern` method (search, match, finditer …,
   gated or not) recorded with its arguments, then replayed alone (the least of 7 replays, ns each) and
   sorted: found something, found nothing behind a gate (the gate's own test, then the pattern when
   the test passes), found nothing with no literal every match needs (no presence test can skip it), found
   nothing with such a literal present (a presence test passes), found nothing with every such literal
   absent and no gate (a presence test would skip it: the ceiling of session 36's candidate (a), one
   tokenisation feeding every gate). Patterns compiled with ``re.compile`` directly (the small gates of
   bot/parse/memory_forms.py …) are not LazyPatterns and are not counted: add them to the Python share.
"""

from __future__ import annotations

import gc
import importlib
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "questions.json"
STEPS = (
    "_stage_and_settings", "_names", "_gpus", "_numbers", "_model_and_params", "_data_and_context",
    "_gpu_fields", "_rate_and_replicas", "_money_and_serving", "_global_batch", "_time_and_asks",
    "_generic", "_left_behind", "_other_device", "repeated_used",
)  # fmt: skip
"""The methods of ``_Parse`` timed (its ``run`` in that order)."""
CALLERS = ("bot.parse.assemble", "bot.parse.mention_steps", "bot.parse.stage_steps", "bot.parse.normalize",
           "bot.parse.settings", "bot.parse.count_forms")  # fmt: skip
"""Modules whose imported ``bot.`` functions are timed at their call (a row: ``module>function``)."""
METHODS = ("search", "match", "fullmatch", "finditer", "findall", "split", "sub")
_CLOCK = time.thread_time_ns


def _timed(f: Callable[..., Any], label: str, spent: dict[str, int], calls: dict[str, int]) -> Any:
    def timed(*args: Any, **kwargs: Any) -> Any:
        t = _CLOCK()
        out = f(*args, **kwargs)
        spent[label] += _CLOCK() - t
        calls[label] += 1
        return out

    return timed


def step_times(texts: list[str], repeats: int = 5) -> tuple[float, float, list[tuple[str, float, float]]]:
    """CPU µs a question of the whole parse unwrapped and wrapped, and (row, µs a question, calls a
    question) of each step."""
    from bot.parse import assemble, parse

    spent: dict[str, int] = defaultdict(int)
    calls: dict[str, int] = defaultdict(int)
    t = _CLOCK()
    for text in texts * repeats:
        parse(text)
    whole = (_CLOCK() - t) / len(texts) / repeats / 1000
    for name in STEPS:
        setattr(assemble._Parse, name, _timed(getattr(assemble._Parse, name), name, spent, calls))
    for modname in CALLERS:
        mod, short = importlib.import_module(modname), modname.rsplit(".", 1)[1]
        for name, f in list(vars(mod).items()):
            owner = getattr(f, "__module__", None) or ""
            if callable(f) and not isinstance(f, type) and owner.startswith("bot.") and owner != modname:
                setattr(mod, name, _timed(f, f"{short}>{name}", spent, calls))
    t = _CLOCK()
    for text in texts * repeats:
        parse(text)
    n = len(texts) * repeats
    wrapped = (_CLOCK() - t) / n / 1000
    rows = [(label, spent[label] / n / 1000, calls[label] / n) for label in spent]
    return whole, wrapped, sorted(rows, key=lambda r: -r[1])


def _nothing(method: str, out: Any, args: tuple[Any, ...]) -> bool:
    if method in ("finditer", "findall"):
        return not out
    if method == "sub":
        return out == args[1]
    if method == "split":
        return len(out) == 1
    return out is None


def _literals(pattern: Any, memo: dict[int, Any]) -> Any:
    if id(pattern) not in memo:
        from bot.parse.regex_gate import required_literals
        from bot.parse.sre_private import _parser

        try:
            parsed = _parser.parse(pattern.pattern, int(pattern._flags))
            folded = (int(pattern._flags) | parsed.state.flags) & re.IGNORECASE
            memo[id(pattern)] = None if folded else required_literals(parsed)
        except Exception:  # the private parser missing: no literal said
            memo[id(pattern)] = None
    return memo[id(pattern)]


def regex_calls(texts: list[str]) -> tuple[dict[str, tuple[float, float]], list[tuple[float, float, str]]]:
    """Replayed LazyPattern calls: (calls, µs) a question by kind (see the module docstring), and the
    patterns by µs a question spent finding nothing (µs, calls, method and source's start)."""
    from bot.parse import parse
    from bot.parse.regex import LazyPattern

    record: list[tuple[Any, str, Callable[..., Any], tuple[Any, ...]]] = []
    patterns = [o for o in gc.get_objects() if type(o) is LazyPattern and o._compiled is not None]
    originals = {(id(p), m): getattr(p, m) for p in patterns for m in METHODS}
    for p in patterns:
        for method in METHODS:
            f = originals[(id(p), method)]

            def kept(*args: Any, _f: Any = f, _p: Any = p, _m: str = method) -> Any:
                out = _f(*args)
                if _m == "finditer":
                    out = list(out)
                record.append((_p, _m, _f, args))
                return iter(out) if _m == "finditer" else out

            object.__setattr__(p, method, kept)
    try:
        for text in texts:
            parse(text)
    finally:
        for p in patterns:  # the methods as they were (gated or not): the step times below use them
            for method in METHODS:
                object.__setattr__(p, method, originals[(id(p), method)])
    best: list[int] = []
    for _ in range(7):
        times = []
        for _p, method, f, args in record:
            t = time.perf_counter_ns()
            out = f(*args)
            if method == "finditer":
                list(out)
            times.append(time.perf_counter_ns() - t)
        best = times if not best else list(map(min, best, times))
    kinds: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    wasted: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    memo: dict[int, Any] = {}
    for (p, method, f, args), ns in zip(record, best, strict=True):
        out = f(*args)
        out = list(out) if method == "finditer" else out
        text = args[1] if method == "sub" else args[0]
        lits = _literals(p, memo)
        if not _nothing(method, out, args):
            kind = "found"
        elif not hasattr(f, "__self__"):  # a gate's Python function, not the bound C method
            kind = "nothing: behind a gate"
        elif lits is None:
            kind = "nothing: no required literal"
        elif any(lit in text for lit in lits):
            kind = "nothing: a required literal present"
        else:
            kind = "nothing: literals absent, no gate"
        kinds[kind][0] += 1
        kinds[kind][1] += ns / 1000
        if kind != "found":
            row = wasted[f"{method:8s} {p.pattern[:60]!r}"]
            row[0] += ns / 1000
            row[1] += 1
    n = len(texts)
    top = sorted(((us / n, c / n, key) for key, (us, c) in wasted.items()), reverse=True)
    return {k: (c / n, us / n) for k, (c, us) in kinds.items()}, top


def main(top: int = 25) -> None:
    sys.path.insert(0, str(REPO))
    from bot.parse import parse

    texts = [q["text"] for q in json.loads(CORPUS.read_text(encoding="utf-8"))]
    for text in texts * 2:
        parse(text)
    kinds, wasted = regex_calls(texts)  # before the step wrappers: no timing frame in a recorded call
    whole, wrapped, rows = step_times(texts)
    print(f"{len(texts)} questions; parse CPU µs a question: {whole:.0f} (timing frames in: {wrapped:.0f})")
    print("    µs/q  calls/q  step (module>function: timed at its call)")
    for label, us, calls in rows[:top]:
        print(f"{us:8.1f} {calls:8.2f}  {label}")
    print("LazyPattern calls a question, replayed: calls, µs")
    for kind, (calls, us) in sorted(kinds.items(), key=lambda kv: -kv[1][1]):
        print(f"{calls:7.1f} {us:8.1f}  {kind}")
    print("    µs/q  calls/q  finding nothing")
    for us, calls, key in wasted[:top]:
        print(f"{us:8.2f} {calls:8.2f}  {key}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 25)
