"""The attention line's time figures (s35 fixb #3): the calibrated MFU was measured on k·N·D at runs of
≤ 8K context, so beyond 8K the time counts k·N·D × (1 + a(s)) / (1 + a(8K)) (estimator.compute
.long_context_factor), not the attention-inclusive total the line prints: the reply states the FLOPs the
hours follow from, so that FLOPs ÷ (peak × MFU) gives the printed GPU-hours."""

from __future__ import annotations

from typing import Any

from estimator import compute


def attention_time(report: Any, f: Any) -> dict[str, Any]:
    """``in_time`` (the context is beyond the calibration runs' 8K) and, when the hours follow from the
    FLOPs, ``factor`` (the long-context multiplier, two decimals) and ``timed`` (k·N·D × it): GPU-hours
    likely × 3600 × peak × MFU likely (full recompute, offload and a pipeline bubble divide the MFU as
    they multiply the hours, so the product stays the FLOPs timed). Not when it falls outside
    (1, attention-inclusive total]: an RL run's decode-timed rollouts, a measured rate."""
    seq = report.request.seq_len
    out: dict[str, Any] = {"in_time": bool(seq and seq > compute.CALIBRATION_SEQ_LEN)}
    gh, mfu, peak, flops = report.gpu_hours, report.mfu, report.peak_flops, report.flops
    if not out["in_time"] or gh is None or mfu is None or not peak or not flops or report.rollout:
        return out
    timed = gh.likely * 3600.0 * peak * mfu.likely
    if not 1.0 < timed / flops <= (report.flops_with_attention or 0.0) / flops * (1 + 1e-9):
        return out
    return out | {"factor": f"{timed / flops:.2f}", "timed": f.sci(timed), "formula": report.flops_formula}
