"""A daily schedule on a serving question (review s14 MEDIUM 7): '8 hours a day', '每天只用 8 小时' — the
hours a day the deployment runs, ``hours_per_day`` (:mod:`estimator.serving_schedule` bills the month
for them). :mod:`bot.parse.schedule_words` reads and masks the phrase and names it ``daily_schedule``;
on a serving question this post-step uses it instead. On a training question it stays named as not
used (a run's duration follows from its compute, not a schedule).
"""

from __future__ import annotations

import re

from bot.parse.numbers import parse_number
from bot.parse.result import ParseResult
from estimator.models import Stage
from estimator.request import bounds
from estimator.serving_speed import HOURS_PER_MONTH

DAILY_SCHEDULE = "daily_schedule"
HOURS_PER_DAY = 24.0
A_MONTH = 720.0
"""'一个月' / 'a month' as the duration reader gives it (30 days): billed as the estimator's month,
:data:`estimator.serving_speed.HOURS_PER_MONTH` (730 h), so one month's hours are one figure (trial
s17-2 #1: '300 h' on one line, '304 h/month' on another)."""
_DAY_WORD_RE = re.compile(
    r"^\s*(?:每天|每日|一天|每个工作日|(?:只在|只|仅在|仅)?白天)\s*(?:只)?(?:跑|开|用|训|训练|工作|运行)?"
)
"""The day word before a Chinese schedule's hours ('一天 10 小时': not the 一 of 一天)."""


def schedule_hours(phrase: str) -> float | None:
    """The hours a day in a schedule phrase as written ('8 hours a day' → 8, '每天只用 8 小时' → 8,
    '一天十小时' → 10), within ``hours_per_day``'s stated bounds (0.5–24 h); None otherwise."""
    value = parse_number(_DAY_WORD_RE.sub("", phrase.lower()))
    low, high = bounds("hours_per_day")
    return value if value is not None and low <= value <= high else None


def with_daily_hours(parsed: ParseResult) -> ParseResult:
    """``parsed`` with a serving question's one daily schedule as ``hours_per_day`` (no longer named as
    not used), and a rental of a day or more ('for a month': 720 h) as the hours the GPUs run on it
    (``hours`` is the GPUs' rented time on a serving question: 720 × 8 ÷ 24 = 240 h); unchanged (the
    same object) on a training question, with none, or with two."""
    req = parsed.request
    said = [t for t, why in parsed.unused_numbers if why == DAILY_SCHEDULE]
    if req.stage != Stage.inference or len(said) != 1 or req.hours_per_day is not None:
        return parsed
    hours = schedule_hours(said[0])
    if hours is None:
        return parsed
    update: dict[str, float] = {"hours_per_day": hours}
    if req.hours and req.hours >= HOURS_PER_DAY:  # '一个月' (720 h) of 8-hour days: 240 h rented
        month = HOURS_PER_MONTH if req.hours == A_MONTH else req.hours
        update["hours"] = month * hours / HOURS_PER_DAY
    return parsed.model_copy(
        update={
            "request": req.model_copy(update=update),
            "unused_numbers": [u for u in parsed.unused_numbers if u != (said[0], DAILY_SCHEDULE)],
            "found": sorted({*parsed.found, "hours_per_day"}),
        }
    )
