"""A memory size written in kilobytes ('MemTotal: 1056501432 kB', '1056501432 kB of host memory'), as
Linux reports it (``/proc/meminfo``, ``free``'s default unit: KiB): written as the GiB it is, in place, so
:func:`bot.parse.prose_forms.host_memory` then reads the host's memory like '1007.56 GB of host memory'.

Session 49, round 45 (en45-010: 'On 1x A100 80GB with 1056501432 kB of host memory'): the size was left
unread. Only sizes of at least 100,000 kB (about 0.1 GiB) are taken: a cache or a block in kB ('a 512 kB
L2 cache') is no machine's memory. Called by :func:`bot.parse.normalize.prepare` (through
:mod:`bot.later_names`) only when 'kb' or 'kib' is in the text.
"""

from __future__ import annotations

import re

KB_SIZE_RE = re.compile(r"(?<![\d.,])(?P<n>\d{6,12})\s*ki?b(?![a-z])")
"""A whole number of kilobytes ('1056501432 kb', '65536000 kib'), six digits or more."""
MEMTOTAL_RE = re.compile(r"\bmem\s*total\s*[:=]?")
"""``/proc/meminfo``'s first line ('MemTotal:'): the host's memory."""


def kilobytes_as_gib(s: str) -> str:
    """``s`` with each size in kilobytes written as GiB (two decimals at most; padded to its length) and
    ``/proc/meminfo``'s 'MemTotal:' as the host memory it is."""
    s = MEMTOTAL_RE.sub("host memory ", s) if "mem" in s else s
    return KB_SIZE_RE.sub(_as_gib, s)


def _as_gib(m: re.Match[str]) -> str:
    gib = f"{int(m.group('n')) / 1048576:.2f}".rstrip("0").rstrip(".")
    return f"{gib} gb".ljust(len(m.group(0)))
