"""Output tokens per unit of money, where that is the unit asked (s46 trial #11): 'How many tokens per dollar
can I get serving Qwen3-8B on one L40S?', '每块钱能生成多少 token'. The answer prices serving per million
output tokens (``Inference.cost_per_million_tokens``: the GPU-hours' price ÷ the tokens decoded in them);
the unit asked is its inverse, 10⁶ ÷ that price, from the same figures (:func:`estimator.money_rates.
tokens_per_money`, s47: computed there, formatted here in Babel's compact form like every count): $0.51–1.02
per million is 980K–1.96M tokens per dollar (the cheaper end gives the more tokens). Imported behind its gate
(bot.render.context: 'token' and a money word in the message)."""

from __future__ import annotations

import re
from typing import Any

from bot.render.i18n import N_, translate

ASKS_PER_MONEY = re.compile(
    r"tokens?\s*(?:per|/|for\s+(?:a|one|each|every|1))\s*(?:dollar|usd|\$|yuan|rmb|元|buck)"
    r"|(?:每|一|1)\s*(?:块钱|块|元|美元|美金|刀)(?:钱)?(?:能|可以)?(?:生成|跑|产出|买|换|输出|得到)?(?:多少|几)[^,?。]{0,6}token",
    re.IGNORECASE,
)
"""The question asks output tokens for one unit of money ('tokens per dollar', 'tokens/$', '每块钱能生成多少
token', '一美元能跑多少token'); not a price per token ('$ per million tokens', '每百万 token 多少钱')."""
PER_MONEY = N_("Tokens per %(unit)s: ≈ %(low)s–%(high)s output tokens for %(one)s at that load")


def per_money_line(text: str, report: Any, f: Any, lang: str) -> str | None:
    """The line giving output tokens per one unit of the answer's currency, when ``text`` asks for it
    (:data:`ASKS_PER_MONEY`) and the answer has a price per million tokens; else None."""
    from estimator.money_rates import tokens_per_money

    inf = report.inference
    cpm = inf.cost_per_million_tokens if inf is not None else None
    counts = tokens_per_money(cpm) if cpm is not None and ASKS_PER_MONEY.search(text) else None
    if counts is None:
        return None
    unit = translate(lang, UNITS.get(str(cpm.currency), N_("unit of money")))
    low, high = _three_digits(f, counts[0]), _three_digits(f, counts[1])
    return translate(lang, PER_MONEY, unit=unit, low=low, high=high, one=f.money(1, cpm.currency))


def _three_digits(f: Any, x: float) -> str:
    """Token count ``x`` in Babel's compact form with three significant digits, so both ends of the range
    keep the same precision ('977K–1.95M', '13万–31.3万'; s47 review N3: :meth:`Fmt.compact`'s one
    fraction digit printed 1.95M as '2M', 2.5 % off). Below the first compact unit: :meth:`Fmt.tokens`."""
    from babel.numbers import format_compact_decimal

    plain = f.tokens(x)
    if not any(c.isalpha() or ord(c) > 0x3000 for c in plain):
        return plain  # no compact unit ('2,166' in zh, '980' in en): exact already
    whole = format_compact_decimal(x, locale=f.locale, fraction_digits=0)
    digits = sum(c.isdigit() for c in whole)
    return format_compact_decimal(x, locale=f.locale, fraction_digits=max(0, 3 - digits))


UNITS = {"USD": N_("dollar"), "CNY": N_("yuan"), "EUR": N_("euro")}
"""The currency's one unit, as the question names it."""
