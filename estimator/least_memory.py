"""The least-memory layout at a GPU count, fitting or not: what the user's own setting costs when it
does not fit. Split from :mod:`estimator.plan` (which re-exports it); bytes per GPU, counts of GPUs."""

from __future__ import annotations

import math

from estimator.catalog import GpuSpec, ModelSpec
from estimator.memory import SearchMemo, breakdown_within
from estimator.models import Plan
from estimator.search_bounds import ZERO3_BOUND_MARGIN
from estimator.search_groups import layout_groups
from estimator.setup import Layout, TrainingSetup


def least_memory_plan(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    gpus: int,
    setup: TrainingSetup,
    memo: SearchMemo | None = None,
    keep_activations: bool = False,
) -> tuple[Plan, dict[str, float]] | None:
    """The layout on exactly ``gpus`` GPUs needing the least memory per GPU, fitting or not: what the
    user's own setting costs when it does not fit ("ZeRO-2 on 2 × A100 40G: ≈ 42 GiB per GPU").
    ``memo``: the :class:`estimator.memory.SearchMemo` of this spec, params and setup, if any.
    ``keep_activations``: only layouts without full recompute (skipping some keeps each group's floor a
    lower bound)."""
    grouped = layout_groups(spec, gpu, gpus, setup)  # _layouts' tuple, with each layout's group
    layouts, group_of = grouped.layouts, grouped.group_of
    memo = memo or SearchMemo()  # the layouts share their states and activation facts
    best: tuple[float, int, Layout | None, dict[str, float]] = (math.inf, 0, None, {})  # total, index
    floors: dict[int, float] = {}  # by group: SearchMemo.group_floor, below every stage's total
    members: dict[int, list[int]] = {}  # each group's layouts, least memory first (ZeRO-3, full recompute)
    for i in reversed(range(len(layouts))):
        g = group_of[i]
        if g not in floors:
            floors[g] = memo.group_floor(spec, params, setup, layouts[i]) * ZERO3_BOUND_MARGIN
            members[g] = [i]
        else:
            members[g].append(i)
    # the lowest floors first: a low best early, and once a group's floor is above it so are the rest's
    for g in sorted(members, key=floors.__getitem__):
        if floors[g] > best[0]:  # every stage of this group and the later ones above the best
            break
        for i in members[g]:
            if keep_activations and layouts[i].recompute == "full":
                continue
            parts = breakdown_within(spec, params, setup, layouts[i], best[0], memo)  # None: above the best
            if parts is not None and (sum(parts.values()), i) < best[:2]:  # of equal totals, the first
                best = (sum(parts.values()), i, layouts[i], parts)
    return (best[2].to_plan(), best[3]) if best[2] is not None else None
