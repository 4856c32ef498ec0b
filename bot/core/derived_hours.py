"""GPU-hours and hours an answer shows that are not a report field: derived once in core, so render only
formats them (review #7 of session 17, s18-fix item 5).

- ``load_gpu_hours``: the GPU-hours of the GPUs that carry a serving load over a stated rental
  (``recommended_gpus`` × ``hours``: :func:`estimator.load_cost.load_gpu_hours`, what
  ``Inference.cost_for_load`` bills); None without a rental or a load cost.
- ``row_hours``: each method row's training time on its own GPUs (its GPU-hours ÷ its ``plan_gpus``:
  :mod:`estimator.method_hours`), None for a row without a time or a GPU count.

Figures are the same as render computed them before (tests/test_derived_hours.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from estimator.later import later
from estimator.models import SizingReport

# imported on first call (s43-speed: a plain question calls none of them)
(load_gpu_hours,) = later("estimator.load_cost", "load_gpu_hours")


@dataclass(frozen=True, slots=True)
class DerivedHours:
    """What :func:`derived_hours` gives: hours (GPU-hours or wall hours), floats, None where none."""

    load_gpu_hours: float | None
    row_hours: tuple[float | None, ...]


def derived_hours(report: SizingReport | None) -> DerivedHours:
    """The load cost's GPU-hours and the method rows' hours of ``report`` (module doc)."""
    if report is None:
        return DerivedHours(None, ())
    inf, hours = report.inference, report.request.hours
    load = load_gpu_hours(inf, hours) if inf is not None and inf.cost_for_load is not None and hours else None
    rows = (
        tuple(
            [  # a list first: no generator frame a row
                r.gpu_hours / r.plan_gpus if r.gpu_hours is not None and r.plan_gpus else None
                for r in report.method_comparison
            ]
        )
        if report.method_comparison  # none: no comprehension frame (s37)
        else ()
    )
    return DerivedHours(load, rows)
