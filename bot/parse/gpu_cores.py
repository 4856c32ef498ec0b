"""An Apple chip's GPU core count (issue 24, s50 leftovers #6): 'MacBook Pro 16 核 GPU', 'a MacBook Pro with a
16-core GPU', 'M3 Max 40 核 GPU'. Apple sells each M-series chip with several GPU core counts (M3 Max: 30 or
40 cores, Apple's MacBook Pro tech specs); the count is the chip's cores, never a number of devices. The
sizing uses the chip's unified memory and bandwidth, so the count is named as not used ('apple_gpu_cores')
and never read as a GPU count (before: 16 devices)."""

from __future__ import annotations

from bot.parse.regex import rc
from bot.parse.result import ParseResult

GPU_CORES_RE = rc(r"(?<![\w.])(?P<n>\d{1,2})\s*[\-\s]?\s*(?:核|cores?)\s*(?:的\s*)?(?:gpu|图形处理器|显卡)")
"""'16 核 GPU', '16-core GPU', '40核的GPU': one or two digits (Apple's GPU core counts run 7 to 80), a
core word, then the GPU; 'CUDA cores' (thousands, a word between) and a CPU's cores are not this."""


def gpu_cores(s: str) -> dict[str, str]:
    """{core count as typed: 'apple_gpu_cores'} for each GPU core count of the normalized text ``s``."""
    return {m.group("n"): "apple_gpu_cores" for m in GPU_CORES_RE.finditer(s)}


def without_core_count(parsed: ParseResult) -> ParseResult:
    """``parsed`` without a GPU count that is a GPU core count of its text ('MacBook Pro 16 核 GPU' read as
    16 devices): the count unset (one device, as a Mac is) and the number named ``apple_gpu_cores``."""
    count = parsed.request.gpu_count
    cores = [m.group("n") for m in GPU_CORES_RE.finditer(parsed.normalized)]
    if not count or f"{count:g}" not in cores:
        return parsed
    return parsed.model_copy(
        update={
            "request": parsed.request.model_copy(update={"gpu_count": None}),
            "unused_numbers": [*parsed.unused_numbers, (f"{count:g}", "apple_gpu_cores")],
        }
    )
