"""A budget's period (issue 24): '预算每月5万', '预算5万/月', '月预算 5 万', '每月预算5万', 'budget $3k a
month', 'monthly budget of $5,000', '$3k/month budget', 'we can spend $50 an hour', 'budget $1200 every
day' — a budget per hour, day, week, month or year (the request's ``budget_period``; a serving answer
compares its cost per month with it: :mod:`estimator.serving_budget`). The period words are masked, so
the amount reads as the budget ('预算每月5万' left '5万' unread) and never as a deadline. '预算两个月' (a
time budget) and '预算100万一个月训完' (a budget and a deadline) have no period word this reads;
'预算每小时100元' is a budget per hour (the hourly price forms leave an amount after a budget word:
:func:`bot.parse.price_forms.zh_hourly_price`), while '每卡每小时 10 元' and '$2 per GPU-hour' stay prices
per GPU-hour. Pure; never raises."""

from __future__ import annotations

import re

from bot.parse.normalize import mask
from bot.parse.regex import rc, words_gate

_UNITS = (
    ("hour", r"小时|时|hourly|\bhours?\b|\bhrs?\b|\bh\b"),
    ("day", r"天|日|daily|days?"),
    ("week", r"周|星期|weekly|weeks?|wks?"),
    ("month", r"月|monthly|months?|mos?"),
    ("year", r"年|yearly|annual|years?|yrs?"),
)
"""Period words → the request's ``budget_period``."""
_CN = r"(?:小时|天|日|周|星期|月|年)"
_EN = r"(?:hours?|hrs?|h|days?|weeks?|wks?|months?|mos?|years?|yrs?)\b"
_BUDGET = r"(?:预算|经费|budget|(?<![a-z])(?:spend|afford)(?![a-z]))"
_MONEY = r"[$¥]?\s*\d[\d,.]*\s*(?:万|千|百|k|w|m)?\s*(?:元|块钱?|人民币|rmb|美元|美金|刀|dollars?|usd|bucks)?"
_CURRENCY_MONEY = (
    r"(?:[$¥]\s*\d[\d,.]*\s*(?:k|m)?\b|\d[\d,.]*\s*(?:k|m)?\s*(?:元|块钱?|人民币|rmb|yuan|cny|美元|美金|"
    r"dollars?|usd|bucks)(?![a-z]))"
)
"""An amount with its currency said ('$3k', '3000 yuan', '5000 元') — a sum of money, never a count."""
_LONG_EN = r"(?:days?|weeks?|months?|years?)\b"
_PER = (
    r"\s*(?:/|每个?|每一个)\s*"
    + _CN
    + r"|\s*(?:/|per|a|an|each|every)\s*"
    + _EN
    + r"|\s+(?:hourly|daily|weekly|monthly|yearly)\b"
)

PERIOD_RES = (
    # '每月预算', '月预算', '月度预算'; s47: '一年预算 50 万', '一个月的预算' (one period's budget)
    rc(
        r"(?P<p>(?:每个?|每一个|(?<![\d十百千万零一二两三四五六七八九])一个?)\s*"
        + _CN
        # s48b: '3 年预算' is 3 years (the second look-behind), never a budget of 3 a year
        + r"|(?<![个两一二三四五六七八九十\d今本])(?<![\d两二三四五六七八九十]\s)"
        + _CN
        + r"度?)\s*的?\s*(?:算力|gpu|显卡|云|租卡)?\s*(?:预算|经费)"  # s47: '一年的 GPU 预算'
    ),
    # 'monthly budget', 'monthly GPU budget'
    rc(r"\b(?P<p>hourly|daily|weekly|monthly|yearly|annual)\s+(?:[a-z]+\s+)?budget"),
    # '预算每月5万', '预算是每个月 5 万', 'budget per month is $3k'
    rc(
        r"(?:预算|经费)\s*(?:是|有|为|:)?\s*(?P<p>(?:每个?|每一个|一个?)\s*"
        + _CN
        + r")(?=\s*(?:约|大概|大约)?\s*[$¥]?\s*\d)"
    ),
    rc(
        r"budget\s+(?P<p>(?:per|a|each)\s+"
        + _EN
        + r")(?=\s*(?:is|of|:|=)?\s*(?:about|around|~)?\s*[$¥]?\s*\d)"
    ),
    # '预算5万/月', '预算 5 万每月', 'budget $3k a month', 'budget of $3,000 per month'
    rc(_BUDGET + r"[^,，。;；!?！？\n]{0,24}?" + _MONEY + r"(?P<p>" + _PER + r")"),
    # '$3k/month budget', '5万每月的预算'
    rc(_MONEY + r"(?P<p>" + _PER + r")\s*(?:的)?\s*(?:gpu\s+|cloud\s+|serving\s+)?" + _BUDGET),
    # '3000 yuan a day', '$500 per week' — an amount with its currency per day or longer, no budget word:
    # prices are per hour, so a sum per day, week, month or year is what may be spent (s11)
    rc(_CURRENCY_MONEY + r"(?P<p>\s*(?:/|per|a|an|each|every)\s*" + _LONG_EN + r")"),
)
"""Where a period is said: before the budget word, between it and the amount, after the amount."""


_BUDGET_WORD_RE = words_gate(("预算", "budget", "经费", "spend", "afford"))


def read_budget_period(s: str) -> tuple[str, str | None]:
    """(the normalized text ``s`` with the period words of its budget masked, the period) — or (``s``,
    None) when no budget in ``s`` has a period. The first period found is read."""
    patterns = PERIOD_RES if _BUDGET_WORD_RE.search(s) else PERIOD_RES[-1:]
    for pattern in patterns:
        m = pattern.search(s)
        if m is None:
            continue
        said = m.group("p").strip()
        for period, words in _UNITS:
            if re.search(words, said):
                start, end = m.span("p")
                return mask(s, start, end, " "), period
    return s, None
