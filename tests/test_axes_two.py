"""The two-setups axis stress set (tests/data/axes/two_{zh,en}.json, s19-audit: first-contact fault kind B of
rounds 9–12, tests/data/real_questions/README.md): the value asked about is sized and the other named. The
work two-thirds stay understood at least as well as after s19-audit's outcome cue, and the frozen third is
the one frozen before it (scored for totals only)."""

from __future__ import annotations

from pathlib import Path

from tests.axes import DATA, frozen_digest, records
from tests.real_questions import answer_json, score

WORK_FLOOR = 15
"""Work records understood in full after s19-audit (of 16; 14 at the freeze). Left: machines × cards of an
earlier run and a count of machines asked ('4 台机器（32 张 A100）… 8 台机器要多久': 64 cards)."""


def test_frozen_third_is_unchanged() -> None:
    stored = Path(DATA / "frozen_two.sha256").read_text().strip()
    assert frozen_digest("two") == stored


def test_work_split_floor() -> None:
    work = records("two", "work")
    assert len(work) == 16
    full = sum(not score(r, answer_json(r["text"])) for r in work)
    assert full >= WORK_FLOOR


def test_the_value_that_works_is_another_setup() -> None:
    """'32768 fails …, 16384 works': 32768 is sized, 16384 named as another setup (was left unread)."""
    a = answer_json(
        "vLLM: max-model-len 32768 fails on 2 L40S with Qwen2.5-32B-AWQ, 16384 works. Can I get 32768?"
    )
    assert a["request"]["max_model_len"] == 32768
    assert {"text": "16384", "reason": "other_setup"} in a["interpretation"]["ignored"]
