"""An Apple base chip typed bare with its memory ('M3 16GB', '16GB M2', 'M1 8G'): a Mac with that much
unified memory (s25 closing, "Left": 'M3 16GB' with no Mac word was dropped and the request sized on the
reference A100).

The catalog names a base chip only with a Mac or chip word ('MacBook Air M3', 'M3 芯片': aliases in
``estimator/data/gpus.toml``), since a bare 'M3' is many other things (an AWS m3 instance, a layer, a
milestone). A memory size written right beside it is what makes it the chip: Apple sells each base chip
in several unified-memory sizes (Apple's MacBook Air / MacBook Pro / Mac mini tech specs: M3 with 8, 16,
24 GB; M4 with 16, 24, 32 GB), and the memory sized is the stated one (:mod:`estimator.resolve`, as for
'MacBook Pro M3 16GB'). Pro / Max / Ultra chips have bare aliases of their own ('M4 Pro 48GB')."""

from __future__ import annotations

from bot.parse.regex import rc

BARE_CHIP_RE = rc(
    r"(?<![a-z0-9.\-_/])m(?P<chip>[1-4])(?:\s*(?:chip|芯片))?(?:\s*(?:with|has|,|，|[(（]|的|只有|有))?\s*"
    r"(?P<mem>\d{1,3})\s*g(?:b|ib)?(?![a-z0-9])"
    r"|(?<![a-z0-9.])(?P<mem2>\d{1,3})\s*g(?:b|ib)?\s*(?:的\s*)?m(?P<chip2>[1-4])(?![a-z0-9.\-_])"
)
"""A base chip M1–M4 with its memory after it ('M3 16GB', 'M4 (24 GB)', 'M2 with 16GB'; s36: 'M1 has 8GB',
'M1 的 8G') or before it ('16GB M3', '16G 的 M2'); not an instance type ('m3.xlarge') nor a chip with a
Pro / Max / Ultra word (a catalog alias reads those)."""

_LARGEST_GIB = 128
"""No base chip is sold with more unified memory than this (M4: 32 GB; the largest of any Mac is the M3
Ultra's 512 GB, read by its own alias): a bigger number beside 'M3' is not its memory."""


def bare_chips(s: str) -> list[tuple[int, int, str, float]]:
    """Each bare base chip with its memory in the normalized text ``s``: (start, end, 'apple mN', GiB) —
    the catalog alias of that chip and the memory stated."""
    out: list[tuple[int, int, str, float]] = []
    for m in BARE_CHIP_RE.finditer(s):
        chip = m.group("chip") or m.group("chip2")
        mem = float(m.group("mem") or m.group("mem2"))
        if 4 <= mem <= _LARGEST_GIB:
            out.append((m.start(), m.end(), f"apple m{chip}", mem))
    return out
