"""A training run on a daily schedule (issue 24 item 4, s21): '64 张 A100 … 每天只能跑 8 小时', 'we can only
run 8 hours a day'. The run's days on the user's GPUs are days of round-the-clock running; run only
``h`` hours a day, the same GPU-hours take days × 24 ÷ h calendar days (61 days at 24 h → 183 calendar
days at 8 h). The schedule is then used, reason :data:`CALENDAR` (no longer 'daily_schedule', not used);
a job sized for a deadline (no GPU count stated) keeps it named as not used: the deadline's days are
calendar days the sizing does not re-plan."""

from __future__ import annotations

from typing import NamedTuple

from bot.parse.daily_hours import DAILY_SCHEDULE, HOURS_PER_DAY, schedule_hours
from bot.parse.result import ParseResult
from estimator.models import SizingReport, Stage

CALENDAR = "daily_schedule_calendar"
"""The reason of a daily schedule that turned a training run's days into calendar days (a used reason)."""


class Calendar(NamedTuple):
    """The schedule said (``said``, as typed), its hours a day, the run's days at 24 h a day and its
    calendar days at those hours."""

    said: str
    hours: float
    days: float
    calendar: float


def calendar_days(parsed: ParseResult | None, report: SizingReport | None) -> Calendar | None:
    """The calendar days of a training run on the user's GPUs with one daily schedule under 24 h said
    (``parsed.unused_numbers`` reason 'daily_schedule'); None otherwise (serving, no days, two
    schedules, a schedule out of bounds)."""
    if parsed is None or report is None or report.days is None:
        return None
    if report.request.stage == Stage.inference:
        return None
    said = [t for t, why in parsed.unused_numbers if why == DAILY_SCHEDULE]
    hours = schedule_hours(said[0]) if len(said) == 1 else None
    if hours is None or hours >= HOURS_PER_DAY:
        return None
    days = report.days.days.likely
    return Calendar(said[0], hours, days, days * HOURS_PER_DAY / hours)
