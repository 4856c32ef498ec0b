"""What bench/latency.py and bench/stage_profile.py share: this checkout, the corpus, the percentile."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "questions.json"


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank on the sorted list, no interpolation)."""
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]
