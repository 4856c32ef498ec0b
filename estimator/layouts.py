"""Candidate parallel layouts of a training job and their order of preference (docs/design.md §3.5):
which (TP, PP, DP, EP, ZeRO, recompute) a count of GPUs admits, most preferred first. Split from
:mod:`estimator.plan` (the search), which re-exports these names.
"""

from __future__ import annotations

import math
from functools import lru_cache

from estimator.catalog import GpuSpec, ModelSpec
from estimator.expert_parallel import ep_degrees
from estimator.models import Algorithm, Method, Plan
from estimator.setup import Layout, Recompute, TrainingSetup, new_layout

RECOMPUTE_ORDER: tuple[Recompute, ...] = ("selective", "full")
"""Searched activation strategies. 'selective' = FlashAttention-era baseline (no s² scores stored)."""

STATED_RECOMPUTE: dict[str, tuple[Recompute, ...]] = {
    "none": ("none",),
    "selective": ("selective",),
    "full": ("full",),
}
"""The recompute modes searched when the user chose one (:attr:`TrainingSetup.recompute`)."""

CHECKPOINTING = "checkpointing"
"""The search's recompute key of a Hugging Face-family tool (:attr:`TrainingSetup.checkpointing_only`):
its modes are :data:`CHECKPOINTING_ORDER`."""

CHECKPOINTING_ORDER: tuple[Recompute, ...] = ("none", "full")
"""The activation strategies a Hugging Face-family training tool can run: gradient checkpointing off (the
layers' every saved tensor, :func:`estimator.eager_activations.eager_layer_bytes`) or on for every decoder
layer (``gradient_checkpointing: true``: the layer inputs kept, each layer rebuilt in the backward pass).
transformers ``PreTrainedModel.gradient_checkpointing_enable`` wraps every ``GradientCheckpointingLayer``
whole (src/transformers/modeling_layers.py): there is no Megatron-style selective mode
(``--recompute-granularity selective``) in the HF Trainer, TRL, LLaMA-Factory, axolotl, ms-swift, Unsloth,
OpenRLHF (``--gradient_checkpointing``) or verl's FSDP workers (``enable_gradient_checkpointing``)."""


SEARCHED_MODES: dict[str | None, tuple[Recompute, ...]] = {
    None: RECOMPUTE_ORDER,
    CHECKPOINTING: CHECKPOINTING_ORDER,
    **STATED_RECOMPUTE,
}
"""The recompute modes searched by the search's recompute key (:func:`searched_recompute`)."""


def searched_recompute(setup: TrainingSetup) -> str | None:
    """The search's recompute key of ``setup``: the user's mode (:data:`STATED_RECOMPUTE`), else
    :data:`CHECKPOINTING` for a Hugging Face-family tool, else None (:data:`RECOMPUTE_ORDER`). The search's
    hot paths write it out (``setup.recompute or (CHECKPOINTING if setup.checkpointing_only else None)``:
    no call a layout group, the estimate-call bound of tests/test_search_sharing.py)."""
    return setup.recompute or (CHECKPOINTING if setup.checkpointing_only else None)


def _divisors(n: int) -> list[int]:
    """The divisors of ``n`` in increasing order (a new list: callers may extend it)."""
    return list(_divisors_of(n))


@lru_cache(maxsize=256)
def _divisors_of(n: int) -> tuple[int, ...]:
    """:func:`_divisors`, computed once per ``n`` (a layer count: every search asks it)."""
    return tuple(d for d in range(1, n + 1) if n % d == 0)


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
    zero_stage: int | None = None,
    recompute: str | None = None,
    experts: int = 0,
    tp: int | None = None,
    pp: int | None = None,
    dp_only: bool = False,
    dp_first: bool = False,
    stated_ep: int | None = None,
) -> tuple[Layout, ...]:
    """Layouts for exactly ``gpus`` GPUs, most preferred first (:func:`plan_preference`).

    TP ∈ {1,2,4,8} within a node dividing heads and KV heads, PP dividing the layers, DP for the
    rest, ZeRO 0–3 (only when DP > 1), recompute selective/full. In this order
    :func:`best_plan_for` can stop at the first layout with headroom; the list depends only on the
    shape and the card, so it is built once per combination.

    ``experts`` > 0 (full training of a MoE model, :func:`_ep_experts`): expert parallelism too — EP a
    power of two dividing the routed experts and DP (:func:`estimator.expert_parallel.ep_degrees`) —
    and pipeline stages of unequal size (PP a power of two not dividing the layers: DeepSeek-V3 runs
    its 61 layers on 16 stages).

    A stated ``zero_stage`` alone is a DeepSpeed/FSDP data-parallel run: TP = PP = 1, DP = all GPUs,
    that stage (on one GPU it shards nothing, and the plan still names it). A stated ``tp`` / ``pp``
    (Megatron-style "TP 4, PP 2") is kept as given, with the stage searched unless stated too. A stated
    ``recompute`` is the only mode searched (:data:`STATED_RECOMPUTE`); :data:`CHECKPOINTING` (a Hugging
    Face-family tool): none and full (:data:`SEARCHED_MODES`). ``dp_only``: the user's training tool runs
    data parallelism only (:mod:`estimator.training_tools`): TP = PP = 1, DP = all GPUs, the stated ZeRO
    stage or each of 0–3. ``dp_first`` (:attr:`TrainingSetup.data_parallel_first`): every data-parallel
    layout (TP = PP = 1) before any with TP or PP. ``stated_ep`` (s48, :attr:`TrainingSetup.ep`): the only EP,
    where it divides DP (Megatron-Core parallel_state.py: expert-data-parallel = DP / EP), else the search's.
    """
    modes = SEARCHED_MODES[recompute]
    layouts = []
    if zero_stage is not None and tp is None and pp is None:
        return tuple(Layout(1, 1, gpus, zero_stage, mode, micro_batch, offload) for mode in modes)
    if dp_only:
        zeros = (zero_stage,) if zero_stage is not None else (0, 1, 2, 3) if gpus > 1 else (0,)
        found = [Layout(1, 1, gpus, zero, mode, micro_batch, offload) for zero in zeros for mode in modes]
        return tuple(sorted(found, key=lambda p: plan_preference(p, nvlink, False, per_node)))
    pp_stated, stages = pp, [pp] if pp else _divisors(layers)
    if experts and not pp:  # a stated PP is kept as given
        stages = sorted(
            set(stages) | {p for p in (2**i for i in range(1, layers.bit_length())) if uneven_ok(layers, p)}
        )
    stated_tp, keys = tp, []  # each layout's plan_preference, written out (no call per layout)
    for tp in (stated_tp,) if stated_tp else (1, 2, 4, 8):
        if tp > gpus or (not stated_tp and (tp > per_node or heads % tp or kv_heads % tp)):
            continue
        for pp in stages:
            if gpus % (tp * pp):
                continue
            dp = gpus // (tp * pp)
            zeros = (zero_stage,) if zero_stage is not None else (0, 1, 2, 3) if dp > 1 else (0,)
            eps = ep_degrees(experts, dp) if not stated_ep else (stated_ep,) if dp % stated_ep == 0 else ()
            for ep in eps if experts else (1,):
                for zero in zeros:
                    for mode in modes:
                        layouts.append(new_layout((tp, pp, dp, zero, mode, micro_batch, offload, ep)))
                        full = mode == "full"
                        if experts:
                            keys.append((full, zero == 3, tp, ep * tp > per_node, pp, ep == 1, zero, ep))
                        elif dp_first:
                            keys.append((tp * pp > 1, full, pp, tp, zero) if nvlink else (pp, tp, full, zero))
                        else:
                            keys.append((full, pp, tp, zero) if nvlink else (pp, tp, full, zero))
    if stated_ep and experts and not layouts:  # no split of this count runs the stated EP: the search's own
        args = (layers, heads, kv_heads, per_node, nvlink, gpus, micro_batch, offload, zero_stage, recompute)
        return ordered_layouts(*args, experts, stated_tp, pp_stated, dp_only, dp_first)
    return tuple(map(layouts.__getitem__, sorted(range(len(layouts)), key=keys.__getitem__)))  # stable


def uneven_ok(layers: int, pp: int) -> bool:
    """Whether ``layers`` split over ``pp`` stages as ⌈L/PP⌉ each and the rest (≥ 1) on the last stage
    (Megatron-LM ``--decoder-last-pipeline-num-layers``): 61 layers on 16 stages = 15 × 4 + 1."""
    per = math.ceil(layers / pp)
    return pp <= layers and (pp - 1) * per < layers


def _layouts(
    spec: ModelSpec, gpu: GpuSpec, gpus: int, setup: TrainingSetup, pinned: tuple[int, int] | None = None
) -> tuple[Layout, ...]:
    """:func:`ordered_layouts` for this model, card, count and setup (experts for EP: :func:`_ep_experts`);
    ``pinned`` = (TP, PP) in place of the setup's (the search's candidates, without copying the setup)."""
    tp, pp = pinned or (setup.tp, setup.pp)
    return ordered_layouts(
        spec.layers, spec.heads, spec.kv_heads, gpu.gpus_per_node, gpu.nvlink, gpus,
        setup.micro_batch, setup.offload, setup.zero_stage, searched_recompute(setup),
        _ep_experts(spec, setup), tp, pp, setup.data_parallel_only, setup.data_parallel_first, setup.ep,
    )  # fmt: skip


def plan_preference(
    plan: Plan | Layout, nvlink: bool = True, moe: bool = False, per_node: int = 8, dp_first: bool = False
) -> tuple:
    """Lower is better: no full recompute, no pipeline, least TP, then the lowest ZeRO stage.

    Design §3.5: DP + ZeRO (a configuration switch in DeepSpeed/FSDP) while the model states fit —
    ZeRO-3 included, as in the seed's "2 × 80 GB with ZeRO-3" — TP inside a node only when
    activations or a layer do not fit otherwise (it needs tensor-parallel model code and NVLink),
    PP across nodes last; full recompute only when activations force it. On cards without NVLink,
    recomputing (~33 % more compute) beats TP's per-layer all-reduces over PCIe: TP comes last.

    MoE full training (``moe``): expert parallelism instead of ZeRO-3 — ZeRO-3/FSDP gathers every
    expert's weights for every micro-batch though each token uses top-k of them, while EP moves only
    the routed tokens (all-to-all) and shards the experts' weights and optimizer states (GShard,
    Lepikhin et al. 2021; Megatron-Core MoE guide: "Prefer EP over TP for the expert layer", "Ensure the
    EPxTP communication within the NVLink domain", "consider PP before TP and EP" across nodes). So:
    no ZeRO-3, the EP × TP group inside a node, the fewest pipeline stages, least TP, EP rather than
    replicated experts, the lowest ZeRO stage, then the smallest EP.

    :func:`ordered_layouts` writes these keys out per layout (no call each): change both together
    (tests/test_search_s25_tail.py compares its order with a sort by this function).

    ``dp_first`` (a full fine-tune on a Hugging Face stack, :attr:`TrainingSetup.data_parallel_first`): on
    NVLink cards any data-parallel layout (ZeRO-3/FSDP, gradient checkpointing included) before TP or PP.
    """
    if moe:
        ep = getattr(plan, "ep", 1)
        return (
            plan.recompute == "full", plan.zero_stage == 3, plan.tp, ep * plan.tp > per_node, plan.pp,
            ep == 1, plan.zero_stage, ep,
        )  # fmt: skip
    if not nvlink:
        return (plan.pp, plan.tp, plan.recompute == "full", plan.zero_stage)
    if dp_first:
        return (plan.tp * plan.pp > 1, plan.recompute == "full", plan.pp, plan.tp, plan.zero_stage)
    return (plan.recompute == "full", plan.pp, plan.tp, plan.zero_stage)


def _ep_experts(spec: ModelSpec, setup: TrainingSetup) -> int:
    """Routed experts the layout search may split by expert parallelism: a MoE model's, in plain full
    training (no stated ZeRO stage — a DeepSpeed/FSDP run —, no offload, paged optimizer or optimizer
    in the backward pass, no preference tuning's extra models); 0 otherwise."""
    plain = (
        not setup.data_parallel_only
        and setup.method == Method.full
        and setup.algorithm == Algorithm.sft
        and setup.zero_stage is None
        and not (setup.offload or setup.paged_optimizer or setup.optimizer_in_backward)
    )
    return (spec.experts or 0) if plain else 0  # is_moe is bool(experts): 0 either way without experts


def prefer_recompute(with_it: int, without: int | None, per_node: int) -> bool:
    """Whether a Hugging Face-family tool's recommended count turns gradient checkpointing on: full
    recompute fits on ``with_it`` GPUs, none on ``without`` (None: on no count). Full recompute costs one
    more forward pass, ≈ 1/3 more compute (8·N·D for 6·N·D: Korthikanti et al. 2022 §5; Chen et al. 2016,
    "Training deep nets with sublinear memory cost", §3: one extra forward for O(√n) memory); more cards
    cost a larger cluster. Rule: checkpointing unless keeping the activations needs at most as many whole
    nodes of ``per_node`` GPUs (Qwen2.5-72B LoRA on A100 80G: checkpointing on 4 GPUs, not 7 nodes)."""
    return without is None or math.ceil(without / per_node) > math.ceil(with_it / per_node)
