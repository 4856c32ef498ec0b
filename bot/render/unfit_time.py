"""How long a training takes on the fewest GPUs that hold it, when the user's own count does not and the
question asks a time (s41 trial #5: 'QLoRA Llama-3.1-70B on 2x RTX 4090 … - how long?' answered 'does
not fit … at least 4 GPUs needed' and no time at all).

Gated twice: the parse note ``time_asked`` ('how long', 'how many days', '多久', '多长时间', '几天':
bot.parse.words.ASKS_DURATION_RE) and a headline that names the fewest count (``unfit_min``). A yes/no
question ('can I…', '能跑吗') asks no time and gets none (s41-fixt2 aa511a4f added it there and was
reverted, a6fda30e: never answer a question not asked).
"""

from __future__ import annotations

from typing import Any

from bot.render.fmt import Fmt
from estimator.models import SizingReport
from estimator.shown_cost import quoted_gpu_hours

TIME_ASKED = "time_asked"
"""The parse note for a time asked (bot.parse.stage_steps)."""


def min_count_time(report: SizingReport, gpus: int, f: Fmt) -> dict[str, Any]:
    """``min_days`` (a day or more) or ``min_hours`` (under a day) and ``min_gh``: the likely time and
    GPU-hours on ``gpus`` GPUs, the fewest that hold the job, from their days-table row (recompute and
    scale-out as the row has them, estimator.training_rate.days_rows). When their layout
    (``memory.min_plan``) turns on full recompute the user did not state and the row is at the calibrated
    rate (within 5 % of the count-free GPU-hours: a count that does not hold the job pays nothing in
    estimator.training_plan.recompute_time), × (k + 2) / k, k from the FLOPs formula (4 for adapters, 6
    for full training; Korthikanti et al. 2022 §5: one more forward pass), as the answer on that count
    says; ``min_recompute`` then true. {} when the table has no row for ``gpus``."""
    m, gh = report.memory, report.gpu_hours
    for row in report.days_table or ():  # a loop: no generator frame
        if row.gpus != gpus:
            continue
        d, factor = row.days.likely, 1.0
        hours = row.gpu_hours.likely if row.gpu_hours else d * 24 * gpus
        full = m is not None and m.min_plan is not None and m.min_plan.recompute == "full"
        paid = False  # the estimator paid it on the fewest GPUs (s43: training_plan.recompute_time)
        for a in report.assumptions:  # a loop: no generator frame
            paid = paid or a.field in ("recompute_time", "recompute_time_fewest")
        if full and not paid and report.request.recompute is None and gh and hours < 1.05 * gh.likely:
            try:  # estimator.training writes f"{k:.3g}ND"
                k = float((report.flops_formula or "6ND").split("N")[0])
            except ValueError:
                k = 6.0
            factor = (k + 2.0) / k if k > 0 else 1.0
        d, hours = d * factor, hours * factor
        return {
            "min_days": f.days(d) if d >= 1 else None,
            "min_hours": f.hours(d * 24) if d < 1 else None,
            "min_gh": f.hours(quoted_gpu_hours(hours)),  # whole hours from 10 up, as that count's answer
            "min_recompute": factor > 1.0 or (full and paid),
        }
    return {}
