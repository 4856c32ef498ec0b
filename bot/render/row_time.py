"""A comparison row's time on its GPUs in the unit that reads (review s25 item 6): days from one day up,
hours under a day ('≈ 3.2 hours', not '≈ 0.13 days'), minutes under an hour ('under 5 minutes'), as the
headline says them (bot.render.headline_parts.headline_hours, bot.render.duration.wall_time); and the one
money style of the rows (bot.render.fmt.needs_cents over every amount they show)."""

from __future__ import annotations

from bot.render.duration import HOURS_PER_DAY, wall_time
from bot.render.fmt import Fmt, needs_cents
from bot.render.headline_parts import _days_on
from bot.render.i18n import N_, translate
from estimator.models import SizingReport

ABOUT_HOURS = N_("≈ %(n)s hours")
"""A row's time under a day, in hours."""


def short_time(report: SizingReport, gpus: int, f: Fmt) -> str | None:
    """The time on ``gpus`` when it is under a day: '≈ 3.2 hours' or 'under 5 minutes' (days × 24, the
    days table's figure for that count); None from a day up (the row says days) or without a time."""
    days = _days_on(report, gpus) if gpus > 0 else None
    if days is None or days >= 1:
        return None
    hours = days * HOURS_PER_DAY
    return wall_time(hours, f.lang) or translate(f.lang, ABOUT_HOURS, n=f.hours(hours))


def rows_cents(reports: list[SizingReport]) -> bool:
    """Whether the rows' money is written with cents: one of their amounts is under 100 (one money style
    for every row: '¥60.00 – ¥160.00' beside '¥120.00 – ¥240.00', never beside '¥120 – ¥240')."""
    amounts = [
        x for r in reports for c in (r.headline_cost, r.cost) if c is not None for x in (c.low, c.high)
    ]
    return needs_cents(*amounts)
