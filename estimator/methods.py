"""Several fine-tuning methods asked at once ("full vs LoRA vs QLoRA on 4 A100"): one row each, on
comparable layouts.

Each method is shown at its least-memory layout on the same GPUs (:func:`estimator.plan.least_memory_plan`:
the same search, the same choice for every method), so the rows compare the methods, not the layouts
a preference for less communication picks for each (plain data parallelism for a QLoRA base that fits
whole, ZeRO-3 for a LoRA base that does not): a lighter method never shows more memory per GPU than a
heavier one because of its layout. The row names the layout it is at. A layout that keeps the
activations is preferred when one fits within :data:`HEADROOM` (the least-memory one among them): full
recompute costs (k + 2)/k the compute, and each row is timed at the layout it shows
(:mod:`estimator.method_hours`; s35 fixb #2: LoRA at ≈ 20.3 GiB recomputing on one A100 40G where
34.1 GiB keeps the activations).
"""

from __future__ import annotations

from estimator.catalog import GpuSpec, ModelSpec
from estimator.copying import replace
from estimator.memory import SearchMemo
from estimator.model_states import trained_params
from estimator.models import Memory, Method, MethodRow, SizingRequest
from estimator.plan import HEADROOM, least_memory_plan, min_gpus
from estimator.setup import TrainingSetup


def method_rows(
    req: SizingRequest, spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup
) -> list[MethodRow]:
    """One row per method asked: memory per GPU at the least-memory layout on the user's count (one GPU
    when none is given; the fewest that fit when that one does not) and the verdict there ('no' when
    even that layout exceeds the card, 'borderline' above :data:`HEADROOM` of it)."""
    rows = []
    count = req.gpu_count or 1
    for method in req.methods or []:
        variant = replace(setup, method=method, offload=setup.offload and method == Method.full)
        if method == Method.full or (method != Method.qlora and setup.method == Method.qlora):
            variant = replace(variant, base_bits=None)  # QLoRA's 4-bit base is its row's alone (s13 N7)
        found = min_gpus(spec, params, gpu, variant)
        memo = SearchMemo()  # shared by the searches of this method (states, activation facts)
        least = least_memory_plan(spec, params, gpu, count, variant, memo)
        at = count
        fits = least is not None and sum(least[1].values()) <= gpu.addressable_bytes
        if not fits and req.gpu_count is None and found is not None:  # no count given: where it fits
            at = found[0]
            least = least_memory_plan(spec, params, gpu, at, variant, memo)
        assert least is not None  # every count has at least the plain data-parallel layout
        if least[0].recompute == "full" and req.recompute != "full":  # keeps activations if that fits
            kept = least_memory_plan(spec, params, gpu, at, variant, memo, keep_activations=True)
            if kept is not None and sum(kept[1].values()) <= HEADROOM * gpu.addressable_bytes:
                least = kept
        per_gpu = sum(least[1].values())
        feasible = "no" if not fits else "borderline" if per_gpu > HEADROOM * gpu.addressable_bytes else "yes"
        rows.append(
            MethodRow(
                method=method,
                per_gpu_bytes=per_gpu,
                plan_gpus=at,
                min_gpus=found[0] if found else None,
                feasible=feasible,
                trained_params=trained_params(spec, params, variant),
                plan=least[0],
            )
        )
    return rows


LEAST_SHOWN_BELOW = 0.8
"""The least-memory layout is named beside the chosen one when it needs under 80 % of its memory."""


def with_least(spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, mem: Memory) -> Memory:
    """``mem`` with the least-memory layout on the user's count (``least_plan``), for an adapter method
    whose chosen layout needs clearly more: LoRA on 8 GPUs is laid out as plain data parallelism (each
    GPU keeps the whole frozen base: no ZeRO traffic), which can show more per GPU than full fine-tuning's
    ZeRO-3 on the same GPUs; the answer then says why and what the same GPUs need at the least — the figure
    a comparison of methods shows (:func:`method_rows`)."""
    if setup.method == Method.full or not mem.fits_requested or mem.plan is None or not mem.plan_gpus:
        return mem
    least = least_memory_plan(spec, params, gpu, mem.plan_gpus, setup)
    if least is None or sum(least[1].values()) >= LEAST_SHOWN_BELOW * mem.per_gpu_bytes:
        return mem
    return mem.model_copy(update={"least_plan": least[0], "least_per_gpu_bytes": sum(least[1].values())})
