"""A training job that fits on no number of the card as set (s39 fixv #1): what stays on every GPU
whatever the count, and the change that makes it fit with the count it then takes and its time.

A LLaMA-Factory Qwen2.5-72B full fine-tuning under ZeRO-3 at micro-batch 4 × 8,192 tokens was headlined
'one GPU for 14 hours' while its own body said no count fits: ZeRO-3 shards the weights, gradients and
optimizer states across the count, but each GPU keeps its own micro-batch's activations (the layer
inputs full recompute keeps), the fp32 logits of its sequences and the runtime's overhead — that part
alone is over the card, so no count helps (ZeRO, Rajbhandari et al. 2020 §5: stage 3 partitions the
three model states, nothing else). Imported lazily, only for such a report.
"""

from __future__ import annotations

from typing import Any

from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from estimator.models import SizingReport

NOWHERE_CODES = frozenset({"no_fit", "no_fit_stated", "no_fit_tool_no_sharding"})
"""The estimator's notes (estimator.training_plan) for a search that found no count of the card."""

SHARDED_BY_STAGE = {
    1: ("optimizer",),
    2: ("optimizer", "gradients"),
    3: ("optimizer", "gradients", "weights"),
}
"""The breakdown parts ZeRO stage k partitions across data parallelism (Rajbhandari et al. 2020 §5:
P_os, P_os+g, P_os+g+p); every other part is whole on each GPU whatever the count."""

KEEPS_THEIR_JOB = ("micro_batch_1", "full_recompute", "cpu_offload", "param_offload")
"""Levers that keep the user's method, tool and data: named before another stack or method."""


def fits_nowhere(report: SizingReport) -> bool:
    """Whether no count of the card holds the job as set and the user gave no count of their own (their
    count has its own headline: 'does not fit on N × GPU as set (no number of these GPUs …)')."""
    m = report.memory
    if m is None or m.min_gpus or m.fits_requested or report.days is not None:
        return False
    for w in report.warnings:  # noqa: SIM110 — a loop: no generator frame a note
        if w.code in NOWHERE_CODES:
            return True
    return False


def unsharded_parts(m: Any) -> dict[str, float] | None:
    """The bytes on every GPU at any count (the parts of ``m.breakdown`` the plan's ZeRO stage does not
    partition, :data:`SHARDED_BY_STAGE`), for a pure data-parallel plan; None with TP/PP (a model split
    across GPUs shrinks other parts too) or without a plan."""
    plan = m.plan
    if plan is None or plan.tp != 1 or plan.pp != 1:
        return None
    sharded = SHARDED_BY_STAGE.get(plan.zero_stage, ())
    return {k: v for k, v in m.breakdown.items() if k not in sharded and v > 0}


def _lever(report: SizingReport) -> Any:
    """The alternative that fits with a count: one that keeps the user's job first, then the fewest GPUs."""
    m = report.memory
    rows = [a for a in (m.alternatives if m is not None else []) if a.min_gpus]
    if not rows:
        return None
    return min(rows, key=lambda a: (a.change not in KEEPS_THEIR_JOB, a.min_gpus))


def nowhere_context(report: SizingReport, f: Fmt, gpu_hours: float | None) -> dict[str, Any]:
    """``t.nowhere`` for the headline: ``floor`` (GiB on every GPU at any count) and ``parts`` (its
    activations and logits), ``usable`` (the card's), ``fix`` ('with micro-batch 1 (…): 24 GPUs') and
    ``time`` (≈ hours or days on that count: the GPU-hours ÷ the count, the lever changes no FLOPs
    unless its row carries its own GPU-hours); {} unless :func:`fits_nowhere`."""
    if not fits_nowhere(report):
        return {}
    from bot.render.duration import wall_time
    from bot.render.fit_change_text import CHEAPER_FIX, LEADING_WORD_RE, alternative_label
    from bot.render.plan_text import gpus_text

    m = report.memory
    assert m is not None
    out: dict[str, Any] = {
        "usable": f.gib(m.usable_bytes),
        "floor": None,
        "parts": None,
        "fix": None,
        "time": None,
    }
    parts = unsharded_parts(m)
    if parts and sum(parts.values()) > m.usable_bytes:
        out["floor"] = f.gib(sum(parts.values()))
        named = [
            translate(f.lang, PART_WORDS[k], gib=f.gib(parts[k]))
            for k in ("activations", "logits")
            if k in parts
        ]
        if named and m.plan is not None:
            out["parts"] = translate(
                f.lang, PARTS, parts=translate(f.lang, AND).join(named), mb=f.int(m.plan.micro_batch),
                seq=f.int(report.request.seq_len or 0),
            ) if report.request.seq_len else translate(f.lang, AND).join(named)  # fmt: skip
    lever = _lever(report)
    if lever is not None:
        label = LEADING_WORD_RE.sub(
            lambda w: w.group(0).lower(), alternative_label(lever, f.lang, report.request.method)
        )
        out["fix"] = translate(f.lang, CHEAPER_FIX, change=label, gpus=gpus_text(f.lang, lever.min_gpus))
        gh = lever.gpu_hours.likely if getattr(lever, "gpu_hours", None) else gpu_hours
        if gh:
            hours = gh / lever.min_gpus
            out["time"] = wall_time(hours, f.lang) or (
                translate(f.lang, ABOUT_HOURS, hours=f.hours(hours))
                if hours < 24
                else translate(f.lang, ABOUT_DAYS, days=f.days(hours / 24))
            )
    return {"nowhere": out}


PART_WORDS = {
    "activations": N_("activations %(gib)s"),
    "logits": N_("logits %(gib)s"),
}
"""The two parts that grow with the micro-batch and sequence and never shard with data parallelism."""

PARTS = N_("%(parts)s at micro-batch %(mb)s × %(seq)s tokens")
"""What stays on each GPU, at the user's micro-batch and sequence length."""

AND = N_(", ")
"""Between two parts."""

ABOUT_HOURS = N_("≈ %(hours)s hours")
"""A wall time under a day."""

ABOUT_DAYS = N_("≈ %(days)s days")
"""A wall time of a day or more."""
