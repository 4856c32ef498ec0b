"""Calendar dates (s20-fixb, issue 24): 'Q3 2025', 'by end of Q3', 'by March 2026', 'FY2026', '2025年底前',
'2026年3月前', '2025年Q3', '第三季度前'. A year (1990–2039) beside a quarter, a month, 年 or FY is a date:
never a budget, a count of cards or tokens, nor a duration ('3月前' is no 3 months). The sizing counts a
deadline in days from the start, and a date with no start date gives none: each date is masked (same
length, so no later rule reads its digits) and named as typed, reason ``calendar_date``.

Before, '2025年底前' named 2025 as an unusable deadline of 2025 days, '2026年3月前' became a deadline of 90
days, '预算 2025 年内 50 万' lost the budget of 50 万 and 'by end of Q3 2025' named 2025 as unread.
"""

from __future__ import annotations

import re

from bot.parse.normalize import mask

_Y = r"(?:199\d|20[0-3]\d)"
_MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december"
    r"|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
)
_BY = r"(?:by|before|until|till|through|due|deadline(?:\s+is)?:?|end\s+of|in|during)"
_NOT_A_UNIT = (
    r"(?!\s*(?:[kmbt]\b|tokens?|samples?|steps?|gpus?|cards?|rows?|examples?"
    r"|dollars?|usd|rmb|cny|yuan|eur|euros?|bucks|hours?|hrs?|days?|weeks?|months?|minutes?|mins?|gb|gib|tb"
    r"|条|张|卡|个|token|步|样本|元|块|美元|万|小时|天|周|[x×*/$¥€]|\.\d))"
)
"""After a bare year ('by 2026'): no unit that makes it a quantity ('in 2024 tokens', '2025 条', 'in 2000
dollars', 'in 2000 hours': money and durations, review s20 #2)."""
_ZH_TAIL = (
    r"(?:\s*(?:底|末|初|内|中|上半年|下半年|第?[一二三四1-4]\s*季度|q[1-4]"
    r"|(?:1[0-2]|0?[1-9])\s*月(?:份)?(?:\s*\d{1,2}\s*[日号])?(?:\s*(?:底|末|初|中旬|上旬|下旬))?))?"
)

DATE_RE = re.compile(
    rf"(?<![\w.]){_Y}\s*年{_ZH_TAIL}(?:\s*(?:之前|以前|前))?"
    rf"|(?<![\d个.])(?:1[0-2]|[1-9])\s*月\s*(?:份)?\s*(?:底|末|初|中旬|上旬|下旬)?\s*(?:之前|以前|前)"
    rf"|(?<![\d个.])(?:1[0-2]|[1-9])\s*月\s*(?:底|末|初)"
    r"|(?<![\w.])第?[一二三四1-4]\s*季度(?:\s*(?:末|底))?(?:\s*(?:之前|以前|前))?"
    rf"|(?<![\w.])fy\s*'?\s*(?:{_Y}|\d\d)(?:\s*(?:q[1-4]|h[12]))?(?![\w.])"
    rf"|(?<![\w.]){_Y}\s*[-/]?\s*(?:q[1-4]|h[12])(?![\w.])"
    rf"|(?:(?<![\w.]){_BY}\s+(?:the\s+)?(?:end\s+of\s+)?)?(?<![\w.])(?:q[1-4]|h[12])\s*(?:of\s+)?'?{_Y}(?![\w.])"
    rf"|(?<![\w.])(?:by|before|until|till|end\s+of|deadline(?:\s+is)?:?)\s+(?:the\s+)?(?:end\s+of\s+)?"
    r"(?:q[1-4]|h[12])(?![\w.])"
    rf"|(?:(?<![\w.]){_BY}\s+(?:the\s+)?(?:end\s+of\s+)?)?(?<![\w.]){_MONTH}\s+(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?"
    rf"{_Y}(?![\w.])"
    rf"|(?<![\w.])(?:by|before|until|till|end\s+of)\s+(?:the\s+)?(?:end\s+of\s+)?{_MONTH}(?![\w.])"
    rf"|(?<![\w.])(?:by|before|until|till|end\s+of|in|during|deadline(?:\s+is)?:?)\s+(?:the\s+)?(?:end\s+of\s+)?"
    rf"{_Y}(?![\w.]){_NOT_A_UNIT}"
)
"""A calendar date in the normalized (lower-case) text: a year with 年 and its part ('2025年底前', '2026年3月
前', '2025年Q3'), a month or quarter before 前/底 ('3月底前', '第三季度前'), FY ('fy2026', "fy'26"), a
quarter or half with a year ('q3 2025', '2025 q3', 'h2 2025'), a quarter after by/end of ('by end of q3'), a
month with a year ('march 2026', 'by march 15, 2026') or after by ('by march'), a year after by/in/end of
('by 2026', never 'in 2024 tokens')."""

DATE_GATE = re.compile(
    r"(?:199\d|20[0-3]\d)|季度|\d\s*月|\bq[1-4]\b|\bh[12]\b|\bfy|\b(?:by|before|until|till|end of)\s"
    r"|上个?月|上个?(?:周|星期|礼拜)|去年|昨天"
)
"""A year, 季度, a month number, a quarter or half, FY or a deadline word: the literal gate at the call site
(:func:`bot.parse.side_phrases.side_phrases`), a compiled C-level search."""


_PAST = (
    r"(?:the\s+)?(?:end\s+of\s+)?(?:last|previous|past)\s+(?:quarter|month|week|year|fiscal\s+year)(?![\w])"
    r"|yesterday(?![\w])"
)
_ZH_PAST = r"(?:上个?(?:季度|月|周|星期|礼拜)|去年|昨天)"
PAST_RE = re.compile(
    rf"(?<![\w.])(?:by|before|until|till|due|deadline(?:\s+is)?:?|no\s+later\s+than)\s+(?:{_PAST})"
    rf"|截止(?:到|日期是|时间是|日期|时间)?\s*(?:是|为)?\s*{_ZH_PAST}\s*(?:底|末)?(?:\s*(?:之前|以前|前))?"
    rf"|(?:(?:要|得|必须|需要)?在|赶在|于)?\s*{_ZH_PAST}\s*(?:底|末)?\s*"
    r"(?:(?:之前|以前|前)|(?=\s*(?:就|要|得|必须|需要)?\s*(?:完成|训完|训练完|跑完|做完|交付|上线|搞定|结束|出结果)))"
)
"""A deadline that is already past, said relative to today ('by last quarter', 'before last month',
'上个季度完成', '去年底前', '截止到上个月'): past whatever today is, so no clock is read. A past time with no
deadline word ('last month we trained …', '上个月训了') is a past run, not matched."""


def calendar_dates(s: str) -> tuple[str, list[tuple[str, str]]]:
    """``s`` (normalized) with each calendar date masked (same length), and the dates named as typed with
    reason ``calendar_date``: a date, not a number of days (no start date stated); a deadline already
    past (:data:`PAST_RE`) with reason ``past_date`` (issue 24 item 5, s21)."""
    named: list[tuple[str, str]] = []
    for m in PAST_RE.finditer(s):
        named.append((" ".join(m.group(0).split()), "past_date"))
        s = mask(s, m.start(), m.end(), " ")
    for m in DATE_RE.finditer(s):
        named.append((" ".join(m.group(0).split()), "calendar_date"))
        s = mask(s, m.start(), m.end(), " ")
    return s, named
