"""A serving deployment that runs part of each day ('8 hours a day', '每天只用 8 小时'): GPUs rented by the
hour cost only the hours they run, so the month costs ``hours_per_day`` ÷ 24 of the around-the-clock
month (730 h, :data:`estimator.serving_speed.HOURS_PER_MONTH`). The GPUs, memory, speed and price per
million tokens do not change (the same deployment, fewer hours). Only for serving: a training run's
duration follows from its compute, and a daily schedule there is named as not used (bot.parse).
Pure; currency units.
"""

from __future__ import annotations

from estimator.ledger import Ledger
from estimator.models import Inference, SizingRequest
from estimator.reasons import Why
from estimator.serving_speed import HOURS_PER_MONTH

HOURS_PER_DAY = 24.0


def on_schedule(req: SizingRequest, inf: Inference, ledger: Ledger) -> Inference:
    """``inf`` with ``cost_per_month`` × hours_per_day ÷ 24, the around-the-clock cost kept as
    ``cost_per_month_always_on`` and the GPU-hours each GPU is rented a month (730 × hours ÷ 24), said
    as ``hours_per_day`` (``hours_per_day_stated``). Unchanged without a stated schedule under 24 h;
    without a monthly cost (no price for the card) the schedule is still said (trial s16 #9)."""
    hours = req.hours_per_day
    month = inf.cost_per_month
    if not hours or hours >= HOURS_PER_DAY:
        return inf
    share = hours / HOURS_PER_DAY
    ledger.assume(
        "hours_per_day", hours, Why.hours_per_day_stated, hours=hours, gpu_hours=HOURS_PER_MONTH * share
    )
    if month is None:
        return inf
    scheduled = month.model_copy(update={"low": month.low * share, "high": month.high * share})
    return inf.model_copy(
        update={
            "cost_per_month": scheduled,
            "cost_per_month_always_on": month,
            "gpu_hours_per_month": HOURS_PER_MONTH * share,
        }
    )
