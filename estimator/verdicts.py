"""Does the job fit the user's GPUs? 'yes' / 'borderline' (with a reason) / 'no' for training.

The serving verdicts live with the serving branch (:mod:`estimator.serving`); both count the user's
GPUs the same way (:func:`requested_count`).
"""

from __future__ import annotations

from estimator.catalog import GpuSpec, ModelSpec
from estimator.models import Memory, Method, SizingRequest
from estimator.plan import HEADROOM, best_plan_for
from estimator.setup import TrainingSetup


def requested_count(req: SizingRequest) -> int | None:
    """The user's GPU count; a memory size without a count ('24G显存的卡') means one card."""
    return req.gpu_count or (1 if req.gpu_memory_gib else None)


def training_verdict(
    req: SizingRequest, spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, mem: Memory
) -> tuple[str | None, str | None]:
    """('yes' / 'borderline' / 'no', reason) for the user's GPU count; (None, None) without one.

    yes: a layout fits with ≥ 10 % headroom. borderline: it fits only above 90 % of the card
    ('tight'); or only at the upper end of a stated range ('range_upper_end'); or only thanks to CPU
    offload (≈ 12 B/param of host RAM and slow steps, ZeRO-Offload §4: 'offload'); or a QLoRA base
    too big for one card must be sharded (FSDP-QLoRA: works with recent tooling, fiddly:
    'sharded_4bit_base'). no: nothing fits on that many GPUs.
    """
    count = requested_count(req)
    if count is None:
        return None, None
    if mem.fits_requested:
        if mem.per_gpu_bytes > HEADROOM * mem.usable_bytes:
            return "borderline", "tight"
        if setup.offload:
            return "borderline", "offload"
        plan = mem.plan
        if plan is not None and setup.method == Method.qlora:
            base_on_one_gpu = mem.breakdown.get("weights", 0) * plan.tp * plan.pp
            base_on_one_gpu *= plan.dp if plan.zero_stage >= 3 else 1
            if base_on_one_gpu > HEADROOM * mem.usable_bytes:
                return "borderline", "sharded_4bit_base"
        return "yes", None
    if req.gpu_count_max and best_plan_for(spec, params, gpu, req.gpu_count_max, setup):
        return "borderline", "range_upper_end"
    return "no", None
