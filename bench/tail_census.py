"""Issue 23 item 7: where a message's CPU goes, by kind of cost, so a session can tell structural costs
from spread ones before rewriting anything (session 45, s45-tail).

Usage: ``python bench/tail_census.py [--repeat N] [--top N] [--tree PATH] [--skip-regex]``

Over tests/data/questions.json (125 questions, every one answered and rendered twice first: the regex
gates and cue tables are built from the second message on), in this thread's CPU time
(``time.thread_time_ns``: the box is shared, wall clocks are not usable), each figure the least of
``--repeat`` tries per question:

1. **stages**: parse, the answer less its parse (estimate and pipeline steps), the html render, end to
   end (``bot.core.pipeline.answer`` + ``render(…, "html")``): median, p99 and max over the questions,
   and the slowest ten end to end with each stage's part;
2. **cyclic GC**: end to end with the collector on and off, alternating per question (so the box's load
   drifts into both alike): the collector's share of the corpus's CPU;
3. **pydantic**: µs a construction of ``ParseResult``, ``SizingRequest`` and ``SizingReport`` from the
   corpus's own values (validated, and ``model_construct``) — what a message spends validating;
4. **parse calls by kind**: Python calls a warm parse makes (the profiler's 'call' events, as
   tests/test_parse_render_speed.py counts them), split into the presence-gate frames of
   :mod:`bot.parse.regex_gate` and the rest, with the functions called most a question;
5. **regex CPU by pattern** (skipped with ``--skip-regex``): each compiled pattern's C calls timed from
   the profiler's ``c_call``/``c_return`` events (the hook's own cost inflates every figure alike: the
   ranking and the shares are the measure), for the corpus less its long pasted sample and for that
   sample alone (:data:`LONG_SAMPLE`), each pattern named as bench/regex_calls.py names it.

No answer is changed: the script only calls the pipeline and reads clocks. ``--tree``: measure another
checkout (a base made with ``git worktree add``, its build outputs copied).
"""

from __future__ import annotations

import argparse
import collections
import gc
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _paths import CORPUS, REPO
from _paths import pct as _pct

LONG_SAMPLE = "Here is a sample of our training data"
"""The start of the corpus's 12,473-character pasted sample (q164): the parse's longest text, timed apart."""


def _least(fn: Callable[[str], Any], texts: list[str], repeat: int) -> list[float]:
    """Each text's least CPU milliseconds of ``fn(text)`` over ``repeat`` passes."""
    best = [float("inf")] * len(texts)
    clock = time.thread_time_ns
    for _ in range(repeat):
        for i, text in enumerate(texts):
            t = clock()
            fn(text)
            best[i] = min(best[i], (clock() - t) / 1e6)
    return best


def stages(texts: list[str], repeat: int) -> None:
    """Section 1: each stage's least CPU a question, median / p99 / max, and the slowest ten."""
    import bot.core.pipeline as pipeline
    from bot.parse import parse
    from bot.render.renderer import render

    answers = {t: pipeline.answer(t) for t in texts}
    p = _least(parse, texts, repeat)
    a = _least(pipeline.answer, texts, repeat)
    r = _least(lambda t: render(answers[t], "html"), texts, repeat)
    e = _least(lambda t: render(pipeline.answer(t), "html"), texts, repeat)
    rest = [max(0.0, x - y) for x, y in zip(a, p, strict=True)]
    print(f"1. stages, CPU ms (least of {repeat} a question)    median      p99      max")
    for name, vals in (
        ("parse", p),
        ("estimate (answer less parse)", rest),
        ("render html", r),
        ("end to end", e),
    ):
        print(f"   {name:40s} {statistics.median(vals):8.3f} {_pct(vals, 0.99):8.3f} {max(vals):8.3f}")
    print("   slowest ten end to end (ms = parse + estimate + render)")
    for i in sorted(range(len(texts)), key=lambda i: -e[i])[:10]:
        print(f"   {e[i]:6.2f} = {p[i]:5.2f} + {rest[i]:5.2f} + {r[i]:5.2f}  {texts[i][:60]!r}")


def collector(texts: list[str], repeat: int) -> None:
    """Section 2: end to end with the cyclic GC on and off, alternating per question."""
    import bot.core.pipeline as pipeline
    from bot.render.renderer import render

    best: dict[bool, list[float]] = {True: [float("inf")] * len(texts), False: [float("inf")] * len(texts)}
    clock = time.thread_time_ns
    try:
        for k in range(repeat):
            for i, text in enumerate(texts):
                for on in (True, False) if (i + k) % 2 else (False, True):
                    gc.enable() if on else gc.disable()
                    t = clock()
                    render(pipeline.answer(text), "html")
                    best[on][i] = min(best[on][i], (clock() - t) / 1e6)
    finally:
        gc.enable()
    on, off = sum(best[True]), sum(best[False])
    print(
        f"2. cyclic GC: corpus end to end {on:.1f} ms with it, {off:.1f} without:",
        f"{100 * (on - off) / on:.1f} %",
    )
    print(f"   (medians {statistics.median(best[True]):.3f} / {statistics.median(best[False]):.3f} ms)")


def validation(texts: list[str], repeat: int) -> None:
    """Section 3: µs a pydantic construction of the three per-message models, validated and not."""
    import bot.core.pipeline as pipeline
    from bot.parse import parse
    from bot.parse.result import ParseResult
    from estimator.models import SizingReport, SizingRequest

    parsed = [parse(t) for t in texts]
    reports = [r for r in (getattr(pipeline.answer(t), "report", None) for t in texts) if r is not None]
    cases = (
        ("ParseResult", ParseResult, [dict(p) for p in parsed]),
        (
            "SizingRequest",
            SizingRequest,
            [{k: getattr(p.request, k) for k in p.request.model_fields_set} for p in parsed],
        ),
        ("SizingReport", SizingReport, [{k: getattr(r, k) for k in r.model_fields_set} for r in reports]),
    )
    print("3. pydantic, µs a construction (least of the passes)      validated  model_construct")
    clock = time.thread_time_ns
    for name, model, rows in cases:
        figures = []
        for make in (lambda d, m=model: m(**d), lambda d, m=model: m.model_construct(**d)):
            least = float("inf")
            for _ in range(repeat):
                t = clock()
                for d in rows:
                    make(d)
                least = min(least, (clock() - t) / 1e3 / len(rows))
            figures.append(least)
        print(f"   {name:54s} {figures[0]:9.2f} {figures[1]:16.2f}")


def parse_calls(texts: list[str], top: int) -> None:
    """Section 4: the Python calls of a warm parse by function, the presence gates' frames apart."""
    from bot.parse import parse

    counts: collections.Counter[tuple[str, int, str]] = collections.Counter()

    def profile(frame: Any, event: str, _arg: Any) -> None:
        if event == "call":
            code = frame.f_code
            counts[(code.co_filename, code.co_firstlineno, code.co_name)] += 1

    sys.setprofile(profile)
    try:
        for text in texts:
            parse(text)
    finally:
        sys.setprofile(None)
    n = len(texts)
    gates = sum(v for k, v in counts.items() if k[0].endswith("regex_gate.py"))
    print(
        f"4. parse: {sum(counts.values()) / n:.2f} Python calls a question,",
        f"{gates / n:.2f} of them gate frames",
    )
    for (path, line, name), calls in counts.most_common(top):
        short = path.split("/bot/", 1)[-1] if "/bot/" in path else Path(path).name
        print(f"   {calls / n:7.2f}  {short}:{line}({name})")


def regex_time(texts: list[str], top: int) -> None:
    """Section 5: each pattern's C calls' CPU time, the corpus less the long sample, then the sample."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from regex_calls import METHODS, site

    from bot.parse import parse

    def timed(group: list[str]) -> tuple[collections.Counter[tuple[int, str]], dict[int, Any], int]:
        spent: collections.Counter[tuple[int, str]] = collections.Counter()
        patterns: dict[int, Any] = {}
        state: list[Any] = [0, None]
        clock = time.thread_time_ns

        def profile(_frame: Any, event: str, arg: Any) -> None:
            if event == "c_call":
                owner = getattr(arg, "__self__", None)
                if type(owner) is re.Pattern and arg.__name__ in METHODS:
                    state[1] = (id(owner), arg.__name__)
                    patterns[id(owner)] = owner
                    state[0] = clock()
            elif state[1] is not None and event in ("c_return", "c_exception"):
                spent[state[1]] += clock() - state[0]
                state[1] = None

        sys.setprofile(profile)
        try:
            for text in group:
                parse(text)
        finally:
            sys.setprofile(None)
        return spent, patterns, len(group)

    short = [t for t in texts if not t.startswith(LONG_SAMPLE)]
    long = [t for t in texts if t.startswith(LONG_SAMPLE)]
    for label, group in (("the corpus less the long sample", short), ("the long sample", long)):
        if not group:
            continue
        spent, patterns, n = timed(group)
        total = sum(spent.values())
        print(f"5. regex C calls, {label}: {total / n / 1e3:.1f} µs a question (hook-inflated); top {top}:")
        for key, ns in spent.most_common(top):
            print(
                f"   {ns / n / 1e3:7.2f} µs {100 * ns / total:5.1f} %  {key[1]:8s}",
                site(patterns[key[0]])[:80],
            )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--tree", default="", help="measure the checkout at this path")
    ap.add_argument("--skip-regex", action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(args.tree).resolve()) if args.tree else str(REPO))
    import bot.core.pipeline as pipeline
    from bot.render.renderer import render

    texts = [q["text"] for q in json.loads(CORPUS.read_text(encoding="utf-8"))]
    for _ in range(2):  # warm: gates and cue tables from the second message on, catalogs, templates
        for text in texts:
            render(pipeline.answer(text), "html")
    stages(texts, args.repeat)
    collector(texts, args.repeat)
    validation(texts, args.repeat)
    parse_calls(texts, args.top)
    if not args.skip_regex:
        regex_time(texts, args.top)


if __name__ == "__main__":
    main()
