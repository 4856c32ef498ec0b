"""The hardware-axis stress set (tests/data/axes/hw_{zh,en}.json): cards, counts, memory per card and in
total, parallel sizes, mixed rigs. The work two-thirds must stay at or above the floor reached in session 17;
the frozen third is never inspected, only its hash checked (tests/axes.py)."""

from __future__ import annotations

from pathlib import Path

from tests import axes
from tests.real_questions import answer_json, score

WORK_FLOOR = 85
"""Work two-thirds understood in full (of 88) at session 17's end (73 at the freeze)."""


def test_frozen_third_unchanged() -> None:
    digest = (Path(axes.DATA) / "frozen_hw.sha256").read_text().strip()
    assert axes.frozen_digest("hw") == digest


def test_set_size() -> None:
    recs = axes.records("hw")
    assert sum(r["lang"] == "zh" for r in recs) >= 60
    assert sum(r["lang"] == "en" for r in recs) >= 60


def test_work_split_floor() -> None:
    full = sum(not score(r, answer_json(r["text"])) for r in axes.records("hw", "work"))
    assert full >= WORK_FLOOR
