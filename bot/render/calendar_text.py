"""The calendar days of a training run on a daily schedule, as the reply says them
(:mod:`bot.core.calendar_days`)."""

from __future__ import annotations

from bot.core.calendar_days import Calendar
from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate

CALENDAR_LINE = N_(
    "At %(hours)s hours a day: ≈ %(calendar)s calendar days (%(days)s days of round-the-clock running × 24 ÷ "
    "%(hours)s)"
)


def calendar_line(cal: Calendar | None, lang: str) -> str:
    """'At 8 hours a day: ≈ 183 calendar days (61 days of round-the-clock running × 24 ÷ 8)'; '' without."""
    if cal is None:
        return ""
    f = fmt_for(lang)
    return translate(
        lang, CALENDAR_LINE, hours=f"{cal.hours:g}", calendar=f.days(cal.calendar), days=f.days(cal.days)
    )
