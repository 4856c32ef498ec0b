"""Write frozen_r2_test_<lang>.sha256 for round 2's held-out half (run once, when its records are gathered).

Usage: python scripts/freeze_r2.py zh|en
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.real_questions import DATA, records


def main(lang: str) -> None:
    test = sorted((r for r in records("r2test") if r["lang"] == lang), key=lambda r: r["id"])
    digest = hashlib.sha256(json.dumps(test, ensure_ascii=False, sort_keys=True).encode()).hexdigest()
    (DATA / f"frozen_r2_test_{lang}.sha256").write_text(digest + "\n")
    work = [r for r in records("r2work") if r["lang"] == lang]
    print(f"{lang}: r2test {len(test)} records frozen ({digest[:12]}), r2work {len(work)}")


if __name__ == "__main__":
    main(sys.argv[1])
