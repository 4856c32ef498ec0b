"""The context/sequence-length axis stress set (tests/data/axes/len_{zh,en}.json, issue 24, s17-ax-len):
its frozen third is unchanged since the freeze, and the working two-thirds stay understood at the level
the length reader reached (a floor that fails on any loss)."""

from __future__ import annotations

from pathlib import Path

from tests import axes
from tests.real_questions import answer_json, score

AXIS = "len"
WORK_FLOOR = 85
"""Working two-thirds understood in full (of 88) at the end of s17-ax-len (85); 74 at the freeze."""


def test_frozen_third_unchanged() -> None:
    frozen = (Path(axes.DATA) / f"frozen_{AXIS}.sha256").read_text().strip()
    assert axes.frozen_digest(AXIS) == frozen


def test_set_size() -> None:
    recs = axes.records(AXIS)
    assert sum(r["lang"] == "zh" for r in recs) >= 60
    assert sum(r["lang"] == "en" for r in recs) >= 60
    assert len(axes.records(AXIS, "test")) == 44


def test_work_floor() -> None:
    work = axes.records(AXIS, "work")
    full = sum(not score(r, answer_json(r["text"])) for r in work)
    assert full >= WORK_FLOOR, f"{full}/{len(work)} understood in full, floor {WORK_FLOOR}"
