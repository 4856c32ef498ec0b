"""The cost with the tax rate the user named applied (s46 fixrev #7): '含税 13%', '13% 增值税', 'plus 8% VAT'
are read as ``tax_rate`` (:mod:`bot.parse.tax_rate`) — every price on file is a rental price before tax —
and this sentence gives the reply's cost with the rate applied beside its pre-tax figure, so the rate is
used (s45 review #10), and not listed as ignored where a cost is shown (s46 review B4:
:mod:`bot.core.tax_applied`); with no cost it stays "not used" and :data:`NO_COST` says so."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from estimator.models import SizingReport

WITH_TAX = N_("With %(rate)s tax: %(taxed)s (%(cost)s before tax × %(factor)s).")
"""params rate ('13%'), taxed and cost (money spans, Babel-formatted), factor (1 + the rate: '1.13')."""
NO_COST = N_("No cost was worked out here, so the %(rate)s tax is applied to nothing.")
"""The rate read, with no cost in the reply to apply it to (no price on file for the card)."""


def tax_line(report: SizingReport, rate_text: str, lang: str) -> str:
    """The reply's cost × (1 + the rate) of ``rate_text`` (the phrase as typed, '含税 13%'), beside the cost
    before tax, in the reply's money style (:func:`bot.render.fmt.money_span`). The cost is the one the
    headline shows (:func:`bot.core.tax_applied.taxed_band`). Raises nothing: a phrase with no number gives
    ''; no cost gives :data:`NO_COST`."""
    from bot.core.tax_applied import rate_percent, taxed_band
    from bot.render.fmt import fmt_for, money_span

    pct = rate_percent(rate_text)
    if pct is None:
        return ""
    shown = f"{pct}%"
    band = taxed_band(report)
    if band is None:
        return translate(lang, NO_COST, rate=shown)
    from estimator.money_rates import tax_factor, with_tax  # s47: computed there, formatted here

    f, rate = fmt_for(lang), float(pct) / 100.0
    before = money_span(f, band.low, band.high, band.currency)
    taxed = money_span(f, *with_tax(band, rate), band.currency)
    return translate(lang, WITH_TAX, rate=shown, taxed=taxed, cost=before, factor=f.num(tax_factor(rate), 4))
