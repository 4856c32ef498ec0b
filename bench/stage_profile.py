"""Where a message's time goes, per stage: parse, the rest of the answer (estimate and pipeline), render.

Usage: ``python bench/stage_profile.py [--repeat N] [--top N] [--tail N] [--tree PATH] [--no-profile]``

Over tests/data/questions.json (warm: every question answered once first), each question's
``bot.core.pipeline.answer`` then ``render(answer, "html")``, as bench/latency.py's end to end, with the
time inside ``parse`` (every call the pipeline makes, ``bot.core.pipeline.parse``) split out of the
answer: **parse**, **estimate** (the answer less its parse: the estimate and the pipeline's own steps)
and **render**, in this thread's CPU time (``time.thread_time_ns``), median and p99 over questions ×
repeats, then the questions of the slowest end to end (median over the repeats) with each stage's share.
Then cProfile's top ``--top`` functions by tottime for each stage over the corpus, each stage profiled
alone: the parse as ``parse(q)``; the estimate as ``answer(q)`` with the pipeline's ``parse`` answered
from a dict of the parses made before (so none of its frames count); the render as
``render(a, "html")`` of answers made before. cProfile inflates Python frames several-fold (session 36,
bench/RESULTS.md): its columns rank, the CPU figures above are the measure.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import sys
import time
from pathlib import Path

from _paths import CORPUS, REPO
from _paths import pct as _pct


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--tail", type=int, default=8)
    ap.add_argument("--tree", default="", help="measure the checkout at this path")
    ap.add_argument("--no-profile", action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(args.tree).resolve()) if args.tree else str(REPO))
    import bot.core.pipeline as pipeline
    from bot.render.renderer import render

    items = json.loads(CORPUS.read_text(encoding="utf-8"))
    questions = [q["text"] for q in items]
    for q in questions:  # warm caches (catalogs, templates, translations)
        render(pipeline.answer(q), "html")
    real_parse = pipeline.parse
    spent = [0]

    def timed_parse(*a: object, **k: object) -> object:
        c0 = time.thread_time_ns()
        try:
            return real_parse(*a, **k)
        finally:
            spent[0] += time.thread_time_ns() - c0

    stages: dict[str, list[float]] = {"parse": [], "estimate": [], "render": [], "end_to_end": []}
    clock = time.thread_time_ns
    pipeline.parse = timed_parse
    try:
        for _ in range(args.repeat):
            for q in questions:
                spent[0] = 0
                c0 = clock()
                a = pipeline.answer(q)
                c1 = clock()
                render(a, "html")
                c2 = clock()
                stages["parse"].append(spent[0] / 1e6)
                stages["estimate"].append((c1 - c0 - spent[0]) / 1e6)
                stages["render"].append((c2 - c1) / 1e6)
                stages["end_to_end"].append((c2 - c0) / 1e6)
    finally:
        pipeline.parse = real_parse
    n = len(questions)
    print(f"{n} questions × {args.repeat}, CPU ms (thread time)")
    print(f"{'stage':<12}{'p50':>9}{'p90':>9}{'p99':>9}{'max':>9}{'mean':>9}")
    for name, vals in stages.items():
        print(
            f"{name:<12}{statistics.median(vals):>9.3f}{_pct(vals, 0.9):>9.3f}{_pct(vals, 0.99):>9.3f}"
            f"{max(vals):>9.3f}{statistics.fmean(vals):>9.3f}"
        )
    med = {name: [statistics.median(vals[i::n]) for i in range(n)] for name, vals in stages.items()}
    print(f"\nslowest {args.tail} questions by median end to end (ms: e2e = parse + estimate + render)")
    for i in sorted(range(n), key=med["end_to_end"].__getitem__, reverse=True)[: args.tail]:
        parts = " + ".join(f"{med[s][i]:.2f}" for s in ("parse", "estimate", "render"))
        print(f"{med['end_to_end'][i]:>7.2f} = {parts}  {items[i]['id']} {questions[i][:60]!r}")
    if not args.no_profile:
        _profiles(pipeline, render, questions, args.top)


def _profiles(pipeline: object, render: object, questions: list[str], top: int) -> None:
    parses = {q: pipeline.parse(q) for q in questions}  # type: ignore[attr-defined]
    answers = [pipeline.answer(q) for q in questions]  # type: ignore[attr-defined]
    real_parse = pipeline.parse  # type: ignore[attr-defined]

    def known(text: str, *a: object, **k: object) -> object:
        got = parses.get(text)
        return got if got is not None and not a and not k else real_parse(text, *a, **k)

    runs = {
        "parse": lambda: [real_parse(q) for q in questions],
        "estimate": lambda: [pipeline.answer(q) for q in questions],  # type: ignore[attr-defined]
        "render": lambda: [render(a, "html") for a in answers],  # type: ignore[operator]
    }
    for name, run in runs.items():
        prof = cProfile.Profile()
        if name == "estimate":
            pipeline.parse = known  # type: ignore[attr-defined]
        try:
            prof.runcall(run)
        finally:
            pipeline.parse = real_parse  # type: ignore[attr-defined]
        stats = pstats.Stats(prof, stream=io.StringIO())
        n = len(questions)
        print(f"\n=== {name}: {stats.total_calls / n:.1f} calls a question (profiled; µs a question) ===")  # type: ignore[attr-defined]
        rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)[:top]  # type: ignore[attr-defined]
        print(f"{'calls/q':>8}{'tottime':>9}{'cumtime':>9}  function")
        for (path, line, func), (_, ncalls, tottime, cumtime, _) in rows:
            where = f"{Path(path).parent.name}/{Path(path).name}:{line}" if path != "~" else ""
            print(f"{ncalls / n:>8.2f}{tottime / n * 1e6:>9.1f}{cumtime / n * 1e6:>9.1f}  {where}({func})")


if __name__ == "__main__":
    main()
