"""The GPU count a training answer quotes for a deadline or a budget is not a borderline plan when a
comfortable one costs about the same (s20 #6).

One threshold for "borderline" everywhere: a plan whose likely memory per GPU is above
:data:`estimator.plan.HEADROOM` (90 %) of the usable memory (the ``memory_tight`` note, the layout
search's comfortable plans, the recompute reasons). The deadline table's count is the fewest GPUs that fit
(:func:`estimator.training_plan.with_fewest_paying`); when that plan is above the threshold and the
memory's recommended count (the fewest at or under it) meets the deadline for no more than
:data:`NEAR_COST` above its cost, the answer quotes the recommended count instead (Qwen2.5-72B LoRA on
A100 80G: 2 GPUs at 99 %, recomputing, ¥7,290–14,580; 4 GPUs at 83 %, ¥4,860–9,720: 4 quoted).
"""

from __future__ import annotations

from typing import Any

from estimator.plan import HEADROOM

NEAR_COST = 0.10
"""How much more a comfortable count may cost (high end against high end) and still be quoted in place
of a borderline one: a tenth, within the price range's own spread (¥15–30 an A100-hour)."""


def comfortable_count(out: Any, table: dict[str, Any], stated: bool = True) -> dict[str, Any]:
    """``table`` (``gpus_for_deadline``, ``days_table``) with the recommended count quoted in place of a
    borderline fewest count when it meets the deadline and costs no more than :data:`NEAR_COST` above;
    unchanged otherwise. ``out``: the training result (``memory``, ``cost``, ``deadline_days``).
    ``stated``: the request names a deadline or a budget; without one ("how many?") the fewest that fit
    stay the answer and the memory line names the recommended count (s20-fxa: 72B full FT on A100 80G
    quoted 32 — the table's next row above the 24 recommended — on an assumed deadline, and the cost
    test compared the count-free cost with itself)."""
    mem, count = out.memory, table.get("gpus_for_deadline")
    if not stated or mem is None or count is None or mem.plan_gpus != count or not mem.usable_bytes:
        return table
    rec = mem.recommended_gpus
    if mem.per_gpu_bytes <= HEADROOM * mem.usable_bytes or rec is None or rec <= count:
        return table
    rows = _recomputing(out, _with_row(out, table.get("days_table") or [], rec), rec)
    deadline = out.deadline_days
    now = next((r for r in rows if r.gpus == count), None)
    ok = [r for r in rows if r.gpus >= rec and (not deadline or r.days.likely <= deadline * 1.05)]
    if now is None or not ok:
        return table
    cost_now, cost_rec = now.cost or out.cost, ok[0].cost or out.cost
    if cost_now is None or cost_rec is None or cost_rec.high > cost_now.high * (1 + NEAR_COST):
        return table
    return {**table, "gpus_for_deadline": ok[0].gpus, "days_table": rows}


def recomputes_shown(out: Any, n: int | None) -> bool:
    """True when ``n`` is the recommended count, its layout (``memory.recommended_plan``) runs full
    recomputation and the days table's rule would not make it pay (``n`` at or past the first count
    without it, ``fewest_recompute[2]``). ``out``: the training result."""
    mem, fewest = out.memory, out.fewest_recompute
    plan = mem.recommended_plan if mem is not None else None
    if fewest is None or plan is None or n is None or n != mem.recommended_gpus or n < fewest[2]:
        return False
    return getattr(plan.recompute, "value", plan.recompute) == "full"


def _recomputing(out: Any, rows: list[Any], rec: int) -> list[Any]:
    """``rows`` with the recommended count's row paying full recomputation when its own layout
    (``memory.recommended_plan``) runs it and the row does not pay it yet (it is at or past the first count
    without full recomputation, ``fewest_recompute[2]``): days, GPU-hours and the MFU band × / ÷ the factor
    ((k + 2) / k, Korthikanti et al. 2022 §5), the cost re-billed on its GPUs (s41 trial #4: 70B full FT on
    H800, 24 GPUs recomputing were timed at the rate that keeps the activations — 97 H800-hours at MFU
    24.5 % under a plan line saying 'full recompute'). Otherwise ``rows`` as they are."""
    if not recomputes_shown(out, rec):
        return rows
    _, factor, _ = out.fewest_recompute
    from estimator.built import band
    from estimator.shown_cost import billed_cost

    paid = []
    for r in rows:
        if r.gpus != rec:
            paid.append(r)
            continue
        gh = r.gpu_hours or band(*(x * r.gpus * 24.0 for x in (r.days.low, r.days.likely, r.days.high)))
        hours = band(gh.low * factor, gh.likely * factor, gh.high * factor)
        m = r.mfu or out.mfu
        mfu = band(m.low / factor, m.likely / factor, m.high / factor) if m is not None else None
        days = band(r.days.low * factor, r.days.likely * factor, r.days.high * factor)
        cost = billed_cost(r.cost or out.cost, hours, r.gpus)
        paid.append(r.model_copy(update={"days": days, "gpu_hours": hours, "mfu": mfu, "cost": cost}))
    return paid


def _with_row(out: Any, rows: list[Any], gpus: int) -> list[Any]:
    """``rows`` with one for ``gpus`` when the table has none (its counts are powers of two and whole
    nodes: 16, 32, 64 — the recommended 24 between them was quoted as the next row, 32; s24 trial 2 #9),
    built as the table's rows are (estimator.training_rate.days_rows, priced_rows)."""
    if any(r.gpus == gpus for r in rows) or out.gpu_hours is None:
        return rows
    from estimator.training_rate import days_rows, priced_rows

    row = priced_rows(
        days_rows(out.gpu_hours, [gpus], None, out.scale_reference), out.gpu_hours, out.cost, out.mfu
    )
    return sorted([*rows, *row], key=lambda r: r.gpus)
