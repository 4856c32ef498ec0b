"""Follow-ups that ask the previous answer's cost, or set its daily schedule (session 18, s18-fix item 4).

After 'Serve Qwen2.5-72B-Instruct with vLLM on 4 H100s for 30 concurrent users at 8k context', the
trial's "what's the monthly bill?", "每个月多少钱？" and "only 8 hours a day" changed no field, so they were
read as fresh questions with nothing to size and answered with the help text. A message that states
nothing but asks what it costs (``ParseResult.asks_cost``: '多少钱', 'monthly bill', '电费', '租金') is a
follow-up that answers the previous request again, its cost in the headline; a daily schedule ('only 8
hours a day', '每天只用 8 小时'), named ``daily_schedule`` by the parser on a message with no stage, is the
previous serving deployment's ``hours_per_day`` (:func:`bot.parse.daily_hours.with_daily_hours`: the
month billed for those hours, and a rental of a day or more cut to them).
"""

from __future__ import annotations

from bot.parse.daily_hours import DAILY_SCHEDULE, with_daily_hours
from bot.parse.result import ParseResult
from estimator.models import SizingRequest, Stage


def asks_previous(parsed: ParseResult, prev: SizingRequest) -> bool:
    """Whether ``parsed`` (a message stating no field) asks about ``prev``: its cost, or its daily schedule
    (a serving ``prev``'s hours a day; a training ``prev``'s schedule named as not used)."""
    if parsed.out_of_scope or parsed.reset_cue:
        return False
    # s20: a daily schedule after a training answer too ('只能每天跑 8 小时'): the run answered again, the
    # schedule named as not used (a run's days follow from its compute), never the help text
    return parsed.asks_cost or _schedule(parsed) is not None


def with_previous_schedule(parsed: ParseResult, prev: SizingRequest) -> ParseResult:
    """``parsed`` with its daily schedule read for a serving ``prev`` (``hours_per_day`` found, and
    ``hours`` when the previous rental's hours were cut to the schedule); after a training ``prev``, a
    schedule read as a serving one ('we can only run 8 hours a day': 'run' reads as serving) is named as
    not used instead (s20), as on a first message; else ``parsed`` unchanged."""
    if prev.stage != Stage.inference and parsed.request.hours_per_day and set(parsed.found) <= _SCHEDULE_ONLY:
        said = (f"hours_per_day: {parsed.request.hours_per_day:g}", DAILY_SCHEDULE)
        return parsed.model_copy(
            update={
                "request": SizingRequest(),
                "found": [],
                "unused_numbers": [*parsed.unused_numbers, said],
            }
        )
    if prev.stage != Stage.inference or _schedule(parsed) is None or parsed.request.hours_per_day:
        return parsed
    hours = parsed.request.hours or prev.hours  # '一个月' on this message, or the previous rental
    probe = parsed.model_copy(
        update={"request": parsed.request.model_copy(update={"stage": Stage.inference, "hours": hours})}
    )
    read = with_daily_hours(probe)
    if read is probe:
        return parsed
    update = {"hours_per_day": read.request.hours_per_day}
    found = {*parsed.found, "hours_per_day"}
    if read.request.hours != hours or hours != prev.hours:  # 'a month' (here or before) of 8-hour days
        update["hours"] = read.request.hours
        found.add("hours")
    request = parsed.request.model_copy(update=update)
    return read.model_copy(update={"request": request, "found": sorted(found)})


_SCHEDULE_ONLY = frozenset({"stage", "hours_per_day", "hours"})
"""The fields a schedule follow-up alone sets ('每天只能跑 8 小时': 'run' read as serving)."""


def _schedule(parsed: ParseResult) -> str | None:
    """The daily schedule the parser named on ``parsed`` ('8 hours a day'), if one."""
    return next((t for t, why in parsed.unused_numbers if why == DAILY_SCHEDULE), None)
