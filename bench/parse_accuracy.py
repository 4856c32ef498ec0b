"""Parser accuracy on the question corpus, per field and per category.

Usage: python bench/parse_accuracy.py
Fields are those of the corpus `expected` objects (see tests/corpus.py for the scoring: numbers
within 1 %, GPU by family, ranges by their lower end); stage and method are scored too.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from corpus import FIELDS, field_ok, load_questions  # noqa: E402

from bot.parse import parse  # noqa: E402


def main() -> None:
    per_field: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    per_category: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for q in load_questions():
        result = parse(q["text"])
        exp = q["expected"]
        checks = [field_ok(key, exp.get(key), result)[0] for key, _ in FIELDS]
        stage = result.request.stage.value if result.request.stage else None
        expected_stage = "finetune" if exp["stage"] == "preference" else exp["stage"]
        checks.append(stage == expected_stage)
        per_field["stage"][0] += checks[-1]
        per_field["stage"][1] += 1
        for (key, _), ok in zip(FIELDS, checks, strict=False):
            per_field[key][0] += ok
            per_field[key][1] += 1
        per_category[q["category"]][0] += sum(checks)
        per_category[q["category"]][1] += len(checks)
    print(f"{'field':<22}{'correct':>10}{'accuracy':>10}")
    for key, (ok, n) in per_field.items():
        print(f"{key:<22}{ok:>5}/{n:<4}{ok / n:>10.1%}")
    print(f"\n{'category':<28}{'checks':>10}{'accuracy':>10}")
    for cat, (ok, n) in sorted(per_category.items()):
        print(f"{cat:<28}{ok:>5}/{n:<4}{ok / n:>10.1%}")
    total_ok = sum(v[0] for v in per_category.values())
    total = sum(v[1] for v in per_category.values())
    print(f"\n{'overall':<28}{total_ok:>5}/{total:<4}{total_ok / total:>10.1%}")


if __name__ == "__main__":
    main()
