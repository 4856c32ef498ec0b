"""Memory and the parallel layout of a training job (:func:`estimator.plan.training_memory`) at the
user's or the deadline's GPU count, the verdict, and the notes that explain them. Split from
:mod:`estimator.training`.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from estimator import compute, rollout
from estimator.adapter_offload import with_host_bytes
from estimator.built import band, copied
from estimator.catalog import GpuSpec, ModelSpec
from estimator.colocate import beside_engine
from estimator.comfortable_count import comfortable_count
from estimator.copying import replace
from estimator.ddp_plan import with_ddp_plan, with_launched_count
from estimator.fit_change import likely_fit, what_to_change, with_high_edge_plan, with_zero1_plan
from estimator.fit_sanity import OWN_CARD_CHANGES
from estimator.ledger import Ledger
from estimator.memory import breakdown_within
from estimator.memory_band import per_gpu_band
from estimator.models import DaysRow, FitChange, Memory, Method, SizingRequest, Stage
from estimator.plan import HEADROOM, MAX_GPUS_SEARCHED, memory_with_batch, training_memory
from estimator.plan_alternatives import tool_changes
from estimator.reasons import Why
from estimator.request import Recompute
from estimator.resolve import Resolved
from estimator.search_keep import kept_searches
from estimator.setup import TrainingSetup
from estimator.shown_cost import billed_cost
from estimator.shown_cost import shown_cost as shown_cost_of
from estimator.units import GIB
from estimator.verdicts import ddp_bytes, training_verdict

RECOMPUTE_EXTRA_FLOPS = 2.0
"""FLOPs per parameter per token that full activation recomputation adds to k·N·D: one more forward
pass (2·N) during the backward (Chen et al. 2016, "Training deep nets with sublinear memory cost";
Korthikanti et al. 2022, "Reducing activation recomputation in large transformer models", §5: full
recomputation costs 30–40 % more time at k = 6). Selective recomputation (the attention core only)
costs a few percent and stays inside the calibrated MFU."""


def recompute_time(req: SizingRequest, out: Any, k: float, ledger: Ledger) -> dict[str, Any]:
    """GPU-hours × (k + 2) / k, the MFU ÷ the same and the cost re-billed when the layout on the user's
    GPU count turns on full recomputation to fit (a card with more memory that keeps the activations
    trains faster: 8 × H200 against 8 × H100). Without a stated count only the fewest GPUs that fit
    (the layout shown) pay it, in their row of the days table (``fewest_recompute``), and in the
    GPU-hours and cost when the answer is quoted on them (:func:`with_fewest_paying`); larger clusters,
    which keep the activations, stay at the calibrated rate. Full recomputation the user stated
    (gradient checkpointing) is paid at every count: the GPU-hours, the cost and every row of the days
    table (s12 trial A11: "129 A100-hours: one GPU for 8 days"). Nothing when the layout
    does not fit anyway, or for a duration or a rate the user stated (it includes what they ran)."""
    mem = out.memory
    unfit = mem is not None and mem.fits_requested is False and mem.min_plan is not None and mem.min_gpus
    unfit = unfit and not held_by_change(mem, req.gpu_count)  # s43: quoted on the fewest GPUs, their layout
    plan = mem.min_plan if unfit else mem.plan if mem is not None else None
    if plan is None or plan.recompute != "full" or out.gpu_hours is None or out.mfu is None:
        return {}
    if (mem.fits_requested is False and not unfit) or req.hours or out.mfu_calibrated is not None:
        return {}
    factor, counted, fewest = (k + RECOMPUTE_EXTRA_FLOPS) / k, req.gpu_count and not unfit, mem.plan_gpus
    if req.recompute == Recompute.full:  # the user's own checkpointing: every GPU count pays it (s12 A11)
        ledger.assume("recompute_time", round(factor, 3), Why.recompute_time_stated, k=round(k, 2))
        return _slower_fields(out, factor)
    never = any(a.change == "no_full_recompute" and a.min_gpus is None for a in mem.alternatives)
    fewest = mem.min_gpus if unfit else fewest  # the answer is quoted on the fewest GPUs that fit
    if not counted and never:  # data parallel only (QLoRA, s24 #13): no count keeps activations
        ledger.assume(
            "recompute_time",
            round(factor, 3),
            Why.recompute_time_every,
            k=round(k, 2),
            factor=round(factor, 2),
        )
        return _slower_fields(out, factor)
    if not counted:  # only the counts below the one that keeps the activations pay it
        keep = next(
            (a.min_gpus for a in mem.alternatives if a.change == "no_full_recompute" and a.min_gpus), 0
        )
        keep = max(keep, (fewest or 1) + 1)  # s12 trial A11: 2 GPUs that still recompute were not slowed
        why = Why.recompute_time_below if keep > (fewest or 1) + 1 else Why.recompute_time_fewest
        ledger.assume(
            "recompute_time_fewest", round(factor, 3), why, gpus=fewest, k=round(k, 2),
            factor=round(factor, 2), keep_from=keep,
        )  # fmt: skip
        return {"fewest_recompute": (fewest, factor, keep)}
    ledger.assume("recompute_time", round(factor, 3), Why.recompute_time, gpus=mem.plan_gpus, k=round(k, 2))
    return _slower_fields(out, factor)


def held_by_change(mem: Any, count: int | None) -> bool:
    """Whether a change of setting that keeps the job (``Memory.alternatives`` in
    :data:`estimator.fit_sanity.OWN_CARD_CHANGES`: micro-batch 1, ZeRO-3, …) holds it on the user's
    ``count``: the answer is then quoted on their GPUs with that change (s34: 'with micro-batch 1 … so it
    fits on your 2'), not on the fewest count's layout."""
    own = [a for a in mem.alternatives if a.change in OWN_CARD_CHANGES and a.min_gpus]
    return any(a.min_gpus <= (count or 0) for a in own)


def layout_time(req: SizingRequest, out: Any, k: float, ledger: Ledger, gpu: GpuSpec) -> dict[str, Any]:
    """What the layout on the user's GPUs adds to the calibrated time: :mod:`estimator.scale_floor` (s39
    fixz), full recomputation, CPU offload, the pipeline bubble (:func:`bubble_time`)."""
    mem, per_node, fields = out.memory, gpu.gpus_per_node, {}
    if mem is not None and out.mfu and (mem.min_gpus or 0) > (out.scale_reference or math.inf):
        from estimator.scale_floor import memory_floor_time  # used: s39 fixz #1 (the memory floor)

        fields = memory_floor_time(req, out, ledger)
    fields |= recompute_time(req, replace(out, **fields) if fields else out, k, ledger)
    if mem is not None and getattr(mem.plan, "zero_stage", 0) == 3 and (req.gpu_count or 0) > per_node:
        from estimator.scale_floor import zero3_comm_time  # used: s39 fixz #2 (ZeRO-3 across nodes)

        fields |= zero3_comm_time(req, replace(out, **fields) if fields else out, gpu, ledger)
    fields |= offload_time(req, replace(out, **fields) if fields else out, per_node, ledger)
    return fields | bubble_time(req, replace(out, **fields) if fields else out, ledger)


def offload_time(req: SizingRequest, out: Any, per_node: int, ledger: Ledger) -> dict[str, Any]:
    """The training passes' GPU-hours × :mod:`estimator.offload_time` ratio when
    the layout on the user's GPU count offloads to the CPU (s10 trial A3: the time had no offload cost):
    (GPU step + CPU optimizer step + PCIe) / GPU step, the GPU step taken from the calibrated hours
    (hours × 3600 / GPUs × tokens per step / tokens), said as ``offload_time``. Nothing without a count,
    a step size, or for a duration or a rate the user stated (it includes what they ran)."""
    mem = out.memory
    plan = mem.plan if mem is not None else None
    if plan is None or not plan.offload or out.gpu_hours is None or out.mfu is None or not req.gpu_count:
        return {}
    if mem.fits_requested is False or req.hours or out.mfu_calibrated is not None:
        return {}
    seqs, tokens, gpus = plan.global_batch_sequences, out.tokens, mem.plan_gpus or req.gpu_count
    if not (seqs and out.seq_len and tokens and out.params):
        return {}
    roll = getattr(out, "rollout", None)
    hours = roll.training_gpu_hours.likely if roll is not None else out.gpu_hours.likely
    per_sequence = getattr(out, "sample_tokens", None) or out.seq_len  # the average sequence (time)
    gpu_step = hours * 3600.0 / gpus * seqs * per_sequence / tokens
    from estimator.offload_time import offload_seconds_per_step

    extra = offload_seconds_per_step(out.params, gpus, per_node)
    if gpu_step <= 0:
        return {}
    factor = 1.0 + extra / gpu_step
    ledger.assume(
        "offload_time", round(factor, 3), Why.offload_time, gpus=gpus, seconds=round(extra, 1),
        gpu_step=round(gpu_step, 1),
    )  # fmt: skip
    for i, n in enumerate(ledger.notes):  # 'offload is not needed': by how much it slows the steps (s25b #6)
        if n.code == "offload_not_needed":
            ledger.notes[i] = n.model_copy(update={"params": {**n.params, "slower": round(factor, 2)}})
    return _slower_fields(out, factor)


def bubble_time(req: SizingRequest, out: Any, ledger: Ledger | None = None) -> dict[str, Any]:
    """GPU-hours × (1 + (p − 1)/m) when the layout on the user's GPU count is a pipeline of p stages with
    m micro-batches per step (the gradient accumulation): the idle time of the pipeline's fill and drain,
    the same for GPipe and 1F1B (Narayanan et al. 2021, "Efficient large-scale language model training
    on GPU clusters using Megatron-LM", §2.2.1: bubble time fraction (p − 1)/m). The MFU falls by the
    same factor and the cost is re-billed; the ``pp_bubble`` note (into ``ledger``) names p, m and the
    fraction — only here, so the note is never shown for a time that does not pay the bubble.

    Only for a pipeline the user states (``pp``) on a stated count: the calibrated MFU is fitted on
    published runs that already pipelined with their own (large) batches and schedules — Llama 3 405B
    PP 16, DeepSeek-V3 PP 16 with DualPipe and 15,360 sequences a step — so a pipeline the search chose at
    the assumed 4M-token batch would count the bubble twice (DeepSeek-V3 on 2,048 H800: PP 8 at m = 8,
    ×1.875, out of the 80 % interval around the reported 2.664M H800-hours). Nothing for a duration or
    a rate the user stated (it includes what they ran), nor when the layout does not fit anyway, nor when
    m is unknown (``gradient_accumulation`` None: the factor would be p, not a bubble)."""
    mem = out.memory
    plan = mem.plan if mem is not None else None
    if plan is None or plan.pp <= 1 or out.gpu_hours is None or out.mfu is None or not req.gpu_count:
        return {}
    if not req.pp or req.pp != plan.pp:
        return {}
    if mem.fits_requested is False or req.hours or out.mfu_calibrated is not None:
        return {}
    m = plan.gradient_accumulation  # micro-batches per step through the pipeline
    if not m:  # m unknown (a layout before its batch is set): no bubble, not ×p
        return {}
    if ledger is not None:
        ledger.note("pp_bubble", pp=plan.pp, micro_batches=m, bubble=round((plan.pp - 1) / m, 4))
    return _slower_fields(out, 1.0 + (plan.pp - 1) / m)


def _slower_fields(out: Any, factor: float, gpus: int = 1) -> dict[str, Any]:
    """The training passes' GPU-hours × ``factor``, the MFU ÷ ``factor`` and the cost re-billed (full
    recomputation, the pipeline bubble). An RL run's rollouts are decode-timed and recompute nothing
    (generation keeps no activations for a backward pass: Korthikanti et al. 2022 §5 recompute the
    forward inside the backward only), so only their training part is slowed and the two parts still
    add up to the total (:func:`estimator.rollout.with_rollout`)."""
    g, m, roll = out.gpu_hours, out.mfu, getattr(out, "rollout", None)
    if roll is not None:
        t = roll.training_gpu_hours
        slowed = band(t.low * factor, t.likely * factor, t.high * factor)
        hours, roll = rollout.with_rollout(slowed, roll)
    else:
        hours = band(g.low * factor, g.likely * factor, g.high * factor)
    fields: dict[str, Any] = {"gpu_hours": hours, "mfu_likely": m.likely / factor}
    if roll is not None:
        fields["rollout"] = roll
    fields["mfu"] = band(m.low / factor, m.likely / factor, m.high / factor)
    if out.cost is not None:
        fields["cost"] = billed_cost(out.cost, hours, gpus)  # on a row's cards, each its first hour (s37)
    return fields


def with_fewest_paying(out: Any, table: dict[str, Any], stated: bool = True) -> dict[str, Any]:
    """The days-table fields; when the answer's GPU count (``gpus_for_deadline``) is the fewest that fit
    and full recomputation makes them miss the deadline, the next count of the table that meets it (those
    keep the activations: the calibrated rate). Without this the reply read "2 GPUs for 39 days (within
    30 days)". The GPU-hours and cost stay count-free (the calibrated rate); the fewest GPUs' row of the
    days table and the ledger say what recomputing costs there. ``stated``: the request names a deadline
    or a budget (else the fewest count stays: :func:`estimator.comfortable_count.comfortable_count`)."""
    fewest = out.fewest_recompute
    if fewest is None or table.get("gpus_for_deadline") != fewest[0]:
        return comfortable_count(
            out, table, stated
        )  # never a borderline count when a comfortable one costs as much
    rows, deadline = table["days_table"], out.deadline_days
    slow = next((r for r in rows if r.gpus == fewest[0]), None)
    if deadline and slow is not None and slow.days.likely > deadline * 1.05:  # recomputing misses it
        faster = [r.gpus for r in rows if r.gpus > fewest[0] and r.days.likely <= deadline * 1.05]
        if faster:
            return {**table, "gpus_for_deadline": faster[0], "days_table": _rows_paid(out, rows)}
    return comfortable_count(out, {**table, "days_table": _rows_paid(out, rows)}, stated)


def shown_cost(out: Any) -> Any:
    """The cost of the count the answer shows (the user's ``days.gpus``, else ``gpus_for_deadline``): its
    days-table row's own when those GPUs pay full recomputation (:func:`_rows_paid`), else the count-free
    ``cost`` — what the budget verdict weighs (s16: it said '$778 – $1,620' under a cost line of
    '$1,165 – $2,428' on 2 GPUs recomputing ×1.5). One rule with ``SizingReport.headline_cost`` and the
    quote: :func:`estimator.shown_cost.shown_cost`."""
    return shown_cost_of(out)


def _rows_paid(out: Any, rows: list[DaysRow]) -> list[DaysRow]:
    """The days-table rows below the count that keeps the activations with the GPU-hours and cost they
    pay (:func:`_slower_fields` ×factor: review s14 MEDIUM 5, the headline said 972 GPU-hours on 2 GPUs
    while the cost line billed the calibrated 648); the other rows as they are. RL: only the training
    passes recompute, so the days follow the hours paid (trial s21 #7); else the hours follow the row's
    days, which also pay the scale-out of that count (:func:`estimator.training_rate.days_rows`; s26 trial
    #12: '16 GPUs for 3.3 days' beside '1,167 GPU-hours' = 3.04 days on 16: one figure, 1,267)."""
    _, factor, keep = out.fewest_recompute
    rl = getattr(out, "rollout", None) is not None
    return [(_row_paid_rl(r, out, factor) if rl else _row_paid(out, r)) if r.gpus < keep else r for r in rows]


def _row_paid_rl(r: DaysRow, out: Any, factor: float) -> DaysRow:
    """An RL row: the hours paid (×``factor``), billed on its GPUs, and the days they take on them."""
    paid = _slower_fields(out, factor, r.gpus)
    h = paid["gpu_hours"]
    days = band(h.low / r.gpus / 24, h.likely / r.gpus / 24, h.high / r.gpus / 24)
    return r.model_copy(update={"gpu_hours": h, "cost": paid.get("cost"), "days": days})


def _row_paid(out: Any, r: DaysRow) -> DaysRow:
    """A row's GPU-hours and cost as its days × GPUs × 24 (recompute and scale-out both in its days)."""
    base = out.gpu_hours.likely if out.gpu_hours is not None else 0.0
    if base <= 0:
        return r
    paid = _slower_fields(out, r.days.likely * r.gpus * 24.0 / base, r.gpus)
    return r.model_copy(update={"gpu_hours": paid["gpu_hours"], "cost": paid.get("cost")})


class PlanParts(NamedTuple):
    """What :func:`memory_and_plan` settles: the memory answer and the verdict."""

    memory: Memory
    feasible: str | None
    feasible_reason: str | None


def _note_tight(mem: Memory, ledger: Ledger) -> None:
    """``memory_tight`` above :data:`HEADROOM` of the card; ``memory_tight_recomputing`` when the plan
    already recomputes every layer (recompute is then no way to headroom: s27-fix2)."""
    if mem.per_gpu_bytes > HEADROOM * mem.usable_bytes:
        tight = "memory_tight_recomputing" if mem.plan and mem.plan.recompute == "full" else "memory_tight"
        ledger.note(tight, ratio=round(mem.per_gpu_bytes / mem.usable_bytes, 3))


def memory_and_plan(
    req: SizingRequest,
    r: Resolved,
    setup: TrainingSetup,
    spec: ModelSpec,
    params: float,
    cluster: int | None,
    global_batch: int | None,
    ledger: Ledger,
) -> PlanParts:
    """Memory per GPU, the fewest GPUs, the layout at the user's (or the deadline's: ``cluster``) count,
    the verdict. ``global_batch``: sequences per optimizer step the plan turns into accumulation. A
    colocated rollout engine's share of each card is not the plan's (estimator.colocate)."""
    r = beside_engine(req, r, ledger)
    gpu = r.gpu
    plan_gpus = req.gpu_count if req.gpu_count is not None else cluster
    reuse = kept_searches(spec, params, gpu, setup)  # the searches at no particular count, once a job
    mem = training_memory(
        spec,
        params,
        gpu,
        setup,
        requested_gpus=plan_gpus,
        with_alternatives=r.stage == Stage.finetune,
        with_recommended=r.stage == Stage.finetune,  # dropped below for pre-training: not computed
        global_batch=global_batch,
        reuse=reuse,
    )
    if req.gpu_count is None and plan_gpus is not None and mem.fits_requested is False and mem.min_gpus:
        # the deadline's count is below the fewest that fit: lay out on the fewest, in whole nodes
        plan_gpus = compute.round_to_nodes(max(plan_gpus, mem.min_gpus), gpu.gpus_per_node)
        mem = training_memory(
            spec, params, gpu, setup, requested_gpus=plan_gpus,
            with_alternatives=r.stage == Stage.finetune, with_recommended=r.stage == Stage.finetune,
            global_batch=global_batch, reuse=reuse,
        )  # fmt: skip
    if req.gpu_count is None:
        mem = copied(mem, {"fits_requested": None})
    else:  # an adapter method laid out to communicate least: the least memory on these GPUs, too
        from estimator.methods import with_least
        from estimator.pcie_layout import with_dp_offload, with_pcie_zero

        mem = with_pcie_zero(spec, params, gpu, setup, with_least(spec, params, gpu, setup, mem))
        mem, setup = with_dp_offload(spec, params, gpu, setup, mem)  # s37 fixf #1: offload then set
    if r.stage != Stage.finetune:  # pre-training size follows the deadline, not memory comfort
        unsized = {"recommended_gpus": None, "recommended_plan": None, "recommended_per_gpu_bytes": None}
        mem = copied(mem, unsized)
    if r.stage != Stage.finetune:  # pre-training: plain DDP past the high end → ZeRO-1 (s24 #7)
        mem = with_zero1_plan(spec, params, gpu, setup, mem)
    # a layout that fits at the band's high end: the verdict's test, pre-training too (s43 fixverdict #2)
    mem = with_high_edge_plan(spec, params, gpu, setup, mem)
    if global_batch:
        given = getattr(req, "global_batch", None)  # with it, a stated accumulation follows the DP
        mem = memory_with_batch(
            mem, global_batch, None if given else getattr(req, "gradient_accumulation", None)
        )
        rollout.note_batch(req, mem.plan, given, ledger)
    mem = with_ddp_plan(req, spec, params, gpu, setup, mem)  # DDP as configured, where it fits (s28 M6)
    mem = with_host_bytes(spec, params, setup, with_launched_count(req, mem))  # s32 fix J; s34 offload
    feasible, reason = training_verdict(req, spec, params, gpu, setup, mem, ledger)
    _note_ddp(req, spec, params, setup, mem, feasible, reason, ledger)
    mem = _with_fit_change(spec, params, gpu, setup, mem, reason)
    _note_no_fit(setup, mem, ledger)
    if mem.fits_requested is False and mem.min_gpus is not None:
        ledger.note("does_not_fit_requested", gpu_count=req.gpu_count, min_gpus=mem.min_gpus)
    elif mem.fits_requested is not False and mem.min_gpus is not None:
        _note_tight(mem, ledger)  # nothing fits (min_gpus None): the model states alone, never "tight"
    chosen = _note_recompute_chosen(spec, params, gpu, setup, mem, ledger, req.training_tool)
    if chosen and feasible == "yes" and reason is None:  # s50: a fit only with checkpointing left off
        from estimator.recompute_default import unstated_verdict  # deferred: start-up (issue 23 item 7)

        feasible, reason = unstated_verdict(req, setup)
    if gpu.personal and (mem.min_gpus or 0) > 1:
        ledger.note("consumer_no_nvlink", gpu=gpu.family)
    rollout.check_engine(req, spec, params, gpu, ledger)  # the RL rollout engine's stated TP holds it?
    return PlanParts(mem, feasible, reason)


def _note_ddp(
    req: SizingRequest,
    spec: ModelSpec,
    params: float,
    setup: TrainingSetup,
    mem: Memory,
    feasible: str | None,
    reason: str | None,
    ledger: Ledger,
) -> None:
    """'ddp_does_not_fit' when the user's tool runs plain DDP as configured and no DDP layout fits their
    count (:func:`estimator.verdicts.training_verdict`): their setting's figure first, then the ZeRO plan's
    (design §8: "ZeRO-2 doesn't fit on 2 × 40 GB; ZeRO-3 fits at 29.8 GiB")."""
    if feasible != "no" or reason != "tool_default_ddp" or mem.plan is None:
        return
    ledger.note(
        "ddp_does_not_fit",
        tool=req.training_tool,
        ddp_gib=ddp_bytes(spec, params, setup, mem) / GIB,
        usable_gib=mem.usable_bytes / GIB,
        stage=mem.plan.zero_stage,
        per_gpu_gib=mem.per_gpu_bytes / GIB,
    )


def _with_fit_change(
    spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, mem: Memory, reason: str
) -> Memory:
    """``mem`` with ``fit_change``: for a borderline verdict (:func:`_fit_change`), and for a job that
    does not fit the user's GPUs what makes it fit there, with the user's method and tool (trial
    report A7/A8: micro-batch 1, ZeRO-3, a chunked loss before a shorter sequence or more GPUs)."""
    if mem.plan is None or not mem.plan_gpus:
        return mem
    if reason in ("tight", "high_edge", "tool_default_ddp"):
        found = _fit_change(spec, params, gpu, setup, mem, reason)
        return mem.model_copy(update={"fit_change": tool_changes(found, setup)})
    if mem.fits_requested is False:
        over = mem.per_gpu_bytes - mem.usable_bytes  # what an optimizer change must save (fit_change)
        found = tool_changes(
            what_to_change(spec, params, gpu, mem.plan_gpus, setup, mem.plan, True, over), setup
        )
        update: dict[str, object] = {"fit_change": found}
        if not found or found[-1].setting == "gpu_count":  # no setting holds the high end on their GPUs
            update["likely_fit"] = tool_changes(
                likely_fit(spec, params, gpu, mem.plan_gpus, setup, mem.plan), setup
            )
        return mem.model_copy(update=update)
    return mem


def _note_no_fit(setup: TrainingSetup, mem: Memory, ledger: Ledger) -> None:
    """'no_fit_stated' / 'no_fit' when no GPU count fits; an adapter method is named so that the
    reply never says "switch to LoRA/QLoRA" to a LoRA or QLoRA job (trial report A7), nor "CPU offload"
    to a job that offloads (``offloaded``)."""
    if mem.min_gpus is not None:
        return
    if not setup.shards_model:  # Unsloth: every GPU holds the whole model, so no count helps (s34)
        ledger.note("no_fit_tool_no_sharding", gpus_searched=MAX_GPUS_SEARCHED)
    elif setup.zero_stage is not None or setup.recompute is not None:
        ledger.note("no_fit_stated", gpus_searched=MAX_GPUS_SEARCHED)  # the user's setting is the cause
    elif setup.offload:  # never "or CPU offload" to a job that offloads already
        ledger.note("no_fit", gpus_searched=MAX_GPUS_SEARCHED, offloaded=True)
    elif setup.method in (Method.lora, Method.qlora):
        adapter = "QLoRA" if setup.method == Method.qlora else "LoRA"
        ledger.note("no_fit", gpus_searched=MAX_GPUS_SEARCHED, adapter_method=adapter)
    else:
        ledger.note("no_fit", gpus_searched=MAX_GPUS_SEARCHED)


def _fit_change(
    spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, mem: Memory, reason: str
) -> list[FitChange]:
    """What to change for a borderline verdict (:mod:`estimator.fit_change`): under the tool's default
    DDP, first the plan's ZeRO stage, then what makes the high end fit with it."""
    plan, gpus = mem.plan, mem.plan_gpus
    assert plan is not None and gpus
    if reason != "tool_default_ddp":  # the high end over the card: what an optimizer change must save
        over = (mem.per_gpu_bytes_high or mem.per_gpu_bytes) - mem.usable_bytes
        return what_to_change(spec, params, gpu, gpus, setup, plan, over=over)
    first = FitChange(setting="zero_stage", value=plan.zero_stage, per_gpu_bytes_high=mem.per_gpu_bytes_high)
    if (mem.per_gpu_bytes_high or 0.0) <= mem.usable_bytes:
        return [first]
    over = (mem.per_gpu_bytes_high or 0.0) - mem.usable_bytes
    return [
        first,
        *what_to_change(spec, params, gpu, gpus, replace(setup, zero_stage=plan.zero_stage), plan, over=over),
    ]


def _note_recompute_chosen(
    spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, mem: Memory, ledger: Ledger,
    tool: str | None = None,
) -> str | None:  # fmt: skip
    """When the user chose no recompute mode and the plan turns on full recompute (gradient checkpointing) to
    fit, say so with the figure without it on the same GPUs (issue 14: a figure that drops as the sequence
    grows must say why); returns the note's reason (None: none noted, or a layout preference; s50's verdict:
    :func:`estimator.recompute_default.unstated_verdict`). Without it = the same layout (TP, PP, DP, ZeRO
    stage, micro-batch) keeping its activations (selective recompute, FlashAttention; a Hugging Face-family
    tool, :attr:`estimator.setup.TrainingSetup.checkpointing_only`: gradient checkpointing off). Not the
    least-memory layout of any shape — on 8 × RTX 4090 (no NVLink) that is TP 8 at 7.3 GiB, which the plan
    does not take (:func:`estimator.layouts.plan_preference`), so "to fit: 11.8 GiB with it, 7.3 without" read
    as recompute for nothing (s10 trial A5); DP 8 ZeRO-3 without it needs 29.1 GiB. ``without_high_gib``: that
    layout's band high end (:func:`estimator.memory_band.per_gpu_band`), so the reply can say why: activations
    over the card, or a likely figure under 10 % headroom (:data:`estimator.plan.HEADROOM`) and a high end
    over it (Qwen-14B LoRA on one A100 80G at 4,096 tokens: 79.2 GiB likely, 104.4 GiB high end). A tool that
    checkpoints by default (``tool``, :attr:`estimator.setup.TrainingSetup.tool_recompute`) whose plan keeps
    the activations: the ledger's recompute says the plan turns checkpointing off (``tool_recompute_off``)."""
    plan, n = mem.plan, mem.plan_gpus
    if setup.tool_recompute and setup.checkpointing_only and plan is not None and plan.recompute == "none":
        ledger.replace("recompute", "none", Why.tool_recompute_off, tool=tool)  # as the plan and recipe run
    stop = setup.recompute is not None or plan is None or plan.recompute != "full" or not n
    if stop or mem.fits_requested is False:  # nor where the layout does not fit: "to fit" would be untrue
        return None
    mode = "none" if setup.checkpointing_only else "selective"  # an HF tool: gradient checkpointing off
    kept, keeping = plan.model_copy(update={"recompute": mode}), replace(setup, recompute=mode)
    parts = breakdown_within(spec, params, keeping, kept, math.inf) or {}
    without = sum(parts.values())
    without_high = per_gpu_band(spec, keeping, kept, parts, params)[1] if parts else without
    reason = _recompute_reason(without, without_high, mem.usable_bytes)
    ledger.note(
        "recompute_chosen",
        gpu_count=n,
        per_gpu_gib=mem.per_gpu_bytes / GIB,
        without_gib=without / GIB,
        without_high_gib=without_high / GIB,
        **({"reason": reason} if reason else {}),
        headroom=1 - HEADROOM,
    )
    return reason


def _recompute_reason(without: float, without_high: float, usable: float) -> str | None:
    """Why full recompute against the same layout keeping its activations (bytes per GPU): their
    likely figure over the usable memory (``activations``); it fits but the band's high end does not
    (``high_edge``); both fit but the likely figure leaves under ``1 − HEADROOM`` (10 %) free
    (``headroom``, :data:`estimator.plan.HEADROOM`); None when none holds (a layout preference)."""
    if without > usable:
        return "activations"
    if without_high > usable:
        return "high_edge"
    return "headroom" if without > HEADROOM * usable else None
