"""Training memory per GPU and the parallel layout that fits it.

Bytes per part follow ZeRO (Rajbhandari et al. 2020, §3 and Table 1) for model states and
Korthikanti et al. 2022 (*Reducing Activation Recomputation in Large Transformer Models*,
Table 2) for activations. All sizes in bytes; ``N`` is the total parameter count (MoE: all
experts are resident). :class:`TrainingSetup` also describes memory-optimized single-GPU recipes
(torchtune's: pure bf16, optimizer step in the backward pass, paged 8-bit optimizer, chunked loss);
:mod:`estimator.memory_band` puts a low/high band around the per-GPU figure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal, NamedTuple

from estimator.architecture import embedding_params
from estimator.catalog import GpuSpec, ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, FRAGMENTATION, LORA_RANK, MICRO_BATCH, SEQ_LEN_FINETUNE
from estimator.memory_band import LOSS_CHUNKS, per_gpu_band
from estimator.models import Algorithm, Alternative, Checkpoint, Memory, Method, Plan

Recompute = Literal["none", "selective", "full"]
Optimizer = Literal["adamw", "adamw8bit", "sgd"]

OPTIMIZER_BYTES_PER_PARAM: dict[str, float] = {"adamw": 12.0, "adamw8bit": 6.0, "sgd": 8.0}
"""Optimizer state bytes per trainable parameter under mixed precision.

AdamW: fp32 master copy 4 + momentum 4 + variance 4 = 12 (ZeRO §3, "K = 12").
8-bit AdamW: fp32 master 4 + two 1-byte states = 6 (Dettmers et al. 2022, *8-bit Optimizers*).
SGD with momentum: fp32 master 4 + momentum 4 = 8.
"""

BNB_8BIT_ABSMAX_BYTES_PER_PARAM = 2 * 4.0 / 256
"""bitsandbytes 8-bit optimizers: one fp32 absmax per 256 values for each of the two states
(``Optimizer2State.init_state``: ``blocks = n // 256``, ``absmax1``/``absmax2`` float32 on the
parameter's device — not paged, unlike the 1-byte states from ``get_state_buffer``)."""

PURE_BF16_OPTIMIZER_BYTES_PER_PARAM: dict[str, float] = {
    "adamw": 4.0,
    "adamw8bit": 2.0 + BNB_8BIT_ABSMAX_BYTES_PER_PARAM,
    "sgd": 2.0,
}
"""Optimizer state bytes per trainable parameter without an fp32 master copy (pure bf16 training).

``torch.optim.AdamW`` creates its states with ``torch.zeros_like(param)`` — the parameter's dtype —
so bf16 weights get bf16 m and v: 2 + 2 = 4 (PyTorch ``torch/optim/adam.py``, ``_init_group``).
8-bit AdamW: two 1-byte states + their block absmax = 2.03 (Dettmers et al. 2022;
:data:`BNB_8BIT_ABSMAX_BYTES_PER_PARAM`). SGD with momentum: one bf16 momentum = 2. This is what
torchtune's single-device recipes run (``dtype: bf16``, no master copy: torchtune docs, *Memory
Optimization Overview*, "Model Precision").
"""


NF4_BITS_PER_PARAM = 4.127
"""QLoRA base weights: NF4 (4 bits) + double-quantized block scales (0.127 bits/param).

Source: Dettmers et al. 2023, *QLoRA*, §2 (block size 64; double quantization 8/64 + 32/(64·256)).
Embeddings and the output head stay in bf16 (bitsandbytes quantizes only the linear layers).
"""

QLORA_ADAPTER_BYTES_PER_PARAM = 6.0
"""QLoRA adapters: bf16 weights 2 + bf16 gradients 2 + paged 8-bit AdamW states 2 (QLoRA §2–3)."""

LORA_ADAPTER_BYTES_PER_PARAM = 16.0
"""LoRA adapters train like a full model: 2 + 2 + 12 bytes (mixed-precision AdamW)."""

FULL_STATE_BYTES_PER_PARAM = 16.0
"""Resumable checkpoint of mixed-precision AdamW: bf16 weights 2 + fp32 master 4 + m 4 + v 4,
rounded to the 16 B/param of model states (ZeRO §3) to leave room for gradients/RNG/metadata."""

RECOMPUTE_ORDER: tuple[Recompute, ...] = ("selective", "full")
"""Searched activation strategies. 'selective' = FlashAttention-era baseline (no s² scores stored)."""

HEADROOM = 0.9
"""A comfortable plan uses at most 90 % of the card (spikes, fragmentation beyond the average)."""

MAX_GPUS_SEARCHED = 100_000
"""Largest cluster the plan search considers (beyond it the reply says it does not fit)."""


@dataclass(frozen=True)
class TrainingSetup:
    """What is being trained and how (independent of the layout)."""

    method: Method = Method.full
    algorithm: Algorithm = Algorithm.sft
    seq_len: int = int(SEQ_LEN_FINETUNE.value)
    micro_batch: int = int(MICRO_BATCH.value)
    optimizer: Optimizer = "adamw"
    lora_rank: int = int(LORA_RANK.value)
    offload: bool = False
    master_weights: bool = True
    """False = pure bf16: no fp32 master copy; optimizer states in the weights' dtype
    (:data:`PURE_BF16_OPTIMIZER_BYTES_PER_PARAM`)."""
    optimizer_in_backward: bool = False
    """The optimizer steps each parameter as soon as its gradient is ready and frees that gradient
    (torchtune ``optimizer_in_bwd``; PyTorch ``register_post_accumulate_grad_hook``): only the
    largest parameter's gradient is resident (:func:`largest_param`)."""
    paged_optimizer: bool = False
    """Optimizer states in CUDA unified memory (bitsandbytes ``Paged*`` optimizers; bitsandbytes docs:
    "transfer memory from the GPU to the CPU when GPU memory is exhausted"): counted as 0 bytes on the
    GPU — they never cause an OOM — except the 8-bit states' absmax, which stays on the GPU
    (:func:`optimizer_bytes_per_param`)."""
    chunked_loss: bool = False
    """Cross-entropy upcast one chunk at a time (:data:`LOSS_CHUNKS`): no full fp32 logits copy."""


def lora_params(spec: ModelSpec, rank: int) -> float:
    """Trainable LoRA parameters: r·(d_in + d_out) per targeted matrix, all linear layers.

    Targets q, k, v, o and the MLP (gate, up, down for SwiGLU; up, down for GELU); for MoE the
    experts' MLPs too. Source: Hu et al. 2021 (LoRA) §4; PEFT ``target_modules="all-linear"``.
    """
    h, hd = spec.hidden, spec.head_dim_effective
    q_out, kv_out = spec.heads * hd, spec.kv_heads * hd
    attn = (h + q_out) * 2 + (h + kv_out) * 2  # q, o, k, v
    mats = 3 if spec.gated_ffn else 2
    if spec.is_moe:
        routed = (spec.experts or 0) * mats * (h + spec.expert_ffn_hidden)
        shared = (spec.shared_experts or 0) * mats * (h + spec.shared_ffn_hidden)
        dense = spec.dense_mlp_layers * mats * (h + spec.ffn_hidden)
        return rank * (spec.layers * attn + spec.moe_layers * (routed + shared) + dense)
    return rank * spec.layers * (attn + mats * (h + spec.ffn_hidden))


def model_state_bytes(
    params: float,
    optimizer: Optimizer = "adamw",
    zero_stage: int = 0,
    dp: int = 1,
    master_weights: bool = True,
) -> dict[str, float]:
    """Full-training model states per GPU: bf16 weights 2Ψ, bf16 gradients 2Ψ, optimizer KΨ.

    ZeRO shards over the data-parallel degree ``dp`` (not the total GPU count): stage 1 the
    optimizer states, 2 also the gradients, 3 also the weights. ZeRO paper Table 1 (Ψ = 7.5B,
    dp = 64): 120 / 31.4 / 16.6 / 1.88 GB for stages 0 / 1 / 2 / 3. K per
    :data:`OPTIMIZER_BYTES_PER_PARAM`, or :data:`PURE_BF16_OPTIMIZER_BYTES_PER_PARAM` without
    ``master_weights``.
    """
    table = OPTIMIZER_BYTES_PER_PARAM if master_weights else PURE_BF16_OPTIMIZER_BYTES_PER_PARAM
    k = table[optimizer]
    return {
        "weights": 2.0 * params / (dp if zero_stage >= 3 else 1),
        "gradients": 2.0 * params / (dp if zero_stage >= 2 else 1),
        "optimizer": k * params / (dp if zero_stage >= 1 else 1),
    }


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


def logits_bytes(seq_len: int, micro_batch: int, vocab: int, tp: int, chunked: bool = False) -> float:
    """Output logits: b·s·V·(2 + 4) / t — bf16 logits plus the fp32 copy for softmax/loss (stated).

    ``chunked``: b·s·V·(2 + 4/:data:`LOSS_CHUNKS`) / t — the bf16 logits stay, only one chunk at a
    time is upcast to fp32 (torchtune ``CEWithChunkedOutputLoss``).
    """
    fp32_copy = 4.0 / LOSS_CHUNKS if chunked else 4.0
    return micro_batch * seq_len * vocab * (2.0 + fp32_copy) / tp


def largest_param(spec: ModelSpec) -> float:
    """Parameters in the largest single weight tensor: the embedding or output head (V·h), an MLP
    matrix (h·ffn; MoE: one expert's) or a q/o projection (h·heads·head_dim).

    With the optimizer step fused into the backward pass, a gradient lives from its accumulation to
    its parameter's step, then is freed (torchtune ``register_optim_in_bwd_hooks``: ``step()`` then
    ``zero_grad()`` per parameter), so at most about one parameter's gradient is resident. With a
    chunked loss the output head's gradient accumulates over all chunks first: it is the largest.
    """
    h = spec.hidden
    ffn = max(spec.ffn_hidden, spec.moe_ffn_hidden or 0)
    return float(max(spec.vocab * h, h * ffn, h * spec.heads * spec.head_dim_effective))


def optimizer_bytes_per_param(optimizer: Optimizer, master_weights: bool, paged: bool) -> float:
    """Optimizer bytes per trained parameter resident on the GPU.

    :data:`OPTIMIZER_BYTES_PER_PARAM` (fp32 master copy) or
    :data:`PURE_BF16_OPTIMIZER_BYTES_PER_PARAM`; paged: only what bitsandbytes keeps outside
    unified memory — the 8-bit absmax (:data:`BNB_8BIT_ABSMAX_BYTES_PER_PARAM`), else 0.
    """
    if paged:
        return BNB_8BIT_ABSMAX_BYTES_PER_PARAM if optimizer == "adamw8bit" else 0.0
    table = OPTIMIZER_BYTES_PER_PARAM if master_weights else PURE_BF16_OPTIMIZER_BYTES_PER_PARAM
    return table[optimizer]


def _adapter_bytes_per_param(setup: TrainingSetup) -> float:
    """Bytes per LoRA/QLoRA adapter parameter.

    Default options: LoRA 16 (:data:`LORA_ADAPTER_BYTES_PER_PARAM`), QLoRA 6 (its paper's paged
    8-bit AdamW, counted on the GPU: :data:`QLORA_ADAPTER_BYTES_PER_PARAM`). With the optimizer
    options changed: bf16 weights 2 + bf16 gradients 2 + :func:`optimizer_bytes_per_param`.
    """
    default = setup.master_weights and not setup.paged_optimizer and setup.optimizer == "adamw"
    if default:
        return LORA_ADAPTER_BYTES_PER_PARAM if setup.method == Method.lora else QLORA_ADAPTER_BYTES_PER_PARAM
    return 4.0 + optimizer_bytes_per_param(setup.optimizer, setup.master_weights, setup.paged_optimizer)


def _frozen_copy_bytes(params: float, plan: Plan | Layout) -> float:
    """A frozen bf16 model (DPO/PPO reference, PPO reward): 2Ψ, sharded like the weights."""
    return 2.0 * params / (plan.tp * plan.pp) / (plan.dp if plan.zero_stage >= 3 else 1)


def breakdown(spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan | Layout) -> dict[str, float]:
    """Bytes per GPU by part for ``plan`` (stage 1 of the pipeline, the fullest one).

    Model states per :func:`model_state_bytes` on the TP × PP shard; with CPU offload
    (ZeRO-Offload, Ren et al. 2021) or a paged optimizer the optimizer states live in host memory
    (0 on the GPU); with the optimizer in the backward pass the gradients are one parameter's
    (:func:`largest_param`); a chunked loss shrinks the logits (:func:`logits_bytes`).
    LoRA: frozen bf16 base + adapters; QLoRA: NF4 base (embeddings bf16) + adapters.
    DPO adds a frozen reference model (Rafailov et al. 2023); PPO adds a trained critic of the
    same size plus frozen reference and reward models (Ouyang et al. 2022, InstructGPT);
    GRPO drops the critic (Shao et al. 2024, DeepSeekMath §4). With LoRA the reference is the
    base with adapters disabled (no extra copy).
    """
    shard = params / (plan.tp * plan.pp)
    parts: dict[str, float] = {}
    if setup.method == Method.full:
        parts |= model_state_bytes(shard, setup.optimizer, plan.zero_stage, plan.dp, setup.master_weights)
        if setup.paged_optimizer:
            k = optimizer_bytes_per_param(setup.optimizer, setup.master_weights, paged=True)
            parts["optimizer"] = k * shard / (plan.dp if plan.zero_stage >= 1 else 1)
        if plan.offload:
            parts["optimizer"] = 0.0
        if setup.optimizer_in_backward:
            parts["gradients"] = min(parts["gradients"], 2.0 * largest_param(spec) / plan.tp)
    else:
        if setup.method == Method.lora:
            base = 2.0 * shard
        else:
            embed = min(embedding_params(spec), params) / (plan.tp * plan.pp)
            base = NF4_BITS_PER_PARAM / 8.0 * (shard - embed) + 2.0 * embed
        per_adapter = _adapter_bytes_per_param(setup)
        parts["weights"] = base / (plan.dp if plan.zero_stage >= 3 else 1)
        parts["adapters"] = per_adapter * lora_params(spec, setup.lora_rank) / (plan.tp * plan.pp)
    if setup.algorithm in (Algorithm.dpo, Algorithm.ppo, Algorithm.grpo) and setup.method == Method.full:
        parts["reference"] = _frozen_copy_bytes(params, plan)
    if setup.algorithm == Algorithm.ppo:
        if setup.method == Method.full:
            critic = model_state_bytes(shard, setup.optimizer, plan.zero_stage, plan.dp, setup.master_weights)
            if setup.paged_optimizer or setup.optimizer_in_backward:
                critic = {k: parts[k] for k in critic}  # placed like the policy's states
            parts["critic"] = sum(critic.values()) - (critic["optimizer"] if plan.offload else 0.0)
        else:
            parts["critic"] = parts["adapters"]
        parts["reward"] = _frozen_copy_bytes(params, plan)
    layers_per_stage = math.ceil(spec.layers / plan.pp)
    in_flight = plan.pp  # 1F1B: stage 1 holds pp micro-batches (Narayanan et al. 2021)
    act = activation_bytes_per_layer(setup.seq_len, plan.micro_batch, spec, plan.tp, plan.recompute)  # type: ignore[arg-type]
    parts["activations"] = act * layers_per_stage * in_flight
    parts["logits"] = logits_bytes(setup.seq_len, plan.micro_batch, spec.vocab, plan.tp, setup.chunked_loss)
    subtotal = sum(parts.values())
    parts["overhead"] = CUDA_CONTEXT_BYTES.value + FRAGMENTATION.value * subtotal
    return parts


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


class Layout(NamedTuple):
    """A candidate layout during the search (a light tuple; the result becomes a :class:`Plan`)."""

    tp: int
    pp: int
    dp: int
    zero_stage: int
    recompute: str
    micro_batch: int
    offload: bool

    def to_plan(self) -> Plan:
        return Plan(**self._asdict())


@lru_cache(maxsize=1024)
def ordered_layouts(
    layers: int,
    heads: int,
    kv_heads: int,
    per_node: int,
    nvlink: bool,
    gpus: int,
    micro_batch: int,
    offload: bool,
) -> tuple[Layout, ...]:
    """Layouts for exactly ``gpus`` GPUs, most preferred first (:func:`plan_preference`).

    TP ∈ {1,2,4,8} within a node dividing heads and KV heads, PP dividing the layers, DP for the
    rest, ZeRO 0–3 (only when DP > 1), recompute selective/full. In this order
    :func:`best_plan_for` can stop at the first layout with headroom; the list depends only on the
    shape and the card, so it is built once per combination.
    """
    layouts = []
    for tp in (1, 2, 4, 8):
        if tp > min(gpus, per_node) or heads % tp or kv_heads % tp:
            continue
        for pp in _divisors(layers):
            if gpus % (tp * pp):
                continue
            dp = gpus // (tp * pp)
            for zero in (0, 1, 2, 3) if dp > 1 else (0,):
                for recompute in RECOMPUTE_ORDER:
                    layouts.append(Layout(tp, pp, dp, zero, recompute, micro_batch, offload))
    layouts.sort(key=lambda p: plan_preference(p, nvlink))
    return tuple(layouts)


def plan_preference(plan: Plan | Layout, nvlink: bool = True) -> tuple:
    """Lower is better: no full recompute, no pipeline, least TP, then the lowest ZeRO stage.

    Design §3.5: DP + ZeRO (a configuration switch in DeepSpeed/FSDP) while the model states fit —
    ZeRO-3 included, as in the seed's "2 × 80 GB with ZeRO-3" — TP inside a node only when
    activations or a layer do not fit otherwise (it needs tensor-parallel model code and NVLink),
    PP across nodes last; full recompute only when activations force it. On cards without NVLink,
    recomputing (~33 % more compute) beats TP's per-layer all-reduces over PCIe: TP comes last.
    """
    if not nvlink:
        return (plan.pp, plan.tp, plan.recompute == "full", plan.zero_stage)
    return (plan.recompute == "full", plan.pp, plan.tp, plan.zero_stage)


def _gpu_count(i: int, per_node: int) -> int:
    """The i-th candidate GPU count: 1, 2, 4, … up to a node, then whole nodes (i ≥ 0)."""
    small = int(math.log2(per_node))  # counts below a full node: 1, 2, 4 for 8-GPU nodes
    return 2**i if i < small else (i - small + 1) * per_node


def _count_index(n: int, per_node: int) -> int:
    """Index of the first candidate count ≥ n."""
    small = int(math.log2(per_node))
    if n <= per_node // 2:
        return max(0, math.ceil(math.log2(max(1, n))))
    return small + math.ceil(n / per_node) - 1


def best_plan_for(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    gpus: int,
    setup: TrainingSetup,
    budget_fraction: float = 1.0,
    allow_full_recompute: bool = True,
) -> tuple[Plan, dict[str, float]] | None:
    """The preferred layout whose per-GPU total is within ``budget_fraction`` of the card, or None.

    Among fitting layouts, those leaving ≥ 10 % headroom (:data:`HEADROOM`) come first — a plan at
    97 % of the card OOMs on the first allocation spike — then :func:`plan_preference`.
    """
    limit = gpu.addressable_bytes * budget_fraction
    comfortable = gpu.addressable_bytes * HEADROOM
    layouts = ordered_layouts(
        spec.layers,
        spec.heads,
        spec.kv_heads,
        gpu.gpus_per_node,
        gpu.nvlink,
        gpus,
        setup.micro_batch,
        setup.offload,
    )
    tight: tuple[Layout, dict[str, float]] | None = None
    for plan in layouts:
        if plan.recompute == "full" and not allow_full_recompute:
            continue
        parts = breakdown(spec, params, setup, plan)
        total = sum(parts.values())
        if total <= comfortable and total <= limit:
            return plan.to_plan(), parts
        if total <= limit and tight is None:
            tight = (plan, parts)
    return (tight[0].to_plan(), tight[1]) if tight else None


def _lower_bound(spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup) -> int:
    """GPUs below which nothing can fit: states fully sharded must fit in the memory."""
    shell = breakdown(
        spec, params, setup, Plan(tp=1, pp=1, dp=1, zero_stage=0, recompute="full", offload=setup.offload)
    )
    states = sum(v for k, v in shell.items() if k not in ("activations", "logits", "overhead"))
    return max(1, math.floor(states / gpu.addressable_bytes))


def min_gpus(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    setup: TrainingSetup,
    budget_fraction: float = 1.0,
    allow_full_recompute: bool = True,
) -> tuple[int, Plan, dict[str, float]] | None:
    """Fewest GPUs (1, 2, 4, then whole nodes) with a layout that fits, or None up to MAX_GPUS_SEARCHED.

    Starts at the lower bound (all states sharded, nothing else), then gallops and bisects over
    the candidate counts — assuming, as ZeRO-3 over all GPUs guarantees, that more GPUs never
    need more memory per GPU — so it stays fast for very large models.
    """

    def fit(i: int):
        return best_plan_for(
            spec, params, gpu, _gpu_count(i, gpu.gpus_per_node), setup, budget_fraction, allow_full_recompute
        )

    per_node = gpu.gpus_per_node
    lo = _count_index(_lower_bound(spec, params, gpu, setup), per_node)
    last = _count_index(MAX_GPUS_SEARCHED, per_node)
    if lo > last:
        return None
    found = fit(lo)
    if found:
        return _gpu_count(lo, per_node), *found
    step, hi = 1, lo + 1
    while True:  # gallop: lo fails, look for a hi that fits
        hi = min(lo + step, last)
        found = fit(hi)
        if found or hi == last:
            break
        lo, step = hi, step * 2
    if not found:
        return None
    while hi - lo > 1:  # bisect: lo fails, hi fits
        mid = (lo + hi) // 2
        mid_fit = fit(mid)
        if mid_fit:
            hi, found = mid, mid_fit
        else:
            lo = mid
    return _gpu_count(hi, per_node), *found


def _alternatives(spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup) -> list[Alternative]:
    """The fewest GPUs under options a user can switch on (DeepSpeed estimators' 'with offload / without')."""
    variants: list[tuple[str, TrainingSetup]] = []
    if setup.method == Method.full:
        variants += [
            ("adamw8bit", replace(setup, optimizer="adamw8bit")),
            ("cpu_offload", replace(setup, offload=True)),
            ("lora", replace(setup, method=Method.lora)),
            ("qlora", replace(setup, method=Method.qlora)),
        ]
    elif setup.method == Method.lora:
        variants.append(("qlora", replace(setup, method=Method.qlora)))
    out = []
    for change, variant in variants:
        found = min_gpus(spec, params, gpu, variant)
        out.append(
            Alternative(
                change=change,
                min_gpus=found[0] if found else None,
                per_gpu_bytes=sum(found[2].values()) if found else None,
            )
        )
    no_recompute = min_gpus(spec, params, gpu, setup, allow_full_recompute=False)
    out.append(
        Alternative(
            change="no_full_recompute",
            min_gpus=no_recompute[0] if no_recompute else None,
            per_gpu_bytes=sum(no_recompute[2].values()) if no_recompute else None,
        )
    )
    return out


def recommended(
    spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, minimum: int
) -> tuple[int, Plan] | None:
    """A comfortable size: ≤ 90 % of the card, no full recompute (except on cards without NVLink, where
    recomputing is cheaper than tensor parallelism over PCIe); full training on at least one node."""
    no_recompute = gpu.nvlink
    found = min_gpus(spec, params, gpu, setup, HEADROOM, allow_full_recompute=not no_recompute)
    if found is None:
        return None
    n = found[0]
    if setup.method == Method.full and minimum > 1:
        n = max(n, gpu.gpus_per_node)
        if n != found[0]:
            fit = best_plan_for(spec, params, gpu, n, setup, HEADROOM, allow_full_recompute=not no_recompute)
            return (n, fit[0]) if fit else (found[0], found[1])
    return n, found[1]


_SHELL_PLAN = Plan(tp=1, pp=1, dp=1, zero_stage=0, recompute="full")
"""One GPU, full recompute: the layout behind ``Memory.total_bytes`` and the no-fit figure."""


def training_memory(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    setup: TrainingSetup,
    requested_gpus: int | None = None,
    with_alternatives: bool = True,
) -> Memory:
    """Fewest GPUs that fit, a recommended size, the layout at ``requested_gpus`` (or at the
    minimum), what would change the answer (fine-tuning), and whether ``requested_gpus`` fits.

    ``Memory.min_gpus`` is None when nothing fits within MAX_GPUS_SEARCHED.
    """
    found = min_gpus(spec, params, gpu, setup)
    shell = breakdown(spec, params, setup, _SHELL_PLAN)
    states = sum(v for k, v in shell.items() if k not in ("activations", "logits", "overhead"))
    fits_requested = None
    at = found
    if requested_gpus is not None:
        fit = best_plan_for(spec, params, gpu, requested_gpus, setup)
        fits_requested = fit is not None
        if fit is not None:
            at = (requested_gpus, *fit)
    def per_gpu(plan: Plan, parts: dict[str, float]) -> dict:
        """The per-GPU fields of the answer: total, its band and the card's capacity."""
        low, high = per_gpu_band(spec, setup, plan, parts)
        return {
            "per_gpu_bytes": sum(parts.values()),
            "per_gpu_bytes_low": low,
            "per_gpu_bytes_high": high,
            "gpu_memory_bytes": gpu.memory_bytes,
            "usable_bytes": gpu.addressable_bytes,
        }

    if found is None or at is None:
        return Memory(
            **per_gpu(_SHELL_PLAN, shell),
            min_gpus=None,
            breakdown=shell,
            total_bytes=states,
            plan=None,
            fits_requested=fits_requested,
        )
    rec = recommended(spec, params, gpu, setup, found[0])
    rec_parts = best_plan_for(spec, params, gpu, rec[0], setup) if rec else None
    n, plan, parts = at
    return Memory(
        **per_gpu(plan, parts),
        min_gpus=found[0],
        min_plan=found[1],
        breakdown=parts,
        total_bytes=states,
        plan=plan,
        plan_gpus=n,
        fits_requested=fits_requested,
        recommended_gpus=rec[0] if rec else None,
        recommended_plan=rec[1] if rec else None,
        recommended_per_gpu_bytes=sum(rec_parts[1].values()) if rec_parts else None,
        alternatives=_alternatives(spec, params, gpu, setup) if with_alternatives else [],
    )


def checkpoint_bytes(spec: ModelSpec, params: float, method: Method, lora_rank: int = 16) -> Checkpoint:
    """Checkpoint storage: weights only (bf16 2Ψ; adapters for LoRA/QLoRA) and the full training
    state (16 B per trained parameter, :data:`FULL_STATE_BYTES_PER_PARAM`)."""
    trained = params if method == Method.full else lora_params(spec, lora_rank)
    return Checkpoint(weights=2.0 * trained, full_state=FULL_STATE_BYTES_PER_PARAM * trained)
