"""Per-message latency of parse → estimate → render over every corpus question, and CLI start-up.

Usage: python bench/latency.py [--repeat N] [--cold] [--slowest N]
Prints median and p99 milliseconds per message (per stage and end to end; wall time, then the same
stages in this thread's CPU time: ``parse_cpu`` …) and the wall-clock start-up time of
`sizing-bot ask` (a fresh process answering one question).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from _paths import CORPUS, REPO
from _paths import pct as _pct

sys.path.insert(0, str(REPO))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--startup-runs", type=int, default=15)
    ap.add_argument("--startup-only", action="store_true")
    ap.add_argument("--tree", default="", help="measure the checkout at this path (bench/compare.py: base)")
    ap.add_argument(
        "--cold", action="store_true", help="each question's estimate and answer as a first one (_forget)"
    )
    ap.add_argument(
        "--slowest",
        type=int,
        default=0,
        metavar="N",
        help="also list the N questions of the slowest median estimate, with a cold estimate's Python calls",
    )
    args = ap.parse_args()
    if args.tree:  # that tree's code, this script's questions and clocks
        sys.path.insert(0, str(Path(args.tree).resolve()))
    if args.startup_only:
        startup(args.startup_runs)
        return
    from bot.core.pipeline import answer
    from bot.parse import parse
    from bot.render.renderer import render
    from estimator import estimate

    questions = [q["text"] for q in json.loads(CORPUS.read_text(encoding="utf-8"))]
    for q in questions:  # warm caches (catalogs, templates, translations)
        render(answer(q), "html")
    stages: dict[str, list[float]] = {"parse": [], "estimate": [], "render": [], "end_to_end": []}
    cpu: dict[str, list[float]] = {f"{name}_cpu": [] for name in stages}  # this process's CPU time
    clock = time.thread_time  # CPU seconds of this thread: moves far less than wall time under load
    forget = _forget if args.cold else _nothing
    for _ in range(args.repeat):
        for q in questions:
            forget()
            t0, c0 = time.perf_counter(), clock()
            parsed = parse(q)
            t1, c1 = time.perf_counter(), clock()
            if parsed.request.params_total or parsed.request.tokens:
                estimate(parsed.request)
            t2, c2 = time.perf_counter(), clock()
            forget()
            t5, c5 = time.perf_counter(), clock()  # end to end from here: parse, estimate, render again
            a = answer(q)
            t3, c3 = time.perf_counter(), clock()
            render(a, "html")
            t4, c4 = time.perf_counter(), clock()
            stages["parse"].append((t1 - t0) * 1e3)
            stages["estimate"].append((t2 - t1) * 1e3)
            stages["render"].append((t4 - t3) * 1e3)
            stages["end_to_end"].append((t4 - t5) * 1e3)
            for name, (start, end) in zip(cpu, ((c0, c1), (c1, c2), (c3, c4), (c5, c4)), strict=True):
                cpu[name].append((end - start) * 1e3)
    stages.update(cpu)
    print(
        f"machine: {platform.machine()} {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores; {len(questions)} questions × {args.repeat}"
    )
    print(f"{'stage':<12}{'median ms':>12}{'p99 ms':>10}{'max ms':>10}")
    for name, vals in stages.items():
        print(f"{name:<12}{statistics.median(vals):>12.3f}{_pct(vals, 0.99):>10.3f}{max(vals):>10.3f}")
    if args.slowest:
        slowest(questions, stages["estimate_cpu"], args.slowest)
    startup(args.startup_runs)


def slowest(questions: list[str], estimate_ms: list[float], n: int) -> None:
    """Print the ``n`` questions whose estimate has the highest median CPU time over the repeats
    (``estimate_ms``: one value a question a repeat, in :func:`main`'s order; CPU time: load moves it far
    less than wall time), each with that median (ms) and the Python
    calls (profile 'call' events: the same on every machine) of its estimate as a job's first
    (:func:`_forget`). s33-spest: the estimate's p99 is that of these few questions."""
    from bot.parse import parse
    from estimator import estimate

    ids = [q["id"] for q in json.loads(CORPUS.read_text(encoding="utf-8"))]  # questions' order
    by_question = [statistics.median(estimate_ms[i :: len(questions)]) for i in range(len(questions))]
    print(f"{'est. cpu ms':>12}{'calls':>8}  question (the slowest {n}, median over the repeats)")
    for i in sorted(range(len(questions)), key=by_question.__getitem__, reverse=True)[:n]:
        request = parse(questions[i]).request
        calls = _calls(lambda r=request: estimate(r))
        print(f"{by_question[i]:>12.3f}{calls:>8}  {ids[i]} {questions[i][:70]!r}")


def _calls(run: Callable[[], object]) -> int:
    """Python calls (profile 'call' events) of ``run()`` as a job's first (:func:`_forget` before it)."""
    calls = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        calls += event == "call"

    _forget()
    sys.setprofile(count)
    try:
        run()
    finally:
        sys.setprofile(None)
    return calls - 1  # the lambda's own frame


def _nothing() -> None:
    """No cache dropped (the default: a question asked again, as the loop asks each one ``--repeat``)."""


def _forget() -> None:
    """``--cold``: drop what an answer keeps for the next one of the same job (s33-spre: the training
    searches by job, estimator.plan.kept_searches, and the generic shapes by size,
    estimator.architecture.shape_for_size), so each estimate is measured as a job's first; a tree without
    them (an older base) has nothing to drop. ~1 µs, inside the estimate and end-to-end clocks."""
    import estimator.architecture as arch
    import estimator.plan as plan

    getattr(plan, "forget_searches", _nothing)()
    getattr(arch.shape_for_size, "cache_clear", _nothing)()


def _bytecode_env() -> dict[str, str]:
    """This process's environment with ``PYTHONDONTWRITEBYTECODE`` unset: a machine that sets it (this
    dev box does) would otherwise compile every module from source on every start (``ask`` 0.54 s
    against 0.22 s with bytecode, measured 2026-12-04), which is not the start-up a user sees."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _wall(cmd: list[str], runs: int) -> list[float]:
    """Wall-clock seconds of ``runs`` warm runs of ``cmd`` with bytecode written and read (two
    unmeasured runs first: the first writes the bytecode, the second reads it into the page cache)."""
    env = _bytecode_env()
    for _ in range(2):
        subprocess.run(cmd, capture_output=True, check=False, env=env)
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=False, env=env)
        out.append(time.perf_counter() - t0)
    return out


def _ask_command() -> list[str]:
    """The ``sizing-bot`` console script of this interpreter's environment (beside ``sys.executable``), else
    the first on ``PATH``, else ``python -m bot``. The environment's own first: with the venv not activated,
    ``PATH``'s first ``sizing-bot`` on this dev box is pyenv's shim (a bash script that runs ``pyenv exec``,
    ~90 ms CPU before Python starts, measured 2026-12-06: 306 ms against 215 ms for the venv's script), and
    it runs another checkout's install (/work/main), not the one measured."""
    own = Path(sys.executable).parent / "sizing-bot"
    if own.is_file() and os.access(own, os.X_OK):
        return [str(own)]
    exe = shutil.which("sizing-bot")
    return [exe] if exe else [sys.executable, "-m", "bot"]


def startup(runs: int) -> None:
    """`sizing-bot ask` against the bare imports it cannot avoid (issue 23 item 7: at most 2.5×), both
    with this interpreter, median of ``runs`` warm runs each, bytecode written first (:func:`_wall`)."""
    cmd = _ask_command()
    base = _wall([sys.executable, "-c", "import pydantic, jinja2, babel"], runs)
    ask = _wall([*cmd, "ask", "7B模型1万亿token要多少A100"], runs)
    b, a = statistics.median(base), statistics.median(ask)
    print(
        f"start-up, median of {runs} warm runs with bytecode (PYTHONDONTWRITEBYTECODE unset, written by "
        f"an unmeasured run): `python -c 'import pydantic, jinja2, babel'` "
        f"{b * 1e3:.0f} ms, `sizing-bot ask` {a * 1e3:.0f} ms (max {max(ask) * 1e3:.0f}): ratio {a / b:.2f}"
    )


if __name__ == "__main__":
    main()
