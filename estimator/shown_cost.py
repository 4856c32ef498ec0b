"""The cost of the GPU count an answer shows, computed once (s16 review: ``SizingReport.headline_cost``,
``estimator.training_plan.shown_cost`` and the quote's ``bot.core.offer._job_pricing`` each picked the count
and its days-table row their own way, so a reply on the user's 2 GPUs could bill the deadline's 4).

The count shown is the user's (``days.gpus``: the days-table row the headline states), else
``gpus_for_deadline``. Its cost is that count's days-table row's own when the row carries one (the fewest
GPUs pay full recomputation: ``DaysRow.cost``, estimator.training_plan._rows_paid), else the report's
count-free ``cost``.
"""

from __future__ import annotations

import math
from typing import Any


def quoted_gpu_hours(hours: float) -> float:
    """The likely GPU-hours as every line of a reply quotes them: from 10 up, the whole hours the cost
    line bills (estimator.compute.billed_gpu_hours, rounded up: 16,845.3 → 16,846 in the GPU-hours line,
    the headline, the comparison rows and the cost line alike); under 10, as they are (6.8, billed 7).
    The JSON's ``shown.gpu_hours_quoted`` (review s25 item 7: ``shown.gpu_hours`` is unrounded)."""
    return math.ceil(hours - 1e-9) if hours >= 10 else hours


def shown_gpus(out: Any) -> int | None:
    """The GPU count the answer shows: :func:`count_shown` of ``out``'s days, ``gpus_for_deadline`` and
    memory. ``out``: a SizingReport or the training estimate (anything with ``days`` and
    ``gpus_for_deadline``; ``memory`` optional)."""
    days, memory = out.days, getattr(out, "memory", None)  # count_shown's rule, a frame less (estimate calls)
    if days is None:
        return out.gpus_for_deadline
    return (
        memory.min_gpus
        if memory is not None and memory.fits_requested is False and memory.min_gpus
        else days.gpus
    )


def count_shown(days: Any, gpus_for_deadline: int | None, memory: Any = None) -> int | None:
    """The GPU count the answer shows, the one its cost bills: the user's (``days.gpus``) — unless their
    count does not hold the job and some count does (``memory.fits_requested`` false with a
    ``memory.min_gpus``): then the fewest that hold it, the count the headline gives ('1 张放不下，至少需要
    8 张'; s37 trial: the cost billed the one card that cannot run it, 4 card-hours under 'at least 8
    GPUs'). No stated count: ``gpus_for_deadline`` (None: neither)."""
    if days is None:
        return gpus_for_deadline
    if memory is not None and memory.fits_requested is False and memory.min_gpus:
        return memory.min_gpus
    return days.gpus


def paid_row(days_table: Any, gpus: int | None) -> Any:
    """The days-table row on ``gpus`` that carries its own cost (``DaysRow.cost``), else None."""
    for r in days_table:  # a loop: no generator frame a row
        if r.gpus == gpus and r.cost is not None:
            return r
    return None


def cost_on(out: Any, gpus: int | None) -> Any:
    """The cost on ``gpus``: its days-table row's own (:func:`paid_row`), else ``out.cost``."""
    row = paid_row(out.days_table, gpus)
    return row.cost if row is not None else out.cost


def shown_cost(out: Any) -> Any:
    """The cost of the count the answer shows (:func:`shown_gpus`), as :func:`cost_on` bills it: what the
    cost line, the budget verdict, 'cheapest' and the quote all weigh."""
    return cost_on(out, shown_gpus(out))


def shown_figures(out: Any) -> dict[str, Any] | None:
    """What the GPU-hours line of the answer quotes, or None without GPU-hours: ``{gpus, gpu_hours,
    gpu_days, mfu}`` for the count the answer shows (:func:`shown_gpus`; None: it shows none). A count
    past the scale-out reference runs the job in GPU-hours of its own (``DaysRow.gpu_hours`` with its
    ``DaysRow.mfu``: estimator.training_rate.priced_rows, GPUs × days × 24); elsewhere the report's
    count-free ``gpu_hours`` and ``mfu`` (a row paying full recomputation has no band of its own: the
    line keeps the count-free figures and the headline names the factor). ``gpu_days``: ``gpu_hours``
    ÷ 24 as ``{low, likely, high}`` (the unit 'GPU-days' / '卡·天'). Plain loops, no generator: the
    render stage's call bound (tests/test_render_s16_speed.py)."""
    gh = out.gpu_hours
    if gh is None:
        return None
    n, mfu = shown_gpus(out), out.mfu
    if n:
        for r in out.days_table:
            if r.gpus == n and r.gpu_hours is not None:
                gh, mfu = r.gpu_hours, r.mfu if r.mfu is not None else _paid_mfu(mfu, gh, r.gpu_hours)
                break
    days = {"low": gh.low / 24.0, "likely": gh.likely / 24.0, "high": gh.high / 24.0}
    return {"gpus": n, "gpu_hours": gh, "gpu_days": days, "mfu": mfu}


def _paid_mfu(mfu: Any, free: Any, paid: Any) -> Any:
    """The MFU band of a row that pays its own GPU-hours without a band of its own (full recompute on
    the fewest GPUs: estimator.training_plan._rows_paid): the count-free ``mfu`` scaled by the hours, each
    end by its own (the model FLOPs are the same, so MFU ∝ 1 / GPU-hours: 28 % over 45 GPU-hours is 21.4 %
    over 59). One answer, one figure (s40-fixh #3): the GPU-hours line quotes the hours the headline and
    the cost bill. ``mfu`` None (hand-built reports): None."""
    if mfu is None:
        return None
    return type(mfu)(
        low=mfu.low * free.high / paid.high if paid.high else mfu.low,
        likely=mfu.likely * free.likely / paid.likely if paid.likely else mfu.likely,
        high=mfu.high * free.low / paid.low if paid.low else mfu.high,
    )


def billed_cost(c: Any, hours: Any, gpus: int = 1) -> Any:
    """``c``'s price range billed on ``hours`` (Band of GPU-hours) run on ``gpus`` cards: the one rule
    every cost on a count bills by (estimator.compute.billed_gpu_hours: whole GPU-hours, rounded up, and
    each card pays at least its first hour — 3.2 GPU-hours on 8 cards bill 8, on 1 card 4; s37: a
    days-table row on 16 cards billed 4 card-hours). ``c`` None: None."""
    if c is None:
        return None
    from estimator.built import cost  # built imports models, which imports this module
    from estimator.compute import billed_gpu_hours  # compute imports nothing of this module

    billed, low, high = billed_gpu_hours(hours.likely, gpus), c.price_low, c.price_high
    return cost(
        low=billed * low, high=billed * high,
        low_with_mfu=billed_gpu_hours(hours.low, gpus) * low,
        high_with_mfu=billed_gpu_hours(hours.high, gpus) * high,
        currency=c.currency, price_low=low, price_high=high,
        billed_gpu_hours=billed, price_source=c.price_source,
    )  # fmt: skip


def per_card(c: Any, hours: Any, gpus: int | None) -> Any:
    """``c`` billed on ``gpus`` cards (estimator.compute.billed_gpu_hours: each card pays at least its
    first whole hour; s35-fixa #1: '8 × H100 … billed as 1 GPU-hour'), when ``c`` bills ``hours`` (Band)
    as one total; else ``c`` as it is (a cost of other hours)."""
    if c is None or hours is None or not gpus or gpus <= 1:
        return c
    from estimator.compute import billed_gpu_hours  # compute imports nothing of this module

    billed = billed_gpu_hours(hours.likely, gpus)
    if billed <= c.billed_gpu_hours or c.billed_gpu_hours != billed_gpu_hours(hours.likely):
        return c
    return billed_cost(c, hours, gpus)


def billed_on_count(out: Any, fields: dict[str, Any], n: int | None) -> dict[str, Any]:
    """The cost on ``n``, the count the answer shows (:func:`count_shown` of ``out`` with ``fields``), billed
    per card (:func:`per_card`): its days-table row's own cost when it carries one, else ``cost``. {} when
    nothing changes."""
    if not n or n <= 1:
        return {}
    rows = fields.get("days_table", out.days_table)
    row = paid_row(rows, n)
    if row is None:
        c = per_card(out.cost, out.gpu_hours, n)
        return {} if c is out.cost else {"cost": c}
    c = per_card(row.cost, row.gpu_hours or out.gpu_hours, n)
    if c is row.cost:
        return {}
    return {"days_table": [r.model_copy(update={"cost": c}) if r is row else r for r in rows]}
