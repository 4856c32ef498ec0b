"""Is the user's budget enough? The verdict on a training run's cost, with or without a price.

A budget stated beside a job ("预算200w … 够吗") is a question; it gets an answer either way:
against the cost range when the GPU has a price (catalog or stated), and as the highest price per
GPU-hour at which the budget still covers the run's GPU-hours when it has none.
"""

from __future__ import annotations

from estimator.ledger import Ledger
from estimator.models import Band, Cost, Currency, SizingRequest


def check_budget(req: SizingRequest, cost: Cost, ledger: Ledger) -> None:
    """A budget given next to a data size is a question: "is it enough?" — say so either way. The
    verdict is on the likely GPU-hours at the price range; "within" also names the cost of a run at the
    low end of the MFU range when that would exceed the budget (``cost_high_band``)."""
    if not req.budget or (req.currency and req.currency != cost.currency):
        return
    params = {
        "budget": req.budget,
        "cost_low": cost.low,
        "cost_high": cost.high,
        "currency": cost.currency.value,
    }
    if cost.low > req.budget:
        ledger.note("over_budget", **params)
    elif cost.high <= req.budget:
        if cost.high_with_mfu and cost.high_with_mfu > req.budget:  # a slow run would not be
            params["cost_high_band"] = cost.high_with_mfu
        ledger.note("within_budget", **params)
    else:
        ledger.note("budget_borderline", **params)


def budget_without_price(req: SizingRequest, hours: Band, gpu: str, ledger: Ledger) -> None:
    """A budget with no price for the GPU: the break-even price, budget ÷ the high end of the GPU-hours
    band (units: the budget's currency per GPU-hour). At or below it the budget covers even a slow run;
    the user compares it with the quotes they get. Nothing when no budget was stated."""
    if not req.budget or hours.high <= 0:
        return
    ledger.note(
        "budget_no_price",
        budget=req.budget,
        max_price=req.budget / hours.high,
        gpu_hours=hours.high,
        gpu=gpu,
        currency=(req.currency or Currency.CNY).value,
    )
