"""Dump ``sizing-bot ask`` answers (--format json and text) for every corpus question; compare two dumps.

Usage: ``python bench/answers_dump.py dump OUT.json``, then
``python bench/answers_dump.py compare A.json B.json``.
Runs the real CLI entry point (bot.cli.main) in-process, stdout captured. The comparison allows only
JSON fields added in B (a key absent from A); every other difference is counted and listed.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "questions.json"


def _ask(text: str, fmt: str) -> str:
    from bot.cli import main

    out = io.StringIO()
    quiet = contextlib.redirect_stderr(io.StringIO())
    with contextlib.redirect_stdout(out), quiet, contextlib.suppress(SystemExit):
        main(["ask", "--format", fmt, "--", text])
    return out.getvalue()


def dump(path: str) -> None:
    questions = json.loads(CORPUS.read_text(encoding="utf-8"))
    answers = {q["id"]: {"text": _ask(q["text"], "text"), "json": _ask(q["text"], "json")} for q in questions}
    Path(path).write_text(json.dumps(answers, ensure_ascii=False, indent=1), encoding="utf-8")


def _diff(a: object, b: object, where: str, out: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            if key not in b:
                out.append(f"{where}.{key}: dropped")
            else:
                _diff(a[key], b[key], f"{where}.{key}", out)
        return
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _diff(x, y, f"{where}[{i}]", out)
        return
    if a != b:
        out.append(f"{where}: {str(a)[:80]!r} -> {str(b)[:80]!r}")


def compare(before: str, after: str) -> int:
    a = json.loads(Path(before).read_text(encoding="utf-8"))
    b = json.loads(Path(after).read_text(encoding="utf-8"))
    diffs: list[str] = []
    for qid, ans in a.items():
        if ans["text"] != b[qid]["text"]:
            diffs.append(f"{qid} text differs")
        try:
            ja, jb = json.loads(ans["json"]), json.loads(b[qid]["json"])
        except ValueError:
            if ans["json"] != b[qid]["json"]:
                diffs.append(f"{qid} json (unparsed) differs")
            continue
        _diff(ja, jb, qid, diffs)
    print("\n".join(diffs[:50]))
    print(f"{len(a)} questions, {len(diffs)} differences other than added JSON fields")
    return 1 if diffs else 0


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(sys.argv[2])
    else:
        sys.exit(compare(sys.argv[2], sys.argv[3]))
