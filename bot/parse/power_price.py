"""An electricity tariff and an electricity question (s18-fxc #3): '0.12 USD/kWh', '$0.12 per kWh',
'每度电 0.6 元', '0.6 元/度', '一个月电费多少'.

Before, "what's the electricity bill per month at 0.12 USD/kWh?" read $0.12 as a budget ("Your budget
of $0.12 pays … for 0 months") and the next turn carried it. A price per kWh is no budget: it is masked
(same length) so no money rule reads it, and named ``power_price``. An electricity word with no tariff
is named too: the sizing prices GPU rental, not electricity (:mod:`estimator.energy` gives kWh only for
a consumer card whose board power is on file, on the user's own card), so the reply says so.
"""

from __future__ import annotations

from bot.parse.normalize import mask
from bot.parse.regex import rc

_MONEY = (
    r"(?:(?:us\$|\$|¥|￥|rmb|cny|usd)\s*)?\d+(?:\.\d+)?\s*"
    r"(?:(?:usd|rmb|cny|dollars?|cents?|元|块钱?|毛|角)\s*)?"
)
TARIFF_RE = rc(
    rf"{_MONEY}(?:/|per\s+|an?\s+|每)\s*(?:kwh|kw·h|度电?)(?![a-z])"
    rf"|(?:每度电?|一度电?|electricity\s+(?:at|is)\s+)\s*{_MONEY}(?=\D|$)"
    rf"|{_MONEY}一度电?"
)
"""'0.12 USD/kWh', '$0.12 per kWh', '0.6 元/度', '每度电 0.6 元', '0.6元一度电'."""
POWER_WORD_RE = rc(r"电费|\bpower\s+bill|\belectricity(?:\s+bill)?\b")
"""The electricity asked about: '电费', 'power bill', 'electricity bill'."""


def power_price(s: str) -> tuple[str, list[tuple[str, str]]]:
    """``s`` with a price per kWh masked, and the tariff (or, with none, the electricity word) named as
    ``power_price`` (the phrase as written). Callers gate on 'kwh', '度', '电费', 'electricity',
    'power bill' first."""
    named: list[tuple[str, str]] = []
    for m in TARIFF_RE.finditer(s):
        named.append((" ".join(m.group(0).split()), "power_price"))
        s = mask(s, m.start(), m.end(), " ")
    if not named and (word := POWER_WORD_RE.search(s)):
        named.append((word.group(0), "power_price"))
    return s, named
