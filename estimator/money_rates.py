"""Figures a reply derives from a cost the estimate worked out, computed here so the render only formats them
(issue 23: render formats, never computes; s47 fixrev #5).

- Output tokens per one unit of money (s46 trial #11: 'How many tokens per dollar …', '每块钱能生成多少
  token'): the inverse of the price per million output tokens (``Inference.cost_per_million_tokens``,
  the GPU-hours' price ÷ the tokens decoded in them): 10⁶ ÷ that price, the cheaper end giving the more
  tokens ($0.51–1.02 per million → 0.98–1.96 million tokens per dollar).
- A tax rate the user names ('含税 13%', '13% VAT'; bot.parse.tax_rate) on a cost: every price on file is a
  rental price before tax, and a rate on a net price gives the gross as net × (1 + rate) (an ad valorem tax
  on the taxable amount: EU VAT Directive 2006/112/EC Art. 73 and 96; China's 增值税: 含税价 = 不含税价 ×
  (1 + 税率)).
"""

from __future__ import annotations

from estimator.models import Cost, PriceBand

MILLION = 1e6
"""Tokens in the unit ``cost_per_million_tokens`` is priced per."""


def tokens_per_money(cost_per_million: PriceBand | None) -> tuple[float, float] | None:
    """(fewest, most) output tokens one unit of ``cost_per_million``'s currency buys: 10⁶ ÷ its high and low
    ends; None with no price or a low end of 0 or less."""
    if cost_per_million is None or cost_per_million.low <= 0:
        return None
    return MILLION / cost_per_million.high, MILLION / cost_per_million.low


def tax_factor(rate: float) -> float:
    """The net-to-gross (pre-tax → tax-inclusive) factor of a tax ``rate`` (a fraction: 0.13 → 1.13): the
    gross price is the net price × this factor."""
    return 1.0 + rate


def with_tax(band: Cost | PriceBand, rate: float) -> tuple[float, float]:
    """(low, high) of ``band`` with the tax ``rate`` (a fraction) applied: each end × :func:`tax_factor`, in
    the band's currency."""
    factor = tax_factor(rate)
    return band.low * factor, band.high * factor
