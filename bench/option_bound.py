"""Issue 23 item 7: how far the p99 lever (comparison options sized by a lighter path) can reach, before
anyone builds it (session 51, s51-speed).

Usage: ``python bench/option_bound.py [--repeat N]``

Over tests/data/questions.json, each question answered once first (gates and tables warm), then
``--repeat`` times through :func:`bot.cli.ask` in html, in this thread's CPU time (the box is shared),
the least try kept per question. :func:`estimator.sizing.estimate` is wrapped to time each call: an
answer's first estimate is the one it shows; every later one sizes an option, a card, a plan or a row
that is compared. Printed: p50/p90/p99/max end to end as is, and the same with every later estimate
costing nothing — the bound no lighter option path can pass —, the CPU in estimates and in the later
ones, and the slowest questions with their estimate counts. No answer is changed.
"""

from __future__ import annotations

import argparse
import json
import time

from _paths import CORPUS, pct


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    import estimator.sizing as sizing
    from bot.cli import ask

    original = sizing.estimate
    acc = [0, 0, 0]  # ns in estimates, calls, ns of the first call

    def timed(request):
        t = time.thread_time_ns()
        out = original(request)
        spent = time.thread_time_ns() - t
        acc[0], acc[1] = acc[0] + spent, acc[1] + 1
        if acc[1] == 1:
            acc[2] = spent
        return out

    sizing.estimate = timed  # estimator.estimate reads it at each call
    texts = [q["text"] if isinstance(q, dict) else q for q in json.loads(CORPUS.read_text())]
    rows = []
    for text in texts:
        ask(text, None, "html")
        best = None
        for _ in range(args.repeat):
            acc[:] = [0, 0, 0]
            t = time.thread_time_ns()
            ask(text, None, "html")
            spent = time.thread_time_ns() - t
            if best is None or spent < best[0]:
                best = (spent, acc[0], acc[1], acc[0] - acc[2])
        rows.append((best[0] / 1e6, best[1] / 1e6, best[2], best[3] / 1e6, text[:60]))
    full = [r[0] for r in rows]
    light = [r[0] - r[3] for r in rows]
    print(f"{len(rows)} questions, ask(html) ms of thread CPU, least of {args.repeat}")
    for name, xs in (("as is", full), ("later estimates free", light)):
        print(
            f"{name:>22}: p50 {pct(xs, 0.5):.2f} p90 {pct(xs, 0.9):.2f}"
            f" p99 {pct(xs, 0.99):.2f} max {max(xs):.2f}"
        )
    total, est, later = sum(full), sum(r[1] for r in rows), sum(r[3] for r in rows)
    print(
        f"CPU: all {total:.1f} ms, in estimates {est:.1f} ({est / total:.1%}),"
        f" later ones {later:.1f} ({later / total:.1%})"
    )
    print(f"estimate calls: {sum(r[2] for r in rows)} for {len(rows)} questions")
    for r in sorted(rows)[-10:]:
        print(f"{r[0]:7.2f} ms, {r[2]} estimates {r[1]:.2f} ms (later {r[3]:.2f}): {r[4]}")


if __name__ == "__main__":
    main()
