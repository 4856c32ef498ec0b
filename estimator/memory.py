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
from typing import TYPE_CHECKING, Literal

from estimator.catalog import ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, FRAGMENTATION
from estimator.expert_parallel import routed_share
from estimator.later import later
from estimator.lora import LORA_ALL_LINEAR as LORA_ALL_LINEAR
from estimator.lora import lora_matrices as lora_matrices
from estimator.lora import lora_params as lora_params
from estimator.model_states import _FULL, _STATE_FIELDS, _STATE_NAMES, state_parts, trained_params
from estimator.models import Method, Plan
from estimator.search_bounds import ZERO3_BOUND_MARGIN, step_floor, step_out_of_reach, surely_above
from estimator.search_bounds import group_out_of_reach as group_out_of_reach
from estimator.search_bounds import state_key as state_key
from estimator.setup import Layout, TrainingSetup, activation_layers, new_layout
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

# imported on first call (s43-speed: a plain question calls none of them)
accumulated_gradients, late_gradients = later(
    "estimator.late_gradients", "accumulated_gradients", "late_gradients"
)

_FREEZE = Method.freeze  # read once (Python 3.11's EnumType.__getattr__), as estimator.setup does

if TYPE_CHECKING:
    from estimator.gpu_spec import GpuSpec
    from estimator.layout_table import DenseTable


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
    base with adapters disabled (no extra copy), except where the tool loads it again
    (``TrainingSetup.reference_copy``: DeepSpeed-Chat step 3, a whole copy at ``frozen_bytes`` a weight).

    Then the step's transients (:mod:`estimator.transients`, likely values): DeepSpeed's gradient
    buckets, kept activations, the loss's peak ('logits'; a chunked loss shrinks it), what one layer's
    recompute needs beyond it, ZeRO-3's gathered weights, the optimizer step's temporaries beyond the
    forward/backward peak; and the runtime overhead: CUDA context + fragmentation of what the step
    allocates and frees (:mod:`estimator.defaults`; model states are allocated once, in blocks of their
    own size). The parts add up to the peak.
    """
    return _with_transients(spec, params, setup, plan, state_parts(spec, params, setup, plan))


KEPT_SHAPES = 16
"""Cards whose search shape and key one job's :class:`SearchMemo` keeps (``shapes``): the corpus's largest
comparison sizes 6 (s46-speed); past this many (copies of a card made per answer) they are made anew."""


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
    shapes: dict[int, tuple[GpuSpec, tuple, tuple]] = field(default_factory=dict)
    """(the card, :func:`estimator.search_groups.search_shape` of this job on it, its ``card_key``) by the
    card's ``id``, found only for that very object (:meth:`kept_shape`; s46-speed: ``min_gpus`` and
    ``best_plan_for`` made them once or twice a count, two or three frames each)."""

    def kept_shape(self, spec: ModelSpec, gpu: GpuSpec, setup: TrainingSetup) -> tuple[GpuSpec, tuple, tuple]:
        """:attr:`shapes`' entry for ``gpu``, made and kept; past :data:`KEPT_SHAPES` cards (a kept job's
        memo meets a new copy of a card per answer with a stated memory) the others are dropped first."""
        from estimator.search_groups import card_key, search_shape  # that module imports this one

        if len(self.shapes) >= KEPT_SHAPES:
            self.shapes.clear()
        made = self.shapes[id(gpu)] = (gpu, search_shape(spec, gpu, setup), card_key(gpu))
        return made

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
