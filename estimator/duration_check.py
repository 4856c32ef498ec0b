"""A stated run time that the hardware cannot meet: '7B on 2T tokens, 24 H100, 1 hour' needs the cards to
run far above their dense peak. Such a time is refused (named, with the MFU it needs) and the job is sized
at a realistic MFU instead, never printed as a fact."""

from __future__ import annotations

from estimator import compute
from estimator.ledger import Ledger
from estimator.models import SizingRequest
from estimator.resolve import Resolved

MFU_CEILING = 1.0
"""Model FLOPs utilization cannot exceed 1: MFU = achieved model FLOP/s ÷ the card's dense peak (PaLM,
Chowdhery et al. 2022, App. B). A stated duration that needs more is impossible on those cards."""


def without_impossible_duration(
    req: SizingRequest, r: Resolved, tokens: float | None, k: float, params: float | None, ledger: Ledger
) -> SizingRequest:
    """``req`` without its ``hours`` (and a ``duration_impossible`` note) when the stated run time on the
    stated GPUs (1 when none) would need an MFU above :data:`MFU_CEILING`, with MFU = k·N·D ÷ (GPUs ×
    hours × 3,600 s × dense peak FLOP/s); else ``req`` as it is."""
    if not req.hours or tokens is None or params is None or r.gpu.generic:
        return req
    gpus = req.gpu_count or 1
    flops = compute.training_flops(r.active or params, tokens, k)
    implied = flops / (gpus * req.hours * compute.SECONDS_PER_HOUR * r.gpu.peak_flops_16bit)
    if implied <= MFU_CEILING:
        return req
    ledger.note("duration_impossible", gpu_count=gpus, hours=req.hours, mfu=round(implied, 4))
    return req.model_copy(update={"hours": None})  # sized at a realistic MFU instead
