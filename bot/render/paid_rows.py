"""The days-table rows that carry GPU-hours of their own (``DaysRow.gpu_hours``): the fewest GPUs paying
full recomputation (``estimator.training_plan.with_fewest_paying``) or a count past the scale-out
reference (``estimator.training_rate.priced_rows``; the GPU-hours line reads those through
``estimator.shown_cost.shown_figures``). Split from bot/render/sections.py (500-line limit)."""

from __future__ import annotations

from estimator.models import DaysRow, SizingReport


def paid_row(report: SizingReport, gpus: int) -> DaysRow | None:
    """The days-table row for ``gpus`` when the estimator gave it GPU-hours of its own (the fewest GPUs
    that fit pay full recomputation: ``estimator.training_plan.with_fewest_paying``), else None."""
    for r in report.days_table or ():  # a loop: no generator frame a row
        if r.gpus == gpus and r.gpu_hours is not None:
            return r
    return None


def recompute_factor(report: SizingReport, gpus: int) -> float | None:
    """The ledger's ``recompute_time_fewest`` factor ((k + 2) / k) when ``gpus`` pays it, else None."""
    a = next((a for a in report.assumptions if a.field == "recompute_time_fewest"), None)
    row = paid_row(report, gpus)
    if a is None or row is None or row.gpu_hours is None or report.gpu_hours is None:
        return None
    roll = report.rollout.gpu_hours if report.rollout is not None else 0.0  # RL: decode recomputes nothing
    ratio = (row.gpu_hours.likely - roll) / (report.gpu_hours.likely - roll)  # steps fixed: its samples'
    return float(a.value) if abs(ratio - float(a.value)) < 0.01 * ratio else None
