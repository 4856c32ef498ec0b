"""The training branch's deadline table and budget inverses (split off :mod:`estimator.training`, session
39): the days on each count of GPUs around the one a deadline needs, the largest model a budget trains, the
GPU-hours a budget or GPUs × days buy. Every default is in the ledger.
"""

from __future__ import annotations

import math
from typing import Any

from estimator import compute, defaults
from estimator.built import band, days_row
from estimator.catalog import GpuSpec
from estimator.ledger import Ledger, PriceRange, price_range
from estimator.models import Band, DaysRow, SizingRequest
from estimator.training_rate import (
    days_rows,
    deadline_gpus,
    priced_rows,
    training_rate,
)
from estimator.training_result import TrainingResult

Fields = dict[str, Any]
"""TrainingResult fields one step of :func:`size_training` settles (combined with ``dataclasses.replace``)."""
HUGE_GPUS, HUGE_DAYS = 100_000, 3650
"""Beyond these a 'huge job' note is shown: the largest published clusters are ~100k GPUs (xAI Colossus,
2024; Llama 3 405B used 16k H100, Dubey et al. 2024 §3.3); beyond ten years the plan is not a plan."""


def _days(hours: Band, gpus: int, on: Any = compute.days_on) -> DaysRow:
    return days_row(gpus, band(on(hours.low, gpus), on(hours.likely, gpus), on(hours.high, gpus)))


def _table_counts(anchor: int) -> list[int]:
    """GPU counts for the GPUs ↔ days table: powers of two around the anchor (136 → 64…512)."""
    base = 2 ** max(0, int(math.log2(max(1, anchor))))
    return sorted({max(1, base // 2), base, base * 2, base * 4})


def _deadline_table(
    req: SizingRequest, gpu: GpuSpec, out: TrainingResult, deadline: float, ledger: Ledger
) -> Fields:
    """GPUs for the deadline (whole nodes, at least the fewest that fit), the GPUs ↔ days table, the
    days on the user's count, and the notes on missed deadlines and huge jobs."""
    hours = out.gpu_hours
    assert hours is not None
    mem = out.memory
    need = deadline_gpus(hours, deadline, gpu.gpus_per_node, req.gpu_count, out.scale_reference)
    if mem is not None and mem.min_gpus:
        need = compute.round_to_nodes(max(need, mem.min_gpus), gpu.gpus_per_node)
    days = out.days
    counts = sorted(set(_table_counts(need)) | {need})
    if mem is not None and mem.min_gpus:  # a row the job doesn't fit on would mislead
        counts = [c for c in counts if c >= mem.min_gpus]
    if req.gpu_count:
        days = _days(hours, req.gpu_count)
        # s48: a count range said ('4 张和 8 张 H100 分别要多久', '4 H100 vs 8 H100'): a row for each end
        counts = sorted(set(counts) | {req.gpu_count, req.gpu_count_max or req.gpu_count})
        took = days.days.likely
        if req.deadline_days and took > req.deadline_days * 1.05:  # the user's cards miss the date
            if req.deadline_days < 1:  # "within 2 hours": in hours, not 0.083 days
                ledger.note(
                    "deadline_missed_hours",
                    gpu_count=req.gpu_count,
                    hours_taken=took * 24,
                    deadline_hours=req.deadline_days * 24,
                    gpus=need,
                )
            else:
                ledger.note(
                    "deadline_missed",
                    gpu_count=req.gpu_count,
                    days=took,
                    deadline_days=req.deadline_days,
                    gpus=need,
                )
    days_on_given, count = (days.days.likely, req.gpu_count) if days else (deadline, need)  # one setup's
    if need > HUGE_GPUS or days_on_given > HUGE_DAYS:  # count and days, never two setups' (trial s20)
        ledger.note("huge_job", gpus=count if days_on_given > HUGE_DAYS else need, days=days_on_given)
    rows = priced_rows(days_rows(hours, counts, req.gpu_count, out.scale_reference), hours, out.cost, out.mfu)
    return {"gpus_for_deadline": need, "days": days, "days_table": fewest_slower(rows, out.fewest_recompute)}


def _largest_for_budget(req: SizingRequest, gpu: GpuSpec, tokens: float, k: float) -> float | None:
    """The largest model the budget trains on ``tokens`` ("$50K, 1T tokens: how big?"): N with
    k·N·D = budget ÷ price × 3600 × peak × MFU, at the middle price and the likely MFU. MFU depends on
    the model size, so this starts at D/20 and settles in a few steps. None without a price."""
    scratch = Ledger()  # the real ledger gets the MFU and price of the final size later
    n = tokens / defaults.CHINCHILLA_TOKENS_PER_PARAM.value
    for _ in range(4):
        price = price_range(req, gpu, scratch)
        hours = _budget_hours(req, price, defaults.DEADLINE_DAYS.value)
        if hours is None or not req.budget or not price:
            return None
        rate = training_rate(req, gpu, n, False, scratch, k)
        mfu, peak = rate.mfu[1], rate.peak or gpu.peak_flops_16bit
        n = compute.flops_for_gpu_hours(hours.likely, peak, mfu) / (k * tokens)
    return n


def _budget_hours(req: SizingRequest, price: PriceRange | None, deadline: float) -> Band | None:
    """GPU-hours a budget buys (low at the high price), or GPUs × deadline × 24; with both, the smaller
    (8 GPUs for two weeks use 2,688 GPU-hours, however large the budget)."""
    gpus_days = None
    if req.gpu_count and req.deadline_days:
        h = float(req.gpu_count * deadline * 24)
        gpus_days = Band(low=h, likely=h, high=h)
    if req.budget and price:
        low, high, _, _ = price
        bought = Band(low=req.budget / high, likely=req.budget / ((low + high) / 2), high=req.budget / low)
        return gpus_days if gpus_days is not None and gpus_days.likely < bought.likely else bought
    return gpus_days


def fewest_slower(rows: list[DaysRow], fewest: tuple[int, float, int] | None) -> list[DaysRow]:
    """The GPUs ↔ days rows below the count that keeps the activations ×factor
    (``TrainingResult.fewest_recompute``: the fewest GPUs, the factor, the first count without full
    recomputation)."""
    if fewest is None:
        return rows
    _, f, keep = fewest
    out = []
    for r in rows:
        d = r.days
        out.append(days_row(r.gpus, band(d.low * f, d.likely * f, d.high * f)) if r.gpus < keep else r)
    return out
