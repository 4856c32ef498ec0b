"""Expert parallelism (MoE training): which parameters a GPU holds, and over how many ranks ZeRO shards
their states (pure; sizes in parameters).

With expert parallelism of degree EP the routed experts of every MoE layer are split over EP ranks of
the data-parallel group, and each token is sent to its experts' ranks and back by all-to-all (GShard,
Lepikhin et al. 2021 §2.2; Megatron-Core MoE guide, NVIDIA/Megatron-LM
``megatron/core/transformer/moe/README.md``: EP divides weights and optimizer states of the MoE layer
by EP, "Medium" communication per layer). A GPU then holds
  non-expert parameters / (TP × PP)        ZeRO-sharded over DP
  routed-expert parameters / (TP × PP × EP)  ZeRO-sharded over DP / EP (the expert-data-parallel group)
(Megatron-Core shards the experts' optimizer over the expert-data-parallel group; DeepSeek-V3 §3.2:
PP 16 × EP 64 × ZeRO-1 DP on 2,048 H800, "without using costly Tensor Parallelism").
"""

from __future__ import annotations

import math

from estimator.architecture import count_params
from estimator.catalog import ModelSpec
from estimator.models import Plan
from estimator.setup import Layout


def routed_share(spec: ModelSpec) -> float:
    """Share of the parameters in routed experts: (total − active) × E / (E − k) / total, from the
    architecture (:func:`estimator.architecture.count_params`: total − active = MoE layers × (E − k) ×
    one expert's MLP). DeepSeek-V3: 256 experts, top-8 → 97.4 %; 0 for a dense model."""
    experts, top_k = spec.experts or 0, spec.experts_top_k or 0
    share = 0.0
    if spec.is_moe and experts > top_k:
        total, active = count_params(spec)
        share = (total - active) * experts / (experts - top_k) / total
    return share


def stage_share(layers: int, pp: int) -> float:
    """Share of the layers on pipeline stage 1, the fullest: ⌈L/PP⌉ / L (1/PP when PP divides L;
    DeepSeek-V3 runs 61 layers on 16 stages)."""
    return 1.0 / pp if layers % pp == 0 else math.ceil(layers / pp) / layers


def state_groups(
    spec: ModelSpec, params: float, plan: Plan | Layout, routed: float | None = None
) -> list[tuple[float, int]]:
    """(parameters on this GPU, data-parallel degree ZeRO shards them over) per group: one group without
    expert parallelism (params / (TP × PP), DP), else the non-expert and the expert group (module
    docstring). ``routed``: :func:`routed_share` of ``spec`` when the caller has it."""
    per_stage = (
        params / (plan.tp * plan.pp)
        if spec.layers % plan.pp == 0
        else (params * stage_share(spec.layers, plan.pp) / plan.tp)
    )
    ep = getattr(plan, "ep", 1)
    if ep <= 1:
        return [(per_stage, plan.dp)]
    experts = per_stage * (routed_share(spec) if routed is None else routed)
    return [(per_stage - experts, plan.dp), (experts / ep, max(1, plan.dp // ep))]


def ep_degrees(experts: int, dp: int) -> list[int]:
    """Expert-parallel degrees to try: powers of two dividing both the routed experts and DP (the EP
    group is carved out of the data-parallel ranks), 1 first."""
    out = [1]
    ep = 2
    while ep <= experts and ep <= dp:
        if experts % ep == 0 and dp % ep == 0:
            out.append(ep)
        ep *= 2
    return out


def stated_ep(ep: int | None, experts: int, gpus: int | None) -> tuple[int | None, str | None]:
    """A stated expert-parallel degree as the plan uses it, and why not where it cannot: (EP, None) when
    usable; (None, reason) else — ``"ep_no_experts"`` (``experts`` == 0: a dense model, or a job without
    the MoE full-training plan, :func:`estimator.layouts._ep_experts`), ``"ep_not_dividing"`` (EP does not
    divide the routed experts: Megatron-Core ``MoELayer`` asserts ``num_moe_experts %
    expert_model_parallel_size == 0``, megatron/core/transformer/moe/moe_layer.py), ``"ep_over_gpus"``
    (EP is more than ``gpus``: the EP group is carved out of the data-parallel ranks,
    megatron/core/parallel_state.py ``initialize_model_parallel``); (None, None) when none was stated.
    EP 1 is no expert parallelism and is kept (every rank holds every expert)."""
    if not ep:
        return None, None
    if not experts:
        return None, "ep_no_experts"
    if experts % ep:
        return None, "ep_not_dividing"
    if gpus and ep > gpus:
        return None, "ep_over_gpus"
    return ep, None
