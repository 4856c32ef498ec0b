"""What 'cheapest' compares between serving options (trial s25 #4): with a load the user stated (concurrent
sequences or users), every option carries that same load, so the cheaper one is the one whose month costs
less (``Inference.cost_per_month``, the middle of its range); with no load stated, each option is priced at
the most its GPUs hold, and the cost per million output tokens compares them (s16 item 7)."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from estimator.models import SizingReport

_FIELD = attrgetter("field")


def monthly_load(report: SizingReport) -> bool:
    """Whether ``report`` serves a load the user stated (a concurrency not among its assumptions: the
    resolved request carries the assumed one too) and has a month's cost: options then compare by it."""
    inf = report.inference
    if inf is None or inf.cost_per_month is None or not report.request.concurrency:
        return False
    return "concurrency" not in map(_FIELD, report.assumptions)


def serving_sort_cost(report: SizingReport) -> float | None:
    """The middle of the month's cost (:func:`monthly_load`), else of the cost per million output tokens;
    None without a cost."""
    inf = report.inference
    assert inf is not None
    c = inf.cost_per_month if monthly_load(report) else inf.cost_per_million_tokens
    return None if c is None else (c.low + c.high) / 2
