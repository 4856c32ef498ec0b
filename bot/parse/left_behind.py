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
from collections.abc import Callable
from typing import Any

_SCALES = (1.0, 1e3, 1e4, 1e6, 1e8, 1e9, 1e12, 1024.0, 1024.0**2, 1024.0**3, 24.0, 1 / 24, 100.0, 0.01, 7.0)
_SCALES += (30.0,)
"""Units a written number may have been converted by before it landed in a field: magnitudes (decimal,
binary, 万 and 亿), days ↔ hours, a percentage ↔ a fraction, weeks and months in days."""
_NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")
_TOKEN_RE = re.compile(r"(?<![\d.,_])\d+(?:[,_]\d{3})*(?:\.\d+)?(?![\d.,_]\d)")
_NAME_BEFORE = re.compile(r"[a-z\-._/:#@\\]")
_GATE = re.compile(r"\d")


_BIT_OR_LAYERS_AFTER = re.compile(
    r"\s*(?:-\s*)?(?:bits?|比特|位|bpw)(?![a-z])|\s*(?:/|of)\s*(?:my\s+)?(?:\w+'s\s+)?\d+\s*layers?"
    r"|\s*(?:/\s*\d+\s*)?(?:layers?|层)(?![a-z])"
)
"""A bit width ('4-bit', '4 比特': the precision's) or layers on the GPU ('44 of 81 layers': the offload)."""


def _values(request: dict[str, Any], extra: tuple[float, ...]) -> list[float]:
    """The numbers a request holds: its numeric fields, and the digits of its names ('RTX-4090',
    'Llama-3.1-8B', 'int4'), and ``extra`` (values a field was computed from: the accumulation steps)."""
    out: list[float] = [float(x) for x in extra if x]
    for v in request.values():
        items = v if isinstance(v, list | tuple) else [v]
        for x in items:
            if isinstance(x, str):
                out += [float(m.group()) for m in _NUMBER_RE.finditer(x)]
            elif isinstance(x, int | float) and not isinstance(x, bool):
                out.append(float(x))
    return out


def _could_be(n: float, values: list[float]) -> bool:
    return any(abs(v - n * scale) <= 1e-6 * max(abs(v), 1.0) for v in values for scale in _SCALES)


def _named_numbers(items: list[tuple[str, str]], extra: list[str]) -> set[float]:
    texts = " ".join([*(t for t, _ in items), *extra])
    return {float(m.group()) for m in _NUMBER_RE.finditer(texts.replace(",", ""))}


def _in_name(s0: str, s: str, start: int) -> bool:
    """Whether the masked run holding ``start`` begins with a name's mark (bot.parse.normalize: a model
    or a GPU masked with a private-use character)."""
    i = start
    while i > 0 and s[i - 1] != s0[i - 1]:
        i -= 1
    return "\ue000" <= s[i] <= "\uf8ff"


def _masked(s0: str, s: str) -> list[tuple[str, float]]:
    """The numbers of ``s0`` (as typed, and their value) a reader masked in ``s`` that are no part of a
    name, a version, a path, a bit width or a layer count."""
    out = []
    for m in _TOKEN_RE.finditer(s0):
        a, b = m.span()
        if s[a:b] == s0[a:b] or (a and _NAME_BEFORE.match(s0, a - 1)) or _BIT_OR_LAYERS_AFTER.match(s0, b):
            continue
        if not _in_name(s0, s, a):
            out.append((m.group(), float(re.sub(r"[,_]", "", m.group()))))
    return out


def left_behind(
    s0: str,
    s: str,
    request: Callable[[], dict[str, Any]],
    named: list[tuple[str, str]],
    extra: list[str] = (),
    computed: tuple[float, ...] = (),
) -> list[str]:
    """The numbers of the normalized text ``s0`` that a reader masked (blank in the final text ``s``) and
    that neither the request (``request()``: its fields, as ``model_dump`` gives them; ``computed``: values
    a field was computed from, and the sized card's memory) uses nor an item named (``named``: (text,
    reason) pairs; ``extra``: other texts the answer names, names as typed) writes, as typed."""
    if len(s) != len(s0) or not _GATE.search(s0):
        return []
    masked = _masked(s0, s)
    if not masked:
        return []
    values, seen = _values(request(), computed), _named_numbers(named, list(extra))
    out: list[str] = []
    for raw, value in masked:
        if value in seen or _could_be(value, values):
            continue
        others = [v for r, v in masked if r != raw]
        if any(_could_be(value + v, values) for v in others):  # a prompt and a completion summed
            continue
        out.append(raw)
    return list(dict.fromkeys(out))
