"""The GPU count a training answer quotes for a budget per hour or per day (s41 trial #3).

A budget per hour ("budget $40 per hour", "每小时预算 300 元") is a rate: it rents budget ÷ price GPUs at
once (:func:`estimator.budget_check.hourly_budget`). With no GPU count and no deadline stated, that is
the count the question is about: the answer quotes the run on the GPUs the budget rents at the high price
(whole GPUs, the count it surely rents; at least the fewest that hold the model), so the headline's
GPUs and hours, the GPU-hours line and the cost line describe the run the budget pays for. Before, the
headline quoted the fewest GPUs of a 30-day planning window ("85 H100-hours: about 2 GPUs for 1.8 days",
recomputing) under a budget line of "11 – 26 GPUs … 57 GPU-hours take about 2.2 – 5.2 hours".
"""

from __future__ import annotations

import math
from typing import Any

from estimator.budget_check import RATE_HOURS
from estimator.comfortable_count import _with_row
from estimator.models import SizingRequest


def rented_count(req: SizingRequest, out: Any) -> int | None:
    """GPUs a budget per hour or day rents at once at the high price per GPU-hour: floor(budget ÷ hours
    in the period ÷ price_high); None without such a budget, with a stated count or deadline, without a
    price in the budget's currency, or when it rents fewer than the fewest GPUs that hold the model
    (the budget note says so: ``hourly_budget_few``, or only at a capped price)."""
    period = getattr(req, "budget_period", None)
    if not req.budget or period not in RATE_HOURS or req.gpu_count or req.deadline_days:
        return None
    cost, mem = out.cost, out.memory
    if cost is None or not cost.price_high or (req.currency and req.currency != cost.currency):
        return None
    n = math.floor(req.budget / RATE_HOURS[period] / cost.price_high)
    fewest = (mem.min_gpus if mem is not None else None) or 1
    return n if n >= max(1, fewest) and (mem is None or mem.min_gpus is not None) else None


def with_rented_count(req: SizingRequest, out: Any, table: dict[str, Any]) -> dict[str, Any]:
    """``table`` (``gpus_for_deadline``, ``days_table``) quoting the count :func:`rented_count` gives, its
    row added to the days table when missing (:func:`estimator.comfortable_count._with_row`); unchanged
    when there is none."""
    n = rented_count(req, out)
    if n is None:
        return table
    rows = _with_row(out, table.get("days_table") or [], n)
    return {**table, "gpus_for_deadline": n, "days_table": rows}
