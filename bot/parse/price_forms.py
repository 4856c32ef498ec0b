"""Prices per GPU-hour in more words (issue 24, round 4): '$1.29 per GPU per hour', '$2 per hour per GPU',
'$2/GPU/hr', '$2/hr/GPU', '$2 an hour per card' written 'per gpu-hour' (the form the money
reader takes as a price per GPU-hour, :data:`bot.parse.numbers.PER_HOUR_RE`). Before, '$1.29 per GPU per
hour' was read as a budget of $1.29."""

from __future__ import annotations

import re

from bot.parse.regex import rc

_DEVICE = r"(?:gpus?|cards?|devices?|accelerators?)"
_HOUR = r"(?:hours?|hrs?|h)\b"
PRICE_FORMS = (
    (rc(rf"\bper\s+{_DEVICE}\s*(?:per|/|an?|each)\s*{_HOUR}"), " per gpu-hour "),
    (rc(rf"\b(?:per|an?)\s+{_HOUR}\s*(?:per|/|for\s+each|each)\s*{_DEVICE}"), " per gpu-hour "),
    (rc(rf"/\s*{_DEVICE}\s*/\s*{_HOUR}|/\s*{_HOUR}\s*/\s*{_DEVICE}"), " per gpu-hour "),
)
"""(pattern, rewrite): a price per device and per hour, in either order."""
GATE = re.compile(
    r"(?:gpu|card|device|accelerator)s?\s*(?:per|/|an?|each)\s*h|h(?:ou)?rs?\s*(?:per|/|for each|each)\s*\w"
)


def price_forms(s: str) -> str:
    """The normalized text ``s`` with each price per device-hour written 'per gpu-hour'."""
    return device_hour_prices(s) if GATE.search(s) else s


def device_hour_prices(s: str) -> str:
    """:func:`price_forms` past its gate (:data:`GATE`; tested at the call in bot.parse.count_forms)."""
    for pattern, words in PRICE_FORMS:
        if pattern.search(s):
            s = pattern.sub(words, s)
    return s


_NUM = r"(?P<n>\d+(?:\.\d+)?)"
_CNY = r"(?:元|块钱|块(?!\s*(?:[a-z]|卡|显卡)))"
_AN_HOUR = r"(?:每|一|1)\s*个?\s*(?:小时|钟头)"
ZH_HOURLY_FORMS = (
    (rc(rf"{_NUM}\s*{_CNY}\s*(?:/\s*(?:小时|h\b)|{_AN_HOUR})"), r"\g<n>元每卡时"),
    (rc(rf"{_AN_HOUR}\s*(?:要|是|为|收|:|：)?\s*{_NUM}\s*{_CNY}"), r"\g<n>元每卡时"),
)
"""(pattern, rewrite): '12块一小时', '12元每小时', '12块/小时', '一小时12块', '每小时 12 元': a rent per
GPU-hour in CNY, written '元每卡时' (the form :data:`bot.parse.roles.R_CNY_PER_CARD_HOUR` reads). Before,
'一小时' was read as a 1-hour run and '12块' as 12 GPUs or a budget. The same in US dollars ('3 美元一小时',
'一小时 3 美元', '3刀一小时', '$3一小时'), written '美元每卡时' (the money reader's price per GPU-hour,
:data:`bot.parse.numbers.PER_HOUR_RE`); before, '3 美元一小时' was read as a budget of US$3 (s37 fixc #5)."""
_USD = r"(?:美元|美金|刀)"
_USD_AMOUNT = rf"(?P<d>\$\s*)?{_NUM}\s*(?(d){_USD}?|{_USD})"
"""'$3', '3 美元', '3美金', '3刀', '$3 美元': an amount in US dollars."""
ZH_HOURLY_FORMS += (
    (rc(rf"{_USD_AMOUNT}\s*(?:/\s*(?:小时|h\b)|{_AN_HOUR})"), r"\g<n>美元每卡时"),
    (rc(rf"{_AN_HOUR}\s*(?:要|是|为|收|:|：)?\s*{_USD_AMOUNT}"), r"\g<n>美元每卡时"),
)


_BUDGET_BEFORE = rc(r"(?:预算|经费|budget)[^,，。;；!?！？\n卡]{0,8}$")
"""A budget word just before an amount per hour, no card word between ('预算每小时100元', '每小时预算'
is read by :mod:`bot.parse.budget_period`): a budget per hour (``budget_period``), never a price per
GPU-hour; '预算里每卡每小时 10 元' names a card, so stays a price."""


def zh_hourly_price(s: str) -> str:
    """The normalized text ``s`` with each CNY amount per hour written as a price per GPU-hour, except a
    budget per hour (:data:`_BUDGET_BEFORE`)."""
    if "小时" not in s and "钟头" not in s:
        return s
    for pattern, words in ZH_HOURLY_FORMS:
        s = pattern.sub(lambda m, w=words: _rent(m, w), s)
    return s


def _rent(m: re.Match[str], words: str) -> str:
    if _BUDGET_BEFORE.search(m.string, 0, m.start()):
        return m.group(0)
    glued = m.start() and m.string[m.start() - 1].isalnum()  # '4090一小时2块钱': the card's own digits
    return (" " if glued else "") + m.expand(words)
