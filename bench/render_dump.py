"""Dump every corpus question's reply in the html and text formats (and json), for a before/after diff.

Usage: ``python bench/render_dump.py OUT.txt`` then ``diff before.txt after.txt``: a render refactor
must leave the file byte-identical (issue 23: speed and structure are never bought with a different
answer). Runs in-process through :func:`bot.cli.ask`, the same path as ``sizing-bot ask --format``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "questions.json"
FORMATS = ("html", "text", "json")
EXTRA = (
    "Pre-train a 7B model on 1T tokens: A100 vs H100 vs H800, which is cheapest?",
    "7B模型1万亿token预训练，A100和H100哪个便宜",
    "Serve Llama-3-70B, 100 concurrent, 8k context: A100 or H100?",
    "Full fine-tune Qwen2.5-14B on 100M tokens with 8 H100, tp 16, lora rank 64",
    "部署Qwen2.5-72B，用4张H100还是8张A100",
)
"""Questions the corpus lacks: GPU comparisons (the cheapest line) and settings not used."""


def dump(corpus: Path = CORPUS) -> str:
    """All replies, one block per (question, format), each headed by ``=== id format``."""
    from bot.cli import ask

    questions = json.loads(corpus.read_text(encoding="utf-8"))
    questions += [{"id": f"x{i:02d}", "text": text} for i, text in enumerate(EXTRA, 1)]
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
