"""A tax rate the user named, applied to the cost the reply shows (s46 review B4).

'含税13%', '13% VAT', 'plus 8% VAT' are read as ``tax_rate`` (:mod:`bot.parse.tax_rate`). Every price on file
is a rental price before tax, so where a cost is shown the rate is *used*: the cost × (1 + rate) is given
beside the pre-tax figure (:mod:`bot.render.tax_text`), the JSON's cost carries it (``tax``: rate, with-tax
low/high) and the rate is not listed as ignored. With no cost (no price on file) it stays "not used".
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.parse.result import ParseResult
    from estimator.models import Cost, PriceBand, SizingReport

_RATE_RE = re.compile(r"(\d{1,2}(?:\.\d{1,2})?)")
"""The rate's number in the phrase ('含税 13%' → 13; 'VAT of 19.5%' → 19.5): percent (TAX_RE's 1–2 digits)."""


def tax_phrase(parsed: ParseResult) -> str | None:
    """The first tax-rate phrase of the message, as typed ('13% VAT'), or None."""
    if not parsed.unused_numbers:
        return None
    return next((t for t, why in parsed.unused_numbers if why == "tax_rate"), None)


def rate_percent(phrase: str) -> str | None:
    """The rate of ``phrase`` as written, in percent ('13', '8.25'), or None when it holds no number."""
    m = _RATE_RE.search(phrase)
    return m.group(1) if m else None


def taxed_band(report: SizingReport) -> Cost | PriceBand | None:
    """The cost the reply shows, that the rate applies to: a training run's or a rental quote's
    (:attr:`estimator.models.SizingReport.headline_cost`), else a serving month's
    (``Inference.cost_per_month``); None when no cost was worked out (no price on file)."""
    cost = report.headline_cost if report.cost is not None else None
    return cost or (report.inference.cost_per_month if report.inference is not None else None)


def tax_json(report: SizingReport, phrase: str) -> dict[str, Any] | None:
    """The JSON's ``tax`` object on the cost: ``rate`` (a fraction: 0.13), ``text`` (the phrase as typed),
    ``low``/``high`` (the cost × (1 + rate), in the cost's ``currency``); None with no rate or no cost."""
    from estimator.money_rates import with_tax  # s47: the arithmetic in the estimator (issue 23)

    pct, band = rate_percent(phrase), taxed_band(report)
    if pct is None or band is None:
        return None
    low, high = with_tax(band, float(pct) / 100.0)
    return {
        "rate": round(float(pct) / 100.0, 6),
        "text": phrase,
        "low": low,
        "high": high,
        "currency": band.currency.value,
    }
