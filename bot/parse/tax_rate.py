"""A tax rate on a quote (s45 trial #4): '含税13%', '税点6个点', '增值税 6%', '13%的增值税', 'incl. 6% VAT',
'plus 20% VAT', 'VAT of 19%', 'sales tax 8.25%'.

Before, the rate's number was left unread ('“13” (no word said what it is)') although the tax word was
beside it. The sizing prices GPU rental before tax (every price list on file is a rental price before tax),
so a rate is masked (same length: no other rule reads its number) and named ``tax_rate``; the reply says the
costs are before tax and how to add it.
"""

from __future__ import annotations

from bot.parse.normalize import mask
from bot.parse.regex import rc

_RATE = r"\d{1,2}(?:\.\d{1,2})?\s*(?:%|％|个点|個點|点)"
_ZH_TAX = r"(?:增值税|增值稅|税点|稅點|税率|稅率|含税|含稅|不含税|不含稅|加税|加稅|税|稅)"
TAX_RE = rc(
    rf"{_ZH_TAX}\s*(?:按|为|是|:|：)?\s*{_RATE}"
    rf"|{_RATE}\s*(?:的)?\s*{_ZH_TAX}"
    r"|(?:vat|gst|sales\s+tax|tax(?:\s+rate)?)\s*(?:of|at|is|=|:)?\s*\d{1,2}(?:\.\d{1,2})?\s*%"
    r"|\d{1,2}(?:\.\d{1,2})?\s*%\s*(?:vat|gst|sales\s+tax|tax)\b"
)
"""A tax word beside a rate, on the normalized (lower-case) text: '含税13%', '税点 6 个点', '13%的增值税',
'vat of 20%', 'tax rate 8.25%', '6% vat'."""


def tax_rates(s: str, raw: str = "") -> tuple[str, list[tuple[str, str]]]:
    """``s`` with each tax rate masked (same length), and the rates named as ``tax_rate`` (the phrase as
    typed in ``raw`` when the two align, same length: '13% VAT', not the normalized '13% vat'; s46 review
    B4). Callers test for '税', '稅', 'tax', 'vat' or 'gst' first (bot.parse.side_phrases), the words every
    :data:`TAX_RE` match holds."""
    named: list[tuple[str, str]] = []
    for m in TAX_RE.finditer(s):
        typed = raw[m.start() : m.end()] if len(raw) == len(s) else m.group(0)
        named.append((" ".join(typed.split()), "tax_rate"))
        s = mask(s, m.start(), m.end(), " ")
    return s, named
