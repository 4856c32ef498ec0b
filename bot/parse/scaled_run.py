"""The same job on other cards, scaled from an earlier run that gave no data size (trial s17-2 #4):
'之前 8 张 A800 跑了 20 小时 Qwen2.5-14B 的全参微调，现在换成 16 张 H100，大概要多久？' — no tokens to time
k·N·D with, but the run's GPU-hours are the job's: the same model, method and data on a card of another
dense BF16 peak, at the MFU that run reached carried by the calibrated ratio of the two generations'
likely MFU (:func:`card_ratio`, as :data:`bot.parse.past_then_now.OTHER_CARD` carries it), take the run's
GPU-hours × its card's peak ÷ the new card's peak ÷ that ratio (catalog figures: A800 312, H100 SXM 989
TFLOPS; A100-class → H100-class MFU × 0.28 / 0.40 = 0.7): 8 × 20 = 160 A800-hours → 160 × 312 ÷ 989 ÷ 0.7
≈ 72.1 H100-hours, on 16 GPUs ≈ 4.5 hours. The job is given that duration (``hours``) and the run is
named ``earlier_run_scaled``.
"""

from __future__ import annotations

from estimator import catalog, efficiency
from estimator.catalog import GpuSpec
from estimator.models import SizingRequest

SCALED = "earlier_run_scaled"
"""The reason of an earlier run with no data size whose GPU-hours, scaled by the cards' peaks, time
the same job on other cards."""


def card_ratio(old: GpuSpec | None, new_gpu: str | None, params: float | None) -> float:
    """The likely MFU on ``new_gpu`` ÷ that on the ``old`` card for a job of ``params`` parameters
    (:func:`estimator.efficiency.generation_ratio`); 1.0 when either card is not in the catalog."""
    new = catalog.gpus().get(new_gpu or "")
    if old is None or new is None:
        return 1.0
    return efficiency.generation_ratio(old.mfu_class, new.mfu_class, params or 7e9)


def scaled_hours(old: SizingRequest, job: SizingRequest, seconds: float) -> float | None:
    """Wall-clock hours of ``job`` (the run ``old`` took ``seconds`` on its cards, the same model and
    method, no data size on either): the run's GPU-hours on the new cards
    (:func:`estimator.efficiency.scaled_gpu_hours`) ÷ new GPUs; None when a peak, a count, or the same model
    and method is missing, or the job states its own data."""
    if job.tokens or job.num_samples or job.hours or job.mfu or job.achieved_tflops_per_gpu:
        return None
    if job.method != old.method or job.params_total != old.params_total or not job.gpu_count:
        return None
    gpus = catalog.gpus()
    a, b = gpus.get(old.gpu or ""), gpus.get(job.gpu or "")
    if a is None or b is None or not old.gpu_count:
        return None
    run = old.gpu_count * seconds / 3600.0
    gpu_hours = efficiency.scaled_gpu_hours(run, a, b, old.params_total or 7e9)
    return gpu_hours / job.gpu_count if gpu_hours is not None else None


def scaled_said(said: str, hours: float, job: SizingRequest, lang: str) -> str:
    """'Qwen2.5-14B · 8 × A800 · 20 小时 → 50.5 H100·时': the run, and the new card's GPU-hours."""
    card = (job.gpu or "").split("-")[0]
    unit = "·时" if lang == "zh" else "-hours"
    return f"{said} → {hours * (job.gpu_count or 1):.3g} {card}{unit}"
