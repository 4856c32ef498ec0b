"""No value left behind (issue 24, session 10): at the end of parsing, every number of the message is used
by the request or named as not used (docs/design.md §8).

The roles step names the numbers it reads and cannot place (``unread``); what it never sees are the numbers
a reader before it masked — a setting, a flag, a name — and then dropped. This audit finds those: a number
of the normalized text whose place the readers masked, that is no part of a name (a digit glued after a
letter, a dash, a dot: 'qwen2.5-7b', 'llama-3'), whose value no request field holds in any unit the
parser converts to (k, M, B, T, Ki, Mi; days ↔ hours; a percentage ↔ a fraction), and that no item named
as not used already writes. Each is named as typed, with the reason ``unread``. A number the request uses
is never named: the check is on values, so a number that could be the one used is left alone.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from typing import Any

_SCALES = (1.0, 1e3, 1e4, 1e6, 1e8, 1e9, 1e12, 1024.0, 1024.0**2, 1024.0**3, 24.0, 1 / 24, 100.0, 0.01, 7.0)
_SCALES += (30.0,)
"""Units a written number may have been converted by before it landed in a field: magnitudes (decimal,
binary, 万 and 亿), days ↔ hours, a percentage ↔ a fraction, weeks and months in days."""
_NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")
_TOKEN_RE = re.compile(
    r"(?<![\d.,_a-z\-/:#@\\])\d+(?:[,_]\d{3})*(?:\.\d+)?(?!\d|[.,_]\d)"
    r"(?!\s*(?:-\s*)?(?:bits?|比特|位|bpw)(?![a-z])|\s*(?:/|of)\s*(?:my\s+)?(?:\w+'s\s+)?\d+\s*layers?"
    r"|\s*(?:/\s*\d+\s*)?(?:layers?|层)(?![a-z]))"
)
"""A number as typed ('8,192', '120_000', '0.95'), not part of a name, a version or a path (after a letter,
a dash, a dot: 'qwen2.5-7b', 'llama-3'), a bit width ('4-bit', '4 比特': the precision's) or layers on the
GPU ('44 of 81 layers': the offload)."""
_GATE = re.compile(r"\d")


def _values(request: Iterable[Any], extra: tuple[float, ...]) -> list[float]:
    """The numbers a request holds (``request``: its fields' values), sorted: its numeric fields, the
    digits of its names ('RTX-4090', 'Llama-3.1-8B', 'int4'), and ``extra`` (values a field was computed
    from: the accumulation steps)."""
    out: list[float] = [float(x) for x in extra if x]
    for v in request:
        if v is None or isinstance(v, bool):
            continue
        for x in v if isinstance(v, list | tuple) else (v,):
            if isinstance(x, str):
                out += [float(m) for m in _NUMBER_RE.findall(x)]
            elif isinstance(x, int | float):
                out.append(float(x))
    return sorted(out)


def _could_be(n: float, values: list[float]) -> bool:
    """Whether ``n`` in one of the :data:`_SCALES` is one of the sorted ``values``."""
    for scale in _SCALES:
        x = n * scale
        i = bisect_left(values, x * (1 - 1e-6))
        if i < len(values) and values[i] <= x * (1 + 1e-6) + 1e-9:
            return True
    return False


def _named_numbers(items: list[tuple[str, str]], extra: list[str]) -> set[float]:
    texts = " ".join([*(t for t, _ in items), *extra])
    return {float(m.group()) for m in _NUMBER_RE.finditer(texts.replace(",", ""))}


def _in_name(s: str, start: int) -> bool:
    """Whether the masked run holding ``start`` begins with a name's mark (bot.parse.normalize.mask: a
    model or a GPU is masked as a private-use character and spaces; a setting as spaces)."""
    i = start
    while i > 0 and s[i] == " ":
        i -= 1
    return "\ue000" <= s[i] <= "\uf8ff"


def _masked(s0: str, s: str) -> list[tuple[str, float]]:
    """The numbers of ``s0`` (as typed, and their value) a reader masked in ``s`` that are no part of a
    name, a version, a path, a bit width or a layer count."""
    found = [m for m in _TOKEN_RE.finditer(s0) if s[m.start()] == " "]  # not masked: the roles step's
    return [(m.group(), float(re.sub(r"[,_]", "", m.group()))) for m in found if not _in_name(s, m.start())]


def left_behind(
    s0: str,
    s: str,
    request: Iterable[Any],
    named: list[tuple[str, str]],
    extra: list[str] = (),
    computed: tuple[float, ...] = (),
) -> list[str]:
    """The numbers of the normalized text ``s0`` that a reader masked (blank in the final text ``s``) and
    that neither the request (``request``: the values of the fields it sets; ``computed``: values
    a field was computed from, and the sized card's memory) uses nor an item named (``named``: (text,
    reason) pairs; ``extra``: other texts the answer names, names as typed) writes, as typed."""
    if len(s) != len(s0) or not _GATE.search(s0):
        return []
    masked = _masked(s0, s)
    if not masked:
        return []
    values, seen = _values(request, computed), _named_numbers(named, list(extra))
    out: list[str] = []
    for raw, value in masked:
        if value in seen or _could_be(value, values):
            continue
        others = [v for r, v in masked if r != raw]
        if any(_could_be(value + v, values) for v in others):  # a prompt and a completion summed
            continue
        out.append(raw)
    return list(dict.fromkeys(out))
