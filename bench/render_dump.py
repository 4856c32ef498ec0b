"""Dump every corpus question's reply in the html and text formats (and json), for a before/after diff.

Usage: ``python bench/render_dump.py OUT.txt`` then ``diff before.txt after.txt``: a render refactor
must leave the file byte-identical (issue 23: speed and structure are never bought with a different
answer). Runs in-process through :func:`bot.cli.ask`, the same path as ``sizing-bot ask --format``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

CORPUS = Path("/work/shared/corpus/questions.json")
FORMATS = ("html", "text", "json")


def dump(corpus: Path = CORPUS) -> str:
    """All replies, one block per (question, format), each headed by ``=== id format``."""
    from bot.cli import ask

    questions = json.loads(corpus.read_text(encoding="utf-8"))
    blocks: list[str] = []
    for q in questions:
        for fmt in FORMATS:
            out, code = ask(q["text"], None, fmt)
            blocks.append(f"=== {q['id']} {fmt} exit={code}\n{out}\n")
    return "".join(blocks)


def main(argv: list[str]) -> int:
    """Write the dump to ``argv[0]`` (or stdout)."""
    corpus = Path(argv[1]) if len(argv) > 1 else CORPUS
    text = dump(corpus)
    if argv:
        Path(argv[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
