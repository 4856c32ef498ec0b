"""s16 design review: the cost of the count the answer shows was computed three ways
(``SizingReport.headline_cost`` on ``gpus_for_deadline``, ``training_plan.shown_cost`` on ``days.gpus``, the
quote's ``_job_pricing`` on its own row pick); one rule now (estimator/shown_cost.py): the count shown is the
days-table row of the user's count, else ``gpus_for_deadline``; its cost is that row's own, else ``cost``."""

from __future__ import annotations

import pytest

from bot.core.offer import pricing
from estimator import training_plan
from estimator.models import SizingRequest
from estimator.shown_cost import shown_cost, shown_gpus
from estimator.sizing import estimate


def _report_with_paid_row():
    """Qwen2.5-14B full fine-tuning on the user's 2 A100 80GB (2B tokens, 3-day deadline): the headline
    row is 2 GPUs, the deadline's count 6. The 2-GPU row is given a cost of its own at ×1.5 the
    count-free one, as a recomputing fewest count gets (training_plan._rows_paid)."""
    req = SizingRequest(
        stage="finetune", method="full", model="Qwen2.5-14B", gpu="A100-SXM4-80GB", gpu_count=2,
        tokens=2e9, deadline_days=3,
    )  # fmt: skip
    r = estimate(req)
    assert r.days is not None and r.days.gpus == 2 and r.gpus_for_deadline == 6  # they differ
    cost = r.cost
    paid = cost.model_copy(update={"low": cost.low * 1.5, "high": cost.high * 1.5})
    band = r.gpu_hours.model_copy(update={k: v * 1.5 for k, v in r.gpu_hours.model_dump().items()})
    rows = [
        row.model_copy(update={"cost": paid, "gpu_hours": band}) if row.gpus == 2 else row
        for row in r.days_table
    ]
    # s37-billing: a stated count that does not hold the job shows (and bills) the fewest that do; 2 × A100
    # do not hold this job (at least 4), and this fixture is about a row's own cost, so its 2 are taken to
    # hold it
    memory = r.memory.model_copy(update={"fits_requested": True})
    return r.model_copy(update={"days_table": rows, "memory": memory}), paid


def test_one_cost_for_the_count_shown_when_days_differ_from_the_deadline_count():
    report, paid = _report_with_paid_row()
    assert shown_gpus(report) == 2
    assert shown_cost(report) == paid
    assert report.headline_cost == paid  # was the 6-GPU (count-free) cost: gpus_for_deadline
    assert report.headline_cost.low == pytest.approx(report.cost.low * 1.5)
    assert training_plan.shown_cost(report) == paid  # what the budget verdict weighs
    quote = pricing(report, None)
    assert quote is not None and quote.sized_gpus == 2
    assert quote.subtotal_low == pytest.approx(paid.low) and quote.subtotal_high == pytest.approx(paid.high)


def test_a_stated_count_that_does_not_hold_the_job_shows_the_fewest_that_do():
    report, _ = _report_with_paid_row()
    unfit = report.model_copy(update={"memory": report.memory.model_copy(update={"fits_requested": False})})
    assert unfit.memory.min_gpus == 4 and shown_gpus(unfit) == 4  # the headline's 'at least 4' (s37)


def test_without_a_row_of_its_own_the_count_free_cost():
    report, _ = _report_with_paid_row()
    plain = report.model_copy(update={"days": None})  # no user's count: the deadline's 6 GPUs
    assert shown_gpus(plain) == 6 and shown_cost(plain) == report.cost == plain.headline_cost
