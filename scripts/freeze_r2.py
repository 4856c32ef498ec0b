"""Write frozen_r<N>_test_<lang>.sha256 for round N's held-out half (run once, when its records are
gathered).

Usage: python scripts/freeze_r2.py zh|en [round, default 2]
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.real_questions import DATA, records


def main(lang: str, round_no: int = 2) -> None:
    tag = f"r{round_no}"
    test = sorted((r for r in records(f"{tag}test") if r["lang"] == lang), key=lambda r: r["id"])
    digest = hashlib.sha256(json.dumps(test, ensure_ascii=False, sort_keys=True).encode()).hexdigest()
    (DATA / f"frozen_{tag}_test_{lang}.sha256").write_text(digest + "\n")
    work = [r for r in records(f"{tag}work") if r["lang"] == lang]
    print(f"{lang}: {tag}test {len(test)} records frozen ({digest[:12]}), {tag}work {len(work)}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2)
