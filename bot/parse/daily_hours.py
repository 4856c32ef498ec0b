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
from bot.parse.schedule_words import DAY_WORD, RUN_VERB
from estimator.models import Stage
from estimator.request import bounds
from estimator.serving_speed import HOURS_PER_MONTH

DAILY_SCHEDULE = "daily_schedule"
HOURS_PER_DAY = 24.0
A_MONTH = 720.0
"""'一个月' / 'a month' as the duration reader gives it (30 days): billed as the estimator's month,
:data:`estimator.serving_speed.HOURS_PER_MONTH` (730 h), so one month's hours are one figure (trial
s17-2 #1: '300 h' on one line, '304 h/month' on another)."""
_DAY_WORD_RE = re.compile(rf"^\s*{DAY_WORD}\s*(?:只)?{RUN_VERB}?")
"""The day word before a Chinese schedule's hours ('一天 10 小时': not the 一 of 一天)."""


def schedule_hours(phrase: str) -> float | None:
    """The hours a day in a schedule phrase as written ('8 hours a day' → 8, '每天只用 8 小时' → 8,
    '一天十小时' → 10), within ``hours_per_day``'s stated bounds (0.5–24 h); None otherwise."""
    value = parse_number(_DAY_WORD_RE.sub("", phrase.lower()))
    low, high = bounds("hours_per_day")
    return value if value is not None and low <= value <= high else None


MONTHLY_RENTAL_RE = re.compile(
    r"包月|月租|按月(?:租|付|计费|算)|(?<!小时)租一个月|monthly\s+(?:bill|rental|plan|rate|price|subscription|contract)"
    r"|(?:rent|pay|bill)(?:ed|ing|s)?\s+(?:by\s+the|per|a)\s+month\b|by\s+the\s+month\b"
)
"""A month rented whole ('包月又是多少' — normalized '租一个月', not the '按小时租一个月' of an hourly
month —, 'monthly bill', 'rent by the month'). A plain compiled pattern (C search), run only on a stated
schedule."""
HOURLY_RE = re.compile(r"按小时|按量|小时租|hourly|by\s+the\s+hour|per\s+hour|on[\s\-]demand")
"""Renting by the hour said, the other side of the comparison ('按小时租', 'renting hourly')."""


def _around_clock_pair(said: list[str]) -> tuple[float, float] | None:
    """Two schedules said, one around the clock and one shorter ('24/7 … vs renting hourly only 10 hours a
    day'): (the first said, the second), each priced (trial s43 q11_en: both were named as not used though
    the cost counts 24 h); None for any other pair (two partial days: which one is meant is not known,
    both stay named)."""
    hours = [schedule_hours(t) for t in said]
    first, second = hours
    if first is None or second is None or first == second or HOURS_PER_DAY not in (first, second):
        return None
    return first, second


def with_daily_hours(parsed: ParseResult) -> ParseResult:
    """``parsed`` with a serving question's one daily schedule as ``hours_per_day`` (no longer named as
    not used), and a rental of a day or more ('for a month': 720 h) as the hours the GPUs run on it
    (``hours`` is the GPUs' rented time on a serving question: 720 × 8 ÷ 24 = 240 h); unchanged (the
    same object) on a training question, with none, or with two partial days. Around the clock and a
    shorter day both said: the first is ``hours_per_day``, the second ``hours_per_day_compared``; one
    schedule beside a month rented whole ('包月'): 24 compared (s43 #5). The month is priced both ways."""
    req = parsed.request
    said = [t for t, why in parsed.unused_numbers if why == DAILY_SCHEDULE]
    if req.stage != Stage.inference or not 1 <= len(said) <= 2 or req.hours_per_day is not None:
        return parsed
    pair = _around_clock_pair(said) if len(said) == 2 else None
    hours = pair[0] if pair else schedule_hours(said[0])
    if hours is None or (len(said) == 2 and pair is None):
        return parsed
    update: dict[str, float] = {"hours_per_day": hours}
    if pair:
        update["hours_per_day_compared"] = pair[1]  # the second said, priced beside (s43 #5)
    elif (
        hours < HOURS_PER_DAY
        and MONTHLY_RENTAL_RE.search(text := parsed.normalized)
        and HOURLY_RE.search(text)
    ):
        update["hours_per_day_compared"] = HOURS_PER_DAY  # '包月又是多少': the month rented whole too
    if req.hours and req.hours >= HOURS_PER_DAY:  # '一个月' (720 h) of 8-hour days: 240 h rented
        month = HOURS_PER_MONTH if req.hours == A_MONTH else req.hours
        update["hours"] = month * hours / HOURS_PER_DAY
    return parsed.model_copy(
        update={
            "request": req.model_copy(update=update),
            "unused_numbers": [
                u for u in parsed.unused_numbers if u[1] != DAILY_SCHEDULE or u[0] not in said
            ],
            "found": sorted({*parsed.found, "hours_per_day"}),
        }
    )
