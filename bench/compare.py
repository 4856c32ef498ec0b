"""Issue 23 item 7: start-up, memory and answers of this checkout side by side with a base commit,
measured in one run on the same machine, both as a user gets them (`pip install .`: a wheel built
from each tree, installed into its own directory; this checkout's editable install is not used).

Usage: python bench/compare.py [--base COMMIT] [--runs 15] [--messages 10000] [--corpus FILE]
  --base     the commit to compare with (default: where this branch left main, `git merge-base HEAD main`)
  --corpus   questions for the byte-identical check (default tests/data/questions.json,
             else tests/data/questions.json); every question in text, html and json, default language

Measures, for base and head: `sizing-bot ask` start-up (median/min of --runs warm runs, interleaved
with a bare `python -c "import pydantic, jinja2, babel"`), the resident memory of an idle Telegram
application (`bot.telegram.app.build_application`, nothing connected: what `sizing-bot run` holds
before the first update) and after --messages messages through Conversation + render (bench/memory.py's
loop), and whether every answer is byte-identical (prints the count of differing answers).
With ``--parts ...,latency,llm``: each tree's bench/latency.py and bench/vs_llm_analysis.py (``--lla``: the
site-packages of an llm-analysis install), base and head alternating for ``--rounds`` rounds.
Needs git, and hatchling in this interpreter (the test extras).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED_CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "questions.json"
QUESTION = "7B模型1万亿token要多少A100"

IDLE = """
import os
from pathlib import Path
import bot.telegram.app as tg
from bot.telegram.config import BotSettings
app = tg.build_application(BotSettings(telegram_bot_token="1:x", _env_file=None))
rss = [l for l in Path("/proc/self/status").read_text().splitlines() if l.startswith("VmRSS:")]
print(int(rss[0].split()[1]) / 1024)
"""

BUSY = """
import gc, sys
sys.path.insert(0, {bench!r})
from memory import QUESTIONS, REPO, rss_mib  # memory.py puts this checkout on sys.path: take it off
sys.path[:] = [p for p in sys.path if p not in ({bench!r}, str(REPO))]
from bot.core.conversation import Conversation
from bot.render.renderer import render
conversation = Conversation(max_entries=10_000)
for n in range(1, {messages} + 1):
    user = n % 2000
    chat = user if user % 5 else -(user // 25) - 1
    text = QUESTIONS[(n // 2000 + user) % len(QUESTIONS)]
    turn = conversation.ask(chat, user, text, user_lang="zh" if user % 2 else "en")
    render(turn.answer, "html")
gc.collect()
print(rss_mib())
"""

ANSWERS = """
import json, sys
from bot.cli import ask
questions = json.load(open({corpus!r}, encoding="utf-8"))
out = []
for q in questions:
    for fmt in ("text", "html", "json"):
        text, code = ask(q["text"], None, fmt)
        out.append([q.get("id", ""), fmt, code, text])
json.dump(out, open({dest!r}, "w", encoding="utf-8"), ensure_ascii=False)
"""


def _git(*args: str) -> str:
    return subprocess.check_output(["git", "-C", str(REPO), *args], text=True).strip()


def _install(tree: Path, target: Path, wheels: Path) -> None:
    """Build a wheel from ``tree`` (its build hook compiles catalogs, templates, data) into ``target``."""
    pip = [sys.executable, "-m", "pip", "-q", "--disable-pip-version-check"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(tree)], check=True
    )
    [wheel] = sorted(wheels.glob("*.whl"), key=lambda p: p.stat().st_mtime)[-1:]
    subprocess.run([*pip, "install", "--no-deps", "--target", str(target), str(wheel)], check=True)
    wheel.unlink()


def _env(target: Path | None, home: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.upper().startswith(("SIZING_BOT_", "TELEGRAM_", "FEISHU_"))
    }
    env.update(HOME=str(home), PYTHONDONTWRITEBYTECODE="")
    if target is not None:
        env["PYTHONPATH"] = str(target)
    return env


def _wall_and_cpu(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and the child's CPU seconds (user + sys, ``os.wait4``): CPU time moves far less
    than wall time when other processes share the cores."""
    t0 = time.perf_counter()
    child = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime


def _python(code: str, env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else ""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default="")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--messages", type=int, default=10_000)
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--parts", default="startup,memory,answers", help="comma-separated subset to measure")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds of the latency/llm parts")
    ap.add_argument("--lla", default="", help="site-packages of an llm-analysis install (the llm part)")
    args = ap.parse_args()
    base = args.base or _git("merge-base", "HEAD", "main")
    corpus = args.corpus or (
        SHARED_CORPUS if SHARED_CORPUS.exists() else REPO / "tests" / "data" / "questions.json"
    )
    with tempfile.TemporaryDirectory(prefix="sizing-compare-") as tmp:
        work = Path(tmp)
        _git("worktree", "add", "-q", "--detach", str(work / "base-tree"), base)
        try:
            trees = {"base": work / "base-tree", "head": REPO}
            for name, tree in trees.items():
                _install(tree, work / name, work / "wheels")
            parts = set(args.parts.split(","))
            _report(base, corpus, work, args.runs, args.messages, parts)
            if "latency" in parts or "llm" in parts:
                _interleaved(trees, work / "home", parts, args.rounds, args.lla)
        finally:
            _git("worktree", "remove", "--force", str(work / "base-tree"))


def _report(base: str, corpus: Path, work: Path, runs: int, messages: int, parts: set[str]) -> None:
    home = work / "home"
    home.mkdir()
    envs = {name: _env(work / name, home) for name in ("base", "head")}
    print(
        f"base {base[:7]} vs head {_git('rev-parse', '--short', 'HEAD')} (+ working tree); "
        f"{os.cpu_count()} cores"
    )
    if "startup" in parts:
        _startup(envs, home, runs)
    if "memory" in parts:
        _memory(envs, home, work, messages)
    if "answers" in parts:
        _answers(envs, home, work, corpus)


def _startup(envs: dict[str, dict[str, str]], home: Path, runs: int) -> None:
    bare_cmd = [sys.executable, "-c", "import pydantic, jinja2, babel"]
    ask_cmd = [sys.executable, "-m", "bot", "ask", QUESTION]
    times: dict[str, list[float]] = {"bare": [], "base": [], "head": []}
    cpu: dict[str, list[float]] = {"bare": [], "base": [], "head": []}
    for _ in range(runs + 1):  # the first round warms the page cache and bytecode; not counted
        for name in times:
            env = _env(None, home) if name == "bare" else envs[name]
            wall, used = _wall_and_cpu(bare_cmd if name == "bare" else ask_cmd, env, home)
            times[name].append(wall)
            cpu[name].append(used)
    for label, figures in (("start-up", times), ("start-up CPU", cpu)):
        for name in figures:
            figures[name] = figures[name][1:]
        bare = statistics.median(figures["bare"])
        for name in ("bare", "base", "head"):
            med, low = statistics.median(figures[name]), min(figures[name])
            ratio = (
                ""
                if name == "bare"
                else f"   ratio {med / bare:.2f}× (min/min {low / min(figures['bare']):.2f}×)"
            )
            print(f"{label} {name:>4}: median {med * 1e3:6.0f} ms, min {low * 1e3:6.0f} ms{ratio}")


def _memory(envs: dict[str, dict[str, str]], home: Path, work: Path, messages: int) -> None:
    for name, env in envs.items():
        where = _python("import bot; print(bot.__file__)", env, home)
        assert where.startswith(str(work / name)), where  # the installed copy, not this checkout
        idle = float(_python(IDLE, env, home))
        busy = float(_python(BUSY.format(bench=str(REPO / "bench"), messages=messages), env, home))
        print(
            f"memory   {name:>4}: idle Telegram application {idle:6.1f} MiB; "
            f"after {messages:,} messages {busy:6.1f} MiB"
        )


def _answers(envs: dict[str, dict[str, str]], home: Path, work: Path, corpus: Path) -> None:
    answers = {}
    for name, env in envs.items():
        dest = work / f"answers-{name}.json"
        _python(ANSWERS.format(corpus=str(corpus), dest=str(dest)), env, home)
        answers[name] = json.loads(dest.read_text(encoding="utf-8"))
    differ = [a[:2] for a, b in zip(answers["base"], answers["head"], strict=True) if a != b]
    print(
        f"answers: {len(answers['head'])} ({corpus.name}: text, html, json); "
        f"differing: {len(differ)} {differ[:10]}"
    )


LATENCY_STAGES = ("parse", "estimate", "render", "end_to_end")
LATENCY_STAGES += tuple(f"{stage}_cpu" for stage in LATENCY_STAGES)  # CPU-time rows (newer latency.py)
SCRIPTS = {
    "latency": ["latency.py", "--repeat", "5", "--startup-runs", "1"],
    "llm": ["vs_llm_analysis.py", "--repeat", "50"],
}


def _interleaved(trees: dict[str, Path], home: Path, parts: set[str], rounds: int, lla: str) -> None:
    """``bench/latency.py`` (the pipeline per message) and ``bench/vs_llm_analysis.py`` of each tree —
    each script puts its own tree first on ``sys.path``; the wheel build left the compiled catalogs,
    templates and data in it — base and head alternating for ``rounds`` rounds; per figure the median
    of the rounds and the least (the round least disturbed by the machine's other load)."""
    got: dict[tuple[str, str], list[float]] = {}
    for _ in range(rounds):
        for part in [p for p in ("latency", "llm") if p in parts]:
            for name, tree in trees.items():
                env = _env(None, home)
                if part == "llm":
                    env["PYTHONPATH"] = lla
                script, *options = SCRIPTS[part]
                cmd = [sys.executable, str(tree / "bench" / script), *options]
                if part == "latency":  # this checkout's latency.py on each tree: the same clocks and rows
                    cmd = [sys.executable, str(REPO / "bench" / script), *options, "--tree", str(tree)]
                done = subprocess.run(cmd, env=env, cwd=home, capture_output=True, text=True, check=True)
                for label, value in _figures(part, done.stdout):
                    got.setdefault((label, name), []).append(value)
    for (label, name), values in got.items():
        med, low = statistics.median(values), min(values)
        print(f"{name:>4} {label:<62} median of {len(values)} {med:9.3f}  min {low:9.3f}")


def _figures(part: str, out: str) -> list[tuple[str, float]]:
    """(label, number) of each result of latency.py (per stage: median and p99 ms) or vs_llm_analysis.py
    (per case: ours µs, llm-analysis µs, ratio)."""
    rows = []
    for line in out.splitlines():
        cells = line.split()
        if part == "latency" and len(cells) == 4 and cells[0] in LATENCY_STAGES:
            rows += [(f"{cells[0]} median ms", float(cells[1])), (f"{cells[0]} p99 ms", float(cells[2]))]
        elif part == "llm" and len(cells) > 3 and cells[0] in ("train", "serve"):
            case = " ".join(cells[:-3])
            rows += [(f"{case}: ours µs", float(cells[-3])), (f"{case}: llm-analysis µs", float(cells[-2]))]
            rows.append((f"{case}: ratio", float(cells[-1])))
    return rows


if __name__ == "__main__":
    main()
