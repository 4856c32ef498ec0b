"""Which training layout an answer recommends: the one the reply explains and the recipes launch."""

from __future__ import annotations

from estimator.models import Plan, SizingReport


def chosen_plan(report: SizingReport) -> Plan | None:
    """The layout at the GPU count the answer is about (the user's count when it fits; the deadline's
    count for a timed job), else the recommended one, else the layout at the fewest GPUs. A user's
    count that does not hold the job is shown as theirs, but never launched: then the recommended or
    the fewest GPUs' layout. None when nothing fits."""
    m = report.memory
    if m is None or m.plan is None:
        return None
    if m.fits_requested is False:  # the user's layout does not fit: recommend one that does
        return m.recommended_plan or m.min_plan
    timed = report.flops is not None
    requested = report.request.gpu_count
    if timed or (requested and m.fits_requested) or m.recommended_plan is None:
        return m.plan
    return m.recommended_plan
