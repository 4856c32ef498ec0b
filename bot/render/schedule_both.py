"""Two daily schedules priced side by side (trial s43 q11_en: '24/7 … monthly bill vs renting hourly
only 10 hours a day?' gave one side and named '24 hours a day' as not used; q32_zh: '每天只用 8 小时，
按小时租一个月多少钱？包月又是多少？' gave only 8 h a day). ``request.hours_per_day_compared``
(bot.parse.daily_hours) is the second schedule; its month costs the first's × compared ÷ hours_per_day at
the same price per GPU-hour (GPU-hours scale with the hours rented: estimator.serving_schedule, 730 h ×
hours ÷ 24 a GPU). A month rented whole may carry a provider's discount, which no price on file gives:
the line says so."""

from __future__ import annotations

from bot.render.fmt import Fmt, money_span
from bot.render.i18n import N_, translate
from bot.render.wording_extra import SCHEDULED_MONTH
from estimator.models import SizingReport

HOURS_PER_DAY = 24.0

AROUND_CLOCK = N_(
    "%(money)s; around the clock (730 h a month per GPU, at the same price per GPU-hour — a monthly "
    "plan's discount is not counted): %(other)s"
)
"""The month rented whole beside a shorter daily schedule."""
OTHER_DAY = N_("%(money)s around the clock; rented %(hours)s hours a day: %(other)s")
"""A shorter daily schedule beside the around-the-clock month."""


def compared_cost(f: Fmt, out: str, report: SizingReport, low: float, high: float, currency: str) -> str:
    """``out`` (the cost line of the schedule sized, ``low``–``high`` in ``currency``) with the second
    schedule's cost, ``low``–``high`` × hours_per_day_compared ÷ hours_per_day (:data:`AROUND_CLOCK`,
    :data:`OTHER_DAY`); ``out`` as it is without a second schedule."""
    req = report.request
    compared, hours = req.hours_per_day_compared, req.hours_per_day or HOURS_PER_DAY
    if not compared or compared == hours:
        return out
    share = compared / hours
    other = money_span(f, low * share, high * share, currency)
    if compared >= HOURS_PER_DAY:
        return translate(f.lang, AROUND_CLOCK, money=out, other=other)
    return translate(f.lang, OTHER_DAY, money=out, hours=f.hours(compared), other=other)


def both_months(f: Fmt, money: str, report: SizingReport) -> str:
    """A serving month's cost ``money`` on the schedule sized (with its hours a day when under 24:
    :data:`bot.render.wording_extra.SCHEDULED_MONTH`), then on the second (:func:`compared_cost`).
    Requires ``report.inference.cost_per_month``."""
    inf, hours = report.inference, report.request.hours_per_day
    assert inf is not None and inf.cost_per_month is not None
    if inf.cost_per_month_always_on is not None and hours is not None:
        money = translate(f.lang, SCHEDULED_MONTH, money=money, hours=f.hours(hours))
    c = inf.cost_per_month
    return compared_cost(f, money, report, c.low, c.high, c.currency)
