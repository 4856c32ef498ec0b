"""Score the bot on paraphrases of working-split records (tests/data/real_questions/paraphrases_<lang>.json).

Each paraphrase keeps its source record's ``stated`` settings word for word as a label, phrased as another
person would ask (clause order, verbs, connectives, short forms, numbers in other forms). They are
synthetic, derived from working records only: a measure of robustness to phrasing, not a held-out
measure. Scored as the real questions are (:func:`tests.real_questions.score`):
``python -m tests.paraphrases --lang zh``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from tests.real_questions import DATA, answer_json, score


def paraphrases(lang: str = "zh") -> list[dict[str, Any]]:
    """The paraphrase records of one language (empty when the file is absent)."""
    path = DATA / f"paraphrases_{lang}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else []


def misses(lang: str = "zh") -> dict[str, list[str]]:
    """Each paraphrase's id → the stated keys not understood (empty list: understood in full)."""
    return {r["id"]: score(r, answer_json(r["text"])) for r in paraphrases(lang)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lang", default="zh")
    args = p.parse_args(argv)
    recs = {r["id"]: r for r in paraphrases(args.lang)}
    missed: Counter[str] = Counter()
    full = 0
    for rid, keys in misses(args.lang).items():
        full += not keys
        missed.update(keys)
        if keys:
            print(f"{rid}: {', '.join(keys)} — {recs[rid]['text'][:90]}")
    n = len(recs)
    print(f"paraphrases {args.lang}: {full}/{n} = {full / max(n, 1):.1%} understood in full")
    print("keys missed most:", ", ".join(f"{k} {c}" for k, c in missed.most_common(12)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
