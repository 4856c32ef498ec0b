"""The candidate counts and (TP, PP, EP) groups of the fewest-GPUs search (:func:`estimator.plan.min_gpus`):
the candidate GPU counts (1, 2, 4, … up to a node, then whole nodes), the lower bound of all states
sharded, the (TP, PP) pairs, recompute modes and expert-parallel degrees searched. Split from
:mod:`estimator.plan` (which re-exports these names). No I/O; counts of GPUs, bytes.
"""

from __future__ import annotations

import math
from itertools import product

from estimator.catalog import GpuSpec, ModelSpec
from estimator.expert_parallel import ep_degrees
from estimator.layouts import CHECKPOINTING, SEARCHED_MODES, _divisors, _ep_experts, uneven_ok
from estimator.memory import SearchMemo
from estimator.model_states import state_parts
from estimator.setup import Layout, TrainingSetup


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


_SHELLS = {
    off: Layout(tp=1, pp=1, dp=1, zero_stage=0, recompute="full", micro_batch=1, offload=off)
    for off in (False, True)
}


def _shell(offload: bool) -> Layout:
    """One GPU, full recompute (:data:`_SHELL_PLAN` as a search layout, with ``offload``)."""
    return _SHELLS[offload]


def _lower_bound(
    spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, memo: SearchMemo | None = None
) -> int:
    """GPUs below which nothing can fit: states fully sharded must fit in the memory. The shell's states
    are its :func:`estimator.memory.state_parts` (ZeRO-0 keeps no DeepSpeed bucket), summed as
    :meth:`estimator.memory.SearchMemo.state_sum` sums them."""
    if memo is None:  # the parts as summed, not the breakdown's: its gradients may come late (s25)
        states = sum(state_parts(spec, params, setup, _shell(setup.offload)).values())
    else:
        states, _ = memo.state_sum(spec, params, setup, _shell(setup.offload))
    return max(1, math.floor(states / gpu.addressable_bytes))


def _pairs(spec: ModelSpec, gpu: GpuSpec, setup: TrainingSetup) -> list[tuple[int, int]]:
    """The (TP, PP) pairs :func:`ordered_layouts` can build for this model and setup: a stated ZeRO
    stage alone is plain data parallelism (1, 1); a stated TP or PP is kept; otherwise TP ∈ {1, 2, 4, 8}
    within a node dividing the heads and KV heads, PP dividing the layers (MoE full training: uneven
    power-of-two pipelines too)."""
    if setup.data_parallel_only or (setup.zero_stage is not None and setup.tp is None and setup.pp is None):
        return [(1, 1)]
    tps = (
        [setup.tp]
        if setup.tp
        else [t for t in (1, 2, 4, 8) if t <= gpu.gpus_per_node and not (spec.heads % t or spec.kv_heads % t)]
    )
    stages = [setup.pp] if setup.pp else _divisors(spec.layers)
    if _ep_experts(spec, setup) and not setup.pp:
        powers = (2**i for i in range(1, spec.layers.bit_length()))
        stages = sorted(set(stages) | {p for p in powers if uneven_ok(spec.layers, p)})
    return [(t, p) for t in tps for p in stages]


def _modes(setup: TrainingSetup, allow_full_recompute: bool) -> tuple[str, ...]:
    """The recompute modes of the search's layouts (:func:`estimator.layouts.ordered_layouts`) it sizes."""
    modes = SEARCHED_MODES[setup.recompute or (CHECKPOINTING if setup.checkpointing_only else None)]
    return modes if allow_full_recompute else tuple(m for m in modes if m != "full")


def _ep_options(spec: ModelSpec, setup: TrainingSetup) -> list[int | None]:
    """Expert-parallel degrees searched one at a time (MoE full training: powers of two dividing the
    routed experts, :func:`estimator.expert_parallel.ep_degrees`); [None] = any (no EP in the search)."""
    experts = _ep_experts(spec, setup)
    if experts and setup.ep:  # s48: a stated, usable EP is the only one tried
        return [setup.ep]
    return list(ep_degrees(experts, experts)) if experts else [None]


_TRIPLES: dict[tuple, tuple] = {}  # _triples by (search_shape, stated TP, stated PP, stated EP)


def _triples(spec: ModelSpec, gpu: GpuSpec, setup: TrainingSetup, shape: tuple) -> tuple:
    """The (TP, PP) pairs (:func:`_pairs`) × EP degrees (:func:`_ep_options`) of a search, smallest
    TP × PP × EP first; ``shape``: :func:`estimator.search_groups.search_shape` of the same arguments,
    which holds all both read but the stated TP and PP (layers, heads, KV heads, the node's size, the
    stated ZeRO stage, data parallelism only, the routed experts): built once per shape, TP and PP."""
    key = (shape, setup.tp, setup.pp, setup.ep)
    found = _TRIPLES.get(key)
    if found is None:
        if len(_TRIPLES) >= 1024:  # bounded as the layouts' caches are
            _TRIPLES.clear()
        found = _TRIPLES[key] = tuple(
            sorted(
                product(_pairs(spec, gpu, setup), _ep_options(spec, setup)),
                key=lambda t: t[0][0] * t[0][1] * (t[1] or 1),
            )
        )
    return found
