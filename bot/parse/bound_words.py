"""Lower bounds on what is served: 'context at least 16k', '上下文至少 16k', '不少于 10 个并发', '≥ 32k'.

A lower bound is sized at the least value it states: the fewest GPUs that hold that value (a larger
context or load needs more KV cache, so the answer for the bound is the least the user must buy). The
parser reads the value as the setting; this module finds the bound words before it, so the reply says
the value is a lower bound, sized at its least (docs/design.md §8: a setting is echoed as it was read;
``interpretation.substitutions``, reason ``lower_bound_context`` or ``lower_bound_concurrency``).
"""

from __future__ import annotations

from bot.parse.regex import rc
from bot.parse.result import ParseResult
from estimator.models import SizingRequest

LOWER_BOUND_RE = rc(
    r"(?P<b>至少(?:要|是|为|有|需要)?|最少(?:要|是|为|有)?|不少于|不低于|不小于|起码(?:要)?|超过|大于|多于|高于"
    r"|at\s+least|no\s+less\s+than|more\s+than|over(?=\s*\d)"
    r"|no\s+fewer\s+than|a\s+minimum\s+of|minimum\s+of|(?<![a-z])min(?:imum)?\.?(?=\s*\d)|≥|>=)"
    r"\s*(?P<v>\d+(?:\.\d+)?)\s*(?P<k>k|千|万)?(?![\d.])"
)
"""A bound word, then a number with its magnitude ('at least 16k', '至少 16k', '不少于 10', '≥ 32k'; round 15
zh: '超过 100', 'more than 100' — a strict bound, sized at its value as the least the load reaches)."""
LOWER_BOUND_GATE = rc(
    r"至少|最少|不少于|不低于|不小于|起码|超过|大于|多于|高于|least|less\s+than|more\s+than|over\s*\d|fewer|minimum|min|≥|>="
)
_CONTEXT_NEAR = rc(r"上下文|context|ctx|长度|window|窗口|tokens?\b|seq")
_LOAD_NEAR = rc(r"并发|concurren|users?\b|用户|人同时|requests?\b|请求|sessions?\b|路")
_NEAR = 16
"""Characters either side of the bound where its field's word is looked for ('上下文至少 16k', 'at least 16k
context')."""


def _values(v: str, k: str | None) -> set[float]:
    n = float(v)
    if k in ("k", "千"):
        return {n * 1000, n * 1024}
    return {n * 10_000} if k == "万" else {n}


def lower_bounds(s: str, request: SizingRequest) -> list[tuple[str, str, str]]:
    """(bound as typed in the normalized text ``s``, the value sized, reason) for each lower bound whose
    value is the request's context (``seq_len``) or concurrency, with that field's word beside it."""
    out: list[tuple[str, str, str]] = []
    for m in LOWER_BOUND_RE.finditer(s):
        values = _values(m.group("v"), m.group("k"))
        near = s[max(0, m.start() - _NEAR) : m.end() + _NEAR]
        typed = " ".join(m.group(0).split())
        if request.seq_len in values and _CONTEXT_NEAR.search(near):
            out.append((typed, f"{request.seq_len}", "lower_bound_context"))
        elif request.concurrency in values and _LOAD_NEAR.search(near):
            out.append((typed, f"{request.concurrency}", "lower_bound_concurrency"))
    return out


def with_bounds(parsed: ParseResult) -> ParseResult:
    """``parsed`` with its lower bounds (:func:`lower_bounds` of its normalized text) in ``bounds_read``."""
    if not parsed.normalized or not LOWER_BOUND_GATE.search(parsed.normalized):
        return parsed
    found = lower_bounds(parsed.normalized, parsed.request)
    return parsed.model_copy(update={"bounds_read": found}) if found else parsed
