"""The search's candidate layouts by group (docs/design.md §3.5): a group is every field of a
:class:`estimator.setup.Layout` but the ZeRO stage — the unit the search's bounds rule out at once
(:func:`estimator.search_bounds.group_out_of_reach`, :func:`estimator.search_bounds.low_stages_out_of_reach`).
Built once per combination with the ordered layouts (:func:`estimator.layouts.ordered_layouts`), so a
search no longer slices and hashes each layout to find its group. No I/O; counts of GPUs, bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from math import inf
from operator import itemgetter
from typing import NamedTuple

from estimator.catalog import GpuSpec, ModelSpec
from estimator.layout_table import dense_table
from estimator.layouts import CHECKPOINTING, _ep_experts, ordered_layouts
from estimator.memory import SearchMemo, breakdown_within
from estimator.search_bounds import ZERO3_BOUND_MARGIN, low_stages_out_of_reach
from estimator.setup import Layout, TrainingSetup


class Grouped(NamedTuple):
    """The layouts of one count in order of preference, each one's group and ZeRO stage, and the groups."""

    layouts: tuple[Layout, ...]
    """:func:`estimator.layouts.ordered_layouts`, most preferred first (the same tuple)."""
    group_of: tuple[int, ...]
    """The index in ``groups`` of each layout's group."""
    stages: tuple[int, ...]
    """The ZeRO stage of each layout."""
    groups: tuple[tuple[Layout, ...], ...]
    """Each group's layouts, highest ZeRO stage first; the groups in the order in which they first
    appear in ``reversed(layouts)`` (the least memory — ZeRO-3, full recompute — first)."""


@lru_cache(maxsize=1024)
def grouped_layouts(*args: object) -> Grouped:
    """:func:`estimator.layouts.ordered_layouts` of ``args`` (the same arguments), by group."""
    layouts = ordered_layouts(*args)  # type: ignore[arg-type]
    keys = list(map(_GROUP_KEY, layouts))
    members: dict[tuple, list[Layout]] = {}
    for key, p in zip(reversed(keys), reversed(layouts), strict=True):
        members.setdefault(key, []).append(p)
    index = {key: i for i, key in enumerate(members)}
    stages = tuple(map(_STAGE, layouts))
    groups = tuple(tuple(sorted(m, key=_STAGE, reverse=True)) for m in members.values())  # stable
    return Grouped(layouts, tuple(map(index.__getitem__, keys)), stages, groups)


_GROUP_KEY = itemgetter(0, 1, 2, 4, 5, 6, 7)
"""A :class:`estimator.setup.Layout`'s group: every field but the ZeRO stage (index 3), as a tuple."""
_STAGE = itemgetter(3)
"""A :class:`estimator.setup.Layout`'s ZeRO stage."""


def search_shape(spec: ModelSpec, gpu: GpuSpec, setup: TrainingSetup) -> tuple:
    """What :func:`estimator.layouts.ordered_layouts` reads of the model, card and setup, but the count
    and (TP, PP): the key of a search's layouts (:func:`groups_at`), built once per search."""
    return (
        spec.layers, spec.heads, spec.kv_heads, gpu.gpus_per_node, gpu.nvlink, setup.micro_batch,
        setup.offload, setup.zero_stage,
        setup.recompute or (CHECKPOINTING if setup.checkpointing_only else None),  # searched_recompute
        _ep_experts(spec, setup), setup.data_parallel_only, setup.data_parallel_first, setup.ep,
    )  # fmt: skip


@lru_cache(maxsize=1024)
def groups_at(shape: tuple, gpus: int, tp: int | None, pp: int | None) -> Grouped:
    """:func:`grouped_layouts` of a :func:`search_shape` at ``gpus`` GPUs and (``tp``, ``pp``)."""
    layers, heads, kv_heads, per_node, nvlink, micro_batch, offload, zero, recompute, experts, *rest = shape
    return grouped_layouts(
        layers, heads, kv_heads, per_node, nvlink, gpus, micro_batch, offload, zero, recompute, experts,
        tp, pp, *rest,
    )  # fmt: skip


def layout_groups(
    spec: ModelSpec, gpu: GpuSpec, gpus: int, setup: TrainingSetup, pinned: tuple[int, int] | None = None
) -> Grouped:
    """:func:`grouped_layouts` for this model, card, count and setup, with the arguments of
    :func:`estimator.layouts._layouts` (``pinned`` = (TP, PP) in place of the setup's)."""
    tp, pp = pinned or (setup.tp, setup.pp)
    return groups_at(search_shape(spec, gpu, setup), gpus, tp, pp)


def any_layout_fits(
    spec: ModelSpec, params: float, gpu: GpuSpec, gpus: int, setup: TrainingSetup,
    budget_fraction: float, allow_full_recompute: bool, ep: int | None,
    pinned: tuple[int, int], memo: SearchMemo, shape: tuple | None = None,
) -> bool:  # fmt: skip
    """Whether some layout on exactly ``gpus`` GPUs of (TP, PP) ``pinned`` (and expert-parallel degree
    ``ep`` unless None) is within ``budget_fraction`` of the card (bytes: the card's addressable
    memory × the fraction) — :func:`estimator.plan.best_plan_for`'s test, without choosing.

    Group by group (the same answer in any order): a group whose stage-3 floor is out of reach is
    skipped with one test (:func:`estimator.search_bounds.group_out_of_reach`); below ZeRO-2 the
    stages whose states are out of reach end the group
    (:func:`estimator.search_bounds.low_stages_out_of_reach`, asked where the former per-layout loop
    asked it: at the first stage ≤ 1 of a group with DP > 1 and the stage searched); every other
    layout is sized (:func:`estimator.memory.breakdown_within`). ``shape``: :func:`search_shape` of
    ``spec``, ``gpu`` and ``setup`` when the caller has it (one search asks many counts)."""
    limit = gpu.addressable_bytes * budget_fraction
    searched_stage = setup.zero_stage is None
    shape = shape or search_shape(spec, gpu, setup)
    table = memo.dense  # dense_table's kept table read in place (no frame once made)
    table = (dense_table(spec, params, setup, memo) if table is None else table) or None
    for group in groups_at(shape, gpus, *pinned).groups:
        head = group[0]
        if (ep is not None and head.ep != ep) or (head.recompute == "full" and not allow_full_recompute):
            continue
        # DenseTable.floor only where its closed forms cover the group (EP 1, no offload, PP dividing L)
        covered = table is not None and head[7] == 1 and not head[6] and table.layers % head[1] == 0
        floor = table.floor(head) if covered else None  # type: ignore[union-attr]
        if floor is not None:  # the totals on plain numbers (a float floor: a float total)
            if floor <= limit:  # else every stage of the group is out of reach
                for plan in group:
                    if table.total(plan) <= limit:  # type: ignore[union-attr, operator]
                        return True
            continue
        # search_bounds.group_out_of_reach's test in place: no call
        if limit != inf and memo.group_floor(spec, params, setup, head) * ZERO3_BOUND_MARGIN > limit:
            continue
        low = searched_stage and head.dp > 1
        for plan in group:
            if low and plan.zero_stage <= 1:
                if low_stages_out_of_reach(spec, params, setup, plan, limit, memo):
                    break  # this stage and the lower ones: their states alone exceed the limit
                low = False  # asked once per group
            parts = breakdown_within(spec, params, setup, plan, limit, memo)
            if parts is not None and sum(parts.values()) <= limit:
                return True
    return False


def _first_fitting_multiple(
    fits: Callable[[int], bool], step: int, k_low: int, k_high: int, low_first: bool = False
) -> int | None:
    """The least k in [k_low, k_high] with ``fits(k · step)``, for a predicate that, once true, stays
    true as k grows (gallop, then bisect); None if ``fits(k_high · step)`` is false. No k is asked twice
    (a range of one count, the top reached by the gallop).

    The top is asked first (one test answers a range where nothing fits), then the bottom; with
    ``low_first`` the bottom first (one test answers a range whose bottom fits: the fewest-GPUs
    search's first group, ranging up to :data:`estimator.plan.MAX_GPUS_SEARCHED`, usually fits at the
    states' lower bound). The same answer either way: the predicate is monotonic in k."""
    if k_low > k_high:
        return None
    lo = None  # a k known not to fit
    if low_first:
        if fits(k_low * step):
            return k_low
        lo = k_low
    if lo == k_high or not fits(k_high * step):  # monotonic: nothing fits below where the top fails
        return None
    if k_low == k_high:  # the top is the bottom: asked once
        return k_high
    if lo is None:  # the bottom, unless asked first
        if fits(k_low * step):
            return k_low
        lo = k_low
    stride = 1
    while True:  # gallop: lo fails (the top, known to fit, is not asked again)
        hi = min(lo + stride, k_high)
        if hi == k_high or fits(hi * step):
            break
        lo, stride = hi, stride * 2
    while hi - lo > 1:  # bisect: lo fails, hi fits
        mid = (lo + hi) // 2
        if fits(mid * step):
            hi = mid
        else:
            lo = mid
    return hi


def card_key(gpu: GpuSpec) -> tuple:
    """What the training searches read of the card (:func:`estimator.plan.best_plan_for`'s memo key): its
    usable bytes' fields too (``GpuSpec.addressable_bytes``: memory, the unified-memory share and the
    ECC-visible total, s35 fixe #7), so a card copied with another ECC total is not filed with the first."""
    return (
        gpu.id,
        gpu.memory_gib,
        gpu.gpu_memory_fraction,
        gpu.ecc_visible_mib,
        gpu.gpus_per_node,
        gpu.nvlink,
    )


def known_unfit(memo: SearchMemo, key: tuple, per_node: int) -> bool:
    """Whether no layout fits at ``key``'s count (``key``: :attr:`estimator.memory.SearchMemo.plans`'
    (count, budget, full recompute allowed, card)) by an answer :func:`estimator.plan.min_gpus` already
    found on this memo at the same budget, recompute and card (``SearchMemo.fewest``: the fewest GPUs,
    :func:`estimator.plan.search_floor` when nothing fits): that search tried every count it can answer
    — 1, 2 and 4 below a node, then whole nodes — below its answer, so one of those counts below it
    fits nothing (tests/test_search_early_stop.py compares the answer with best_plan_for at each)."""
    gpus = key[0]
    fewest = memo.fewest.get(key[1:])
    if fewest is None or gpus >= fewest:
        return False
    return gpus % per_node == 0 or (gpus < per_node and gpus in (1, 2, 4))
