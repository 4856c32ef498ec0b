"""A model run on a machine with no GPU (s41 cpufix #3, the design review: the CPU figures were computed
in render and never reached the JSON): llama.cpp / Ollama on the CPU from RAM, sized here and carried on
the report as ``report.cpu`` (:class:`CpuRun`); bot.render.cpu_head only formats it.

- RAM needed (bytes) = the weights at the format run + the KV cache of one sequence at the context sized
  (one user on a CPU): ``kv_bytes_per_token × seq_len``; ``fits_ram`` compares it with the RAM stated.
- Decode speed bound (tokens/s) = host bandwidth × :data:`estimator.layer_offload.CPU_BANDWIDTH_EFFICIENCY`
  (llama.cpp's measured share, ggml-org/llama.cpp#19480) / the bytes one token reads: every token reads the
  weights (a MoE's active share, ``params_active / params_total``) from RAM.
- Host bandwidth (bytes/s): the one stated (``host_bandwidth_gbps``); else the desktop range
  (:data:`estimator.layer_offload.HOST_BANDWIDTH_RANGE`, dual-channel DDR4-3200 to DDR5-5600) or, above
  :data:`estimator.layer_offload.DESKTOP_MEMORY_MAX` of RAM stated, a server's
  (:data:`estimator.layer_offload.HOST_BANDWIDTH_SERVER`); s49 trial: the RAM kind or channel count said
  without a rate ('DDR5 双通道', 'dual-channel DDR4') is its generation's common rates × the channels
  (:func:`estimator.host_ddr.ddr_band`), as the GPU + CPU split already read it.
- Weight format: the precision the user stated, as stated; none stated, GGUF Q4_K_M, Ollama's default tag
  (``ollama_default_tag``, estimator.runtimes.others) in llama-quantize's tensor mix
  (:func:`estimator.weights.weight_bytes`, estimator.gguf_mix: Llama-3.1-8B 4.92 GB published).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from estimator.layer_offload import (
    CPU_BANDWIDTH_EFFICIENCY,
    DESKTOP_MEMORY_MAX,
    HOST_BANDWIDTH_RANGE,
    HOST_BANDWIDTH_SERVER,
)
from estimator.request import Precision, _Frozen
from estimator.units import GIB

if TYPE_CHECKING:
    from estimator.models import SizingReport

CPU_DEFAULT_FORMAT = Precision.q4_k_m
"""The weight format of a CPU run when none is stated: Ollama's default tag (module doc)."""


class CpuRun(_Frozen):
    """``report.cpu``: the model on a CPU with no GPU, llama.cpp / Ollama from RAM (module doc). Bytes,
    bytes/s, tokens/s."""

    weight_format: str
    """the format sized: the precision stated, else 'q4_k_m' (Ollama's default tag)"""
    format_stated: bool
    weights_bytes: float
    kv_bytes: float
    """the KV cache of one sequence of ``context_tokens``"""
    context_tokens: int
    ram_bytes_needed: float
    """weights_bytes + kv_bytes"""
    ram_bytes_stated: float | None = None
    fits_ram: bool | None = None
    """ram_bytes_needed ≤ ram_bytes_stated; None without a RAM stated"""
    bytes_read_per_token: float
    """the weights one decoded token reads (a MoE's active share)"""
    bandwidth_low: float
    bandwidth_high: float
    """host memory bandwidth, bytes/s (equal when stated)"""
    bandwidth_kind: str
    """'stated', 'ddr' (the RAM kind or channels said), 'desktop' or 'server' (module doc)"""
    efficiency: float = CPU_BANDWIDTH_EFFICIENCY
    tokens_per_s_low: float
    tokens_per_s_high: float
    """the decode bound at bandwidth_low / bandwidth_high"""
    ram_ddr: int | None = None
    """the DDR generation said (4 or 5) when ``bandwidth_kind`` is 'ddr', else None (s49 trial)"""
    ram_channels: int | None = None
    """the memory channels said, None when not said (two assumed with a DDR kind; s49 trial)"""


def cpu_run(
    report: SizingReport,
    stated: Precision | None,
    ram_gib: float | None = None,
    bandwidth_gbps: float | None = None,
    ddr: int | None = None,
    channels: int | None = None,
) -> CpuRun | None:
    """The CPU run of the serving ``report``'s model (module doc): at the ``stated`` precision, else
    :data:`CPU_DEFAULT_FORMAT`; ``ram_gib`` the RAM stated (GiB), ``bandwidth_gbps`` the host bandwidth
    stated (GB/s), ``ddr`` / ``channels`` the RAM kind and channel count said without a rate. None without
    an inference part, a model shape or weights."""
    from estimator.host_ddr import ddr_band
    from estimator.weights import weight_bytes

    inf, spec = report.inference, report.model_spec
    if inf is None or spec is None or not inf.weights_bytes:
        return None
    fmt = stated or CPU_DEFAULT_FORMAT  # llama.cpp / Ollama run GGUF: Ollama's default tag (s41 cpufix #4)
    same = fmt == report.request.precision  # the GPU answer's weights: its own shape's count
    weights = inf.weights_bytes if same else weight_bytes(spec, spec.params_total, fmt)
    seq = int(report.request.seq_len)
    kv = (inf.kv_bytes_per_token or 0.0) * seq
    have = ram_gib * GIB if ram_gib else None
    read = weights * (spec.params_active / spec.params_total if spec.params_active else 1.0)
    server = have is not None and have > DESKTOP_MEMORY_MAX
    if bandwidth_gbps:
        low = high = bandwidth_gbps * 1e9
        kind = "stated"
    elif (channels is not None or not server) and (said := ddr_band(ddr, channels)) is not None:
        low, high = said  # 'DDR5 双通道': its rates × channels (s49 trial); a server's RAM kind alone
        kind = "ddr"  # keeps the server's channels (s49 review #1: '512GB DDR5' is not dual-channel)
    else:
        kind = "server" if server else "desktop"
        low, high = HOST_BANDWIDTH_SERVER if kind == "server" else HOST_BANDWIDTH_RANGE
    return CpuRun(
        weight_format=str(getattr(fmt, "value", fmt)),
        format_stated=stated is not None,
        weights_bytes=weights,
        kv_bytes=kv,
        context_tokens=seq,
        ram_bytes_needed=weights + kv,
        ram_bytes_stated=have,
        fits_ram=None if have is None else weights + kv <= have,
        bytes_read_per_token=read,
        bandwidth_low=low,
        bandwidth_high=high,
        bandwidth_kind=kind,
        tokens_per_s_low=low * CPU_BANDWIDTH_EFFICIENCY / read,
        tokens_per_s_high=high * CPU_BANDWIDTH_EFFICIENCY / read,
        ram_ddr=ddr if kind == "ddr" else None,
        ram_channels=channels if kind == "ddr" else None,
    )
