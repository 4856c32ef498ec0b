"""Short durations in words and units that never print a column of zeros (issue 22 item 8).

A job of a few thousand tokens takes seconds: its GPUs ↔ days table is shown in hours or minutes, and
its headline says "about 14 seconds" or "about 5 minutes" instead of "0.01 hours" or "0 days".
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from estimator.models import Band

HOURS_PER_DAY = 24.0
MINUTES_PER_HOUR = 60.0
CENTURY_DAYS = 100 * 365.25
"""Beyond a century a time is no plan to count in days ('308,445 days'): '> 100 years' (s36 fixe #2)."""

UNIT_HEADERS = {
    "days": N_("GPUs → days (range):"),
    "hours": N_("GPUs → hours (range):"),
    "minutes": N_("GPUs → minutes (range):"),
}
"""The GPUs ↔ time table's header by the unit of its column."""

TPU_UNIT_HEADERS = {
    "days": N_("chips → days (range):"),
    "hours": N_("chips → hours (range):"),
    "minutes": N_("chips → minutes (range):"),
}
"""The same header for a TPU, counted in chips (trial s30 #1)."""


def table_unit(longest_days: float) -> str:
    """The unit of a GPUs ↔ time column whose longest value is ``longest_days``: days from one day up,
    hours from one hour, else minutes."""
    if longest_days >= 1:
        return "days"
    return "hours" if longest_days * HOURS_PER_DAY >= 1 else "minutes"


def in_unit(days: float, unit: str, f: Fmt) -> str:
    """``days`` as a number in ``unit`` (:func:`table_unit`), never rounded to 0."""
    if unit == "days":
        return f.days(days)
    hours = days * HOURS_PER_DAY
    if unit == "hours":
        return f.hours(hours)
    minutes = hours * MINUTES_PER_HOUR
    return f.small(minutes) if minutes < 1 else f.num(minutes, 1)


def unit_text(unit: str, f: Fmt) -> Callable[[float], str]:
    """:func:`in_unit` of ``unit`` as one callable for a column of figures: ``f.days`` itself in days
    (a table of days asks no :func:`in_unit` frame a figure; s37-speed)."""
    return f.days if unit == "days" else partial(in_unit, unit=unit, f=f)


def wall_time(hours: float, lang: str, band: Band | None = None) -> str | None:
    """A job under an hour in words: 'about 14 seconds', 'about 5 minutes' (the nearest whole minute, never
    'under' it: the band goes past the likely figure; s37 fixf #4) — with ``band`` (the job's days, low
    and high) 'about 38 minutes (29–61 minutes)'; over a century '> 100 years'; None in between (the caller
    says hours)."""
    if hours > CENTURY_DAYS * HOURS_PER_DAY:  # an absurd job: no figure to plan with (s36 fixe #2)
        return translate(lang, N_("> 100 years"))
    if hours >= 1:
        return None
    minutes = hours * MINUTES_PER_HOUR
    if minutes < 1:  # a step or a tiny job: its seconds (s33 #2: 'how long per step' was 'under a minute')
        seconds = minutes * MINUTES_PER_HOUR
        if seconds < 1:
            return translate(lang, N_("under a second"))
        n = f"{seconds:.1f}" if seconds < 10 else round(seconds)
        return translate(lang, N_("about %(n)s seconds"), n=n)
    n = max(1, round(minutes))
    per_day = HOURS_PER_DAY * MINUTES_PER_HOUR
    if band is None or band.high * per_day < n + 1:
        return translate(lang, N_("about %(n)s minutes"), n=n)
    low, high = max(1, round(band.low * per_day)), round(band.high * per_day)
    return translate(lang, N_("about %(n)s minutes (%(low)s–%(high)s minutes)"), n=n, low=low, high=high)
