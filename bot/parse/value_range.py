"""A range of one setting's values written with its two ends (issue 24 item 4, s41-lists): 'concurrency 4 to
64', 'from 16k up to 1M tokens' of context, 'batch size 1-8', 'between 8k and 32k', '并发 4 到 64', '上下文
16k 到 128k'. The parse reads one end and names the other as not used; the answer sizes each end in a row of
``report.per_value`` (bot.core.per_value), the ends being what a range asks about (the lightest and the
heaviest case). Imported only where bot.parse.value_list.listed finds no written list.

Not a range of a setting: a count of GPUs ('2–8 cards' is read as a count range by bot.parse.count_forms),
days or hours ('1-2 天'), a version ('3.1'), a date ('2024-05-01'), a card's memories ('A100 40/80GB'):
each end must be the request's value of the setting or a number the parse named as not used, and a length
in k or M needs a context word beside it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.parse import ParseResult
    from estimator.models import SizingRequest

RANGE_RE = re.compile(
    r"(?<![\d.\-/:])(\d{1,7})\s*([km])?\s*(?:-|–|~|\b(?:up\s+)?to\b|\band\b|到|至)\s*(?:up\s+to\s+)?"
    r"(\d{1,7})\s*([km])?(?![\d.%\-/:])",
    re.I,
)
"""Two numbers joined as a range's ends: 'A-B', 'A to B', 'A up to B', 'between A and B', 'A 到 B', 'A 至 B';
a unit k (×1,024) or M (×1,048,576) after either end (the first's taken from the second's when it has none:
'16-128k')."""
SETTING_WORDS = {
    "concurrency": ("concurren", "并发", "parallel request", "simultaneous", "同时"),
    "batch_size": ("batch", "批"),
    "seq_len": ("context", "seq", "length", "上下文", "长度", "序列", "ctx", "窗口"),
}
"""The words that name each setting near a range (within :data:`NEAR` characters before it or
:data:`AFTER` after it)."""
NEAR = 40
"""How far before a range its setting's word may be, in characters (one clause: 'throughput plateaus
between concurrency 4 and 16', 'at long context, from 16k up to 1M tokens')."""
AFTER = 12
"""How far after a range its setting's word may be ('16k to 128k context', '4-64 并发')."""
_UNIT = {"k": 1024, "m": 1024 * 1024}
"""'k' of a length is 1,024 tokens (the project's reading of '32k context': estimator seq_len 32,768);
'M' is 1,024 k ('1M context' = 1,048,576, Qwen2.5-1M's window)."""


def _value(digits: str, unit: str | None) -> float:
    return float(int(digits) * _UNIT.get((unit or "").lower(), 1))


def _named(parsed: ParseResult) -> set[str]:
    """The numbers the parse named as not used, as written ('16k', '64'), lower case."""
    return {t.strip().lower().replace(" ", "") for t, _ in parsed.unused_numbers}


def ranged(parsed: ParseResult, request: SizingRequest) -> tuple[str, list[float]] | None:
    """(setting, [low end, high end]) of a range of concurrency, batch size or context length written in
    the message (:data:`RANGE_RE`), its setting named just before it (:data:`SETTING_WORDS`), one end the
    request's value or both ends unread; else None."""
    s = parsed.normalized or ""
    named = _named(parsed)
    for m in RANGE_RE.finditer(s):
        unit = m.group(4) or (m.group(2) if m.group(2) else None)
        lo, hi = _value(m.group(1), m.group(2) or m.group(4)), _value(m.group(3), unit)
        if not lo < hi:
            continue
        near = s[max(0, m.start() - NEAR) : m.start()].lower() + " " + s[m.end() : m.end() + AFTER].lower()
        for key, words in SETTING_WORDS.items():
            if not any(w in near for w in words) or (key == "seq_len") != bool(unit):
                continue
            if key != "seq_len" and (m.group(2) or m.group(4)):
                continue
            own = getattr(request, key)
            ends = {
                m.group(1).lower() + (m.group(2) or "").lower(),
                m.group(3).lower() + (unit or "").lower(),
            }
            if own in (lo, hi) or (own is None and ends & named):
                return key, [lo, hi]
    return None
