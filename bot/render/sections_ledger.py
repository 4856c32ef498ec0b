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

MFU_SHOWN = N_("%(mfu)s; %(shown)s on the %(gpus)s GPUs shown (%(why)s)")
MFU_SHOWN_RECOMPUTE = N_("÷%(factor)s: full recompute, one more forward pass")
MFU_SHOWN_SCALE = N_("×%(scale)s: the same job spread over more GPUs")
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
    if factor is None and band is not None:  # gated: only a table row with GPU-hours of its own (speed pins)
        n = report.days.gpus if report.days is not None else report.gpus_for_deadline  # ~ the count shown
        for r in report.days_table or ():  # a loop: no generator frame
            if r.gpu_hours is not None and (r.gpus == n or report.days is not None):
                return _shown_rows(report, rows, lang)
        return rows
    if factor is None or band is None:
        return rows
    f = fmt_for(lang)
    effective = {"mfu": f.percent(band.likely), "mfu_band": f"{f.percent(band.low)}–{f.percent(band.high)}"}
    for row in rows:
        if row["field"] in effective:
            row["value"] = translate(lang, MFU_EFFECTIVE, mfu=row["value"], effective=effective[row["field"]],
                                     factor=f.num(factor, 3))  # fmt: skip
    return rows


def _shown_rows(report: SizingReport, rows: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """``rows`` with the likely-MFU row naming the MFU the GPU-hours line quotes for the count shown when it
    is not the assumed one (estimator.shown_cost.shown_figures: that count's days-table row), and why, in
    one line: ÷ (k + 2) / k when the row pays full recomputation (bot.render.paid_rows.recompute_factor),
    × the rest, the scale-out of that count (estimator.training_rate.at_count). s41 trial #4: 'MFU 24.5 %'
    on 24 H800 was explained nowhere under an assumed 28 %."""
    from estimator.shown_cost import shown_figures

    shown, assumed = shown_figures(report), report.mfu
    mfu = shown["mfu"] if shown is not None else None
    if mfu is None or assumed is None or not shown["gpus"] or abs(mfu.likely - assumed.likely) <= 0.002:
        return rows
    from bot.render.paid_rows import recompute_factor as paid_factor

    f, factor = fmt_for(lang), paid_factor(report, shown["gpus"]) or 1.0
    scale = mfu.likely * factor / assumed.likely
    why = [translate(lang, MFU_SHOWN_RECOMPUTE, factor=f.num(factor, 3))] if factor > 1 else []
    if abs(scale - 1.0) > 0.005:
        why.append(translate(lang, MFU_SHOWN_SCALE, scale=f.num(scale, 2)))
    joined = ("；" if lang.startswith("zh") else "; ").join(why)
    for row in rows:
        if row["field"] == "mfu" and why:
            row["value"] = translate(lang, MFU_SHOWN, mfu=row["value"], shown=f.percent(mfu.likely),
                                     gpus=shown["gpus"], why=joined)  # fmt: skip
    return rows
