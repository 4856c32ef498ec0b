"""Dump `sizing-bot ask --format json` (and --format text) for every corpus question, to compare answers.

Usage: python bench/answers_dump.py OUT.json [--corpus PATH]
Runs the CLI's `main` in-process per question (same code path as the console script) and writes
{id: {"json": ..., "text": ...}} to OUT.json, so a refactor can be checked byte-for-byte:
`python bench/answers_dump.py /tmp/before.json`, change, `... /tmp/after.json`, then `cmp`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
CORPORA = [Path("/work/shared/corpus/questions.json"), REPO / "tests" / "data" / "questions.json"]


def _run(argv: list[str]) -> str:
    from bot.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = main(argv)
    return f"rc={rc}\n{out.getvalue()}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--corpus", action="append")
    args = ap.parse_args()
    paths = [Path(p) for p in args.corpus] if args.corpus else [p for p in CORPORA if p.exists()]
    dump: dict[str, dict[str, str]] = {}
    for path in paths:
        for q in json.loads(path.read_text(encoding="utf-8")):
            key = f"{path.name}:{q['id']}"
            dump[key] = {fmt: _run(["ask", "--format", fmt, q["text"]]) for fmt in ("json", "text")}
    text = json.dumps(dump, ensure_ascii=False, indent=1, sort_keys=True)
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"{len(dump)} questions written to {args.out}")


if __name__ == "__main__":
    main()
