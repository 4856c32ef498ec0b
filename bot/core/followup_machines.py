"""A follow-up that changes the machines and the data of a finished run (s15 trial #1): after '上次用2台8卡
H800跑Qwen2.5-72B的LoRA，10亿token跑了36小时', '这次数据翻倍到20亿token，用4台要多久？'.

'4台' names no GPUs per machine, so the parse leaves it unread; the earlier turn stated 8 per machine
(``gpus_per_node``), so the count is 4 × 8 = 32 GPUs, said as read. When the earlier turn timed a run
(its ``hours`` on its cards and data) and the follow-up asks how long for other data or cards, that run is
a measurement, not this job's duration: its throughput per GPU, k·N·D ÷ (GPUs × seconds) (k = 4 for
LoRA/QLoRA, 6 otherwise: :func:`estimator.compute.flops_per_param_token`), times the new job
(``achieved_tflops_per_gpu``), as :mod:`bot.parse.past_then_now` does within one message.
"""

from __future__ import annotations

from bot.parse import ParseResult
from bot.parse.past_then_now import SAME_JOB
from estimator import catalog
from estimator.compute import flops_per_param_token
from estimator.models import Method, SizingRequest


def machines_followup(parsed: ParseResult, prev: SizingRequest | None) -> ParseResult:
    """``parsed`` (a follow-up's) with its unread machine count read as machines × the earlier turn's
    GPUs per machine, and the earlier turn's run as the measured rate when it asks how long (module doc);
    unchanged (the same object) otherwise."""
    if prev is None or not prev.gpus_per_node or "gpu_count" in parsed.found:
        return parsed
    unread = {t for t, why in parsed.unused_numbers if why == "unread"}
    found = [n for n in parsed.machine_counts if n in unread]  # read by the parse (bot.parse.cues)
    if len(found) != 1:
        return parsed
    typed, per = found[0], prev.gpus_per_node
    count = int(typed) * per
    update: dict[str, object] = {"gpu_count": count, "gpus_per_node": per}
    rate = _earlier_rate(prev) if parsed.duration_cue else None
    said: list[tuple[str, str]] = []
    if rate is not None:  # the earlier run measured the rate; its hours are not this job's
        update.update(achieved_tflops_per_gpu=rate, hours=None)
        said = [(_said(prev, rate), SAME_JOB)]
    request = parsed.request.model_copy(update=update)
    return parsed.model_copy(
        update={
            "request": request,
            "found": sorted({*parsed.found, *update}),
            "unused_numbers": [*(u for u in parsed.unused_numbers if u != (typed, "unread")), *said],
            "nodes_read": [*parsed.nodes_read, (typed, f"{typed} × {per} = {count}", "ji_ka_each")],
        }
    )


def _said(prev: SizingRequest, rate: float) -> str:
    """'Qwen2.5-72B · 16 × H800 · 36 h → MFU 14.2%': the earlier run in one item."""
    gpu = catalog.gpus().get(prev.gpu or "")
    peak = gpu.peak_flops_16bit / 1e12 if gpu is not None and gpu.peak_flops_16bit else None
    mfu = f" → MFU {rate / peak:.1%}" if peak else ""
    model = prev.model or f"{(prev.params_total or 0) / 1e9:g}B"
    return f"{model} · {prev.gpu_count} × {(prev.gpu or '').split('-')[0]} · {prev.hours:g} h{mfu}"


def _earlier_rate(prev: SizingRequest) -> float | None:
    """The earlier turn's run as model TFLOPS per GPU (k·N·D ÷ (GPUs × seconds) ÷ 10¹²), or None when it
    timed no run on known cards, parameters and tokens."""
    if not (prev.hours and prev.gpu_count and prev.params_total and prev.tokens):
        return None
    algorithm = prev.algorithm.value if prev.algorithm else "sft"
    k = flops_per_param_token(prev.method not in (Method.lora, Method.qlora), algorithm)
    epochs = prev.epochs or 1.0
    spec = catalog.models().get(prev.model or "")
    params = spec.params_total if spec is not None and spec.params_total else prev.params_total  # 72.7B
    return round(k * params * prev.tokens * epochs / (prev.gpu_count * prev.hours * 3600) / 1e12, 1)
