"""The load-axis stress set (tests/data/axes/load_{zh,en}.json: concurrency, engine batch caps, training
batch, accumulation, dataset size, RL generations per prompt): its frozen third is unchanged since the
freeze, and the work two-thirds is understood at least as well as at the end of session 17."""

from __future__ import annotations

from pathlib import Path

from tests import axes
from tests.real_questions import answer_json, score

AXIS = "load"
WORK_FLOOR = 81
"""Work records understood in full (of 87; the freeze scored 71): 86 at session 17's end, 82 under s20's
honest scorer (7b90c3ee, tests/named_keys.py) with the answers unchanged (checked at dce039bc): load-zh-007,
load-zh-022, load-en-006, load-en-025 label a request rate ('QPS 5', '10 requests per second') as
concurrency; the answer sizes it as a rate and names it in a 'qps: …' item, which no longer counts for the
stated concurrency key. 81 at the s42 merge: load-en-020 ('Going from 20 to 100 concurrent users … how many
more 3090s') gets a row per value since s42-lists (20 and 100 each sized: 2 GPUs, 100 on a TP 2 layout),
where main named 100 'repeated', an item the scorer counted; the headline still sizes the 20 (left)."""


def test_frozen_third_unchanged() -> None:
    frozen = (Path(axes.DATA) / f"frozen_{AXIS}.sha256").read_text().strip()
    assert axes.frozen_digest(AXIS) == frozen


def test_set_size() -> None:
    recs = axes.records(AXIS)
    assert sum(r["lang"] == "zh" for r in recs) >= 60 and sum(r["lang"] == "en" for r in recs) >= 60


def test_work_floor() -> None:
    full = sum(not score(r, answer_json(r["text"])) for r in axes.records(AXIS, "work"))
    assert full >= WORK_FLOOR
