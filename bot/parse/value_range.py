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
    r"(?<![\d.\-/:])(\d{1,7})\s*(k|m(?!b)|gi?b?)?\s*(?:-|–|~|\b(?:up\s+)?to\b|\band\b|到|至)\s*"
    r"(?:up\s+to\s+)?(\d{1,7})\s*(k|m(?!b)|gi?b?)?(?![\d.%\-/:])",
    re.I,
)
"""Two numbers joined as a range's ends: 'A-B', 'A to B', 'A up to B', 'between A and B', 'A 到 B', 'A 至 B';
a unit k (×1,024) or M (×1,048,576) after either end (the first's taken from the second's when it has none:
'16-128k'), or GB after the second (card memories: '16-22GB')."""
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


HOST_RE = re.compile(r"(?<![a-z])(?:ram|system|disk|data|cpu|ssd|nvme|swap|dram|ddr)|内存|数据|硬盘")
"""Words after a range in GB that make it no card's memory ('64-128GB RAM', '16-32G 内存'; not 'VRAM')."""


def _memory(s: str, m: re.Match[str], request: SizingRequest) -> tuple[str, list[float]] | None:
    """A range of card memories in GB ('cards with 16-22GB of VRAM', '16 到 24G 显存'): each end a row, when
    the request's memory is one end or none was read, and no host word follows (:data:`HOST_RE`)."""
    lo, hi = float(m.group(1)), float(m.group(3))
    after = s[m.end() : m.end() + AFTER].lower()
    if not lo < hi <= 2048 or HOST_RE.search(after):
        return None
    own = request.gpu_memory_gib
    return ("gpu_memory_gib", [lo, hi]) if own is None or own in (lo, hi) else None


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
        if (m.group(4) or "").lower().startswith("g"):  # a memory range in GB
            if found := _memory(s, m, request):
                return found
            continue
        if (m.group(2) or "").lower().startswith("g"):
            continue
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
