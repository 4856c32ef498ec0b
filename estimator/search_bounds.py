"""Lower bounds of the training layout search (bytes per GPU): a whole group of layouts ruled out at once
(:func:`group_out_of_reach`) and one layout's total bounded from its first parts (:func:`surely_above`,
:func:`churn_floor`) or from its step's peaks (:func:`step_floor`, :func:`step_out_of_reach`), and the
layouts that share their states (:func:`state_key`), so the search sizes fewer layouts with the same
answer. Split from :mod:`estimator.memory` (which re-exports these names and keeps the per-search
:class:`estimator.memory.SearchMemo`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from estimator.catalog import ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, FRAGMENTATION
from estimator.later import later
from estimator.models import Algorithm, Method, Plan
from estimator.setup import Layout, TrainingSetup, new_layout
from estimator.trainer_generation import generation_kv_per_sequence, generation_parts
from estimator.transients import (
    CHUNKED_LOSS_BYTES_PER_LOGIT,
    PAIRED_SEQUENCES,
    ZERO3_SUB_GROUP_SIZE,
    ZERO_REDUCE_BUCKET_ELEMENTS,
    Peaks,
    gathered_weights,
    kept_activations,
    step_bytes,
    zero_buffers,
)
from estimator.transients import FP32_LOSS_BYTES_PER_LOGIT as FP32_LOSS
from estimator.transients import HALF_LOSS_BYTES_PER_LOGIT as HALF_LOSS

# imported on first call (s43-speed: a plain question calls none of them)
gradient_credit, late_gradients = later("estimator.late_gradients", "gradient_credit", "late_gradients")

if TYPE_CHECKING:
    from estimator.memory import SearchMemo

_DPO = Algorithm.dpo
_CHUNKED, _FP32, _HALF = (t[1] for t in (CHUNKED_LOSS_BYTES_PER_LOGIT, FP32_LOSS, HALF_LOSS))
"""The likely bytes per logit of :func:`estimator.transients.loss_bytes`'s three tables."""

ZERO3_BOUND_MARGIN = 1.0 - 1e-9
"""Relative slack on the ZeRO-3 lower bound of :func:`group_out_of_reach` (dimensionless):
the bound holds exactly in real numbers; the slack (far above float rounding, ~1e-16 per operation,
far below any real gap between stages) keeps it a bound after rounding, so a layout is never dropped
that the exact test would keep."""


def group_out_of_reach(
    spec: ModelSpec, params: float, setup: TrainingSetup, plan: Layout, limit: float, memo: SearchMemo
) -> bool:
    """Whether no ZeRO stage of ``plan``'s group (the same TP, PP, DP, EP, offload, recompute mode and
    micro-batch) fits within ``limit`` bytes, so the search can skip the group's layouts unsized.

    Every part of :func:`estimator.memory.state_parts` only shrinks as the stage rises (ZeRO-1 shards
    the optimizer, 2 the gradients, 3 the weights, over DP ≥ 1), and so do the kept activations (LoRA's
    fp32 input copies go with ZeRO-0: :func:`estimator.transients.kept_activations`); every other part
    of the breakdown is ≥ 0 and the overhead at least the CUDA context. So the stage-3 states + stage-3
    kept activations + the CUDA context (:meth:`estimator.memory.SearchMemo.group_floor`) bound every
    stage's total from below (:data:`ZERO3_BOUND_MARGIN`), and a group above the limit holds no layout
    that fits."""
    return limit != math.inf and memo.group_floor(spec, params, setup, plan) * ZERO3_BOUND_MARGIN > limit


_ONE_GPU = {off: Layout(1, 1, 1, 0, "full", 1, off) for off in (False, True)}
"""The one-GPU layout of :func:`states_floor` by offload (:func:`estimator.plan._shell`'s: one
evaluation of the states per search, shared with the search's lower bound)."""

_TWICE = ZERO3_BOUND_MARGIN * ZERO3_BOUND_MARGIN
"""The slack of a closed-form bound standing in for the exact floor it bounds (:func:`count_out_of_reach`
for :func:`group_out_of_reach`): the closed form is summed in another order, so it rules out only what
the exact floor, compared with :data:`ZERO3_BOUND_MARGIN`, rules out too."""


def states_floor(
    spec: ModelSpec, params: float, setup: TrainingSetup, plan: Layout, memo: SearchMemo
) -> float:
    """A closed-form lower bound of ``plan``'s model states at ZeRO-3 (bytes per GPU,
    :func:`estimator.memory.state_parts` summed) as a function of TP, PP and DP: the states of the
    same job on one GPU (TP = PP = DP = 1, offload as ``plan``'s), divided by TP × PP × DP.

    No part of the states shrinks faster than 1 / (TP × PP × DP): ZeRO-3 divides by DP at most (the
    weights, gradients, optimizer, frozen copies), the TP × PP shard by TP × PP at most (an uneven
    pipeline's first stage holds ⌈L/PP⌉/L ≥ 1/PP of the layers; LoRA's adapters and P-tuning's prefix are
    not divided by DP, the prefix nor by TP × PP); the optimizer in the backward pass keeps the least of
    two terms, each no smaller than its one-GPU value / (TP × PP × DP); expert parallelism shards the
    routed experts over EP × DP/EP = DP (needs DP ≥ EP, as every searched layout has: EP divides DP);
    PPO's critic without its offloaded optimizer is the weights' and gradients' shards. So the bound holds
    in real numbers for every stage and growing terms keep it, since it is computed from the same term
    functions; one evaluation per search (``SearchMemo.state_sum``), then one division per group."""
    shell = _ONE_GPU[plan.offload]  # memo.laid read in place first, as state_sum would (no frame on a hit)
    one = (memo.laid.get(shell) or memo.state_sum(spec, params, setup, shell))[0]
    return one / (plan.tp * plan.pp * plan.dp)


def low_stages_out_of_reach(
    spec: ModelSpec, params: float, setup: TrainingSetup, plan: Layout, limit: float, memo: SearchMemo
) -> bool:
    """Whether ZeRO stages 0, 1 and 2 of ``plan``'s group (every field but the stage) are all out of
    reach of ``limit`` bytes by their model states alone: the states of stage 2
    (:func:`estimator.memory.state_parts`, summed) exceed it. The search then skips those layouts
    unsized, as :func:`estimator.memory.breakdown_within` would drop each of them by its states.

    Exact in floats, not only in real numbers: as the stage falls each part is the same expression
    without a divisor DP ≥ 1 (x / DP ≤ x after rounding, for a representable x), or the least of such
    terms (``min``); the parts are summed in the same order at every stage, and a float sum of
    non-negative terms never decreases when a term grows — so stages 1 and 0 hold at least stage 2's
    states. PPO with an offloaded optimizer is left out (its critic subtracts the offloaded optimizer
    states: a difference need not keep the order); without offload it subtracts 0.0 (exact), and its
    critic's states (the policy's terms on the same shard) and reward copy (÷ DP from ZeRO-3) only
    shrink as the stage rises, in the same order at every stage (s38: q063's 76 PPO groups asked)."""
    if setup.algorithm == Algorithm.ppo and plan.offload:
        return False
    stage2 = new_layout((*plan[:3], 2, *plan[4:]))
    return (memo.laid.get(stage2) or memo.state_sum(spec, params, setup, stage2))[0] > limit  # laid in place


def churn_floor(
    spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan | Layout, floor: float, churn: float
) -> float:
    """A lower bound on :func:`estimator.memory.breakdown`'s total (bytes) for ``params`` parameters
    from ``floor`` (states, buckets, kept activations and, without a pipeline, the loss's peak) and
    ``churn`` (the step's parts among them): + ZeRO-3's gathered weights (a later part), + the overhead
    at least as the step's parts in it make it — the CUDA context +
    :data:`estimator.defaults.FRAGMENTATION` of the churn (:func:`estimator.memory._with_transients`).
    Summed in another order than the breakdown: compared with the slack of :data:`ZERO3_BOUND_MARGIN`."""
    gathered = gathered_weights(spec, params, setup, plan).likely if plan.zero_stage >= 3 else 0.0
    return floor + gathered + CUDA_CONTEXT_BYTES.value + FRAGMENTATION.value * (churn + gathered)


def step_floor(held: float, p: Peaks) -> float:
    """A lower bound on :func:`estimator.memory.breakdown`'s total (bytes) from ``held`` (the states and
    DeepSpeed's buckets) and the step's peaks ``p`` (:func:`estimator.transients.peaks`), before its
    parts are assembled.

    The breakdown's step parts (:meth:`estimator.transients.Peaks.likely_parts`) add up to
    max(forward/backward peak, optimizer step): 'optimizer_step' is what the step needs beyond the
    forward/backward peak. Without a pipeline that peak is kept + max(loss, one layer's recompute
    workspace) + ZeRO-3's gathered weights exactly — for one process at ZeRO-0 the loss's phase less the
    gradients it does not hold yet (:attr:`estimator.transients.Peaks.late`; the breakdown's 'gradients'
    part falls by as much as the peak: :func:`estimator.late_gradients.gradient_credit`); with one it is the
    fuller of stage 1 (kept + workspace) and the last stage, so at least kept + workspace + gathered. The
    overhead is the CUDA context + :data:`estimator.defaults.FRAGMENTATION` of those step parts
    (:func:`estimator.memory._with_transients`). So held + M + context + fragmentation · M, with M =
    max(that forward/backward floor, the step), is at most the total in real numbers; summed in
    another order than the breakdown: compared with the slack of :data:`ZERO3_BOUND_MARGIN`."""
    acts, loss, work = p.activations.likely, p.loss.likely, p.workspace.likely
    peak = acts + (max(loss, work) if p.pp == 1 else work) + p.gathered.likely
    if p.late:  # one process at ZeRO-0: the phases' max (estimator.late_gradients), ≥ the step
        peak -= gradient_credit(p.late, acts, loss, work, p.step.likely)
    churn = max(peak, p.step.likely)
    return held + churn + CUDA_CONTEXT_BYTES.value + FRAGMENTATION.value * churn


def state_key(spec: ModelSpec, setup: TrainingSetup, plan: Plan | Layout) -> tuple:
    """The layout fields :func:`estimator.memory.state_parts` reads (the key of the search's states):
    TP, PP, DP, ZeRO stage, offload and EP — or only the product TP × PP in place of TP and PP when
    the layers split evenly over PP without expert parallelism and the optimizer does not run in the
    backward pass (that caps the gradients at the largest parameter over TP alone). Then every term
    divides by TP × PP together — the shard params / (TP·PP) of
    :func:`estimator.memory.model_state_bytes` and of a paged optimizer, the frozen base and its
    embeddings, the adapters and trained layers, the frozen copies, PPO's critic — and the same
    integer divisor gives the same float: TP 8 × PP 2 and TP 2 × PP 8 share their states (a search's
    layouts at one count have the same stage-3 states). At ZeRO-0 nothing is sharded over DP (every
    term above divides by DP only from stage 1 or 3 up): DP is left out, so the one-GPU states and
    those of every DP at stage 0 are one entry."""
    dp = plan.dp if plan.zero_stage else 1
    if plan.ep == 1 and not setup.optimizer_in_backward and spec.layers % plan.pp == 0:
        return (plan.tp * plan.pp, dp, plan.zero_stage, plan.offload)
    return (plan.tp, plan.pp, dp, plan.zero_stage, plan.offload, plan.ep)


def step_out_of_reach(
    spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan | Layout, states: float, limit: float,
    memo: SearchMemo,
) -> bool:  # fmt: skip
    """Whether ``plan``'s total is certainly above ``limit`` bytes by :func:`step_floor` with the
    forward/backward peak taken as 0: ``states`` (its :func:`estimator.memory.state_parts`, summed) +
    DeepSpeed's buckets + the optimizer step S + the CUDA context + :data:`estimator.defaults.FRAGMENTATION`
    · S — :func:`step_floor`'s operations on S ≤ max(peak, S), so never above it in floats either, and
    compared with the same slack (:data:`ZERO3_BOUND_MARGIN`). The buckets and the step read only the
    ZeRO stage, DP, offload and the trained parameters over TP × PP (``estimator.memory._step_peaks``):
    one floor serves every layout of a :func:`state_key`, computed once per search — 14 TP × PP groups
    of Llama-2-70B on 16 H100s, out of reach by their optimizer step, skip their step's peaks. Asked at
    ZeRO-3 only, where the groups of a count share their states: at lower stages it cost the corpus's
    answers more instructions than it saved (callgrind, s9 part est). False: not known to be out."""
    if plan.zero_stage != 3:
        return False
    if plan.ep == 1 and not setup.optimizer_in_backward and spec.layers % plan.pp == 0:  # state_key, in place
        key: tuple = (plan.tp * plan.pp, plan.dp, 3, plan.offload)
    else:
        key = (plan.tp, plan.pp, plan.dp, 3, plan.offload, plan.ep)
    floor = memo.step_floors.get(key)
    if floor is None:
        trained = memo.trained if memo.trained is not None else memo.trained_params(spec, params, setup)
        if setup.method != Method.ptuning:  # as estimator.memory._step_peaks
            trained /= plan.tp * plan.pp
        step = step_bytes(setup, plan, trained).likely
        held = states + 1 * ZERO_REDUCE_BUCKET_ELEMENTS * 2.0  # zero_buffers(plan) at ZeRO-3: one bucket
        floor = memo.step_floors[key] = held + step + CUDA_CONTEXT_BYTES.value + FRAGMENTATION.value * step
    return floor * ZERO3_BOUND_MARGIN > limit


@dataclass(frozen=True)
class PinnedFloor:
    """The closed-form ZeRO-3 floor of a search (:func:`pinned_floor`): every group of (TP, PP) at n GPUs,
    any EP dividing its DP, in a recompute mode of ``modes``, has
    :meth:`estimator.memory.SearchMemo.group_floor` ≥ ``states`` / n + :func:`rest_floor` (TP, PP) in
    real numbers. ``rests`` is an explicit cache of :func:`rest_floor` per (TP, PP), a pure function of
    the search's spec, setup and ``modes``: filled on first use by :func:`count_out_of_reach`, never
    part of the value (not compared)."""

    states: float
    """S: the one-GPU states of :func:`states_floor` (S / n its bound at TP × PP × DP = n), bytes"""
    modes: tuple[str, ...]
    """the recompute modes the search tries (:func:`estimator.plan._modes`)"""
    rests: dict[tuple[int, int], float] = field(default_factory=dict, compare=False, repr=False)
    """cache: :func:`rest_floor` by (TP, PP), bytes"""
    steps: list[CountFloor] = field(default_factory=list, compare=False, repr=False)
    """cache: the search's :func:`count_floor`, made on first use by :func:`count_ruled_out`"""


def pinned_floor(
    spec: ModelSpec, params: float, setup: TrainingSetup, modes: tuple[str, ...], memo: SearchMemo
) -> PinnedFloor:
    """The :class:`PinnedFloor` of a search in ``modes``: S the one-GPU states (:func:`states_floor`'s
    one-GPU layout, :data:`_ONE_GPU`), the same at every ZeRO stage. Whole counts are then ruled out with
    one division each (:func:`count_out_of_reach`, asked by :func:`estimator.plan.min_gpus`), no group
    sized."""
    shell = _ONE_GPU[setup.offload]
    one = (memo.laid.get(shell) or memo.state_sum(spec, params, setup, shell))[0]  # laid in place
    modes = tuple(modes)  # the rests of the memo's earlier searches in these modes (SearchMemo.rests)
    return PinnedFloor(one, modes, memo.rests.setdefault(modes, {}))


def rest_floor(
    spec: ModelSpec, setup: TrainingSetup, modes: tuple[str, ...], pinned: tuple[int, int], memo: SearchMemo
) -> float:
    """R (bytes) for the groups of (TP, PP) ``pinned``: the least kept activations of ``modes`` at ZeRO
    ≥ 1 (the stage's own are no fewer) + the CUDA context; infinite without a mode (no group is
    searched). At TP = PP = 1 a MoE model's EP > 1 layouts keep Korthikanti's count, EP = 1 the HF eager
    one (:func:`estimator.eager_activations.eager_layers`): the least of both."""
    tp, pp = pinned
    mb, off = setup.micro_batch, setup.offload
    kept = [memo.kept(spec, setup, new_layout((tp, pp, 1, 3, m, mb, off, 1))).likely for m in modes]
    from estimator.layouts import _ep_experts  # the layouts' module: read here, as the search does

    if tp == pp == 1 and _ep_experts(spec, setup):  # EP > 1 runs Megatron's count, not the HF eager one
        kept += [memo.kept(spec, setup, new_layout((1, 1, 2, 3, m, mb, off, 2))).likely for m in modes]
    return min(kept) + CUDA_CONTEXT_BYTES.value if kept else math.inf


def count_out_of_reach(
    spec: ModelSpec, setup: TrainingSetup, floor: PinnedFloor, pinned: tuple[int, int], gpus: int,
    limit: float, memo: SearchMemo,
) -> bool:  # fmt: skip
    """Whether :func:`pinned_floor` ``floor`` rules out every group of (TP, PP) ``pinned`` at ``gpus``
    GPUs for ``limit`` bytes: what :func:`group_out_of_reach` would answer for each (slack :data:`_TWICE`).
    R comes from the floor's cache (:attr:`PinnedFloor.rests`), computed once per (TP, PP), and only
    when S / ``gpus`` alone does not answer (R ≥ 0: the same answer; OPT-13B on 4 A100 40G)."""
    share = floor.states / gpus
    if share * _TWICE > limit:  # the states alone: R ≥ 0 cannot bring the floor back within the limit
        return True
    if (
        gpus == 1
        and pinned == (1, 1)
        and late_gradients(setup, _ONE_GPU[False], 1.0, micro=setup.micro_batch)
    ):
        return False  # ZeRO-0 on one GPU: R less the late gradients (group_floor answers, exactly)
    rest = floor.rests.get(pinned)
    if rest is None:  # the search's dense table answers on plain numbers (the same float), else the spans
        table = memo.dense or None
        rest = table.rest(*pinned, floor.modes) if table is not None else None  # type: ignore[union-attr]
        if rest is None:
            rest = rest_floor(spec, setup, floor.modes, pinned, memo)
        floor.rests[pinned] = rest
    return (share + rest) * _TWICE > limit


_SHARDED = {off: Layout(1, 1, 1, 3, "full", 1, off) for off in (False, True)}
"""A ZeRO-3 layout of one GPU by offload: :func:`count_floor`'s buckets and optimizer step at ZeRO ≥ 1."""


class CountFloor(NamedTuple):
    """A search's lower bound on every layout's total at a count (:meth:`at`), from what does not depend
    on the count (:func:`count_floor`). Bytes; ``trained`` in parameters, the steps in bytes per
    parameter (:func:`estimator.transients.step_bytes`, likely values, linear below ZeRO-3's cap)."""

    states: float
    """S: the one-GPU states (:func:`states_floor`'s), bytes"""
    trained: float
    """T: the parameters the optimizer steps (:meth:`estimator.memory.SearchMemo.trained_params`)"""
    plain: float
    """ZeRO-0's step per parameter the GPU holds"""
    sharded: float
    """ZeRO-3's step per parameter of its partition"""
    capped: float
    """ZeRO-3's step at most: one sub-group (:data:`estimator.transients.ZERO3_SUB_GROUP_SIZE`)"""
    bucket: float
    """one DeepSpeed bucket (ZeRO-3's; stages 1–2 hold two)"""
    context: float
    """the CUDA context (:data:`estimator.defaults.CUDA_CONTEXT_BYTES`)"""
    fragmentation: float
    """:data:`estimator.defaults.FRAGMENTATION` of the step"""

    def at(self, gpus: int) -> float:
        """The floor on ``gpus`` GPUs (TP × PP × DP = ``gpus``), any ZeRO stage, recompute mode and
        (TP, PP, EP): S / ``gpus`` + the least of two step floors (:func:`step_floor` with the
        forward/backward peak taken as 0, as :func:`step_out_of_reach`) — ZeRO ≥ 1: one bucket + the
        step of a partition of T / ``gpus`` parameters (stages 1–2 copy their whole partition
        T / (TP × PP × DP), ZeRO-3 at most a sub-group of it); ZeRO-0: no bucket, the step of the
        T / (TP × PP) ≥ T / ``gpus`` parameters the GPU holds — + the CUDA context + fragmentation of
        that step. Each class's floor holds for all its layouts in real numbers (the step grows with
        the parameters); compare it with the slack of :data:`_TWICE` (summed in another order)."""
        share = self.trained / gpus
        plain, sharded, f = self.plain * share, min(self.sharded * share, self.capped), self.fragmentation
        steps = min(self.bucket + sharded + f * sharded, plain + f * plain)
        return self.states / gpus + steps + self.context


def count_floor(spec: ModelSpec, params: float, setup: TrainingSetup, memo: SearchMemo) -> CountFloor:
    """The :class:`CountFloor` of a search of ``spec``, ``params`` and ``setup``: the one-GPU states,
    the trained parameters and :func:`estimator.transients.step_bytes` of a one-GPU layout at ZeRO-0 and
    ZeRO-3 per parameter (and ZeRO-3's at its cap: any partition above the sub-group). With it
    :func:`estimator.plan.best_plan_for` stops looking for a comfortable layout where none can be
    (Llama-2-70B on its fewest GPUs, 16 H100s) and :func:`estimator.plan.min_gpus` rules out whole
    counts (:func:`count_ruled_out`) whose states fit but not with the optimizer step."""
    off = setup.offload
    states = (memo.laid.get(_ONE_GPU[off]) or memo.state_sum(spec, params, setup, _ONE_GPU[off]))[0]
    sharded = step_bytes(setup, _SHARDED[off], 1.0).likely  # per parameter up to the sub-group
    return CountFloor(
        states,
        memo.trained_params(spec, params, setup),
        step_bytes(setup, _ONE_GPU[off], 1.0).likely,
        sharded,
        sharded * ZERO3_SUB_GROUP_SIZE,  # step_bytes' cap: its partition at most a sub-group
        zero_buffers(_SHARDED[off]),
        CUDA_CONTEXT_BYTES.value,
        FRAGMENTATION.value,
    )


def count_ruled_out(
    spec: ModelSpec, params: float, setup: TrainingSetup, floor: PinnedFloor, gpus: int, limit: float,
    memo: SearchMemo,
) -> bool:  # fmt: skip
    """Whether the search's :func:`count_floor` rules out every layout on ``gpus`` GPUs for ``limit`` bytes
    (slack :data:`_TWICE`), the floor made once per search (kept in ``floor``: :attr:`PinnedFloor.steps`).
    :func:`estimator.plan.min_gpus` asks it after :func:`count_out_of_reach` and before sizing a (TP, PP,
    EP) group: counts whose states fit but not with the optimizer step (DeepSeek-V3 on H800s)."""
    if not floor.steps:
        floor.steps.append(count_floor(spec, params, setup, memo))
    return floor.steps[0].at(gpus) * _TWICE > limit


def surely_above(
    spec: ModelSpec,
    setup: TrainingSetup,
    plan: Plan | Layout,
    states: float,
    limit: float,
    memo: SearchMemo | None,
    params: float | None = None,
) -> bool:
    """Whether :func:`estimator.memory.breakdown`'s total is certainly above ``limit`` from its first parts
    alone: the states' sum ``states``, DeepSpeed's buckets, the kept activations and the CUDA context (the
    overhead is at least that; the parts between are ≥ 0) — without a pipeline also the loss's peak, the
    'logits' part that follows the activations there (:meth:`estimator.transients.Peaks.likely_parts`).
    Added in the breakdown's order, so True means ``sum(breakdown(...).values()) > limit`` exactly (a
    float sum of non-negative terms never decreases): the search skips the rest of the step's transients
    of a layout just out of reach. With ``params``, last :func:`churn_floor` (ZeRO-3's gathered weights, the
    step's fragmentation; slack :data:`ZERO3_BOUND_MARGIN`). One-GPU ZeRO-0: False. DeepSpeed's buckets
    (:func:`estimator.transients.zero_buffers`) and the loss's likely peak
    (:func:`estimator.transients.loss_bytes`) are written in place: the same floats, three calls fewer."""
    if limit == math.inf or (plan.dp == 1 and plan.zero_stage == 0 and late_gradients(setup, plan, 1.0)):
        return False
    zero = plan.zero_stage
    if memo is None:
        kept = kept_activations(spec, setup, plan)
    else:  # SearchMemo.kept's lookup in place (its key), the method on a miss: no frame on a hit
        key = (plan.tp, plan.pp, plan.micro_batch, plan.recompute, zero == 0, plan.ep == 1)
        kept = memo.activations.get(key) or memo.kept(spec, setup, plan)
    floor = held = states + (  # + zero_buffers(plan), in place: the same float
        0.0 if zero == 0 else (1 if zero >= 3 else 2) * ZERO_REDUCE_BUCKET_ELEMENTS * 2.0
    )
    floor += kept.likely
    if floor + CUDA_CONTEXT_BYTES.value > limit:
        return True
    logits = 0.0  # without a pipeline loss_bytes(spec, setup, plan).likely, in place: the same float
    if plan.pp == 1:
        per = _CHUNKED if setup.chunked_loss else _FP32 if setup.fp32_loss else _HALF
        b = plan.micro_batch * (PAIRED_SEQUENCES if setup.algorithm == _DPO or setup.reward_model else 1)
        logits = per * (b * setup.seq_len * (1 if setup.reward_model else spec.vocab) / plan.tp)
    floor += logits
    if floor + CUDA_CONTEXT_BYTES.value > limit:
        return True
    if params is None:
        return False
    if churn_floor(spec, params, setup, plan, floor, kept.likely + logits) * ZERO3_BOUND_MARGIN > limit:
        return True
    if not (setup.generation_sequences or setup.generation_step):
        return False
    return generation_floor(spec, params, setup, plan, held, memo) * ZERO3_BOUND_MARGIN > limit


def generation_floor(
    spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan | Layout, held: float,
    memo: SearchMemo | None,
) -> float:  # fmt: skip
    """A lower bound on :func:`estimator.memory.breakdown`'s total (bytes) of a setup whose RL trainer
    generates (:mod:`estimator.trainer_generation`), from ``held`` (the states and DeepSpeed's buckets)
    and G, the generation's gathered weights + KV cache (:func:`estimator.trainer_generation.
    generation_parts`, as :func:`estimator.transients.peaks` makes them): held + G + the CUDA context +
    :data:`estimator.defaults.FRAGMENTATION` · G. The breakdown's forward/backward parts are at least G
    (:meth:`estimator.transients.Peaks.likely_parts` shows the generation's parts where G is above the
    rest, else the rest) and its step parts add up to at least them, so its runtime churn is ≥ G; with no
    late gradients (:func:`surely_above` asks only then) nothing is credited back. In real numbers at most
    the total; summed in another order: compared with the slack of :data:`ZERO3_BOUND_MARGIN`. G reads
    only TP, PP, DP and whether ZeRO-3: kept in ``memo.step_floors`` under ("generation", TP, PP, DP,
    ZeRO-3), computed from one sequence's KV cache kept there under ("generation",), one a search. The
    search then skips the step's peaks of layouts whose generation cannot fit (PPO on a 70B policy with
    no tool named, q063: 55 of the 89 layouts it sized)."""
    key = ("generation", plan.tp, plan.pp, plan.dp, plan.zero_stage >= 3)
    gen = None if memo is None else memo.step_floors.get(key)
    if gen is None:
        per_sequence = None if memo is None else memo.step_floors.get(_KV_KEY)
        if per_sequence is None:
            per_sequence = generation_kv_per_sequence(spec, setup)
            if memo is not None:
                memo.step_floors[_KV_KEY] = per_sequence
        gen = sum(generation_parts(spec, params, setup, plan, per_sequence))
        if memo is not None:
            memo.step_floors[key] = gen
    return held + gen + CUDA_CONTEXT_BYTES.value + FRAGMENTATION.value * gen


_KV_KEY = ("generation",)
"""The key of one generated sequence's KV cache in ``SearchMemo.step_floors`` (:func:`generation_floor`)."""
