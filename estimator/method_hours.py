"""Training time per method when several are asked at once ('with or without LoRA / QLoRA — how long
each?', '全参和 LoRA 各要多久'): each row of :func:`estimator.methods.method_rows` gets the GPU-hours of its
method on the same data, GPUs and rate as the estimate shown (s17: the time was given for one method only).

GPU-hours scale with the training FLOPs C = k·N·D at the same MFU, so a row's GPU-hours are the estimate's
× k_row / k_shown (:func:`estimator.compute.flops_per_param_token`: 6 for full training, 4 for LoRA and
QLoRA, plus the algorithm's extra passes), × the QLoRA step factor when the row's base is 4-bit and the
estimate's is not (÷ when the reverse: :data:`estimator.training_rate.QLORA_STEP_FACTOR`, applied only to the
calibrated MFU, never to an MFU or rate the user states). Freeze-tuning and P-tuning rows get no time (their
k needs their own trained share). No time when the estimate has none or the user stated the duration.
Every row is timed as the estimate's plan runs (its recompute), not at the row's least-memory layout shown
for memory: that layout recomputes nearly always, and charging it (s17-t2b tried × (k + 2) / k) gave LoRA
and full fine-tuning the same hours ('Mistral-7B … 8 H100s, with or without LoRA': 5.4 h each)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from estimator.compute import flops_per_param_token
from estimator.methods import method_rows
from estimator.models import Algorithm, Method, MethodRow, SizingRequest
from estimator.training_rate import QLORA_STEP_FACTOR, quantized_base_bits

if TYPE_CHECKING:
    from estimator.catalog import GpuSpec
    from estimator.setup import TrainingSetup
    from estimator.training_result import TrainingResult

TIMED = (Method.full, Method.lora, Method.qlora)
"""The methods whose k is known without their trained share."""


def timed_method_rows(
    req: SizingRequest, out: TrainingResult, gpu: GpuSpec, setup: TrainingSetup, algorithm: Algorithm
) -> list[MethodRow]:
    """:func:`estimator.methods.method_rows` for ``out``'s model, each row with ``gpu_hours`` (GPU-hours
    of that method) when ``out`` has a time and neither method is freeze-tuning or P-tuning."""
    assert out.spec is not None and out.params is not None
    rows = method_rows(req, out.spec, out.params, gpu, setup)
    shown = out.method or Method.full
    if out.gpu_hours is None or req.hours or shown not in TIMED:
        return rows
    stated_rate = bool(req.mfu or req.achieved_tflops_per_gpu or req.tokens_per_second_per_gpu)
    shown_slow = 1.0 if stated_rate or quantized_base_bits(req) != 4 else QLORA_STEP_FACTOR
    k_shown = flops_per_param_token(shown == Method.full, algorithm.value)
    out_rows = []
    for row in rows:
        if row.method not in TIMED:
            out_rows.append(row)
            continue
        slow = 1.0 if stated_rate or row.method != Method.qlora else QLORA_STEP_FACTOR
        k = flops_per_param_token(row.method == Method.full, algorithm.value)
        hours = out.gpu_hours.likely * k / k_shown * slow / shown_slow
        out_rows.append(row.model_copy(update={"gpu_hours": hours}))
    return out_rows
