"""Serving speed and cost: decode tokens per second (roofline), prefill time, the price per million
tokens and per month (pure; speeds in tokens per second, times in seconds, prices per GPU-hour).

Split from :mod:`estimator.inference` (which re-exports these names).
"""

from __future__ import annotations

from collections.abc import Callable

from estimator import attention
from estimator.catalog import GpuSpec, ModelSpec
from estimator.models import Currency, DecodeSpeed, PriceBand

DECODE_BANDWIDTH_EFFICIENCY = 0.7
"""Fraction of peak memory bandwidth a decode step reaches. Stated default: optimized engines reach
60–80 % of HBM bandwidth on the GEMV-bound decode (vLLM and TensorRT-LLM benchmarks; Pope et al. 2022 §4)."""

DECODE_MFU = 0.5
"""MFU of a compute-bound decode step at large batch. Stated default: the same 50 % as prefill
(Pope et al. 2022 reach 33–76 % MFU for large-batch decoding and prefill on TPU v4, §4)."""

PREFILL_MFU = 0.5
"""MFU of prefill (compute-bound GEMMs). Pope et al. 2022 report up to 76 % on TPU v4 at large
batch; 50 % is a stated, conservative default for GPU serving engines."""

HOURS_PER_MONTH = 730.0
"""Average hours in a month (8,760 / 12)."""


def decode_speed(
    spec: ModelSpec,
    params: float,
    active: float,
    gpu: GpuSpec,
    tp: int,
    bpp: float,
    kv_seq: float,
    batch: int,
) -> DecodeSpeed | None:
    """Tokens/s of decoding ``batch`` sequences on a TP group (× any number of pipeline stages).

    A token passes the pipeline stages one after another, so a step's time is that of one TP group
    reading all the weights: (weights read + the batch's KV cache) / (TP × bandwidth × 0.7), or
    2·N_active·batch FLOPs at 50 % of TP × the dense peak — whichever is slower (roofline; Pope et
    al. 2022). MoE reads only the experts the batch touches, ≈ min(1, batch·active/total) of them.
    Aggregate = batch / step (pipeline overlap across micro-batches is not counted: conservative).
    """
    bw = (gpu.memory_bandwidth_gbps or 0) * 1e9 * DECODE_BANDWIDTH_EFFICIENCY * tp
    if bw <= 0:
        return None
    touched = min(1.0, batch * active / params) if active < params else 1.0
    t_mem = (params * bpp * touched + kv_seq * batch) / bw
    t_compute = 2.0 * active * batch / (gpu.peak_flops_16bit * DECODE_MFU * tp)
    step = max(t_mem, t_compute)
    return DecodeSpeed(
        per_sequence=1.0 / step,
        aggregate=batch / step,
        batch=batch,
        bound="memory" if t_mem >= t_compute else "compute",
    )


def prefill_seconds(
    active: float, prompt_tokens: int, gpu: GpuSpec, gpus: int, spec: ModelSpec | None = None
) -> float:
    """Prefill of one prompt ≈ time to first token: (2·N_active + the causal attention of one forward
    pass per token at this prompt length, :func:`estimator.attention.flops_per_token` with one pass)
    × tokens / (peak × 50 % × GPUs). The attention term matters at long prompts: at 96K tokens it is
    several times the weight matmuls of a 37B-active MoE (Kaplan et al. 2020 Table 1, forward row)."""
    per_token = 2.0 * active
    if spec is not None:
        per_token += attention.flops_per_token(attention.shape_of(spec), prompt_tokens, passes=1.0)
    return per_token * prompt_tokens / (gpu.peak_flops_16bit * PREFILL_MFU * gpus)


def priced_speed(
    speed: DecodeSpeed | None, priced: int, decode: Callable[[int], DecodeSpeed | None]
) -> DecodeSpeed | None:
    """The decode speed the price per million tokens is computed at: ``speed`` when it is already at
    ``priced`` sequences, else ``decode(priced)`` — the GPUs at the load they hold. A GPU is rented by the
    hour whatever its load, so the price per token falls as the batch grows (decode reads the weights
    once per step for the whole batch: Pope et al. 2022); quoting it at a light assumed load overstates
    it several times."""
    if speed is None or speed.batch == priced:
        return speed
    return decode(priced)


def serving_cost(
    gpus: int, speed: DecodeSpeed | None, price: tuple[float, float, Currency] | None
) -> tuple[PriceBand | None, PriceBand | None]:
    """(per million output tokens at full load, per month) for ``gpus`` rented at ``price`` per GPU-hour:
    month = GPUs × 730 h × price; per million = GPUs × price / (aggregate tokens/s × 3600) × 10⁶."""
    if not price:
        return None, None
    low, high, cur = price
    month = PriceBand(low=gpus * HOURS_PER_MONTH * low, high=gpus * HOURS_PER_MONTH * high, currency=cur)
    if not speed:
        return None, month
    tokens_per_hour = speed.aggregate * 3600.0
    per_million = PriceBand(
        low=gpus * low / tokens_per_hour * 1e6, high=gpus * high / tokens_per_hour * 1e6, currency=cur
    )
    return per_million, month
