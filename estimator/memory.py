"""Training memory per GPU and the parallel layout that fits it.

Bytes per part follow ZeRO (Rajbhandari et al. 2020, §3 and Table 1) for model states and
Korthikanti et al. 2022 (*Reducing Activation Recomputation in Large Transformer Models*,
Table 2) for activations. All sizes in bytes; ``N`` is the total parameter count (MoE: all
experts are resident).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from estimator.catalog import GpuSpec, ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, FRAGMENTATION
from estimator.models import Memory, Method, Plan

Recompute = Literal["none", "selective", "full"]
Optimizer = Literal["adamw", "adamw8bit", "sgd"]

OPTIMIZER_BYTES_PER_PARAM: dict[str, float] = {"adamw": 12.0, "adamw8bit": 6.0, "sgd": 8.0}
"""Optimizer state bytes per trainable parameter under mixed precision.

AdamW: fp32 master copy 4 + momentum 4 + variance 4 = 12 (ZeRO §3, "K = 12").
8-bit AdamW: fp32 master 4 + two 1-byte states = 6 (Dettmers et al. 2022, 8-bit optimizers).
SGD with momentum: fp32 master 4 + momentum 4 = 8.
"""

NF4_BITS_PER_PARAM = 4.127
"""QLoRA base weights: NF4 (4 bits) + double-quantized block scales (0.127 bits/param).

Source: Dettmers et al. 2023, *QLoRA*, §2 (block size 64, double quantization: 8/64 + 32/(64·256)).
"""

QLORA_ADAPTER_BYTES_PER_PARAM = 6.0
"""QLoRA adapters: bf16 weights 2 + bf16 gradients 2 + paged 8-bit AdamW states 2 (QLoRA §2–3)."""

LORA_ADAPTER_BYTES_PER_PARAM = 16.0
"""LoRA adapters train like a full model: 2 + 2 + 12 bytes (mixed-precision AdamW)."""

RECOMPUTE_ORDER: tuple[Recompute, ...] = ("selective", "full")
"""Searched activation strategies. 'selective' = FlashAttention-era baseline (no s² scores stored)."""


@dataclass(frozen=True)
class TrainingSetup:
    """What is being trained and how (independent of the layout)."""

    method: Method = Method.full
    seq_len: int = 2048
    micro_batch: int = 1
    optimizer: Optimizer = "adamw"
    lora_rank: int = 16


def lora_params(spec: ModelSpec, rank: int) -> float:
    """Trainable LoRA parameters: r·(d_in + d_out) per targeted matrix, all linear layers.

    Targets q, k, v, o and the MLP (gate, up, down for SwiGLU; up, down for GELU); for MoE the
    experts' MLPs too. Source: Hu et al. 2021 (LoRA) §4; PEFT ``target_modules="all-linear"``.
    """
    h, hd = spec.hidden, spec.head_dim_effective
    q_out, kv_out = spec.heads * hd, spec.kv_heads * hd
    attn = (h + q_out) * 2 + (h + kv_out) * 2  # q, o, k, v
    mats = 3 if spec.ffn_type == "swiglu" else 2
    if spec.is_moe:
        per_expert = mats * (h + (spec.moe_ffn_hidden or spec.ffn_hidden))
        experts = (spec.experts or 0) + (spec.shared_experts or 0)
        moe_layers = spec.layers - (spec.dense_layers or 0)
        mlp_total = moe_layers * experts * per_expert + (spec.dense_layers or 0) * mats * (
            h + spec.ffn_hidden
        )
        return rank * (spec.layers * attn + mlp_total)
    return rank * spec.layers * (attn + mats * (h + spec.ffn_hidden))


def activation_bytes_per_layer(
    seq_len: int, micro_batch: int, spec: ModelSpec, tp: int, recompute: Recompute
) -> float:
    """Activation bytes one transformer layer keeps for the backward pass (16-bit activations).

    Korthikanti et al. 2022, Table 2, with sequence parallelism whenever TP > 1:
      none:      s·b·h·(34 + 5·a·s/h) / t
      selective: s·b·h·34 / t            (attention scores recomputed / FlashAttention)
      full:      2·s·b·h / t             (only the layer input is kept)
    The 34 comes from a GPT layer with a 4h MLP; for GQA/SwiGLU models it is an approximation.
    """
    s, b, h, a = seq_len, micro_batch, spec.hidden, spec.heads
    if recompute == "full":
        return 2.0 * s * b * h / tp
    per = 34.0 if recompute == "selective" else 34.0 + 5.0 * a * s / h
    return s * b * h * per / tp


def logits_bytes(seq_len: int, micro_batch: int, vocab: int, tp: int) -> float:
    """Output logits: b·s·V·(2 + 4) / t — bf16 logits plus the fp32 copy for softmax/loss (stated)."""
    return micro_batch * seq_len * vocab * 6.0 / tp


def breakdown(spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan) -> dict[str, float]:
    """Bytes per GPU by part for ``plan`` (stage 1 of the pipeline, the fullest one).

    ZeRO shards over the data-parallel degree ``plan.dp`` (not the total GPU count):
    stage 1 shards optimizer states, 2 also gradients, 3 also weights (ZeRO §5).
    With CPU offload the optimizer states (and, at ZeRO-3, the weights) live in host memory.
    """
    shard = params / (plan.tp * plan.pp)
    dp, z = plan.dp, plan.zero_stage
    parts: dict[str, float] = {}
    if setup.method == Method.full:
        opt_bytes = OPTIMIZER_BYTES_PER_PARAM[setup.optimizer]
        parts["weights"] = 2.0 * shard / (dp if z >= 3 else 1)
        parts["gradients"] = 2.0 * shard / (dp if z >= 2 else 1)
        parts["optimizer"] = 0.0 if plan.offload else opt_bytes * shard / (dp if z >= 1 else 1)
    else:
        base_bytes = 2.0 if setup.method == Method.lora else NF4_BITS_PER_PARAM / 8.0
        per_adapter = (
            LORA_ADAPTER_BYTES_PER_PARAM if setup.method == Method.lora else QLORA_ADAPTER_BYTES_PER_PARAM
        )
        parts["weights"] = base_bytes * shard / (dp if z >= 3 else 1)
        parts["adapters"] = per_adapter * lora_params(spec, setup.lora_rank) / (plan.tp * plan.pp)
    layers_per_stage = math.ceil(spec.layers / plan.pp)
    in_flight = plan.pp  # 1F1B: stage 1 holds pp micro-batches (Narayanan et al. 2021)
    parts["activations"] = (
        activation_bytes_per_layer(setup.seq_len, plan.micro_batch, spec, plan.tp, plan.recompute)  # type: ignore[arg-type]
        * layers_per_stage
        * in_flight
    )
    parts["logits"] = logits_bytes(setup.seq_len, plan.micro_batch, spec.vocab, plan.tp)
    subtotal = sum(parts.values())
    parts["overhead"] = CUDA_CONTEXT_BYTES.value + FRAGMENTATION.value * subtotal
    return parts


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def candidate_plans(spec: ModelSpec, gpu: GpuSpec, gpus: int, setup: TrainingSetup) -> Iterator[Plan]:
    """Layouts for exactly ``gpus`` GPUs: TP ∈ {1,2,4,8} within a node dividing heads and KV heads,
    PP dividing the layers, DP for the rest, ZeRO 0–3 (only when DP > 1), recompute selective/full."""
    for tp in (1, 2, 4, 8):
        if tp > min(gpus, gpu.gpus_per_node) or spec.heads % tp or spec.kv_heads % tp:
            continue
        for pp in _divisors(spec.layers):
            if gpus % (tp * pp):
                continue
            dp = gpus // (tp * pp)
            for zero in (0, 1, 2, 3) if dp > 1 else (0,):
                for recompute in RECOMPUTE_ORDER:
                    yield Plan(
                        tp=tp,
                        pp=pp,
                        dp=dp,
                        zero_stage=zero,
                        recompute=recompute,
                        micro_batch=setup.micro_batch,
                    )


def plan_preference(plan: Plan) -> tuple:
    """Lower is better: no full recompute, no pipeline, ZeRO-1/2 + TP before ZeRO-3, least TP.

    Rules from the design (§3.5): DP + ZeRO while model states fit; TP inside a node; PP across
    nodes; ZeRO-3/FSDP as the alternative to TP + PP; full recompute only when activations force it.
    """
    return (plan.recompute == "full", plan.pp, plan.zero_stage == 3, plan.tp, plan.zero_stage)


def _gpu_counts(start: int, limit: int, per_node: int) -> Iterator[int]:
    n = 1
    while n < per_node and n < start:
        n *= 2
    while n <= limit:
        if n >= start:
            yield n
        n = n * 2 if n < per_node else n + per_node


def best_plan_for(
    spec: ModelSpec, params: float, gpu: GpuSpec, gpus: int, setup: TrainingSetup
) -> tuple[Plan, dict[str, float]] | None:
    """The preferred layout that fits on exactly ``gpus`` GPUs, or None."""
    best: tuple[tuple, Plan, dict[str, float]] | None = None
    for plan in candidate_plans(spec, gpu, gpus, setup):
        parts = breakdown(spec, params, setup, plan)
        if sum(parts.values()) <= gpu.memory_bytes:
            key = plan_preference(plan)
            if best is None or key < best[0]:
                best = (key, plan, parts)
    return (best[1], best[2]) if best else None


MAX_GPUS_SEARCHED = 100_000
"""Largest cluster the plan search considers (beyond it the reply says it does not fit)."""


def training_memory(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    setup: TrainingSetup,
    requested_gpus: int | None = None,
) -> Memory:
    """Fewest GPUs that fit, the preferred layout there, and whether ``requested_gpus`` fits.

    The search starts at the lower bound (all states sharded, nothing else) so it stays fast for
    very large models. ``Memory.min_gpus`` is None when nothing fits within MAX_GPUS_SEARCHED.
    """
    shell = breakdown(spec, params, setup, Plan(tp=1, pp=1, dp=1, zero_stage=0, recompute="full"))
    states = sum(v for k, v in shell.items() if k in ("weights", "gradients", "optimizer", "adapters"))
    lower = max(1, math.floor(states / gpu.memory_bytes))
    found: tuple[int, Plan, dict[str, float]] | None = None
    for n in _gpu_counts(lower, MAX_GPUS_SEARCHED, gpu.gpus_per_node):
        fit = best_plan_for(spec, params, gpu, n, setup)
        if fit:
            found = (n, *fit)
            break
    fits_requested = None
    if requested_gpus is not None:
        at_request = best_plan_for(spec, params, gpu, requested_gpus, setup)
        fits_requested = at_request is not None
        if at_request is not None:
            found = (requested_gpus, *at_request)
    if found is None:
        parts = shell
        return Memory(
            per_gpu_bytes=sum(parts.values()),
            gpu_memory_bytes=gpu.memory_bytes,
            usable_bytes=gpu.memory_bytes,
            min_gpus=None,
            breakdown=parts,
            total_bytes=states,
            plan=None,
            fits_requested=fits_requested,
        )
    n, plan, parts = found
    min_gpus = n if fits_requested is not True else _min_fitting(spec, params, gpu, setup, lower, n)
    return Memory(
        per_gpu_bytes=sum(parts.values()),
        gpu_memory_bytes=gpu.memory_bytes,
        usable_bytes=gpu.memory_bytes,
        min_gpus=min_gpus,
        breakdown=parts,
        total_bytes=states,
        plan=plan,
        plan_gpus=n,
        fits_requested=fits_requested,
    )


def _min_fitting(
    spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, lower: int, upper: int
) -> int:
    for n in _gpu_counts(lower, upper, gpu.gpus_per_node):
        if best_plan_for(spec, params, gpu, n, setup):
            return n
    return upper
