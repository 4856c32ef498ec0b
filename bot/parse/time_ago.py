"""A time in the past said as a span before now (s21, issue 24): 'two months ago', 'a couple of months back',
'3 weeks earlier', '两个月前', '半年以前', '三周之前'. It says when something happened (a run tried, a thread
read), never this job's deadline nor its duration: each is masked (same length, so no later rule reads
its digits) and named as typed, reason ``time_ago``.

Before, 'A couple of months back I tried a full fine-tune …' sized a deadline of 60 days (and 1,440 hours
of a past run), '两个月前我在 8 张 A100 上微调过' a deadline of 60 days.
"""

from __future__ import annotations

import re

from bot.parse.normalize import mask

_EN_COUNT = (
    r"(?:\d+(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+couple\s+of"
    r"|couple\s+of|a\s+few|few|several)"
)
_ZH_COUNT = r"(?:\d+(?:\.\d+)?|[一二两三四五六七八九十半几]+)"
AGO_RE = re.compile(
    rf"(?<![\w.]){_EN_COUNT}\s+(?:days?|weeks?|months?|years?)\s+(?:ago|back|earlier)\b"
    rf"|(?<![\d.]){_ZH_COUNT}\s*(?:个)?\s*(?:天|日|周|星期|礼拜|月|年)\s*(?:之前|以前|前)(?!\s*(?:完成|交付|上线|训完|跑完))"
)
"""A span before now in the normalized (lower-case) text: a count (digits or words) and a unit of days to
years, then 'ago' / 'back' / 'earlier', or in Chinese 前 / 以前 / 之前 after the unit — never '两个月前完成'
('done within two months': a deadline, the word after says so)."""
GATE = re.compile(r"\b(?:ago|back|earlier)\b|前")
"""The literal every form holds (the call site checks it first: most messages have none)."""


def time_ago(s: str) -> tuple[str, list[tuple[str, str]]]:
    """``s`` (normalized) with each span before now masked (same length) and named as typed with reason
    ``time_ago``: when something happened, not this job's deadline nor duration."""
    named: list[tuple[str, str]] = []
    for m in AGO_RE.finditer(s):
        named.append((" ".join(m.group(0).split()), "time_ago"))
        s = mask(s, m.start(), m.end(), " ")
    return s, named
