"""Deadlines and prices said in words (issue 24, round 3), written as the forms the rules read.

- **Relative deadlines** ("by next week", "by tomorrow", "over the weekend", "overnight", "下周之前",
  "明天之前", "周末跑完", "一晚上"): 'within N days' / 'N 天内' (a week 7 days, a weekend 2, a night half a
  day — the time a job started in the evening has by the next morning; "left it running overnight" is
  what happened, not a deadline; so are "跑了一晚上", "跑了一夜", "ran overnight", "it took overnight").
- **Half amounts of time** ("一个半月", "两个半小时", "一天半", "半个月", "a month and a half", "one and a
  half months", "half a month"; s29): '1.5 个月', '2.5 个小时', '1.5 天', '0.5 个月', '1.5 months' (before,
  "一个半月" and "a month and a half" were unread in both languages and the default 30 days sized, and
  "一天半" read 1 day).
- **A price per card-hour naming the card** ("$1.99 per H100 hour", "$2 per A100-hour"): 'per gpu-hour'
  (before, the card between 'per' and 'hour' made the price a budget).
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.numbers import CN_DIGITS
from bot.parse.regex import rc
from bot.parse.unit_cues import RANGE_UNITS

DEADLINE_FORMS = (
    (rc(r"\b(?:by|before|until|till)\s+(?:the\s+)?(?:end\s+of\s+)?next\s+week\b"), " within 7 days "),
    (rc(r"\b(?:by|before|until|till)\s+(?:the\s+)?(?:end\s+of\s+)?next\s+month\b"), " within 30 days "),
    (rc(r"\b(?:by|before|until|till)\s+tomorrow\b"), " within 1 days "),
    (rc(r"\b(?:over|during|in)\s+(?:the|a|one)\s+weekend\b"), " within 2 days "),
    (
        rc(
            r"(?<!left it )(?<!ran it )(?<!running )(?<!ran )(?<!kept it )(?<!trained )(?<!took )(?<!it )"
            r"(?<!ran for )(?<!was )\bovernight\b"
        ),
        " within 0.5 days ",
    ),
    (rc(r"(?:下周|下个?星期|下个?礼拜)(?:之前|以前|前|内)"), " 7 天内 "),
    (rc(r"(?:下个?月)(?:之前|以前|前|内)"), " 30 天内 "),
    (rc(r"明天(?:之前|以前|前)"), " 1 天内 "),
    (rc(r"(?:一个?)?周末(?:之内|内|跑完|训完|完成|搞定)"), " 2 天内 "),
    (rc(r"(?<!了)(?<!了整整)(?<!了足足)一(?:个)?(?:晚上|夜)(?:之内|内|跑完|训完|完成|搞定)?"), " 0.5 天内 "),
)
"""(pattern, rewrite): a deadline said relative to now, in days."""
_DEADLINE_GATE = re.compile(
    "next week|next month|tomorrow|weekend|overnight|下周|下个|星期|礼拜|下月|明天|周末|晚上|一夜"
)
DEADLINE_RANGE_RE = rc(
    r"(?:\bbetween\s+)?(?<![\d.])(?P<a>\d+(?:\.\d+)?)\s*(?:and|to|or|-|–|~|到|至|或)\s*"
    r"(?P<b>\d+(?:\.\d+)?)\s*(?P<u>weeks?|days?|months?|(?:个)?(?:周|星期|礼拜|月)|天)"
    r"(?=\s*(?:is|are|would\s+be|will\s+be|都|也|之内|以内|内|完成|训完|跑完|可以|ok|fine|acceptable|at\s+most|max)"
    r"|\s*$)"
)
"""'between 2 and 4 weeks is fine', '2 到 4 周都可以': a range of deadlines, sized at its generous end
('within 4 weeks', '4 周内': 28 days); the range is the user's, so its longer end is what they accept."""


def _deadline_range(m: re.Match[str]) -> str:
    unit = m.group("u")
    if unit[0].isascii():
        return f" within {m.group('b')} {unit} "
    return f" {m.group('b')} {unit}内 "


PER_CARD_HOUR_RE = rc(
    r"\bper\s+(?:an?\s+)?(?P<card>(?:(?:rtx|nvidia|tesla)\s*)?"
    r"(?:[a-z]{1,4}[\s\-]?\d{2,4}[a-z]{0,3}|(?<=rtx)\s*\d{4}|[1-5]0[5-9]0(?:\s*ti)?(?![\d.])))[\s\-]*"
    r"(?:gpu[\s\-]*)?(?:hours?|hrs?|h)\b"
)
"""'per H100 hour', 'per A100-hour', 'per 4090 hr': a price per GPU-hour of the card named (kept after it);
never a bare number ('$300 per 24 hours', '$2 per 100 hours' name no card: left as written)."""


SPEND_RATE_RE = rc(
    r"(?P<money>(?:[$¥€£]|usd\s*|rmb\s*)\d[\d,]*(?:\.\d+)?\s*k?|\d[\d,]*(?:\.\d+)?\s*(?:k\s*)?(?:usd|rmb|dollars?|元|块))"
    r"\s*(?:per|every|each|a|/|每)\s*(?P<n>\d+(?:\.\d+)?)\s*(?P<u>hours?|hrs?|h|小时|days?|天)(?![a-z])"
)
"""'$300 per 24 hours', '$2 per 100 hours', '2000 元每 24 小时': money per a stretch of time that names no
card — a spending rate, neither a budget nor a price per GPU-hour; named as not used (no field says it)."""


def spend_rate(s: str) -> tuple[str, list[tuple[str, str]]]:
    """``s`` with each spending rate of :data:`SPEND_RATE_RE` masked, and each named ('spend_rate: $300 /
    24 hours', no field)."""
    if not _SPEND_GATE.search(s):
        return s, []
    named: list[tuple[str, str]] = []
    for m in reversed(list(SPEND_RATE_RE.finditer(s))):
        if float(m.group("n")) == 1:  # '$2 per 1 hour': a price per hour, read as written
            continue
        named.insert(
            0, (f"spend_rate: {m.group('money').strip()} / {m.group('n')} {m.group('u')}", "no_field")
        )
        s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    return s, named


_SPEND_GATE = re.compile(r"(?:per|every|each|a|/|每)\s*\d+(?:\.\d+)?\s*(?:hour|hr|h\b|小时|day|天)")


PER_DAY_COST_RE = rc(r"多少钱\s*(?:一|每)\s*天|(?<![训跑练用算])(?:一|每)\s*天\s*(?:要|得)?\s*多少钱")
"""'H800 多少钱一天', '一天多少钱': the cost per day asked (a rental rate), not a one-day deadline; '训一天要
多少钱' (a day of training) is a duration and stays."""


_CN_DIGITS = {**CN_DIGITS, "十": 10}  # bot.parse.numbers' digits, and 十
_EN_DIGITS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_N_CN = r"(?P<n>\d{1,3}|[一两二三四五六七八九十])"


def _half(words: str) -> Any:
    """The replacement of a half amount: ``words`` with '{n}' the whole amount + 0.5 and '{u}' the unit."""

    def repl(m: re.Match[str]) -> str:
        g = m.groupdict()
        n, u = g.get("n") or g.get("m") or "", g.get("u") or g.get("v")
        whole = _CN_DIGITS.get(n) or _EN_DIGITS.get(n) or (int(n) if n.isdigit() else 0)
        return " " + words.format(n=f"{whole + 0.5:g}", u=u) + " "

    return repl


_HALF_GATE = re.compile(r"个半|[天年周]半|半\s*个|and\s+a\s+half|half\s+an?\s")
HALF_FORMS = (
    (rc(r"(?<![\d.])" + _N_CN + r"\s*个半\s*(?P<u>月|星期|礼拜|小时|钟头)"), _half("{n} 个{u}")),
    (rc(r"(?<![\d.])" + _N_CN + r"\s*(?P<u>天|年|周)半"), _half("{n} {u}")),
    (rc(r"(?<![\d.个一两二三四五六七八九十])半\s*个\s*(?P<u>月|星期|礼拜|小时|钟头)"), _half("0.5 个{u}")),
    (
        rc(
            r"\b(?P<n>\d{1,3}|an?|one|two|three|four|five|six)\s+(?P<u>month|week|day|hour|year)s?\s+and\s+a\s+half\b"
            r"|\b(?P<m>\d{1,3}|one|two|three|four|five|six)\s+and\s+a\s+half\s+(?P<v>month|week|day|hour|year)s?\b"
        ),
        _half("{n} {u}s"),
    ),
    (rc(r"\bhalf\s+an?\s+(?P<u>month|week|day|hour|year)\b"), _half("0.5 {u}s")),
)
"""Half amounts of time and their replacements (gated by :data:`_HALF_GATE`, a C-level search)."""


def time_forms(s: str) -> str:
    """The normalized text ``s`` with relative deadlines in days and per-card-hour prices per gpu-hour."""
    if ("半" in s or "half" in s) and _HALF_GATE.search(s):
        for pattern, repl in HALF_FORMS:
            s = _sub(pattern, repl, s)
    if "多少钱" in s and "天" in s:
        s = _sub(PER_DAY_COST_RE, " 多少钱 ", s)
    if any(map(s.__contains__, RANGE_UNITS)) and _RANGE_GATE.search(s):
        s = _sub(DEADLINE_RANGE_RE, _deadline_range, s)
    if _DEADLINE_GATE.search(s):
        for pattern, words in DEADLINE_FORMS:
            s = _sub(pattern, words, s)
    if _PER_HOUR_GATE.search(s):
        s = _sub(PER_CARD_HOUR_RE, r" per gpu-hour (\g<card>) ", s)
    return s


_RANGE_GATE = re.compile(
    r"\d\s*(?:and|to|or|-|–|~|到|至|或)\s*\d+(?:\.\d+)?\s*(?:week|day|month|个|周|星期|礼拜|月|天)"
)
_PER_HOUR_GATE = re.compile(r"\bper\s+(?:an?\s+)?[a-z\s\-]{0,12}\d{2,4}[a-z]{0,3}[\s\-]*(?:gpu[\s\-]*)?h")


def _sub(pattern: Any, repl: Any, s: str) -> str:
    """``pattern.sub(repl, s)`` only when ``pattern`` matches: a template's parse is a few Python calls, and
    most messages have none of these forms."""
    return pattern.sub(repl, s) if pattern.search(s) else s
