"""A count written in Chinese numerals before its classifier, as Arabic digits ('四张显卡' → '4张显卡').

s31 metamorphic sweep (tests/metamorphic.py, family ``numerals_zh``): every working-split question read
in full with '4 张' was still read in full with Arabic digits, but not always with the Chinese numeral
('服务器有 四张显卡，每张 23GB' sized 23/4 = 5.75 GB a card; '每台 十六张 32G 显存的卡' 0.5 GB;
'两张 h20 做推理，六张 h20 训练' 2 cards, not 8): the readers after this one know the Arabic form.
Numerals 1–99 (一 … 九十九, 两) before a classifier of cards, machines or nodes; '千卡', '单卡',
'双卡' and '几张' keep their readers, '一块钱' is money.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2}

COUNT_RE = rc(
    r"(?<![零〇一二两三四五六七八九十百千万亿\d.第])([一二两三四五六七八九]?十[一二三四五六七八九]?|[一二两三四五六七八九])"
    r"(?=\s?(?:张|块(?!钱)|台|卡(?![片住顿])|个?节点|机(?!制|会|理)))"
)
"""A Chinese numeral of 1–99 (not after another numeral, a digit or 第 … as part of a longer number) right
before a classifier of cards or machines: 张/块/台/卡, 节点/机. Not of time: '一天只开8小时' is a rate per
day, its reader's (bot.parse.daily_hours)."""


def _value(numeral: str) -> int | None:
    """1–99 of '四', '两', '十六', '三十', '九十九'; None for anything else."""
    if "十" not in numeral:
        return _DIGITS.get(numeral)
    tens, _, ones = numeral.partition("十")
    if tens == "两":
        return None  # '两十' is no numeral
    return (_DIGITS[tens] if tens else 1) * 10 + (_DIGITS[ones] if ones else 0)


def _arabic(m: re.Match[str]) -> str:
    value = _value(m.group(1))
    return m.group(0) if value is None else str(value)


def arabic_counts(s: str) -> str:
    """``s`` with each count of :data:`COUNT_RE` in Arabic digits ('两台八卡' → '2台8卡')."""
    return COUNT_RE.sub(_arabic, s)
