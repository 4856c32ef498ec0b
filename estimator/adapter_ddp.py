"""Plain DDP for an adapter fine-tune on cards without NVLink when the frozen base fits one card (s41 trial
#2: 7B LoRA on 8 × RTX 4090 was laid out as ZeRO-3 "because there is no NVLink").

LoRA / QLoRA freeze the base: it has no gradients and no optimizer states, so ZeRO-3/FSDP saves only the
base's weights per GPU, and pays for it by all-gathering the whole base before every forward and every
backward pass of every micro-batch (ZeRO, Rajbhandari et al. 2020, §7.2.2: ZeRO-3 all-gathers the
parameters for the forward and again for the backward; the reduce-scatter of gradients covers only the
adapters here). On PCIe cards without NVLink (consumer cards have no peer-to-peer either) that traffic is
far slower than the step: 2 × 15.2 GB × 7/8 per micro-batch for Qwen2.5-7B on 8 GPUs is ≈ 1.1 s at
:data:`estimator.offload_time.PCIE_BYTES_PER_S`, against ≈ 0.6 s for the micro-batch's compute. Plain
DDP keeps one replica per GPU and all-reduces only the adapters' gradients (PyTorch DDP docs; PEFT docs,
"DDP" for LoRA). When DDP fits only by full recompute where the ZeRO-3 plan does not recompute, the
extra forward (2·N·T FLOPs per micro-batch of T tokens, :data:`estimator.training_plan
.RECOMPUTE_EXTRA_FLOPS`) is weighed against the gathers: DDP when the gathers take longer.
Pure; bytes, seconds.
"""

from __future__ import annotations

from estimator.catalog import GpuSpec, ModelSpec
from estimator.copying import replace
from estimator.memory_band import per_gpu_band
from estimator.models import Memory
from estimator.plan import HEADROOM, best_plan_for, with_batch
from estimator.request import Method
from estimator.setup import TrainingSetup

ADAPTER_METHODS = frozenset({Method.lora, Method.qlora})
"""Methods that freeze the whole base and train adapters beside it (Hu et al. 2021; Dettmers et al. 2023)."""

ASSUMED_MFU = 0.30
"""MFU the extra forward of full recompute is timed at: the default for uncalibrated cards
(:mod:`estimator.efficiency`: PaLM on TPU v4 implies 30 %), the class of the PCIe cards this applies to."""


def gather_seconds(weight_bytes: float, dp: int) -> float:
    """Seconds per micro-batch ZeRO-3 spends all-gathering a frozen base of ``weight_bytes`` over ``dp``
    GPUs: each GPU receives (dp − 1)/dp of it before the forward and again before the backward (ZeRO §7.2.2),
    at :data:`PCIE_BYTES_PER_S` (an upper bound on the speed: without P2P it goes through host memory)."""
    from estimator.offload_time import PCIE_BYTES_PER_S  # only on this path: a plain question imports none

    return 2.0 * weight_bytes * (dp - 1) / dp / PCIE_BYTES_PER_S


def recompute_seconds(params: float, tokens: float, peak_flops: float) -> float:
    """Seconds the extra forward of full recompute adds to a micro-batch of ``tokens`` tokens: 2·N·T FLOPs
    (Chen et al. 2016; Korthikanti et al. 2022 §5) at ``peak_flops`` × :data:`ASSUMED_MFU`."""
    return 2.0 * params * tokens / (peak_flops * ASSUMED_MFU)


def with_adapter_ddp(
    spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, mem: Memory
) -> Memory:
    """``mem`` with its ZeRO-3 plan on ``mem.plan_gpus`` (TP 1, PP 1, DP > 1) replaced by plain DDP (ZeRO
    stage 0, same count, same global batch) when: the method is LoRA / QLoRA, the card has no NVLink, the
    user stated no ZeRO stage and no offload, DDP fits within :data:`estimator.plan.HEADROOM` with TP 1 and
    PP 1, its band's high end fits the card (never a 'borderline' whose fix is ZeRO-3 again), and — if DDP
    needs full recompute where the ZeRO-3 plan does not — the base's gathers (:func:`gather_seconds`) take
    longer than the extra forward (:func:`recompute_seconds`). The band
    (:func:`estimator.memory_band.per_gpu_band`) and a recommendation of the same count go with it. Else
    ``mem`` unchanged."""
    plan, gpus = mem.plan, mem.plan_gpus
    if setup.method not in ADAPTER_METHODS or gpu.nvlink or setup.zero_stage is not None or setup.offload:
        return mem
    if plan is None or not gpus or not mem.fits_requested or plan.zero_stage != 3 or plan.dp < 2:
        return mem
    if plan.tp * plan.pp != 1 or plan.offload:
        return mem
    ddp = replace(setup, zero_stage=0)
    found = best_plan_for(spec, params, gpu, gpus, ddp, HEADROOM)
    if found is None or found[0].zero_stage != 0 or found[0].tp * found[0].pp != 1:
        return mem
    new, parts = found
    if new.recompute == "full" and plan.recompute != "full":
        tokens = new.micro_batch * setup.seq_len
        gathers = gather_seconds(parts.get("weights", 0.0), new.dp)
        if gathers <= recompute_seconds(params, tokens, gpu.peak_flops_16bit):
            return mem
    if plan.global_batch_sequences:  # the step the job runs, kept
        new = with_batch(new, plan.global_batch_sequences)
    low, high = per_gpu_band(spec, ddp, new, parts, params)
    if high > mem.usable_bytes:
        return mem  # never a 'borderline' DDP band whose fix would be ZeRO-3 again
    update = {"plan": new, "breakdown": parts, "per_gpu_bytes": sum(parts.values())}
    if mem.recommended_gpus == gpus:
        update |= {"recommended_plan": new, "recommended_per_gpu_bytes": update["per_gpu_bytes"]}
    return mem.model_copy(update={**update, "per_gpu_bytes_low": low, "per_gpu_bytes_high": high})
