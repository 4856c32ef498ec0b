"""Training time per method when several are asked at once ('with or without LoRA / QLoRA — how long
each?', '全参和 LoRA 各要多久'): each row of :func:`estimator.methods.method_rows` gets the GPU-hours of its
method on the same data, GPUs and rate as the estimate shown (s17: the time was given for one method only).

GPU-hours scale with the training FLOPs C = k·N·D at the same MFU, so a row's GPU-hours are the estimate's
× k_row / k_shown (:func:`estimator.compute.flops_per_param_token`: 6 for full training, 4 for LoRA and
QLoRA, plus the algorithm's extra passes), × the QLoRA step factor when the row's base is 4-bit and the
estimate's is not (÷ when the reverse: :data:`estimator.training_rate.QLORA_STEP_FACTOR`, applied only to the
calibrated MFU, never to an MFU or rate the user states). Freeze-tuning and P-tuning rows get no time (their
k needs their own trained share). No time when the estimate has none or the user stated the duration.
Every row is timed at the layout whose memory it shows (s35 fixb #2: a LoRA row at ≈ 20.3 GiB "with
≈ 1/3 more compute to save memory" printed the 72 GPU-hours of the selective-recompute plan at 34.1 GiB):
× (k + 2) / k (:data:`estimator.training_plan.RECOMPUTE_EXTRA_FLOPS`) when the row's layout recomputes
fully, ÷ the same for the estimate's own full recompute when its hours paid it (the ``recompute_time``
assumption), so a row that keeps its activations is not charged the headline's recompute. (s17-t2b
charged every row and not the headline, which gave LoRA and full fine-tuning the same hours.)"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

from estimator.compute import flops_per_param_token
from estimator.models import Algorithm, Method, MethodRow, SizingRequest
from estimator.rl_reference import has_reference
from estimator.training_plan import RECOMPUTE_EXTRA_FLOPS as EXTRA
from estimator.training_rate import QLORA_MEASURED_BITS, QLORA_STEP_FACTOR, quantized_base_bits

if TYPE_CHECKING:
    from estimator.ledger import Ledger
    from estimator.training_result import TrainingResult

FIELD = attrgetter("field")
TIMED = (Method.full, Method.lora, Method.qlora)
"""The methods whose k is known without their trained share."""


def timed_method_rows(
    req: SizingRequest, out: TrainingResult, algorithm: Algorithm, ledger: Ledger | None = None
) -> list[MethodRow]:
    """``out.method_comparison`` (:func:`estimator.methods.method_rows`) each with ``gpu_hours`` (GPU-hours
    of that method) when ``out`` has a time and neither method is freeze-tuning or P-tuning. Called once
    ``out.gpu_hours`` holds what the plan's layout adds (recompute, offload, bubble:
    :func:`estimator.training_plan.layout_time`), so the shown method's row at the headline's layout is
    the headline's hours; ``ledger``: whether those hours paid full recompute (``recompute_time``)."""
    rows = out.method_comparison
    shown = out.method or Method.full
    if out.gpu_hours is None or req.hours or shown not in TIMED:
        return rows
    stated_rate = bool(req.mfu or req.achieved_tflops_per_gpu or req.tokens_per_second_per_gpu)
    shown_slow = 1.0 if stated_rate else base_slowdown(req, shown)
    ref = algorithm == "sft" or has_reference(req, algorithm)  # no call for SFT (speed bounds)
    k_shown = flops_per_param_token(shown == Method.full, algorithm.value, ref)
    paid = ledger is not None and "recompute_time" in map(FIELD, ledger.assumptions)  # no generator frame
    shown_slow *= (k_shown + EXTRA) / k_shown if paid and not stated_rate else 1.0
    out_rows = []
    for row in rows:
        if row.method not in TIMED:
            out_rows.append(row)
            continue
        slow = 1.0 if stated_rate else base_slowdown(req, row.method, shown)
        k = flops_per_param_token(row.method == Method.full, algorithm.value, ref)
        full = row.plan is not None and row.plan.recompute == "full" and not stated_rate
        slow *= (k + EXTRA) / k if full else 1.0  # recompute_factor, inline (calls per estimate)
        hours = out.gpu_hours.likely * k / k_shown * slow / shown_slow
        out_rows.append(row.model_copy(update={"gpu_hours": hours}))
    return out_rows


def recompute_factor(k: float) -> float:
    """(k + 2) / k: the FLOPs full activation recompute adds to k·N·D (one more forward pass, 2·N per
    token: :data:`estimator.training_plan.RECOMPUTE_EXTRA_FLOPS`; 4/3 for full training's k = 6, 3/2 for
    LoRA's 4)."""
    return (k + EXTRA) / k


def base_slowdown(req: SizingRequest, method: Method, shown: Method | None = None) -> float:
    """The step-time factor of ``method``'s frozen base as the estimate times it
    (:func:`estimator.training_rate._qlora_slowdown`): :data:`QLORA_STEP_FACTOR` for a 4-bit base, 1 for a
    16-bit one and for 8-, 3- and 2-bit bases (not modelled). A row's base is the request's quantized
    base, except a LoRA row beside a QLoRA estimate (its 4-bit base is QLoRA's alone: estimator.methods)
    and a full row (s18 review #8: a QLoRA row on an 8-bit base was ×1.39 beside its own headline's ×1)."""
    if method == Method.full or (method != Method.qlora and shown == Method.qlora):
        return 1.0
    bits = quantized_base_bits(req.model_copy(update={"method": method}))
    return QLORA_STEP_FACTOR if bits == QLORA_MEASURED_BITS else 1.0


def timed_alternatives(req: SizingRequest, out: TrainingResult, algorithm: Algorithm) -> TrainingResult:
    """``out`` with each method alternative (``lora``, ``qlora``) that fits the user's GPU count, where
    the shown method does not, timed as :func:`timed_method_rows` times a row ('DPO … 2 张4090要跑多久':
    full training needs 8, "LoRA: 2" fits theirs, and its time on them was never given; s35 fixd #4)."""
    m, count = out.memory, req.gpu_count
    shown = out.method or Method.full
    if m is None or not count or m.fits_requested or out.gpu_hours is None or req.hours or shown not in TIMED:
        return out
    stated_rate = bool(req.mfu or req.achieved_tflops_per_gpu or req.tokens_per_second_per_gpu)
    ref = algorithm == "sft" or has_reference(req, algorithm)
    k_shown = flops_per_param_token(shown == Method.full, algorithm.value, ref)
    alts = []
    for a in m.alternatives:
        method = Method(a.change) if a.change in ("lora", "qlora") else None
        if method is None or not a.min_gpus or a.min_gpus > count:
            alts.append(a)
            continue
        slow = 1.0 if stated_rate else base_slowdown(req, method, shown) / base_slowdown(req, shown)
        k = flops_per_param_token(False, algorithm.value, ref)
        alts.append(a.model_copy(update={"gpu_hours": out.gpu_hours.likely * k / k_shown * slow}))
    from dataclasses import replace

    return replace(out, memory=m.model_copy(update={"alternatives": alts}))
