"""What 'cheapest' compares between serving options (trial s25 #4): with a load the user stated (concurrent
sequences or users), every option carries that same load, so the cheaper one is the one whose month costs
less (``Inference.cost_per_month``, the middle of its range); with no load stated, each option is priced at
the most its GPUs hold, and the cost per million output tokens compares them (s16 item 7).

Which option is named (:func:`cheapest_of`, session 26): options that hold the job rank first, by their cost
— for training, a count whose GPUs hold it (``memory.fits_requested`` not False); for serving a stated load,
GPUs whose ``max_concurrency`` reaches the stated ``concurrency``. When none holds a stated serving load, the
answer says so first and names the option that holds the most of it per unit of money (sequences held ÷ the
middle of the month's cost); when none holds a single sequence, none is named. Training with no option that
holds the job keeps the cheapest of them (each row already says it does not hold it)."""

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


def holds_load(report: SizingReport) -> bool:
    """Whether ``report``'s GPUs hold the job: training, memory that fits the count (``fits_requested`` not
    False); serving a stated load (:func:`monthly_load`), ``max_concurrency`` ≥ the stated ``concurrency``
    (sequences of the asked context)."""
    if report.memory is not None and report.memory.fits_requested is False:
        return False
    inf = report.inference
    return inf is None or not monthly_load(report) or inf.max_concurrency >= inf.concurrency


def cheapest_of(reports: list[SizingReport], pool: list[int], costs: list[float]) -> int | None:
    """Index into ``reports`` of the option to name among ``pool`` (indices; ``costs`` their sort costs,
    :func:`serving_sort_cost` for serving), by the module's rule: the lowest cost among those that hold the
    job (:func:`holds_load`); none holding a stated serving load, the most sequences held per unit of the
    month's cost (ties: the cheaper month), None when no option holds one; none holding a training job,
    the lowest cost."""
    held = [i for i in pool if holds_load(reports[i])]
    if held or not any(monthly_load(reports[i]) for i in pool):
        return min(held or pool, key=costs.__getitem__)
    share = [i for i in pool if reports[i].inference.max_concurrency > 0]  # type: ignore[union-attr]
    return min(share, key=lambda i: (costs[i] / reports[i].inference.max_concurrency, costs[i]), default=None)


def serving_sort_cost(report: SizingReport) -> float | None:
    """The middle of the month's cost (:func:`monthly_load`), else of the cost per million output tokens;
    None without a cost."""
    inf = report.inference
    assert inf is not None
    c = inf.cost_per_month if monthly_load(report) else inf.cost_per_million_tokens
    return None if c is None else (c.low + c.high) / 2
