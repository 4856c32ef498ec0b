"""Is the user's budget enough? The verdict on a training run's cost, with or without a price.

A budget stated beside a job ("预算200w … 够吗") is a question; it gets an answer either way:
against the cost range when the GPU has a price (catalog or stated), and as the highest price per
GPU-hour at which the budget still covers the run's GPU-hours when it has none.

A budget per period ("预算每月5万") is what the run may spend in each period while it lasts: the run's
budget is the budget per month (:func:`estimator.serving_budget.monthly_budget`) × the run's months —
its billed GPU-hours ÷ the stated GPUs ÷ 730 h a month (8,760 h ÷ 12), or the deadline (stated, or the
planning window :data:`estimator.defaults.DEADLINE_DAYS`) when the GPU count is the answer's; at least
one month (a run of a day may spend that month's budget, not 1/30 of it).

A budget per hour ("$40 per hour", "预算每小时100元") is a rate, not a sum: it rents budget ÷ price GPUs at
once (whole GPUs, fewer at the high price), and the run's billed GPU-hours take GPU-hours ÷ those GPUs
hours on them (:func:`hourly_budget`; trial s11 item 12: it was turned into a month's sum). A budget per
day ("每天预算 2000 元", "$1,000 a day") is a rate too, spent around the clock: budget ÷ 24 h ÷ price GPUs
at once (s12: it was turned into a month's sum), said per day (``daily_budget``).
"""

from __future__ import annotations

import math
from typing import Any

from estimator import defaults
from estimator.ledger import Ledger
from estimator.models import Band, Cost, Currency, SizingRequest
from estimator.serving_speed import HOURS_PER_MONTH


def run_budget(req: SizingRequest, billed_gpu_hours: float) -> tuple[float, dict[str, float]]:
    """The budget of the whole run (currency units) and, for a budget per period, the note's extra
    parameters: ``per_month`` (the budget per month) and ``months`` (the run's length in months of
    730 h). A budget with no period is the run's sum as stated."""
    from estimator.serving_budget import monthly_budget

    per_month = monthly_budget(req)
    if per_month is None or not req.budget:
        return req.budget or 0.0, {}
    if req.gpu_count:
        hours = billed_gpu_hours / req.gpu_count
    else:
        hours = 24.0 * (req.deadline_days or req.deadline_default_days or defaults.DEADLINE_DAYS.value)
    # as the reply shows it (the budget is per_month × it); a run inside one month may spend that month's
    months = max(1.0, round(hours / HOURS_PER_MONTH, 1))
    return per_month * months, {"per_month": per_month, "months": months}


def check_budget(
    req: SizingRequest, cost: Cost, ledger: Ledger, min_gpus: int | None = None, out: Any = None
) -> None:
    """A budget given next to a data size is a question: "is it enough?" — say so either way. The
    verdict is on the likely GPU-hours at the price range; "within" also names the cost of a run at the
    low end of the MFU range when that would exceed the budget (``cost_high_band``). ``min_gpus``: the
    fewest GPUs that hold the model (a budget per hour or day never rents fewer: :func:`hourly_budget`).
    ``out``: the training result, whose ``fewest_recompute`` (fewest GPUs, factor, first count that keeps
    the activations) and count-free ``cost`` time the GPUs a budget per hour or day rents."""
    if not req.budget or (req.currency and req.currency != cost.currency):
        return
    if req.budget_period in RATE_HOURS:
        keep = getattr(out, "fewest_recompute", None)
        keeps = (keep[2], out.cost) if keep is not None and out.cost is not None else None
        if out is not None and out.gpus_for_deadline and rented_count(req, out) == out.gpus_for_deadline:
            keeps = None  # ``cost`` is already the rented count's, the headline's (s41 trial #3)
        hourly_budget(req.budget, cost, ledger, req.budget_period, min_gpus or 1, keeps)
        return
    budget, period = run_budget(req, cost.billed_gpu_hours)
    params = {
        "budget": budget,
        "cost_low": cost.low,
        "cost_high": cost.high,
        "currency": cost.currency.value,
        **period,
    }
    if cost.low > budget:
        ledger.note("over_budget", **params)
    elif cost.high <= budget:
        if cost.high_with_mfu and cost.high_with_mfu > budget:  # a slow run would not be
            params["cost_high_band"] = cost.high_with_mfu
        ledger.note("within_budget", **params)
    else:
        ledger.note("budget_borderline", **params)
    if getattr(req, "epochs_asked", None) and not period:
        budget_epochs(budget, cost, req.epochs or 1.0, ledger)


def budget_epochs(budget: float, cost: Cost, epochs: float, ledger: Ledger) -> None:
    """'How many epochs can I run?' with a budget (trial s43 q11_zh): the note ``budget_epochs`` with the
    cost of one epoch (the run's cost range ÷ its ``epochs``: GPU-hours scale with the tokens, C = 6ND)
    and the whole epochs the budget pays for — ``epochs_low`` = ⌊budget ÷ epoch cost at the high price⌋,
    ``epochs_high`` = ⌊budget ÷ epoch cost at the low price⌋ (currency units)."""
    low, high = cost.low / epochs, cost.high / epochs
    if low <= 0:
        return
    params = {
        "budget": budget,
        "epoch_cost_low": low,
        "epoch_cost_high": high,
        "currency": cost.currency.value,
    }
    ledger.note(
        "budget_epochs", epochs_low=math.floor(budget / high), epochs_high=math.floor(budget / low), **params
    )


RATE_HOURS = {"hour": 1.0, "day": 24.0}
"""Budget periods that are rates (hours in one period): the budget rents GPUs at once for the run."""


def rented_count(req: SizingRequest, out: Any) -> int | None:
    """:func:`estimator.rate_budget_count.rented_count` (imported when called: it imports this module)."""
    from estimator.rate_budget_count import rented_count as count

    return count(req, out)


def hourly_budget(
    budget: float,
    cost: Cost,
    ledger: Ledger,
    period: str = "hour",
    min_gpus: int = 1,
    keeps: tuple[int, Cost] | None = None,
) -> None:
    """A budget per hour or per day (currency units per ``period``) against the GPUs' price per GPU-hour:
    the GPUs it rents at once (``gpus_low`` at the high price … ``gpus_high`` at the low one, whole GPUs;
    a day's budget ÷ 24 h) and the hours the run's billed GPU-hours (the headline's, recomputation and
    offload included) take on them (``hours_low`` on the most GPUs … ``hours_high`` on the fewest; a run
    that scales to that many GPUs). Not one GPU at the low price: ``hourly_budget_short``
    (``daily_budget…`` for a day's budget).

    Never fewer GPUs than the ``min_gpus`` that hold the model (s12 trial A12: "rents 4 – 10 cards"
    where 8 are needed): when the high price rents fewer, ``gpus_low`` is ``min_gpus`` and
    ``price_cap`` the highest price at which the budget still rents them (budget per hour ÷
    ``min_gpus``), beside the catalog's range kept as it is (s13 review 14: the range was narrowed to
    the cap, "$1.20 – $1.25" with no word why); when even the low price rents fewer, ``…_budget_few``
    names both counts. ``keeps``: (the first count that keeps the activations, the cost at the calibrated
    rate) when only fewer GPUs pay full recompute (``cost`` is theirs): when every count rented is at or
    above it, the run's GPU-hours are the calibrated ones (s35 fixb #2: $40 an hour rents 11 – 26 H100s,
    and 70B LoRA recomputes only on 2)."""
    if keeps is not None and math.floor(budget / RATE_HOURS[period] / cost.price_high) >= keeps[0]:
        cost = keeps[1]
    code = "daily_budget" if period == "day" else "hourly_budget"
    per_hour = budget / RATE_HOURS[period]
    gpus_low, gpus_high = math.floor(per_hour / cost.price_high), math.floor(per_hour / cost.price_low)
    params = {"budget": budget, "price_low": cost.price_low, "price_high": cost.price_high}
    params |= {"currency": cost.currency.value, "gpu_hours": cost.billed_gpu_hours}
    if gpus_high < 1:
        ledger.note(code + "_short", **params)
        return
    if gpus_high < min_gpus:  # the budget rents GPUs, but too few to hold the model
        ledger.note(code + "_few", **params, gpus_high=gpus_high, min_gpus=min_gpus)
        return
    if gpus_low < min_gpus:  # only at a price up to per_hour / min_gpus does it rent enough
        gpus_low, params["price_cap"] = min_gpus, per_hour / min_gpus
    hours = {"hours_low": cost.billed_gpu_hours / gpus_high}
    hours["hours_high"] = cost.billed_gpu_hours / max(1, gpus_low)
    ledger.note(code, **params, gpus_low=max(1, gpus_low), gpus_high=gpus_high, **hours)


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
