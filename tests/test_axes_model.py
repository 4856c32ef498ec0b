"""The model/method axis stress set (tests/data/axes/model_{zh,en}.json, issue 24, s17): the work two-thirds
stay understood at least as well as at the end of session 17, and the frozen third is the one frozen before
any reader change (its failures are never printed: scored for totals only by the lead)."""

from __future__ import annotations

from pathlib import Path

from tests.axes import DATA, frozen_digest, records
from tests.real_questions import answer_json, score

WORK_FLOOR = 111
"""Work records understood in full at the end of session 17 (of 112; 107 at the freeze)."""


def test_frozen_third_is_unchanged() -> None:
    stored = Path(DATA / "frozen_model.sha256").read_text().strip()
    assert frozen_digest("model") == stored


def test_work_split_floor() -> None:
    work = records("model", "work")
    assert len(work) == 112
    full = sum(not score(r, answer_json(r["text"])) for r in work)
    assert full >= WORK_FLOOR
