"""Ledger rows that name their link to the headline (trial s12 D4).

The headline's MFU is the assumed MFU ÷ the full-recompute factor (k + 2) / k when full recomputation
is paid (:func:`estimator.training_plan.recompute_time`; Korthikanti et al. 2022 §5: one more forward
pass per token). The MFU row then says so right there: '40%; 30% effective with full recompute (×1.333
compute)', not only the recompute row far below (the MFU is a fraction; the factor has no unit).
"""

from __future__ import annotations

from typing import Any

from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate
from estimator.models import SizingReport

RECOMPUTE_FIELDS = ("recompute_time", "recompute_time_fewest")
"""The ledger fields that carry the full-recompute factor (estimator.training_plan.recompute_time)."""

MFU_EFFECTIVE = N_("%(mfu)s; %(effective)s effective with full recompute (×%(factor)s compute)")


def recompute_factor(report: SizingReport) -> float | None:
    """The full-recompute factor the headline's MFU is divided by (the assumed MFU ÷ it is the headline's
    likely MFU), or None when the headline's MFU is the assumed one."""
    band = report.mfu
    if band is None:  # no time sized: no headline MFU (the ledger is not read)
        return None
    values: dict[str, Any] = {}  # each field's first value in the ledger, in one pass
    for a in report.assumptions:
        values.setdefault(a.field, a.value)
    assumed = values.get("mfu")
    factor = next((values[f] for f in RECOMPUTE_FIELDS if values.get(f)), None)
    numbers = isinstance(assumed, int | float) and isinstance(factor, int | float)
    if band is None or not numbers or factor <= 1 or abs(assumed / factor - band.likely) > 0.002:
        return None
    return float(factor)


def linked_rows(report: SizingReport, rows: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """``rows`` (:func:`bot.render.notes.assumption_rows`) with the MFU rows (likely, range) naming the
    effective MFU the headline uses when full recomputation divides it; the rows are the caller's own."""
    factor, band = recompute_factor(report), report.mfu
    if factor is None or band is None:
        return rows
    f = fmt_for(lang)
    effective = {"mfu": f.percent(band.likely), "mfu_band": f"{f.percent(band.low)}–{f.percent(band.high)}"}
    for row in rows:
        if row["field"] in effective:
            row["value"] = translate(lang, MFU_EFFECTIVE, mfu=row["value"], effective=effective[row["field"]],
                                     factor=f.num(factor, 3))  # fmt: skip
    return rows
