"""Memory and the parallel layout of a training job (:func:`estimator.plan.training_memory`) at the
user's or the deadline's GPU count, the verdict, and the notes that explain them. Split from
:mod:`estimator.training`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from estimator import compute
from estimator.catalog import GpuSpec, ModelSpec
from estimator.ledger import Ledger
from estimator.methods import with_least
from estimator.models import Memory, SizingRequest, Stage
from estimator.plan import HEADROOM, MAX_GPUS_SEARCHED, least_memory_plan, memory_with_batch, training_memory
from estimator.resolve import Resolved
from estimator.setup import TrainingSetup
from estimator.units import GIB
from estimator.verdicts import training_verdict


class PlanParts(NamedTuple):
    """What :func:`memory_and_plan` settles: the memory answer and the verdict."""

    memory: Memory
    feasible: str | None
    feasible_reason: str | None


def memory_and_plan(
    req: SizingRequest,
    r: Resolved,
    setup: TrainingSetup,
    spec: ModelSpec,
    params: float,
    cluster: int | None,
    global_batch: int | None,
    ledger: Ledger,
) -> PlanParts:
    """Memory per GPU, the fewest GPUs, the layout at the user's (or the deadline's: ``cluster``) count,
    the verdict. ``global_batch``: sequences per optimizer step the plan turns into accumulation."""
    gpu = r.gpu
    plan_gpus = req.gpu_count if req.gpu_count is not None else cluster
    mem = training_memory(
        spec,
        params,
        gpu,
        setup,
        requested_gpus=plan_gpus,
        with_alternatives=r.stage == Stage.finetune,
        with_recommended=r.stage == Stage.finetune,  # dropped below for pre-training: not computed
    )
    if req.gpu_count is None and plan_gpus is not None and mem.fits_requested is False and mem.min_gpus:
        # the deadline's count is below the fewest that fit: lay out on the fewest, in whole nodes
        plan_gpus = compute.round_to_nodes(max(plan_gpus, mem.min_gpus), gpu.gpus_per_node)
        mem = training_memory(
            spec, params, gpu, setup, requested_gpus=plan_gpus,
            with_alternatives=r.stage == Stage.finetune, with_recommended=r.stage == Stage.finetune,
        )  # fmt: skip
    if req.gpu_count is None:
        mem = mem.model_copy(update={"fits_requested": None})
    else:  # an adapter method laid out to communicate least: the least memory on these GPUs, too
        mem = with_least(spec, params, gpu, setup, mem)
    if r.stage != Stage.finetune:  # pre-training size follows the deadline, not memory comfort
        mem = mem.model_copy(
            update={"recommended_gpus": None, "recommended_plan": None, "recommended_per_gpu_bytes": None}
        )
    if global_batch:
        mem = memory_with_batch(mem, global_batch)
        given = getattr(req, "global_batch", None)
        plan = mem.plan
        if given and plan is not None and plan.global_batch_sequences != given:
            ledger.note(
                "global_batch_adjusted",
                global_batch=given,
                adjusted=plan.global_batch_sequences,
                micro_batch=plan.micro_batch,
                gradient_accumulation=plan.gradient_accumulation,
                dp=plan.dp,
            )
    feasible, reason = training_verdict(req, spec, params, gpu, setup, mem)
    if mem.min_gpus is None and (setup.zero_stage is not None or setup.recompute is not None):
        ledger.note("no_fit_stated", gpus_searched=MAX_GPUS_SEARCHED)  # the user's setting is the cause
    elif mem.min_gpus is None:
        ledger.note("no_fit", gpus_searched=MAX_GPUS_SEARCHED)
    if mem.fits_requested is False and mem.min_gpus is not None:
        ledger.note("does_not_fit_requested", gpu_count=req.gpu_count, min_gpus=mem.min_gpus)
    elif mem.fits_requested is not False and mem.per_gpu_bytes > HEADROOM * mem.usable_bytes:
        ledger.note("memory_tight", ratio=round(mem.per_gpu_bytes / mem.usable_bytes, 3))
    _note_recompute_chosen(spec, params, gpu, setup, mem, ledger)
    if gpu.personal and (mem.min_gpus or 0) > 1:
        ledger.note("consumer_no_nvlink", gpu=gpu.family)
    if mem.plan is not None and mem.plan.pp > 1:
        m = mem.plan.gradient_accumulation or 1  # micro-batches per step through the pipeline
        ledger.note("pp_bubble", pp=mem.plan.pp, micro_batches=m, bubble=round((mem.plan.pp - 1) / m, 4))
    return PlanParts(mem, feasible, reason)


def _note_recompute_chosen(
    spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, mem: Memory, ledger: Ledger
) -> None:
    """When the user chose no recompute mode and the plan turns on full recompute (gradient
    checkpointing) to fit, say so with the figure without it on the same GPUs (issue 14: a figure that
    drops as the sequence grows must say why). Without it = the layout needing the least memory with
    activations kept (selective recompute, FlashAttention)."""
    plan, n = mem.plan, mem.plan_gpus
    if setup.recompute is not None or plan is None or plan.recompute != "full" or not n:
        return
    if mem.fits_requested is False:  # the layout does not fit anyway: "to fit" would be untrue
        return
    found = least_memory_plan(spec, params, gpu, n, replace(setup, recompute="selective"))
    if found is None:
        return
    without = sum(found[1].values())
    ledger.note(
        "recompute_chosen",
        gpu_count=n,
        per_gpu_gib=mem.per_gpu_bytes / GIB,
        without_gib=without / GIB,
    )
