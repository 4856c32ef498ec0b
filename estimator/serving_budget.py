"""A budget stated with a serving question (issue 24): '预算每月5万', 'budget $3k a month', '月预算 5 万',
'预算每小时 100 元', or a sum with no period. It is a question — does the answer's serving cost fit it, and
what does it buy — answered either way (as the training path does: :mod:`estimator.budget_check`).

A GPU is rented by the hour whatever its load, so a period budget is compared per month: the answer's
GPUs × :data:`~estimator.serving_speed.HOURS_PER_MONTH` (730) h × the price per GPU-hour (the serving
cost per month, ``Inference.cost_per_month``). The GPUs the budget rents are budget per month ÷ (730 h ×
price), whole GPUs (low at the high price); the copies of the answer's layout (TP × PP GPUs each) they
make, and the sequences those copies hold at the answer's context (``Inference.max_concurrency`` per copy).
A budget with no period is a sum: how many months it pays the answer's GPUs. Pure; currency units.
"""

from __future__ import annotations

import math

from estimator.ledger import Ledger, PriceRange
from estimator.models import Currency, Inference, SizingRequest
from estimator.serving_speed import HOURS_PER_MONTH

PER_MONTH = {
    "hour": HOURS_PER_MONTH,
    "day": HOURS_PER_MONTH / 24,
    "week": HOURS_PER_MONTH / 168,
    "month": 1.0,
    "year": 1 / 12,
}
"""A period budget × this = the budget per month (730 h: 8,760 / 12; a day of 24 h, a week of 168 h)."""


def monthly_budget(req: SizingRequest) -> float | None:
    """The stated budget per month (currency units), or None when it has no period (a sum)."""
    if not req.budget or req.budget_period not in PER_MONTH:
        return None
    return req.budget * PER_MONTH[req.budget_period]


def check_serving_budget(
    req: SizingRequest, inf: Inference, price: PriceRange | None, ledger: Ledger
) -> None:
    """The budget's verdict on the serving answer ``inf`` (its GPUs at ``price`` per GPU-hour) as a note:
    within / over / borderline for a budget per period, with the GPUs, copies and sequences it rents;
    the months it pays for a sum; without a price, the most it pays per GPU-hour for the answer's GPUs.
    Nothing when no budget was stated or its currency is not the price's. FP8 weights that fit the budget
    on a catalog card that runs them weight-only (NVIDIA Ampere) add ``fit_weight_only``
    (:func:`estimator.serving.runs_fp8_weight_only`)."""
    if not req.budget or (price is not None and req.currency and req.currency != price[2]):
        return
    per_month = monthly_budget(req)
    gpus = max(1, inf.serving_gpus)
    currency = (price[2] if price else req.currency or Currency.CNY).value
    base = {"budget": req.budget, "period": req.budget_period or "", "gpu_count": gpus, "currency": currency}
    if price is None or inf.cost_per_month is None:
        if per_month is not None:  # the most per GPU-hour at which the budget rents the answer's GPUs
            ledger.note("serving_budget_no_price", **base, max_price=per_month / (_hours(inf) * gpus))
        return
    low, high, cost = price[0], price[1], inf.cost_per_month
    base |= {"cost_low": cost.low, "cost_high": cost.high}
    if per_month is None:  # a sum: the months it pays these GPUs
        months = {"months_low": req.budget / cost.high, "months_high": req.budget / cost.low}
        ledger.note("serving_budget_months", **base, **months)
        return
    code = (
        "serving_over_budget"
        if cost.low > per_month
        else "serving_within_budget"
        if cost.high <= per_month
        else "serving_budget_borderline"
    )
    if code != "serving_within_budget":  # lead with what fits the budget (trial report s10 A9)
        base |= _lighter_within(inf, per_month, low, high, gpus)
        if base.get("fit_precision") == "fp8":  # s43: say W8A16 on Ampere (no FP8 tensor cores)
            from estimator.catalog import resolve_gpu
            from estimator.serving import runs_fp8_weight_only

            gpu = resolve_gpu(req.gpu)
            base["fit_weight_only"] = gpu is not None and not gpu.has_fp8 and runs_fp8_weight_only(gpu)
    group = max(1, inf.tp * inf.pp)
    per_copy = inf.max_concurrency // max(1, inf.replicas)
    bought = [math.floor(per_month / (_hours(inf) * p) + 1e-9) for p in (high, low)]
    copies = [n // group for n in bought]
    ledger.note(
        code,
        **base,
        monthly=per_month,
        gpus_low=bought[0],
        gpus_high=bought[1],
        copies_low=copies[0],
        copies_high=copies[1],
        group=group,
        sequences_low=copies[0] * per_copy,
        sequences_high=copies[1] * per_copy,
    )


def _lighter_within(
    inf: Inference, per_month: float, low: float, high: float, gpus: int
) -> dict[str, object]:
    """The lighter weights (``Inference.alternatives``: FP8, INT4 — the fewest GPUs for the same load)
    on fewer GPUs than the answer's ``gpus`` (on as many they cost the same: no alternative) whose GPUs
    cost at most ``per_month`` at the low price per GPU-hour, the fewest GPUs first: its precision,
    GPUs and cost a month (GPUs × 730 h × the price range). Empty when none does."""
    cheap = [a for a in inf.alternatives if a.min_gpus and a.min_gpus < gpus]
    fits = sorted(
        (a for a in cheap if a.min_gpus and a.min_gpus * _hours(inf) * low <= per_month),
        key=lambda a: a.min_gpus or 0,
    )
    if not fits:
        return {}
    n = fits[0].min_gpus or 0
    return {
        "fit_precision": fits[0].change,
        "fit_gpus": n,
        "fit_cost_low": n * _hours(inf) * low,
        "fit_cost_high": n * _hours(inf) * high,
    }


def _hours(inf: Inference) -> float:
    """Hours a month each GPU is rented: 730, or fewer on a stated daily schedule
    (:mod:`estimator.serving_schedule`)."""
    return inf.gpu_hours_per_month or HOURS_PER_MONTH
