"""A Mac named by its product line with only its memory ('128G 的 Mac Studio', 'a 64GB MacBook Pro'): the
chip is not named, so one is assumed (and said) and the stated memory is its unified memory
(:func:`estimator.resolve._apple_configuration`, the path of 'M3 Ultra 256GB')."""

from __future__ import annotations

import re

MAC_CHIPS: tuple[tuple[str, float, str], ...] = (
    ("studio", 128, "Apple-M4-Max-128GB"),
    ("studio", 512, "Apple-M3-Ultra-512GB"),
    ("pro", 192, "Apple-M2-Ultra-192GB"),
    ("air", 8, "Apple-M3-24GB"),
    ("air", 32, "Apple-M4-32GB"),
    ("book", 32, "Apple-M4-32GB"),
    ("book", 128, "Apple-M4-Max-128GB"),
    ("mini", 32, "Apple-M4-32GB"),
    ("mini", 64, "Apple-M4-Pro-64GB"),
)
"""(product line, most memory it is sold with, chip assumed): Apple's current configurations (apple.com
Mac Studio tech specs, 2025: M4 Max up to 128 GB, M3 Ultra 96–512 GB; Mac Pro: M2 Ultra up to 192 GB;
MacBook Pro: M4 Max up to 128 GB). The Mac mini's M4 Pro is not in the catalog: the M4 Max stands in, and
the reply names it (its 546 GB/s is twice the M4 Pro's 273 GB/s: decode would be slower). s50 leftovers #6:
a MacBook Air has the base chip only (apple.com MacBook Air tech specs: M4 with 16, 24 or 32 GB; the M1–M3
Airs from 8 GB), never a Max: the base M4 assumed, at the memory stated. s51 leftovers #2: the chip assumed
is one sold with the memory stated. An 8 GB Air is an M1, M2 or M3 (apple.com MacBook Air tech specs: M1 8 or
16 GB, 68.25 GB/s; M2 and M3 8, 16 or 24 GB, 100 GB/s; the M4 Air starts at 16 GB): the newest, the M3
(100 GB/s), is assumed and said (before: the M4's 120 GB/s). A MacBook Pro of at most 32 GB is an M4 (16, 24
or 32 GB; apple.com MacBook Pro (2024) tech specs) or, at 24 GB, an M4 Pro (24 or 48 GB), never an M4 Max
(36, 48, 64 or 128 GB): the M4 (120 GB/s) is assumed, the slower of the two, so decoding is not overstated
(before: the M4 Max's 546 GB/s). s51 review: a Mac mini of at most 32 GB likewise is an M4 (16, 24 or 32 GB,
120 GB/s; the M4 Pro mini is sold with 24, 48 or 64 GB at 273 GB/s; apple.com Mac mini (2024) tech specs): the
M4 assumed (before: the M4 Pro for every mini up to 64 GB)."""

MAC_RE = re.compile(
    r"^macbook[\s\-]*(?P<air>air)|^mac[\s\-]*(?P<line>studio|pro|book|mini)|^macbook", re.IGNORECASE
)


def mac_chip(name: str, memory_gib: float) -> str | None:
    """The catalog chip assumed for the Mac ``name`` ('Mac Studio', 'MacBook Pro') sold with
    ``memory_gib`` of unified memory: the first of :data:`MAC_CHIPS` for its line that has that much;
    None when ``name`` is not a Mac or no configuration of its line has that memory."""
    m = MAC_RE.match(name.strip())
    if m is None:
        return None
    line = "air" if m.group("air") else (m.group("line") or "book").lower()
    return next((chip for ln, most, chip in MAC_CHIPS if ln == line and memory_gib <= most), None)
