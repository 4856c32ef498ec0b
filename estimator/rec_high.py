"""Whether the recommended training count holds the band's high end, not only its likely figure
(s37-verdict2 #1).

:func:`estimator.plan.recommended` picks the fewest GPUs whose layout's **likely** figure is ≤ 90 % of the
card (:data:`estimator.plan.HEADROOM`). The verdict says "fits" only when the band's **high** end fits
(:mod:`estimator.fit_change`); a recommendation that fits only at the likely figure is the "borderline"
run real threads ran out of memory with (Llama-3-8B full fine-tuning at 16,384 tokens on RTX 4090: 8 cards,
TP 8, 19.7 GiB likely, 32.5 GiB high of 24). So the recommended layout's high end is kept
(:attr:`estimator.models.Memory.recommended_per_gpu_bytes_high`; the band is the search's own, its kept
peaks or table: :func:`estimator.layout_table.shown_band`), and when it is above the card: another layout
of the same count and TP × PP whose high end fits replaces it (a higher ZeRO stage, as
:func:`estimator.fit_change.with_high_edge_plan` does at the user's count); else 2×, 4× and 8× the count
are tried with :func:`estimator.fit_change.high_edge_fit` (the same layouts, order and band as the answer)
and the first whose high end fits is named beside the recommendation
(:attr:`estimator.models.Memory.recommended_high_gpus`): the reply calls the recommendation borderline and
names that count. The climb stops when a doubling's preferred layout, of the recommendation's TP × PP (only
its data parallelism grown), lowers the high end by less than 1 % (what is left per GPU is what data
parallelism does not shard — the loss's logits, one layer's activations): no count is named then, and the
reply says up to 8× as many GPUs do not bring it under.

Before any count, what lowers the high end on the recommended count itself (s38-verdict #1,
:func:`levers`): micro-batch 1 where the layout's is larger, then full recompute where it keeps more than
one layer's activations — the recommendation leaves out full recompute (its extra forward, ≈ 1/3 more
compute), which is why the count climbs at all (a 70B QLoRA on H100s: 1 card with full recompute, 2
recommended without it, 4 for the high end); the reply names those first, then the count.
"""

from __future__ import annotations

import math

from estimator.catalog import GpuSpec, ModelSpec
from estimator.layout_table import shown_band
from estimator.memory import SearchMemo, breakdown_within
from estimator.models import FitChange, Plan
from estimator.setup import TrainingSetup

CLIMB = (1, 2, 4, 8)
"""Multiples of the recommended count tried for a layout whose high end fits (1: another layout of the
same count, e.g. a higher ZeRO stage or a longer pipeline); beyond 8× the recommendation, a count bought
only for the band's high end is no longer a recommendation (the reply names what else helps)."""

LOWER = 0.99
"""A doubled count whose preferred layout's high end is not at least 1 % under the last one's lowers no
high end: the climb stops there (what is left per GPU is what data parallelism does not shard)."""


def high_end_recommended(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    setup: TrainingSetup,
    rec: tuple[int, Plan],
    rec_parts: tuple[Plan, dict[str, float]],
    memo: SearchMemo,
) -> tuple[tuple[int, Plan], tuple[Plan, dict[str, float]], dict]:
    """(recommended count and plan, its plan and parts, the Memory fields: its high end in bytes per GPU
    and the count named beside it — the fewest of :data:`CLIMB` × the count whose layout's high end fits,
    else None) — module docstring; :func:`with_levers` adds what lowers it on its own count."""
    usable = gpu.addressable_bytes
    high = shown_band(spec, params, setup, rec_parts[0], rec_parts[1], memo)[1]
    if high <= usable:
        return rec, rec_parts, {"recommended_per_gpu_bytes_high": high, "recommended_high_gpus": None}
    from estimator.fit_change import high_edge_fit

    last = high
    for factor in CLIMB:
        n = rec[0] * factor
        if factor > 1:  # the preferred layout of the doubled count first: a high end it does not lower
            best = _least_high(spec, params, gpu, n, setup, memo)
            if best is None:
                break
            # like with like: only DP grew (a preferred layout that recomputes less is no measure: s38)
            same = (best[1].tp, best[1].pp, best[1].recompute) == (rec[1].tp, rec[1].pp, rec[1].recompute)
            if same and best[0] >= last * LOWER:  # more data parallelism lowers no high end: stop unsized
                break
            last = best[0] if same else last
        pinned = (rec[1].tp, rec[1].pp) if factor == 1 else None  # 1: another layout of its TP × PP
        found = high_edge_fit(spec, params, gpu, n, setup, pinned, memo)
        if found is not None and factor == 1 and found[0].recompute != rec[1].recompute:
            found = None  # its recompute mode kept (the training time), as with_high_edge_plan does
        if found is not None and factor == 1:  # the same count: its layout that holds the high end
            parts = breakdown_within(spec, params, setup, found[0], math.inf, memo)
            assert parts is not None  # no limit
            return (
                (n, found[0]),
                (found[0], parts),
                {"recommended_per_gpu_bytes_high": found[1], "recommended_high_gpus": None},
            )
        if found is not None:
            return rec, rec_parts, {"recommended_per_gpu_bytes_high": high, "recommended_high_gpus": n}
    return rec, rec_parts, {"recommended_per_gpu_bytes_high": high, "recommended_high_gpus": None}


def with_levers(
    fields: dict, rec_parts: tuple[Plan, dict[str, float]] | None, gpu: GpuSpec, job: tuple, memo: SearchMemo
) -> dict:
    """``fields`` (:func:`high_end_recommended`'s) with ``recommended_fit_change``: :func:`levers` on the
    recommended layout and parts when its high end is above ``gpu``'s card; called only when the question
    named no count of its own (the reply words the user's count's verdict only; s37 fixf #2). ``job``:
    (spec, params, setup)."""
    high = fields.get("recommended_per_gpu_bytes_high")
    if rec_parts is None or high is None or high <= gpu.addressable_bytes:
        return fields
    return {**fields, "recommended_fit_change": levers(*job, *rec_parts, (high, gpu.addressable_bytes), memo)}


def levers(
    spec: ModelSpec,
    params: float,
    setup: TrainingSetup,
    plan: Plan,
    parts: dict[str, float],
    edges: tuple[float, float],
    memo: SearchMemo,
) -> list[FitChange]:
    """What lowers the band's high end (``edges``: it and the card's usable bytes) on ``plan``'s own GPUs,
    in order, each on top of those before it, up to the first that brings it under the card: micro-batch 1
    (when ``plan``'s is larger), full recompute (when ``plan`` recomputes less), as
    :mod:`estimator.fit_change` orders them; each with the high end it leaves. Only where the step's
    peak holds what they shrink (``parts``' activations and logits, at least 1 % of the high end: an RL
    job's generation peak keeps none) and only a change that lowers the high end by :data:`LOWER` or more
    — never one that cannot help (module docstring)."""
    (high, usable), out = edges, list[FitChange]()
    if parts.get("activations", 0.0) + parts.get("logits", 0.0) < (1 - LOWER) * high:
        return out
    changes = [("micro_batch", 1)] * (plan.micro_batch > 1) + [("recompute", "full")] * (
        plan.recompute != "full"
    )
    for setting, value in changes:
        if high <= usable:  # the change before holds it: no more asked of the run
            break
        plan = plan.model_copy(update={setting: value})
        laid = breakdown_within(spec, params, setup, plan, math.inf, memo)
        assert laid is not None  # no limit
        lowered = shown_band(spec, params, setup, plan, laid, memo)[1]
        if lowered < high * LOWER:
            out.append(FitChange(setting=setting, value=value, per_gpu_bytes_high=lowered))
            high = lowered
    return out


def _least_high(
    spec: ModelSpec, params: float, gpu: GpuSpec, gpus: int, setup: TrainingSetup, memo: SearchMemo
) -> tuple[float, Plan] | None:
    """The high end of the layout :func:`estimator.plan.best_plan_for` picks at ``gpus`` (the card's whole
    budget) and that layout, or None when none fits there: whether doubling the count still lowers the
    band's top."""
    from estimator.plan import best_plan_for

    found = best_plan_for(spec, params, gpu, gpus, setup, memo=memo)
    if found is None:
        return None
    return shown_band(spec, params, setup, found[0], found[1], memo)[1], found[0]
