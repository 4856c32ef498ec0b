"""The host memory's bandwidth from the RAM kind said without its rate (trial s17 #6: 'DDR5 双通道' still
showed a range from DDR4-3200): channels × 8 bytes (a 64-bit channel) × the JEDEC transfer rates of that
DDR generation, as :data:`estimator.layer_offload.HOST_BANDWIDTH_RANGE` is built.

Rates, MT/s: the common speeds, not every JEDEC bin — DDR4 2,400–3,200 (JESD79-4 speed bins, DDR4-3200 the
fastest); DDR5 4,800–5,600 (JESD79-5: DDR5-4800 the first bin of every DDR5 platform, DDR5-5600 the default
top of the desktop range this module already assumes; faster DDR5 bins, 6,400 and up, exist: a stated
speed is used as said). Two channels (a desktop's) unless a count is said. A count said with no
generation: the desktop range's rates (DDR4-3200 to DDR5-5600) × that count. Pure; bytes/s.
"""

from __future__ import annotations

DDR_RATES = {4: (2400.0, 3200.0), 5: (4800.0, 5600.0)}
"""Common transfer rates by DDR generation, MT/s (JEDEC bins; module doc)."""
ANY_DDR = (3200.0, 5600.0)
"""The desktop range's rates (DDR4-3200 to DDR5-5600) when only a channel count is said."""
CHANNEL_BYTES = 8
"""A DDR channel is 64 bits wide."""
OS_RAM_RESERVE = 4 * 2**30
"""Bytes of RAM the operating system and desktop keep for themselves beside a model's offloaded layers: the
minimum RAM of the desktop systems people run llama.cpp / Ollama on — Windows 11, 4 GB (Microsoft,
"Windows 11 specifications and system requirements"); Ubuntu Desktop, 4 GB (ubuntu.com/download/desktop,
"4 GB system memory"). Ollama weighs a model against the free memory, not the total (ollama llm/server.go
``NewLlamaServer``: ``systemFreeMemory < estimate.TotalSize`` on Linux turns mmap off, "mmap leads to
thrashing"): a split that leaves less than this of the stated RAM is too tight beside the OS (s28 trial
M2: 30.9 GiB of 32 GiB)."""


def ddr_band(ddr: int | None, channels: int | None) -> tuple[float, float] | None:
    """(low, high) host bandwidth in bytes/s for the DDR generation ``ddr`` (4 or 5) on ``channels`` (two
    when None), or for a stated channel count alone; None when neither was said (the caller's
    default range stands)."""
    if ddr is None and channels is None:
        return None
    low, high = DDR_RATES.get(ddr or 0, ANY_DDR)
    n = channels or 2
    return n * CHANNEL_BYTES * low * 1e6, n * CHANNEL_BYTES * high * 1e6
