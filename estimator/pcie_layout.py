"""ZeRO with a smaller micro-batch instead of tensor parallelism over PCIe (trial s12 C4).

On cards without NVLink the layout search already puts ZeRO before TP (:func:`estimator.layouts.
plan_preference`, docs/design.md §3.5: "TP inside a node (NVLink)"): tensor parallelism all-reduces the
activations of every layer twice per forward and twice per backward pass, which needs NVLink-class
bandwidth (Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters Using
Megatron-LM", §3.2 and §5.4: tensor-model parallelism is kept within a multi-GPU server with NVLink;
DeepSpeed's ZeRO docs: ZeRO-3 needs no model-code changes and only data-parallel collectives). TP then
appears over PCIe only when a setting the user stated forbids the ZeRO layout: a micro-batch whose
activations do not fit one GPU ('batch 8 … on V100S 32GB x 8' → TP 8 × DP 1 across PCIe).

The user's micro-batch stays the one sized (design §8: a stated setting is used); this module finds the
alternative that answer names beside it: the largest smaller micro-batch at which a layout without TP
and without pipeline stages fits the same GPUs, with the recompute mode stated, else with the one the
search chooses (full recompute included) (the global batch is kept by more gradient accumulation,
so the compute and the time per token are unchanged in this model: :func:`estimator.plan.with_batch`).
Sizes in bytes, counts of GPUs.
"""

from __future__ import annotations

from estimator.catalog import GpuSpec, ModelSpec
from estimator.copying import replace
from estimator.models import Memory
from estimator.plan import best_plan_for
from estimator.request import Recompute
from estimator.setup import TrainingSetup


def smaller_micro_batches(micro: int) -> list[int]:
    """The micro-batches tried below ``micro``, largest first: each of the eight just below it, then
    halving (64 → 63 … 56, 32, 16, 8, 4, 2, 1): at most about 14 searches per recompute mode."""
    near = range(micro - 1, max(0, micro - 9), -1)
    halves = [micro >> k for k in range(1, micro.bit_length())]
    return sorted({m for m in (*near, *halves) if m >= 1}, reverse=True)


def with_pcie_zero(spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, mem: Memory) -> Memory:
    """``mem`` with ``pcie_zero_plan`` and ``pcie_zero_per_gpu_bytes`` set when its layout at the user's
    count (``mem.plan``) uses TP on a card without NVLink and a micro-batch above one, and a smaller
    micro-batch fits the same count with TP 1 and PP 1 (the largest such micro-batch, at the stated recompute
    mode first); ``mem`` otherwise."""
    plan, n = mem.plan, mem.plan_gpus
    if gpu.nvlink or plan is None or not n or plan.tp == 1 or setup.micro_batch <= 1 or plan.offload:
        return mem
    # the stated recompute mode first, then the search's own (full recompute allowed: ~33 % more compute
    # beats TP's all-reduces over PCIe, plan_preference)
    modes = [setup.recompute, None] if setup.recompute not in (None, Recompute.full) else [setup.recompute]
    tries = [(micro, mode) for mode in modes for micro in smaller_micro_batches(setup.micro_batch)]
    for micro, mode in tries:
        # a comfortable layout first, as before s37 (no tight DP layout standing: data_parallel_first off)
        tried = replace(setup, micro_batch=micro, recompute=mode, data_parallel_first=False)
        fit = best_plan_for(spec, params, gpu, n, tried)
        if fit is not None and fit[0].tp == 1 and fit[0].pp == 1:
            zero, parts = fit
            return mem.model_copy(
                update={
                    "pcie_zero_plan": zero.model_copy(update={"micro_batch": micro}),
                    "pcie_zero_per_gpu_bytes": sum(parts.values()),
                }
            )
    return mem


def with_dp_offload(
    spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, mem: Memory
) -> tuple[Memory, TrainingSetup]:
    """``mem`` laid out data-parallel with ZeRO-3 and the optimizer states in CPU memory when its layout at
    the user's count uses TP or PP on a card without NVLink, the job is a full fine-tune on a Hugging Face
    stack (:attr:`TrainingSetup.data_parallel_first`: TRL's DPO/ORPO/KTO trainers and the HF Trainer run
    data parallelism only), the TP layout fits (a count nothing fits keeps its verdict: runs as configured
    that ran out of memory, tests/test_verdict_outcomes.py) and the offload layout fits the same count
    (full recompute allowed): the rule "no TP over PCIe where ZeRO/FSDP fits" (s37 fixc #1) with offload
    as one of ZeRO's own settings (DeepSpeed ``offload_optimizer``; ZeRO-Offload, Ren et al. 2021).
    8B DPO on 8 × RTX 4090: a replicated-vocabulary logits peak of ~5.9 GiB leaves ZeRO-3 at 28 GiB a
    card, ZeRO-3 offload fits (s37 fixf #1). The offload's time is counted from the plan
    (:func:`estimator.training_plan.offload_time`); the setup returned has the offload on (the verdict,
    the band's fit change and the notes read it)."""
    plan, n = mem.plan, mem.plan_gpus
    if gpu.nvlink or plan is None or not n or plan.tp * plan.pp == 1 or setup.offload:
        return mem, setup
    if not setup.data_parallel_first or not mem.fits_requested:  # a count no layout fits keeps its "no"
        return mem, setup
    from estimator.layout_table import shown_band  # lazily: only this rare layout asks
    from estimator.memory import SearchMemo

    tried, memo = replace(setup, offload=True), SearchMemo()
    fit = best_plan_for(spec, params, gpu, n, tried, 1.0, True, memo)
    if fit is None or fit[0].tp * fit[0].pp != 1:
        return mem, setup
    zero, parts = fit
    low, high = shown_band(spec, params, tried, zero, parts, memo)
    update = {"plan": zero, "breakdown": parts, "per_gpu_bytes": sum(parts.values())}
    update.update(per_gpu_bytes_low=low, per_gpu_bytes_high=high, fits_requested=True)
    if mem.min_gpus == n and mem.min_plan is not None and mem.min_plan.tp * mem.min_plan.pp > 1:
        update["min_plan"] = zero  # the same count, the same rule
    if mem.recommended_gpus == n and mem.recommended_plan is not None and mem.recommended_plan.tp > 1:
        update.update(recommended_plan=zero, recommended_per_gpu_bytes=update["per_gpu_bytes"])
    return mem.model_copy(update=update), tried
