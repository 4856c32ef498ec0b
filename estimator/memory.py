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

from estimator.architecture import embedding_params
from estimator.catalog import ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, FRAGMENTATION
from estimator.memory_band import LOSS_CHUNKS
from estimator.models import Algorithm, Checkpoint, Method, Plan
from estimator.setup import Layout, Optimizer, Recompute, TrainingSetup

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


def checkpoint_bytes(spec: ModelSpec, params: float, method: Method, lora_rank: int = 16) -> Checkpoint:
    """Checkpoint storage: weights only (bf16 2Ψ; adapters for LoRA/QLoRA) and the full training
    state (16 B per trained parameter, :data:`FULL_STATE_BYTES_PER_PARAM`)."""
    trained = params if method == Method.full else lora_params(spec, lora_rank)
    return Checkpoint(weights=2.0 * trained, full_state=FULL_STATE_BYTES_PER_PARAM * trained)
