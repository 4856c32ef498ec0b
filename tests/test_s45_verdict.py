"""Session 45, part verdict (issue 24 item 4): the verdict census over every round's working half.

tests/test_verdict_outcomes.py scored round 1's working split only; it now also scores r2work … r40work
(:func:`tests.test_verdict_outcomes.round_work_splits`), never a ``*test`` half nor the round held out whole
(r8). Two outcome shapes the later rounds use are read as the threads wrote them: a ``fits`` outcome with
value false is a maintainer's "it cannot run" (counted as ``nofit``, which agrees with "does not fit"), and
a time reported as a range (``[2, 4]`` hours) agrees when it overlaps the answer's band.
"""

from __future__ import annotations

from tests.real_questions import ROUNDS, records, split_of_r2
from tests.test_verdict_outcomes import _time_agrees, agreement, round_work_splits


def _record(split: str, record_id: str) -> dict:
    return next(r for r in records(split) if r["id"] == record_id)


def test_the_rounds_census_reads_every_working_half_and_no_held_out_split():
    splits = round_work_splits()
    assert "r8work" not in splits and "r8" not in splits
    assert not any(s.endswith("test") for s in splits)
    assert len(splits) == len(ROUNDS) - 1  # every round but r8
    assert split_of_r2("zh10-001") == "r2work" and split_of_r2("en13-024") == "r2work"


def test_a_maintainers_no_counts_as_said_not_to_run_zh():
    # LlamaFactory#3431: six PCs with one 12 GB RTX 3060 each, Qwen 72B fine-tuning; the maintainer: "不可能"
    rec = _record("r10work", "zh10-001")
    assert rec["outcome"]["kind"] == "fits" and rec["outcome"]["value"] is False
    counts, lines = agreement([rec])
    assert counts["nofit_with_verdict"] == 1 and counts["nofit_no"] == 1
    assert counts["fits_with_verdict"] == 0, lines


def test_a_maintainers_no_counts_as_said_not_to_run_en():
    # DeepSeek-R1-Distill-Qwen-14B at Q6 on a 12 GB GPU, reported not to run: the answer says "borderline",
    # which is not "does not fit", and the record no longer counts as a run that ran
    rec = _record("r13work", "en13-024")
    assert rec["outcome"]["kind"] == "fits" and rec["outcome"]["value"] is False
    counts, lines = agreement([rec])
    assert counts["nofit_with_verdict"] == 1 and counts["nofit_no"] == 0
    assert counts["fits_with_verdict"] == 0 and counts["fits"] == 0, lines


def test_a_reported_time_range_agrees_where_it_overlaps_the_band():
    # zh40-013: the article's table gives LoRA of a 7B on one A100 80G 2–4 hours
    outcome = _record("r40work", "zh40-013")["outcome"]
    assert outcome == {**outcome, "kind": "hours", "value": [2, 4]}
    assert _time_agrees(outcome, {"low": 3 / 24, "high": 5 / 24}) is True  # 3–5 h overlaps 2–4 h
    assert _time_agrees(outcome, {"low": 1 / 24, "high": 2.5 / 24}) is True
    assert _time_agrees(outcome, {"low": 0.003, "high": 0.0064}) is False  # 4–9 minutes
    assert _time_agrees(outcome, {"low": 4.5 / 24, "high": 6 / 24}) is False
    assert _time_agrees({"kind": "days", "value": 14}, {"low": 10, "high": 20}) is True  # a single value
    assert _time_agrees({"kind": "days", "value": 14}, {"low": 15, "high": 20}) is False
