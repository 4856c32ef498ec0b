"""The cost of what carries the load (trial s17 #1): when the user's serving GPUs hold fewer sequences
than the load they stated, a cost question is answered for the GPUs that carry it
(``Inference.cost_for_load``, :mod:`estimator.load_cost`), and the user's own GPUs' cost is labelled as
theirs — never their GPUs' cost alone, as if it were the answer.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.render.fmt import Fmt, money_span
from estimator.later import later
from estimator.models import SizingReport

# imported on first call (s43-speed: a plain question calls none of them)
(unfit_count,) = later("estimator.load_cost", "unfit_count")


def load_cost_section(
    report: SizingReport, f: Fmt, on_schedule: Callable[[str], str]
) -> dict[str, str] | None:
    """``inf.load_cost`` for ``_inference.j2``: ``gpus`` (recommended, formatted), ``month`` (their
    month's cost with its daily schedule, worded by ``on_schedule``: bot.render.serving_text.scheduled),
    ``cost`` (their cost for a stated rental's hours), ``gh`` (those GPU-hours), ``unfit`` ("1" when the
    stated count does not hold the model at all: their count's cost is not shown, trial s17-2 #1); None
    when the GPUs stated carry the load, no load was stated (an assumed load is not the user's) or no
    price is known. Its ``gh`` (the GPU-hours of a stated rental) is core's, set by
    :func:`with_load_gpu_hours` (:mod:`bot.core.derived_hours`): render formats, never computes it."""
    inf, req = report.inference, report.request
    c = inf.cost_for_load if inf is not None else None
    if inf is None or c is None or not req.gpu_count:
        return None
    unfit = unfit_count(inf, req.gpu_count)
    if not (unfit or req.concurrency or req.target_tokens_per_s):  # the load is the user's, not assumed
        return None
    money = money_span(f, c.low, c.high, c.currency)
    out = {"gpus": f.int(inf.recommended_gpus), "cost": money, "month": on_schedule(money)}
    if unfit:
        out["unfit"] = "1"
    return out


def with_load_gpu_hours(inference: dict | None, f: Fmt, load_gpu_hours: float | None) -> None:
    """Set the serving section's load cost's ``gh`` to core's ``load_gpu_hours``, formatted, when both are
    there (in place)."""
    load = inference.get("load_cost") if inference is not None else None
    if load is not None and load_gpu_hours is not None:
        load["gh"] = f.hours(load_gpu_hours)
