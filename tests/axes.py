"""Axis stress sets (tests/data/axes/<axis>_{zh,en}.json): sentences written per axis of meaning (context
length, load, hardware, model …), each stating the axis's values in a different way, scored with the
real-question scorer (tests/real_questions.py `score`). A seeded third of each set is frozen before the
reader changes (tests/data/axes/frozen_<axis>.sha256) and scored for totals only.

    python -m tests.axes --axis len --split work        # failures and score
    python -m tests.axes --axis len --split test --score-only
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from tests.real_questions import report

DATA = Path(__file__).parent / "data" / "axes"
SEED = 17


def axes() -> list[str]:
    """The axes that have a stress set on disk."""
    return sorted({p.stem.rsplit("_", 1)[0] for p in DATA.glob("*_??.json")})


def _load(axis: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for lang in ("zh", "en"):
        path = DATA / f"{axis}_{lang}.json"
        if path.exists():
            for r in json.loads(path.read_text(encoding="utf-8")):
                out.append({**r, "lang": lang})
    return out


def test_ids(axis: str) -> set[str]:
    """The frozen third: a seeded sample of each language's ids. Adding records changes the sample, so write
    the whole set before freezing it."""
    chosen: set[str] = set()
    for lang in ("zh", "en"):
        ids = sorted(r["id"] for r in _load(axis) if r["lang"] == lang)
        chosen.update(random.Random(f"{SEED}-{axis}-{lang}").sample(ids, len(ids) // 3))
    return chosen


def records(axis: str, split: str | None = None) -> list[dict[str, Any]]:
    """The set's records; `split` 'work' (two thirds), 'test' (the frozen third) or None (all)."""
    recs = _load(axis)
    if split is None:
        return recs
    frozen = test_ids(axis)
    return [r for r in recs if (r["id"] in frozen) == (split == "test")]


def frozen_digest(axis: str) -> str:
    """sha256 of the frozen third (ids, texts and stated values), as written to frozen_<axis>.sha256."""
    test = sorted(records(axis, "test"), key=lambda r: r["id"])
    return hashlib.sha256(json.dumps(test, ensure_ascii=False, sort_keys=True).encode()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--axis", required=True)
    p.add_argument("--split", choices=("work", "test", "all"), default="work")
    p.add_argument("--score-only", action="store_true", help="print only the scores (for the test split)")
    p.add_argument("--freeze", action="store_true", help="write frozen_<axis>.sha256 (once, before any fix)")
    args = p.parse_args(argv)
    if args.freeze:
        (DATA / f"frozen_{args.axis}.sha256").write_text(frozen_digest(args.axis) + "\n")
    recs = records(args.axis, None if args.split == "all" else args.split)
    report(recs, f"{args.axis} {args.split}", args.score_only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
