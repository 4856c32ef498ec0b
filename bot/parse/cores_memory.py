"""An Apple chip's GPU core count said between the chip and its memory (issue 24, s51 leftovers #1): 'an M3
Max with a 40-core GPU and 64GB', 'M3 Max 40-core GPU 64GB', 'M3 Max，40 核 GPU，64GB'. Apple sells each chip
with several memories (M3 Max: 36, 48, 64, 96 or 128 GB; apple.com MacBook Pro (Nov 2023) tech specs) and
core counts (M3 Max: 30 or 40 GPU cores); the memory after the core count is the chip's unified memory.
Before, the core count stood between the chip and its memory, the memory went unread ("“64” (no word said
what it is)") and the chip was sized at its largest memory (128 GB). Written '<chip> with N gb , <cores>',
the chip's memory where the card readers read it, the cores kept for :mod:`bot.parse.gpu_cores`."""

from __future__ import annotations

import re

from bot.parse.regex import rc
from bot.parse.unified_ram import _DEVICE

CORES_MEMORY_RE = rc(
    rf"(?P<dev>{_DEVICE})\s*(?:[,，(（]\s*)?(?:(?:with|has|comes\s+with)\s+(?:an?\s+)?|(?:配|带|有)\s*)?"
    r"(?P<cores>\d{1,2}\s*[\-\s]?\s*(?:核|cores?)\s*(?:的\s*)?(?:gpu|图形处理器))"
    r"\s*(?:(?:[,，、/+&;；]|and|with|和|及|加)\s*)*(?:an?\s+)?(?P<v>\d{1,3})\s*(?:gb|gib|g)\b"
)
"""A unified-memory device, its GPU core count (with a separator or 'with a'), then a memory: the device's."""

GATE_RE = re.compile(r"\d\s*[\-\s]?\s*(?:核|cores?)\s*(?:的\s*)?(?:gpu|图形处理器)")
"""A GPU core count at all (most messages have none)."""


def _moved(m: re.Match[str]) -> str:
    return f"{m.group('dev')} with {m.group('v')}gb , {m.group('cores')} "


def cores_memory(s: str) -> str:
    """``s`` with each device's memory said after its GPU core count written
    '<device> with N gb , <cores>'."""
    return CORES_MEMORY_RE.sub(_moved, s) if GATE_RE.search(s) else s
