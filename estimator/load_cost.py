"""What carries the load, priced (trial s17 #1): a serving question on GPUs that hold fewer sequences
than the load ('2 × A100 80G, 120 concurrent at peak, 10 hours a day: what a month?') is priced for
``recommended_gpus`` too, not only for the user's ``serving_gpus`` that do not carry it.

``Inference.cost_for_load`` = the cost shown for the user's GPUs × ``recommended_gpus`` ÷
``serving_gpus``: the same price per GPU-hour and the same hours (a month of 730 h × hours_per_day ÷ 24,
:mod:`estimator.serving_schedule`; or the stated rental ``hours``, :func:`estimator.training.rented_hours`).
None when the user's GPUs carry the load or no price is known. Pure; currency units.

Trial s17-2 #1: a stated count that does not hold the model at all (``2 × H100`` for a 72B at 120 × 8K,
re-planned on ``serving_gpus`` = 8) billed for stated ``hours`` is priced on the GPUs that fit first:
``cost_for_load`` = the rental × ``recommended_gpus`` ÷ ``billed_gpus`` (the stated count).
"""

from __future__ import annotations

from estimator.models import Cost, Inference, PriceBand


def short_of_load(inf: Inference) -> bool:
    """The GPUs priced hold fewer sequences than the load, and the recommendation is more GPUs."""
    return inf.recommended_gpus > inf.serving_gpus and inf.max_concurrency < inf.concurrency


def unfit_count(inf: Inference, billed_gpus: int | None) -> bool:
    """The stated count billed is fewer GPUs than the plan re-made on ``serving_gpus``: it does not
    hold the model (with one sequence, or at the stated load) — never the answer's count."""
    return bool(billed_gpus) and 0 < billed_gpus < inf.serving_gpus  # type: ignore[operator]


def with_load_cost(inf: Inference, rental: Cost | None = None, billed_gpus: int | None = None) -> Inference:
    """``inf`` with ``cost_for_load``: ``rental`` (the cost of the stated hours on ``billed_gpus``, else
    ``serving_gpus``) scaled to ``recommended_gpus`` when given, else ``cost_per_month`` scaled; ``inf``
    unchanged when the GPUs carry the load or there is no cost to scale."""
    band = rental or inf.cost_per_month
    unfit = rental is not None and unfit_count(inf, billed_gpus)
    if band is None or inf.serving_gpus <= 0 or not (unfit or short_of_load(inf)):
        return inf
    share = inf.recommended_gpus / (billed_gpus if unfit else inf.serving_gpus)  # type: ignore[operator]
    scaled = PriceBand(low=band.low * share, high=band.high * share, currency=band.currency)
    return inf.model_copy(update={"cost_for_load": scaled})


def load_gpu_hours(inf: Inference, hours: float) -> float:
    """GPU-hours of ``recommended_gpus`` over a stated rental of ``hours`` (what ``cost_for_load`` bills)."""
    return inf.recommended_gpus * hours
