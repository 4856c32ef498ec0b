"""The parallel layout search and the memory answer: the fewest GPUs that fit, a recommended size,
the layout at the user's count, and what would change the answer.

Layouts (:mod:`estimator.layouts`, re-exported here) follow docs/design.md §3.5
(:func:`plan_preference`): DP + ZeRO while the model states fit, TP inside a node, PP across nodes, full
recompute only when activations force it. Bytes per part from :mod:`estimator.memory`; sizes in bytes.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from estimator.catalog import GpuSpec, ModelSpec
from estimator.later import later
from estimator.layout_table import dense_table, shown_band
from estimator.layouts import RECOMPUTE_ORDER as RECOMPUTE_ORDER
from estimator.layouts import STATED_RECOMPUTE as STATED_RECOMPUTE
from estimator.layouts import _divisors as _divisors
from estimator.layouts import _ep_experts as _ep_experts
from estimator.layouts import _layouts as _layouts
from estimator.layouts import ordered_layouts as ordered_layouts
from estimator.layouts import plan_preference as plan_preference
from estimator.layouts import prefer_recompute
from estimator.layouts import uneven_ok as uneven_ok
from estimator.memory import SearchMemo, breakdown_within
from estimator.models import Alternative, Memory, Method, Plan
from estimator.plan_alternatives import _KEPT_READS as _KEPT_READS
from estimator.plan_alternatives import _alternatives as _alternatives
from estimator.plan_alternatives import _kept_shared as _kept_shared
from estimator.plan_batch import memory_with_batch as memory_with_batch
from estimator.plan_batch import with_batch as with_batch
from estimator.search_bounds import (
    _TWICE,
    ZERO3_BOUND_MARGIN,
    CountFloor,
    count_floor,
    count_out_of_reach,
    count_ruled_out,
    low_stages_out_of_reach,
    pinned_floor,
)
from estimator.search_candidates import _count_index as _count_index
from estimator.search_candidates import _ep_options as _ep_options
from estimator.search_candidates import _gpu_count as _gpu_count
from estimator.search_candidates import _lower_bound as _lower_bound
from estimator.search_candidates import _modes as _modes
from estimator.search_candidates import _pairs as _pairs
from estimator.search_candidates import _shell as _shell
from estimator.search_candidates import _triples as _triples
from estimator.search_groups import _first_fitting_multiple as _first_fitting_multiple
from estimator.search_groups import any_layout_fits, card_key, groups_at, known_unfit, search_shape
from estimator.search_keep import forget_searches as forget_searches  # re-exported: bench, tests
from estimator.search_keep import job_memo
from estimator.search_keep import kept_searches as kept_searches
from estimator.setup import Layout, TrainingSetup
from estimator.transients import live_score_bytes  # a later() stand-in (s43-speed)

(least_memory_plan,) = later("estimator.least_memory", "least_memory_plan")  # on first call (s48-startup)

HEADROOM = 0.9
"""A comfortable plan uses at most 90 % of the card (spikes, fragmentation beyond the average)."""

MAX_GPUS_SEARCHED = 100_000
"""Largest cluster the plan search considers (beyond it the reply says it does not fit)."""


_FLOOR_AFTER = 16
"""Layouts left after a tight one above which :func:`best_plan_for` makes the count floor to try to skip
them (its cost, ~10 Python calls, is that of sizing a layout or two: Llama-2-7B on 2 A100s has 9 left)."""


def best_plan_for(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    gpus: int,
    setup: TrainingSetup,
    budget_fraction: float = 1.0,
    allow_full_recompute: bool = True,
    memo: SearchMemo | None = None,
    *,
    floor: CountFloor | None = None,
) -> tuple[Plan, dict[str, float]] | None:
    """The preferred layout whose per-GPU total is within ``budget_fraction`` of the card, or None.

    Among fitting layouts, those leaving ≥ 10 % headroom (:data:`HEADROOM`) come first — a plan at
    97 % of the card OOMs on the first allocation spike — then :func:`plan_preference`; once a tight
    one is found, the rest are sized only if the count's floor
    (:func:`estimator.search_bounds.count_floor`) leaves room for a comfortable one. ``memo``: the
    search's :class:`estimator.memory.SearchMemo` for this spec, params and setup; ``floor``: its
    :class:`estimator.search_bounds.CountFloor` when the caller has made it (else made when needed).
    With a memo the answer is kept in it (:attr:`estimator.memory.SearchMemo.plans`): the fewest GPUs,
    the user's count and the recommended size often ask the same count of the same search.
    """
    args = (spec, params, gpu, gpus, setup, budget_fraction, allow_full_recompute, memo, floor)
    if memo is None:
        return _best_plan_for(*args)
    kept = memo.shapes.get(id(gpu))  # min_gpus' card key of this very card (s46: no frame)
    key = (gpus, budget_fraction, allow_full_recompute, kept[2] if kept and kept[0] is gpu else card_key(gpu))
    try:  # read once: another answer's thread may clear the plans (search_keep) after a write (s35 fixe #7)
        done = memo.plans[key]
    except KeyError:  # a count below the fewest found on this memo: None unsized
        done = memo.plans[key] = None if known_unfit(memo, key, gpu.gpus_per_node) else _best_plan_for(*args)
    return None if done is None else (done[0], dict(done[1]))  # the caller's own parts


def _best_plan_for(
    spec: ModelSpec, params: float, gpu: GpuSpec, gpus: int, setup: TrainingSetup, budget_fraction: float,
    allow_full_recompute: bool, memo: SearchMemo | None, floor: CountFloor | None,
) -> tuple[Plan, dict[str, float]] | None:  # fmt: skip
    """:func:`best_plan_for`'s search (its arguments), made once per count of a memo."""
    usable = gpu.addressable_bytes  # a property: read once
    limit, comfortable = usable * budget_fraction, usable * HEADROOM
    kept = memo.shapes.get(id(gpu)) if memo is not None else None  # the search's shape of this card (s46)
    shape = kept[1] if kept is not None and kept[0] is gpu else search_shape(spec, gpu, setup)
    grouped = groups_at(shape, gpus, setup.tp, setup.pp)  # layout_groups' call, its shape kept
    unfit = memo.unfit.get((limit, allow_full_recompute, shape)) if memo is not None else None
    tight: tuple[Layout, dict[str, float]] | None = None
    reach = limit  # once a tight layout is found only a comfortable one can change the answer
    cut: dict[int, int] = {}  # by group (all but the ZeRO stage): stages out of reach up to this one
    table = None if memo is None else memo.dense  # dense_table's kept table read in place (no frame)
    table = (dense_table(spec, params, setup, memo) if table is None and memo is not None else table) or None
    dp_stands = setup.data_parallel_first and not gpu.nvlink  # PCIe: a DP fit beats any TP/PP (s37 fixc #1)
    job = (spec, params, setup)  # _cutoff's first arguments (asked where cut has none or -1: s40)
    for i, (plan, g, zero) in enumerate(zip(grouped.layouts, grouped.group_of, grouped.stages, strict=True)):
        if dp_stands and tight is not None and plan[0] * plan[1] > 1 and tight[0][0] * tight[0][1] == 1:
            break  # on PCIe the layouts run DP first (plan_preference): the tight DP layout stands
        if zero <= cut.get(g, -3):  # known out of reach: _cutoff's answer without the call (-3: not asked)
            continue
        if (
            unfit
            and g not in cut
            and ((gpus, plan[0], plan[1], plan[7]) in unfit or (gpus, plan[0], plan[1], None) in unfit)
        ):
            cut[g] = 3  # min_gpus found no layout of its (TP, PP, EP) within the limit at this count
            continue
        if plan.recompute == "full" and not allow_full_recompute:
            continue
        # DenseTable.total / floor asked only where not None (EP 1, no offload, PP dividing L: the group's)
        covered = table is not None and plan[7] == 1 and not plan[6] and table.layers % plan[1] == 0
        if covered and g not in cut:  # the group's floor on plain numbers, once per reach
            floor_bytes = table.floor(grouped.groups[g][0])  # type: ignore[union-attr]
            if floor_bytes is not None:
                cut[g] = 3 if floor_bytes > reach else -3  # 3: every stage out of reach
                if floor_bytes > reach:
                    continue
        total = table.total(plan) if covered else None  # type: ignore[union-attr]
        if total is not None:  # its total on plain numbers: its parts only within reach
            if total > reach:
                continue
            parts: dict[str, float] | None = table.parts(plan)  # type: ignore[union-attr]
        elif memo is not None and cut.get(g, -1) == -1 and zero <= _cutoff(*job, plan, reach, memo, cut, g):
            continue
        else:
            parts = breakdown_within(spec, params, setup, plan, reach, memo)
        if parts is None:  # above the limit: neither comfortable nor tight
            continue
        total = sum(parts.values())
        if total <= comfortable and total <= limit:
            return plan.to_plan(), parts
        if total <= limit and tight is None:
            tight, reach = (plan, parts), min(limit, comfortable)
            many = memo is not None and len(grouped.layouts) - i > _FLOOR_AFTER  # worth a count floor
            floor = floor or (count_floor(spec, params, setup, memo) if many and memo is not None else None)
            if floor is not None and floor.at(gpus) * _TWICE > reach:
                break  # no layout of this count is comfortable (its optimizer step): the tight one stands
            cut = {}  # a lower reach: a stage within the old one may be out of the new
    return (tight[0].to_plan(), tight[1]) if tight else None


def _cutoff(
    spec: ModelSpec, params: float, setup: TrainingSetup, plan: Layout, limit: float, memo: SearchMemo,
    cut: dict[int, int], group: int,
) -> int:  # fmt: skip
    """The highest ZeRO stage of ``plan``'s group out of reach of ``limit`` bytes — 3: the whole group
    (:func:`group_out_of_reach`); 2: stages 0–2 by their states, when the search chooses the stage
    (:func:`estimator.search_bounds.low_stages_out_of_reach`) — else below 0; kept in ``cut`` by ``group``
    (its index in :attr:`estimator.search_groups.Grouped.group_of`); asked where ``cut`` has none or -1."""
    stage = cut.get(group)
    if stage is None:
        out = limit != math.inf and memo.group_floor(spec, params, setup, plan) * ZERO3_BOUND_MARGIN > limit
        stage = cut[group] = 3 if out else -1  # group_out_of_reach's test in place: no call
    # stages 0-2 asked only at stage 0 or 1 (stage 2's states are then needed or already known): -2 = asked
    if stage == -1 and plan.zero_stage <= 1 and plan.dp > 1 and setup.zero_stage is None:
        low = low_stages_out_of_reach(spec, params, setup, plan, limit, memo)
        stage = cut[group] = 2 if low else -2
    return stage


def min_gpus(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    setup: TrainingSetup,
    budget_fraction: float = 1.0,
    allow_full_recompute: bool = True,
    memo: SearchMemo | None = None,
    at_least: int = 1,
    at_most: int | None = None,
) -> tuple[int, Plan, dict[str, float]] | None:
    """Fewest GPUs (1, 2, 4, then whole nodes) with a layout that fits, or None up to MAX_GPUS_SEARCHED.

    Whether some layout fits is not monotonic in the GPU count: a count admits only the pipelines
    whose TP × PP divides it (Llama-3.1-405B without full recompute fits on 1,008 H100s as TP 8 ×
    PP 126, not on 1,016–1,264), and, for MoE, only the expert-parallel degrees that divide its DP. At a
    fixed TP, PP and EP, though, more data parallelism never needs more memory per GPU (ZeRO shards
    over DP; the rest does not change). So for each (TP, PP, EP) of :func:`_pairs` and
    :func:`_ep_options` the search gallops and bisects over the candidate counts TP × PP × EP divides
    (from the lower bound: all states sharded, nothing else; below the best count found so far), and
    the answer is the least of them, laid out as :func:`best_plan_for` prefers at that count.
    ``memo``: the :class:`estimator.memory.SearchMemo` of this spec, params and setup (a new one if None).
    ``at_least``: a count below which the caller knows nothing fits (:func:`search_floor`): the search
    starts there, with the same answer. ``at_most``: a count expected to fit (:func:`_alternatives`): the
    counts stay below it, as if found; if nothing fits there, the search runs without it (same answer)."""
    per_node = gpu.gpus_per_node
    memo = memo or SearchMemo()  # what the layouts share: nothing in it depends on the pinned TP and PP
    floor = _gpu_count(_count_index(_lower_bound(spec, params, gpu, setup, memo), per_node), per_node)
    floor = max(floor, at_least)
    seeded = at_most is not None and floor <= at_most <= MAX_GPUS_SEARCHED  # a candidate count:
    best = at_most if seeded and _gpu_count(_count_index(at_most, per_node), per_node) == at_most else None
    args, kept = (spec, params, gpu), memo.shapes.get(id(gpu))  # any_layout_fits'; memo.shapes (s46)
    _, shape, card = kept if kept is not None and kept[0] is gpu else memo.kept_shape(spec, gpu, setup)
    limit, modes = gpu.addressable_bytes * budget_fraction, _modes(setup, allow_full_recompute)
    bound = pinned_floor(spec, params, setup, modes, memo)  # closed form: counts ruled out unsized
    unfit = memo.unfit.setdefault((limit, allow_full_recompute, shape), set())  # for best_plan_for
    if memo.dense is None:  # a dense job's table (kept on memo): its bounds on plain numbers
        dense_table(spec, params, setup, memo)
    # smallest groups first: a fit found early caps the counts the larger groups still need to try
    for i, ((tp, pp), ep) in enumerate(_triples(spec, gpu, setup, shape)):
        g = tp * pp * (ep or 1)
        if best is not None and (g >= best or best <= floor):  # every count of this group and the next
            break  # ones is ≥ g ≥ best, or ≥ floor ≥ best: none left below the best found

        def fits(n: int, pinned: tuple[int, int] = (tp, pp), ep: int | None = ep) -> bool:
            out = count_out_of_reach(spec, setup, bound, pinned, n, limit, memo) or (
                n >= per_node and count_ruled_out(spec, params, setup, bound, n, limit, memo)  # the step
            )
            if out or not any_layout_fits(
                *args, n, setup, budget_fraction, allow_full_recompute, ep, pinned, memo, shape
            ):
                unfit.add((n, *pinned, ep))  # for best_plan_for at this count
                return False
            return True

        ceiling = min(MAX_GPUS_SEARCHED, best - 1) if best else MAX_GPUS_SEARCHED
        found = None
        for n in (1, 2, 4):  # the small counts below a node, least first
            if n < per_node and floor <= n <= ceiling and n % g == 0 and fits(n):
                found = n
                break
        if found is None:  # whole nodes: multiples of lcm(TP × PP × EP, node size)
            step = math.lcm(g, per_node)
            k_low = max(1, math.ceil(floor / step))  # the first group: its bottom first
            k = _first_fitting_multiple(fits, step, k_low, ceiling // step, low_first=i == 0)
            found = None if k is None else k * step
        if found is not None and (best is None or found < best):
            best = found
    if best is None:
        memo.fewest[(budget_fraction, allow_full_recompute, card)] = search_floor(None)
        return None
    made = bound.steps[0] if bound.steps else None  # the count floor, if the search made it
    chosen = best_plan_for(
        spec, params, gpu, best, setup, budget_fraction, allow_full_recompute, memo, floor=made
    )
    if chosen is None and best == at_most:  # the caller's count does not fit: the search without it
        return min_gpus(spec, params, gpu, setup, budget_fraction, allow_full_recompute, memo, at_least)
    assert chosen is not None  # a layout of the winning (TP, PP, EP) fits at this count
    memo.fewest[(budget_fraction, allow_full_recompute, card)] = best  # for best_plan_for
    return best, *chosen


def search_floor(fewest: int | None) -> int:
    """Where a search of the same model, parameters and setup as :func:`min_gpus` at the card's whole
    budget with full recompute allowed — whose answer is ``fewest`` (None: nothing fits up to
    :data:`MAX_GPUS_SEARCHED`) — can start when its budget is smaller or full recompute is not allowed:
    a layout fitting it fits the first search too, so nothing below ``fewest`` fits it."""
    return MAX_GPUS_SEARCHED + 1 if fewest is None else fewest


def recommended(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    setup: TrainingSetup,
    minimum: int,
    memo: SearchMemo | None = None,
    global_batch: int | None = None,
) -> tuple[int, Plan] | None:
    """A comfortable size: ≤ 90 % of the card, no full recompute (except on cards without NVLink, where
    recomputing is cheaper than tensor parallelism over PCIe, or when the user chose the mode; an HF-family
    tool or a ZeRO stage said — data parallelism, no TP to spread the activations: :func:`prefer_recompute`,
    s28 trial M3's 96 A100 40G for a 3-hour DPO that fits 16 with it); full training on at least one node.
    ``minimum``: the fewest GPUs that fit (:func:`min_gpus` of this setup at the card's whole budget): the
    comfortable search starts there (:func:`search_floor`).

    Never a data-parallel size that runs more sequences at once (micro-batch × DP) than the step has
    (``global_batch``, sequences): beyond it the count changes the training's batch, and what it buys is
    only the sharded part of the memory (QLoRA Mixtral 8x7B on RTX 4090D: 712 cards for 1,424 sequences
    a step, trial s11 item 3) — then the minimum stands (None: the minimum's own layout)."""
    hf = setup.checkpointing_only  # s20 q22; an HF tool: no TP to weigh recompute against (PCIe or not)
    no_recompute = (gpu.nvlink or hf) and setup.recompute is None and not setup.tool_recompute
    found = min_gpus(spec, params, gpu, setup, HEADROOM, not no_recompute, memo, search_floor(minimum))
    weighed = hf or setup.zero_stage is not None  # DP with ZeRO/FSDP said: recompute or more nodes (s28 M3)
    if no_recompute and weighed:  # full recompute on or off: the fewer nodes (96 A100 40G for 8, s28 M3)
        full = min_gpus(spec, params, gpu, setup, HEADROOM, True, memo, search_floor(minimum))
        if full is not None and prefer_recompute(full[0], found[0] if found else None, gpu.gpus_per_node):
            found, no_recompute = full, False
    if found is None:
        return None
    if global_batch and found[0] > minimum and found[1].dp * found[1].micro_batch > global_batch:
        return None
    n, plan = found[0], found[1]
    if setup.method == Method.full and minimum > 1:
        n = max(n, gpu.gpus_per_node)
        if n != found[0]:
            fit = best_plan_for(spec, params, gpu, n, setup, HEADROOM, not no_recompute, memo)
            n, plan = (n, fit[0]) if fit else (found[0], found[1])
    if setup.data_parallel_first and plan.tp * plan.pp > 1:  # s36: DP first at this count, as the fewest
        fit = best_plan_for(spec, params, gpu, n, setup, HEADROOM, True, memo)  # (recompute if need be)
        if not gpu.nvlink and not (fit and fit[0].tp * fit[0].pp == 1):  # no TP over PCIe where DP fits
            fit = best_plan_for(spec, params, gpu, n, setup, 1.0, True, memo)  # at the card (s37 fixc #1)
        plan = fit[0] if fit and fit[0].tp * fit[0].pp == 1 else plan  # TP/PP only where no DP layout fits
    return n, plan


_SHELL_PLAN = Plan(tp=1, pp=1, dp=1, zero_stage=0, recompute="full")
"""One GPU, full recompute: the layout behind ``Memory.total_bytes`` and the no-fit figure."""


class Searched(NamedTuple):
    """What :func:`training_memory` finds whatever the user's count: the search's memo, the fewest GPUs
    (:func:`min_gpus`: count, layout, parts; None when nothing fits), the one-GPU states (bytes), the
    alternatives, the recommended size, its parts, its band's high end and the count holding it (rec_high)."""

    memo: SearchMemo
    found: tuple[int, Plan, dict[str, float]] | None
    states: float
    alternatives: list[Alternative]
    rec: tuple[int, Plan] | None
    rec_parts: tuple[Plan, dict[str, float]] | None
    rec_high: dict[str, float | int | None]


def _searched(
    spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, with_alternatives: bool,
    with_recommended: bool, global_batch: int | None,
) -> Searched:  # fmt: skip
    """:class:`Searched` of this job: every search of :func:`training_memory` but the user's count."""
    memo = job_memo(spec, params, setup)  # every search below is of this spec, params and setup
    found = min_gpus(spec, params, gpu, setup, memo=memo)
    # the states of _SHELL_PLAN's breakdown (its state_bytes: ZeRO-0 keeps no bucket)
    states, _ = memo.state_sum(spec, params, setup, _shell(False))
    floor = search_floor(found[0] if found else None)  # the searches below fit no more than this one
    own = found[0] if found else None  # the user's tool's own count: another stack only past it
    alternatives = _alternatives(spec, params, gpu, setup, memo, floor, own) if with_alternatives else []
    rec = None
    if found is not None and with_recommended:
        rec = recommended(spec, params, gpu, setup, found[0], memo, global_batch)
    rec_parts = best_plan_for(spec, params, gpu, rec[0], setup, memo=memo) if rec else None
    high_fields: dict = {}  # s37-verdict2 #1: the recommendation's high end fits; s38: what lowers it
    if rec is not None and rec_parts is not None:
        from estimator.rec_high import high_end_recommended  # lazily: plan is imported at start-up

        rec, rec_parts, high_fields = high_end_recommended(spec, params, gpu, setup, rec, rec_parts, memo)
    return Searched(memo, found, states, alternatives, rec, rec_parts, high_fields)


def training_memory(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    setup: TrainingSetup,
    requested_gpus: int | None = None,
    with_alternatives: bool = True,
    with_recommended: bool = True,
    global_batch: int | None = None,
    reuse: dict[tuple, Searched] | None = None,
) -> Memory:
    """Fewest GPUs that fit, a recommended size (unless ``with_recommended`` is False: pre-training sizes
    the cluster by the deadline), the layout at ``requested_gpus`` (or at the minimum), what would change
    the answer (fine-tuning), and whether ``requested_gpus`` fits.

    ``Memory.min_gpus`` is None when nothing fits within MAX_GPUS_SEARCHED. ``reuse``: a dict the caller
    keeps across calls for one spec, params, card and setup (at other counts): the searches that do not
    depend on the count (:class:`Searched`) run once per flags, with the same answer."""
    key = (with_alternatives, with_recommended, global_batch)
    found_before = reuse.pop(key, None) if reuse is not None else None  # filed again last: the LRU's order
    searched = found_before or _searched(
        spec, params, gpu, setup, with_alternatives, with_recommended, global_batch
    )
    if reuse is not None:
        reuse[key] = searched
    memo, found, states, alternatives, rec, rec_parts, rec_high = searched
    fits_requested, at = None, found
    if requested_gpus is not None:
        fit = best_plan_for(spec, params, gpu, requested_gpus, setup, memo=memo)
        fits_requested = fit is not None
        # the user's count and setting: the layout that fits, else the one needing the least memory
        fit = fit or least_memory_plan(spec, params, gpu, requested_gpus, setup, memo)
        if fit is not None:
            at = (requested_gpus, *fit)

    def per_gpu(plan: Plan, parts: dict[str, float]) -> dict:
        """The per-GPU fields of the answer: total, its band and the card's capacity."""
        low, high = shown_band(spec, params, setup, plan, parts, memo)  # the search's peaks or table
        return {
            "per_gpu_bytes": sum(parts.values()),
            "per_gpu_bytes_low": low,
            "per_gpu_bytes_high": high,
            "gpu_memory_bytes": gpu.memory_bytes,
            "usable_bytes": gpu.addressable_bytes,
        } | ({"attention_scores_bytes": live_score_bytes(spec, setup, plan)} if setup.eager_attention else {})

    if found is None:  # nothing fits at any count: the user's count if given, else one GPU's states
        if at is None:
            shell = breakdown_within(spec, params, setup, _shell(False), math.inf, memo)  # = _SHELL_PLAN's
            assert shell is not None  # no limit
        n, plan, parts = at if at is not None else (None, None, shell)
        return Memory(
            **per_gpu(plan or _SHELL_PLAN, parts),
            min_gpus=None,
            breakdown=parts,
            total_bytes=states,
            plan=plan,
            plan_gpus=n,
            fits_requested=fits_requested,
            alternatives=alternatives,
        )
    assert at is not None  # found, or the user's count
    from estimator.rec_high import with_levers  # s38: what lowers a borderline recommendation's high end

    n, plan, parts, job = *at, (spec, params, setup)
    return Memory(
        **per_gpu(plan, parts),
        min_gpus=found[0],
        min_plan=found[1],
        breakdown=parts,
        total_bytes=states,
        plan=plan,
        plan_gpus=n,
        fits_requested=fits_requested,
        recommended_gpus=rec[0] if rec else None,
        recommended_plan=rec[1] if rec else None,
        recommended_per_gpu_bytes=sum(rec_parts[1].values()) if rec_parts else None,
        **(with_levers(rec_high, rec_parts, gpu, job, memo) if requested_gpus is None else rec_high),
        alternatives=alternatives,
    )
