"""The model states of a training job (split off :mod:`estimator.memory`, session 39): bytes per parameter
of weights, gradients and optimizer states by method and precision (full, LoRA/QLoRA adapters, freeze-tuning,
P-tuning v2, a frozen quantized base, a frozen reference copy), their split over a layout, and the
parameters a method trains.
"""

from __future__ import annotations

from operator import attrgetter

from estimator.architecture import embedding_params
from estimator.catalog import ModelSpec
from estimator.expert_parallel import state_groups
from estimator.lora import lora_params
from estimator.models import Algorithm, Method, Plan
from estimator.optimizer_states import (
    OPTIMIZER_BYTES_PER_PARAM,
    PURE_BF16_OPTIMIZER_BYTES_PER_PARAM,
    optimizer_bytes_per_param,
)
from estimator.setup import Layout, Optimizer, TrainingSetup
from estimator.transients import (
    RUNTIME_PARTS,
)
from estimator.vision import language_params
from estimator.weights import INT8_ROW_SCALE_BITS

_STATE_FIELDS = attrgetter("tp", "pp", "dp", "zero_stage", "ep", "offload")
"""What :meth:`estimator.layout_table.DenseTable.states` reads of a Plan or Layout."""
_STATE_NAMES = ("weights", "gradients", "optimizer")
""":func:`state_parts`' parts of a plain full-training job, in its order."""
NF4_BITS_PER_PARAM = 4.127
"""QLoRA base weights: NF4 (4 bits) + double-quantized block scales (0.127 bits/param).

Source: Dettmers et al. 2023, *QLoRA*, §2 (block size 64; double quantization 8/64 + 32/(64·256)).
Embeddings and the output head stay in bf16 (bitsandbytes quantizes only the linear layers).
"""
QUANTIZED_BASE_BITS: dict[int, float] = {8: 8.0, 4: NF4_BITS_PER_PARAM, 3: 3.5, 2: 2.5}
"""Bits per weight of a frozen quantized base by its bit width, as LLaMA-Factory's
``quantization_bit`` runs it (8 and 4 with bitsandbytes, 3 and 2 with HQQ; docs/peft: "quantization_bit:
2/3/4/5/6/8"). 8: bitsandbytes LLM.int8 — int8 weights + one fp32 scale per output row
(``Int8Params``: ``CB`` int8, ``SCB`` fp32; Dettmers et al. 2022, §3): 8 + 32/in_features, the row
scale added by :func:`_frozen_base` over ``hidden`` input features; 4: NF4 with double quantization
(:data:`NF4_BITS_PER_PARAM`); 3 and 2: HQQ with group size 64 and a 16-bit scale and zero per group
(Badri & Shaji 2023, HQQ; hqq ``BaseQuantizeConfig(nbits, group_size=64)``): + 32/64 = 0.5 bits."""
_PREFERENCE = (Algorithm.dpo, Algorithm.ppo, Algorithm.grpo, Algorithm.rloo)  # keep a frozen reference copy
_FULL, _PPO = Method.full, Algorithm.ppo  # read once: Python 3.11's EnumType.__getattr__ slows `Method.full`
_ADAPTERS = (Method.lora, Method.qlora)  # a reference copy beside adapters: TrainingSetup.reference_copy
FREEZE_TRAINABLE_BYTES_PER_PARAM = 16.0
"""Freeze-tuning's trained layers: LLaMA-Factory upcasts trainable parameters to fp32
(``finetuning_args.py``, ``upcast_trainable_params``): weights 4 + gradients 4 + Adam m, v 8 = 16."""
PREFIX_BYTES_PER_PARAM = 16.0
"""P-tuning v2's prefix encoder trains in fp32 with AdamW: 4 + 4 + 8 bytes per parameter."""
LORA_ADAPTER_BYTES_PER_PARAM = 16.0
"""LoRA and QLoRA adapters: PEFT keeps them in fp32 (``autocast_adapter_dtype=True``, the default
since peft 0.12; peft 0.6 created them before the base dtype was known: ``LoraLayer.update_layer``),
LLaMA-Factory upcasts trainable parameters to fp32 (``upcast_trainable_params``), and
``torch.optim.AdamW`` makes its states in the parameter's dtype: weight 4 + gradient 4 + m 4 + v 4 =
16 — the 16 B of mixed-precision AdamW (ZeRO §3). Under DeepSpeed fp16 (Qwen's QLoRA script) the
same 16: fp16 weight 2 + gradient 2 + fp32 master 4 + m, v 8."""
FULL_STATE_BYTES_PER_PARAM = 16.0
"""Resumable checkpoint of mixed-precision AdamW: bf16 weights 2 + fp32 master 4 + m 4 + v 4,
rounded to the 16 B/param of model states (ZeRO §3) to leave room for gradients/RNG/metadata."""


def model_state_bytes(
    params: float,
    optimizer: Optimizer = "adamw",
    zero_stage: int = 0,
    dp: int = 1,
    master_weights: bool = True,
    grad_bytes: float = 2.0,
    extra: tuple[float, float] = (0.0, 0.0),
) -> dict[str, float]:
    """Full-training model states per GPU: weights 2Ψ, gradients ``grad_bytes``·Ψ, optimizer KΨ (K per
    :data:`OPTIMIZER_BYTES_PER_PARAM`; :data:`PURE_BF16_OPTIMIZER_BYTES_PER_PARAM` without master weights),
    ``extra`` added to the 2 and to K (Megatron's counts, TrainingSetup.state_extra). ZeRO shards over the DP
    degree ``dp``: stage 1 the optimizer states, 2 also the gradients, 3 also the weights (ZeRO paper Table 1,
    Ψ = 7.5B, dp = 64: 120 / 31.4 / 16.6 / 1.88 GB); ZeRO-0 on one GPU: late gradients (late_gradients)."""
    table = OPTIMIZER_BYTES_PER_PARAM if master_weights else PURE_BF16_OPTIMIZER_BYTES_PER_PARAM
    k = table[optimizer] + extra[1]
    return {
        "weights": (2.0 + extra[0]) * params / (dp if zero_stage >= 3 else 1),
        "gradients": grad_bytes * params / (dp if zero_stage >= 2 else 1),
        "optimizer": k * params / (dp if zero_stage >= 1 else 1),
    }


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


def _adapter_bytes_per_param(setup: TrainingSetup) -> float:
    """Bytes per LoRA/QLoRA adapter parameter.

    Default options (LoRA and QLoRA as PEFT and LLaMA-Factory run them): 16
    (:data:`LORA_ADAPTER_BYTES_PER_PARAM`). With the optimizer options changed (torchtune's bf16
    recipes, 8-bit or paged optimizers): bf16 weights 2 + bf16 gradients 2 +
    :func:`optimizer_bytes_per_param`.
    """
    default = setup.master_weights and not setup.paged_optimizer and setup.optimizer == "adamw"
    if default:
        return LORA_ADAPTER_BYTES_PER_PARAM
    return 4.0 + optimizer_bytes_per_param(setup.optimizer, setup.master_weights, setup.paged_optimizer)


def _frozen_copy_bytes(params: float, plan: Plan | Layout) -> float:
    """A frozen bf16 model: 2Ψ, sharded like the weights (state_parts' reference and reward: inline)."""
    return 2.0 * params / (plan.tp * plan.pp) / (plan.dp if plan.zero_stage >= 3 else 1)


def state_parts(
    spec: ModelSpec,
    params: float,
    setup: TrainingSetup,
    plan: Plan | Layout,
    trained: float | None = None,
    routed: float | None = None,
) -> dict[str, float]:
    """The parts of :func:`breakdown` allocated once (model states, adapters, frozen copies), in the
    breakdown's order (bytes per GPU); ``trained`` (:func:`trained_params`) and ``routed``
    (:func:`estimator.expert_parallel.routed_share`) when the caller has them."""
    trained = trained_params(spec, params, setup) if trained is None else trained
    shard = params / (plan.tp * plan.pp)
    parts: dict[str, float] = {}
    if setup.method == _FULL:
        parts |= _model_states(spec, trained, setup, plan, routed)  # trained: less a frozen vision tower
        if trained < params:  # estimator.vision: the tower kept as frozen 16-bit weights
            parts["weights"] += _frozen_copy_bytes(params - trained, plan)
        if setup.paged_optimizer:
            k = optimizer_bytes_per_param(setup.optimizer, setup.master_weights, paged=True)
            parts["optimizer"] = k * trained / (plan.tp * plan.pp) / (plan.dp if plan.zero_stage >= 1 else 1)
        if plan.offload:
            parts["optimizer"] = 0.0
        if setup.optimizer_in_backward:
            parts["gradients"] = min(parts["gradients"], 2.0 * largest_param(spec) / plan.tp)
    elif setup.method in (Method.lora, Method.qlora):
        per_adapter = _adapter_bytes_per_param(setup)
        parts["weights"] = _frozen_base(spec, params, setup, plan) / (plan.dp if plan.zero_stage >= 3 else 1)
        from estimator.adapter_states import adapter_state_bytes

        parts["adapters"] = adapter_state_bytes(spec, trained, per_adapter, setup, plan) / (plan.tp * plan.pp)
        if plan.offload and (plan.zero_stage >= 3 or (plan.dp == 1 and (setup.zero_stage or 0) >= 3)):
            parts["weights"] = parts["adapters"] = 0.0  # FSDP/ZeRO-3 params in host RAM, not ZeRO-1/2's (s34)
    elif setup.method == Method.freeze:
        on_gpu = trained / (plan.tp * plan.pp)
        parts["weights"] = setup.frozen_bytes * (shard - on_gpu) / (plan.dp if plan.zero_stage >= 3 else 1)
        sharded = plan.dp if plan.zero_stage >= 1 else 1  # ZeRO-1 and up shard the optimizer states
        parts["trainable"] = FREEZE_TRAINABLE_BYTES_PER_PARAM * on_gpu / sharded
    else:  # P-tuning v2: the frozen model (16-bit or quantized) and a small trained prefix encoder
        parts["weights"] = _frozen_base(spec, params, setup, plan) / (plan.dp if plan.zero_stage >= 3 else 1)
        parts["prefix"] = PREFIX_BYTES_PER_PARAM * trained
    if setup.algorithm in _PREFERENCE and setup.method == _FULL and setup.reference:
        parts["reference"] = 2.0 * params / (plan.tp * plan.pp) / (plan.dp if plan.zero_stage >= 3 else 1)
    elif (
        setup.reference_copy
        and setup.algorithm in _PREFERENCE
        and setup.reference
        and setup.method in _ADAPTERS
    ):
        # DeepSpeed-Chat step 3 loads the reference again beside a LoRA actor (TrainingSetup.reference_copy)
        copy = setup.frozen_bytes * params / (plan.tp * plan.pp)
        parts["reference"] = copy / (plan.dp if plan.zero_stage >= 3 else 1)
    if setup.algorithm == _PPO and setup.critic is not None:  # DeepSpeed-Chat: a critic of its own (s49)
        from estimator.dschat_critic import critic_parts

        parts |= critic_parts(spec, params, setup, plan)
    elif setup.algorithm == _PPO:
        if setup.method == _FULL:
            critic = model_state_bytes(shard, setup.optimizer, plan.zero_stage, plan.dp, setup.master_weights)
            if setup.paged_optimizer or setup.optimizer_in_backward:
                critic = {k: parts[k] for k in critic}  # placed like the policy's states
            parts["critic"] = sum(critic.values()) - (critic["optimizer"] if plan.offload else 0.0)
        else:
            parts["critic"] = parts["adapters"]
        parts["reward"] = 2.0 * params / (plan.tp * plan.pp) / (plan.dp if plan.zero_stage >= 3 else 1)
    return parts


def state_bytes(parts: dict[str, float]) -> float:
    """Bytes of a :func:`breakdown` allocated once and kept (model states, frozen copies, adapters,
    DeepSpeed's buckets): every part but the step's transients and the runtime overhead
    (:data:`estimator.transients.RUNTIME_PARTS`)."""
    return sum([v for k, v in parts.items() if k not in RUNTIME_PARTS])  # a list: no generator resumptions


def _model_states(
    spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan | Layout, routed: float | None = None
) -> dict[str, float]:
    """Full training's model states on one GPU (:func:`model_state_bytes`), per parameter group of
    :func:`estimator.expert_parallel.state_groups`: the TP × PP shard; with expert parallelism the
    routed experts also split over EP and ZeRO-sharded over DP / EP."""
    if plan.ep == 1 and spec.layers % plan.pp == 0:  # one group: the TP × PP shard over DP
        shard, g = params / (plan.tp * plan.pp), (setup.grad_bytes, setup.state_extra)
        return model_state_bytes(shard, setup.optimizer, plan.zero_stage, plan.dp, setup.master_weights, *g)
    parts, g = {"weights": 0.0, "gradients": 0.0, "optimizer": 0.0}, (setup.grad_bytes, setup.state_extra)
    for n, dp in state_groups(spec, params, plan, routed):  # model_state_bytes of each group, summed
        group = model_state_bytes(n, setup.optimizer, plan.zero_stage, dp, setup.master_weights, *g)
        for key, value in group.items():  # the same floats, in the same order, as before (review s19)
            parts[key] += value
    return parts


def _frozen_base(spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan | Layout) -> float:
    """A frozen base on the TP × PP shard: bf16 (2 bytes per weight; 4 loaded in fp32,
    ``setup.frozen_bytes``), or quantized when ``setup.base_bits`` is set (QLoRA: NF4 by default) with
    embeddings and head in bf16."""
    shard = params / (plan.tp * plan.pp)
    bits = setup.base_bits or (NF4_BITS_PER_PARAM if setup.method == Method.qlora else None)
    if bits is None:
        return setup.frozen_bytes * shard
    if bits == QUANTIZED_BASE_BITS[8]:
        bits += INT8_ROW_SCALE_BITS / spec.hidden
    embed = min(embedding_params(spec), params) / (plan.tp * plan.pp)
    return bits / 8.0 * (shard - embed) + 2.0 * embed


_WHOLE = Layout(1, 1, 1, 0, "full", 1, False)  # one GPU: the base unsharded


def frozen_base_bytes(spec: ModelSpec, params: float, setup: TrainingSetup) -> float:
    """The whole frozen base as stored (:func:`_frozen_base` unsharded): an adapter offload's host RAM."""
    return _frozen_base(spec, params, setup, _WHOLE)


def trained_params(spec: ModelSpec, params: float, setup: TrainingSetup) -> float:
    """Parameters the method trains: all of them (full), the LoRA adapters (:func:`lora_params`), the
    last ``freeze_layers`` layers (freeze-tuning: one layer's share of the non-embedding parameters
    each), or the P-tuning v2 prefix: ``prefix_tokens`` key and value vectors per layer
    (prefix_tokens × layers × 2 × kv_heads × head_dim; Liu et al. 2022, P-Tuning v2 §3.2, ChatGLM's
    ``PrefixEncoder`` without projection)."""
    if setup.method == Method.full:  # all but a VL release's frozen vision tower (estimator.vision)
        return params - spec.vision.params if spec.vision is not None else params  # language_params
    if setup.method in (Method.lora, Method.qlora):
        return lora_params(spec, setup.lora_rank, setup.lora_targets)
    if setup.method == Method.freeze:
        lm = language_params(spec, params) or 0.0  # a VL tower is no decoder layer's share
        per_layer = (lm - embedding_params(spec) - spec.hidden) / spec.layers
        return min(setup.freeze_layers, spec.layers) * per_layer
    kv_dim = spec.kv_heads * spec.head_dim_effective
    return float(setup.prefix_tokens * spec.layers * 2 * kv_dim)
