"""The recommended training count holds the band's high end, not only its likely figure (s37-verdict2 #1).

:func:`estimator.plan.recommended` picks the fewest GPUs whose layout's **likely** figure is ≤ 90 % of the
card (:data:`estimator.plan.HEADROOM`). The verdict says "fits" only when the band's **high** end fits
(:mod:`estimator.fit_change`); a recommendation that fits only at the likely figure is the "borderline"
run real threads ran out of memory with (Llama-3-8B full fine-tuning at 16,384 tokens on RTX 4090: 8 cards,
TP 8, 19.7 GiB likely, 32.5 GiB high of 24). So when the recommended layout's high end is above the card,
the counts above it are tried — the recommended count itself with another layout, then 2×, 4× and 8× it —
with :func:`estimator.fit_change.high_edge_fit` (the same layouts, order and band as the answer), and the
first whose high end fits becomes the recommendation. The climb stops when a doubling lowers no high end
(the part more data parallelism does not shrink — the loss's logits, one layer's activations — is then
what is left), and when none fits the recommendation stays, with
its high end on :attr:`estimator.models.Memory.recommended_per_gpu_bytes_high` above the card: the
reply calls it borderline. The band of the recommended plan is the search's own (its kept peaks or
table, :func:`estimator.layout_table.shown_band`): no search when the high end fits already.
"""

from __future__ import annotations

import math

from estimator.catalog import GpuSpec, ModelSpec
from estimator.layout_table import shown_band
from estimator.memory import SearchMemo, breakdown_within
from estimator.models import Plan
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
) -> tuple[tuple[int, Plan], tuple[Plan, dict[str, float]], float]:
    """(recommended count and plan, its plan and parts, its high end in bytes per GPU): ``rec`` when its
    high end fits the card, else the first count of :data:`CLIMB` whose layout's high end does (module
    docstring), else ``rec`` with its high end above the card."""
    usable = gpu.addressable_bytes
    high = shown_band(spec, params, setup, rec_parts[0], rec_parts[1], memo)[1]
    if high <= usable:
        return rec, rec_parts, high
    from estimator.fit_change import high_edge_fit

    last = high
    for factor in CLIMB:
        n = rec[0] * factor
        if factor > 1:  # the preferred layout of the doubled count first: a high end it does not lower
            best = _least_high(spec, params, gpu, n, setup, memo)
            if best is None or best >= last * LOWER:  # more GPUs lower no high end: stop unsized
                break
            last = best
        pinned = (rec[1].tp, rec[1].pp) if factor == 1 else None  # 1: another ZeRO stage of its TP × PP
        found = high_edge_fit(spec, params, gpu, n, setup, pinned, memo)
        if found is not None:
            parts = breakdown_within(spec, params, setup, found[0], math.inf, memo)
            assert parts is not None  # no limit
            return (n, found[0]), (found[0], parts), found[1]
    return rec, rec_parts, high


def _least_high(
    spec: ModelSpec, params: float, gpu: GpuSpec, gpus: int, setup: TrainingSetup, memo: SearchMemo
) -> float | None:
    """The high end of the layout :func:`estimator.plan.best_plan_for` picks at ``gpus`` (the card's whole
    budget), or None when none fits there: whether doubling the count still lowers the band's top."""
    from estimator.plan import best_plan_for

    found = best_plan_for(spec, params, gpu, gpus, setup, memo=memo)
    if found is None:
        return None
    return shown_band(spec, params, setup, found[0], found[1], memo)[1]
