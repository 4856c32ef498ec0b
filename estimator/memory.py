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
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Literal

from estimator.architecture import embedding_params
from estimator.catalog import ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, FRAGMENTATION
from estimator.expert_parallel import routed_share, state_groups
from estimator.late_gradients import accumulated_gradients, late_gradients
from estimator.lora import LORA_ALL_LINEAR as LORA_ALL_LINEAR
from estimator.lora import lora_matrices as lora_matrices
from estimator.lora import lora_params as lora_params
from estimator.models import Algorithm, Method, Plan
from estimator.optimizer_states import (
    OPTIMIZER_BYTES_PER_PARAM,
    PURE_BF16_OPTIMIZER_BYTES_PER_PARAM,
    optimizer_bytes_per_param,
)
from estimator.search_bounds import ZERO3_BOUND_MARGIN, step_floor, step_out_of_reach, surely_above
from estimator.search_bounds import group_out_of_reach as group_out_of_reach
from estimator.search_bounds import state_key as state_key
from estimator.setup import Layout, Optimizer, TrainingSetup, activation_layers, new_layout
from estimator.transients import (
    RUNTIME_PARTS,
    ActivationFacts,
    Peaks,
    Span,
    activation_facts,
    kept_activations,
    peaks,
)
from estimator.transients import activation_bytes_per_layer as activation_bytes_per_layer
from estimator.vision import language_params
from estimator.weights import INT8_ROW_SCALE_BITS

_FREEZE = Method.freeze  # read once (Python 3.11's EnumType.__getattr__), as estimator.setup does

if TYPE_CHECKING:
    from estimator.layout_table import DenseTable

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


def breakdown(spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan | Layout) -> dict[str, float]:
    """Bytes per GPU by part for ``plan`` (stage 1 of the pipeline, the fullest one).

    Model states per :func:`model_state_bytes` on the TP × PP shard; with CPU offload
    (ZeRO-Offload, Ren et al. 2021) or a paged optimizer the optimizer states live in host memory
    (0 on the GPU); with the optimizer in the backward pass the gradients are one parameter's
    (:func:`largest_param`). LoRA: frozen bf16 base + adapters; QLoRA: a quantized base (NF4 by
    default; embeddings bf16) + adapters. Freeze-tuning: the frozen layers in bf16, the last
    ``freeze_layers`` trained in fp32 with AdamW (:data:`FREEZE_TRAINABLE_BYTES_PER_PARAM`); without
    gradient checkpointing only they keep activations, with it every layer keeps its input
    (:func:`estimator.setup.activation_layers`). P-tuning v2: the frozen model and a trained prefix
    (:data:`PREFIX_BYTES_PER_PARAM`); the backward pass runs through every layer to reach each layer's
    prefix, so all layers keep activations.
    DPO adds a frozen reference model (Rafailov et al. 2023); PPO adds a trained critic of the
    same size plus frozen reference and reward models (Ouyang et al. 2022, InstructGPT);
    GRPO drops the critic (Shao et al. 2024, DeepSeekMath §4), as RLOO does (Ahmadian et al. 2024;
    TRL RLOOTrainer: policy and reference, a leave-one-out baseline). With LoRA the reference is the
    base with adapters disabled (no extra copy).

    Then the step's transients (:mod:`estimator.transients`, likely values): DeepSpeed's gradient
    buckets, kept activations, the loss's peak ('logits'; a chunked loss shrinks it), what one layer's
    recompute needs beyond it, ZeRO-3's gathered weights, the optimizer step's temporaries beyond the
    forward/backward peak; and the runtime overhead: CUDA context + fragmentation of what the step
    allocates and frees (:mod:`estimator.defaults`; model states are allocated once, in blocks of their
    own size). The parts add up to the peak.
    """
    return _with_transients(spec, params, setup, plan, state_parts(spec, params, setup, plan))


@dataclass
class SearchMemo:
    """What a layout search (one model, parameter count and setup, up to the setup's TP and PP) computes
    once instead of per layout: :func:`state_parts` by the layout fields they depend on
    (:func:`state_key`: not the recompute mode nor the micro-batch), the trained parameters
    (:func:`trained_params`) and the :class:`estimator.transients.ActivationFacts`; and the whole
    breakdown of each candidate :class:`estimator.setup.Layout` already sized, with the sum of its
    states (``full``: the searches of one answer — the fewest GPUs, the recommended size, the user's
    count, without full recompute — try many of the same layouts). One a job on every card (s35:
    :func:`estimator.search_keep.job_memo`), kept with its searches across answers by
    :func:`estimator.plan.kept_searches` (at most ``KEPT_BATCHES`` searches a job; ``plans`` cleared past
    ``KEPT_PLANS`` when the search is found again): s33 fix-b."""

    states: dict[tuple, dict[str, float]] = field(default_factory=dict)  # by state_key
    full: dict[Layout, tuple[float, dict[str, float]]] = field(default_factory=dict)
    peaks: dict[Layout, Peaks] = field(default_factory=dict)  # of each ``full``: the answer's band reads them
    summed: dict[tuple, tuple[float, dict[str, float]]] = field(default_factory=dict)
    """(the sum, the parts) of each entry of ``states``, summed once in order; ``laid``: by Layout."""
    laid: dict[Layout, tuple[float, dict[str, float]]] = field(default_factory=dict)
    step_floors: dict[tuple, float] = field(default_factory=dict)  # of search_bounds.step_out_of_reach
    floors: dict[tuple[int, int, int, int, bool, str, int], float] = field(default_factory=dict)
    """:meth:`group_floor` by (TP, PP, DP, EP, offload, recompute, micro-batch)."""
    stage3: dict[tuple[int, int, int, int, bool], float] = field(default_factory=dict)
    """:meth:`group_floor`'s ZeRO-3 states by (TP, PP, DP, EP, offload): q116, 221 floors of 146 states."""
    activations: dict[tuple[int, int, int, str, bool, bool], Span] = field(default_factory=dict)
    """:meth:`kept` by (TP, PP, micro-batch, recompute, ZeRO off, EP = 1); ``by_layers``: layers for PP."""
    by_layers: dict[tuple[int, int, int, str, bool, bool], Span] = field(default_factory=dict)
    plans: dict[tuple, tuple[Plan, dict[str, float]] | None] = field(default_factory=dict)
    """:func:`estimator.plan.best_plan_for`'s answers by count, budget, full recompute allowed and card."""
    trained: float | None = None
    facts: ActivationFacts | None = None
    routed: float | None = None
    dense: DenseTable | Literal[False] | None = None  # layout_table.dense_table's (False: the job has none)
    fewest: dict[tuple, int] = field(default_factory=dict)  # min_gpus' answers: search_groups.known_unfit
    rests: dict[tuple[str, ...], dict[tuple[int, int], float]] = field(default_factory=dict)
    """search_bounds.rest_floor by recompute modes, then (TP, PP): each search's PinnedFloor.rests."""
    unfit: dict[tuple, set[tuple]] = field(default_factory=dict)
    """(count, TP, PP, EP) with no layout within the limit, by (limit, full recompute, search shape):
    estimator.plan.min_gpus' tests (EP None: any), which best_plan_for at that count then skips."""

    def routed_share(self, spec: ModelSpec) -> float:
        """:func:`estimator.expert_parallel.routed_share`, computed on the first call."""
        if self.routed is None:
            self.routed = routed_share(spec)
        return self.routed

    def trained_params(self, spec: ModelSpec, params: float, setup: TrainingSetup) -> float:
        """:func:`trained_params`, computed on the first call."""
        if self.trained is None:
            self.trained = trained_params(spec, params, setup)
        return self.trained

    def state_sum(
        self, spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan | Layout
    ) -> tuple[float, dict[str, float]]:
        """(sum, parts) of :func:`state_parts` for ``plan``, computed once per :func:`state_key` (a
        :class:`estimator.setup.Layout` asked again: found by itself, without its key); for a plain
        full-training job (:attr:`dense`) the same floats from
        :meth:`estimator.layout_table.DenseTable.states`."""
        found = self.laid.get(plan) if plan.__class__ is Layout else None
        if found is not None:
            return found
        dp = plan.dp if plan.zero_stage else 1  # state_key(spec, setup, plan), in place: no call
        if plan.ep == 1 and not setup.optimizer_in_backward and spec.layers % plan.pp == 0:
            key: tuple = (plan.tp * plan.pp, dp, plan.zero_stage, plan.offload)
        else:
            key = (plan.tp, plan.pp, dp, plan.zero_stage, plan.offload, plan.ep)
        found = self.summed.get(key)
        if found is None:
            routed = self.routed if self.routed is not None else self.routed_share(spec)
            table = self.dense
            if table:  # a plain full-training job: state_parts' floats on plain numbers (DenseTable.states)
                cached = dict(zip(_STATE_NAMES, table.states(*_STATE_FIELDS(plan), routed), strict=True))
            else:
                trained = (
                    self.trained if self.trained is not None else self.trained_params(spec, params, setup)
                )
                cached = state_parts(spec, params, setup, plan, trained, routed)
            self.states[key] = cached
            found = self.summed[key] = (sum(cached.values()), cached)
        if plan.__class__ is Layout:
            self.laid[plan] = found
        return found

    def group_floor(self, spec: ModelSpec, params: float, setup: TrainingSetup, plan: Layout) -> float:
        """A lower bound in bytes on :func:`breakdown`'s total for every ZeRO stage of ``plan``'s TP, PP,
        DP, EP, offload, recompute mode and micro-batch (:func:`group_out_of_reach`), once per group."""
        key = (plan.tp, plan.pp, plan.dp, plan.ep, plan.offload, plan.recompute, plan.micro_batch)
        floor = self.floors.get(key)
        if floor is None:
            stage3 = new_layout((*plan[:3], 3, *plan[4:]))  # the same layout at ZeRO-3
            table, late = self.dense, 0.0
            dense = table and plan.dp > 1  # a plain full-training job: the same float on plain numbers
            states = self.stage3.get(key[:5])
            if states is None:
                if dense:
                    routed = self.routed if self.routed is not None else self.routed_share(spec)
                    w, g, o = table.states(plan.tp, plan.pp, plan.dp, 3, plan.ep, plan.offload, routed)
                    states = w + g + o  # sum(state_parts(…).values()): the same order
                else:
                    states = self.state_sum(spec, params, setup, stage3)[0]
                self.stage3[key[:5]] = states
            if not dense and plan.dp == 1:  # ZeRO-0's late gradients, one GPU
                late = late_gradients(setup, plan, params, True)
            span = self.activations.get((*plan[:2], plan.micro_batch, plan.recompute, False, plan.ep == 1))
            kept = max(0.0, (span or self.kept(spec, setup, stage3)).likely - late)  # kept's lookup in place
            floor = self.floors[key] = states + kept + CUDA_CONTEXT_BYTES.value
        return floor

    def kept(self, spec: ModelSpec, setup: TrainingSetup, plan: Plan | Layout) -> Span:
        """:func:`estimator.transients.kept_activations` of ``plan`` (bytes) by TP, PP, micro-batch,
        recompute, ZeRO off and EP = 1 (all it reads of the plan; EP through
        :func:`estimator.eager_activations.eager_layers`, whose stack is the setup's, one a memo), computed
        once per layers kept in place of PP (:func:`estimator.setup.activation_layers` × PP: every PP of
        whole stages keeps every layer)."""
        eager = plan.ep == 1
        key = (plan.tp, plan.pp, plan.micro_batch, plan.recompute, plan.zero_stage == 0, eager)
        span = self.activations.get(key)
        if span is None:
            layers = math.ceil(spec.layers / plan.pp)  # activation_layers in place, but for freeze-tuning
            if setup.method == _FREEZE:
                layers = activation_layers(spec, setup, plan.pp, plan.recompute)
            by_layers = (plan.tp, layers * plan.pp, *key[2:])
            span = self.by_layers.get(by_layers)
            if span is None:
                self.facts = self.facts or activation_facts(spec, setup)
                span = self.by_layers[by_layers] = kept_activations(spec, setup, plan, self.facts)
            self.activations[key] = span
        return span


def breakdown_within(
    spec: ModelSpec,
    params: float,
    setup: TrainingSetup,
    plan: Plan | Layout,
    limit: float,
    memo: SearchMemo | None = None,
) -> dict[str, float] | None:
    """:func:`breakdown`, or None when its total is certainly above ``limit`` bytes: the states alone
    (:func:`state_parts`, the breakdown's first parts; every later part is ≥ 0 and a float sum of
    non-negative terms never decreases) or with a lower bound of the rest (``estimator.search_bounds``)
    already exceed it: the search skips the step's transients of layouts that cannot fit (most of the
    ~1,200 a DeepSeek-V3 answer tries). ``memo``: what the caller keeps for one (spec, params, setup)."""
    if memo is None:
        parts = state_parts(spec, params, setup, plan)
        states = sum(parts.values())
    else:
        laid = plan.__class__ is Layout
        done = memo.full.get(plan) if laid else None
        if done is not None:  # sized before in this search: same parts, same test against the limit
            return None if done[0] > limit else dict(done[1])
        found = memo.laid.get(plan) if laid else None  # state_sum's first lookup, in place: no call
        states, cached = found if found is not None else memo.state_sum(spec, params, setup, plan)
        if states > limit or step_out_of_reach(spec, params, setup, plan, states, limit, memo):
            return None
        parts = dict(cached)
    if states > limit or surely_above(spec, setup, plan, states, limit, memo, params):
        return None
    p = _step_peaks(spec, params, setup, plan, memo)
    if limit != math.inf and step_floor(states + p.buffers, p) * ZERO3_BOUND_MARGIN > limit:
        return None  # the step's peaks cannot fit: its parts are not assembled
    parts = _with_transients(spec, params, setup, plan, parts, memo, p)
    if memo is not None and isinstance(plan, Layout):
        memo.full[plan], memo.peaks[plan] = (states, dict(parts)), p
    return parts


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
    if setup.algorithm == _PPO:
        if setup.method == _FULL:
            critic = model_state_bytes(shard, setup.optimizer, plan.zero_stage, plan.dp, setup.master_weights)
            if setup.paged_optimizer or setup.optimizer_in_backward:
                critic = {k: parts[k] for k in critic}  # placed like the policy's states
            parts["critic"] = sum(critic.values()) - (critic["optimizer"] if plan.offload else 0.0)
        else:
            parts["critic"] = parts["adapters"]
        parts["reward"] = 2.0 * params / (plan.tp * plan.pp) / (plan.dp if plan.zero_stage >= 3 else 1)
    return parts


def _step_peaks(
    spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan | Layout, memo: SearchMemo | None = None
) -> Peaks:
    """The step's :class:`estimator.transients.Peaks` for ``plan`` (bytes), with what ``memo`` keeps."""
    if memo is None:
        trained, facts = trained_params(spec, params, setup), None
    else:
        trained = memo.trained if memo.trained is not None else memo.trained_params(spec, params, setup)
        facts = memo.facts = memo.facts or activation_facts(spec, setup)
    if setup.method != Method.ptuning:  # the prefix is small and not split
        trained /= plan.tp * plan.pp
    return peaks(
        spec, params, setup, plan, trained, facts, None if memo is None else memo.kept(spec, setup, plan)
    )


def _with_transients(
    spec: ModelSpec,
    params: float,
    setup: TrainingSetup,
    plan: Plan | Layout,
    parts: dict[str, float],
    memo: SearchMemo | None = None,
    p: Peaks | None = None,
) -> dict[str, float]:
    """``parts`` (:func:`state_parts`) with the step's transients (``p``: :func:`_step_peaks`), overhead."""
    parts |= (p or _step_peaks(spec, params, setup, plan, memo)).likely_parts()
    if plan.dp == plan.tp == 1 and setup.method == _FULL and not plan.zero_stage:  # one process (s34)
        parts["gradients"] += accumulated_gradients(setup, plan, params)
    churn = sum([v for k, v in parts.items() if k in RUNTIME_PARTS])  # allocated and freed every step
    parts["overhead"] = CUDA_CONTEXT_BYTES.value + FRAGMENTATION.value * churn
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
