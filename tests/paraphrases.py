"""Score the bot on paraphrases of working records (tests/data/real_questions/paraphrases_<lang>.json).

Each paraphrase restates one working-split record (``paraphrase_of``) in other words, keeping exactly its
stated settings (``stated``, copied from the source). A paraphrase is understood in full when every stated
key is, as :func:`tests.real_questions.score` judges it. The paraphrases are synthetic and derived from
working records: their score measures robustness to phrasing, not a held-out score.

``python -m tests.paraphrases --lang en``
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from tests.real_questions import DATA, answer_json, score


def paraphrases(lang: str = "en") -> list[dict[str, Any]]:
    """The paraphrase records of one language ([] when its file is absent)."""
    path = DATA / f"paraphrases_{lang}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else []


def misses(lang: str = "en") -> dict[str, list[str]]:
    """The stated keys not understood, per paraphrase id (only the paraphrases with a miss)."""
    out: dict[str, list[str]] = {}
    for r in paraphrases(lang):
        missed = score(r, answer_json(r["text"]))
        if missed:
            out[r["id"]] = missed
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lang", default="en")
    args = p.parse_args(argv)
    recs = {r["id"]: r for r in paraphrases(args.lang)}
    missed = misses(args.lang)
    keys: Counter[str] = Counter()
    for rid, ks in missed.items():
        keys.update(ks)
        print(f"{rid}: {', '.join(ks)} — {recs[rid]['text'][:100]}")
    n, k = len(recs), len(recs) - len(missed)
    print(f"paraphrases {args.lang}: {k}/{n} = {k / max(n, 1):.1%} understood in full")
    print("keys missed most:", ", ".join(f"{k} {c}" for k, c in keys.most_common(12)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
