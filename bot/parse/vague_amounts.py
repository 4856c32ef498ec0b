"""Rough token amounts read as a number, and said so (issue 24 item 4, field trial: '几十亿 token').

'几十亿', '数十亿' (a few tens of 亿: 20–90 亿, i.e. 2–9 billion), '几百亿', '几千亿', '几万亿', and the
English 'tens of billions' (10–90 billion) or 'hundreds of billions of tokens' name an order of magnitude,
not a number. A token count sets the compute (C = 6·N·D), so the answer sizes the middle of that range and
says how it read it: 几/数/'tens of' × the magnitude with :data:`FEW` = 5 (几 is 2–9 in the Contemporary
Chinese Dictionary's sense of 'a few'; 5 is the middle, never the smallest value the words allow).
Rough amounts of other things ('几十万条' samples) stay named as not used (:mod:`bot.parse.more_roles`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.parse.regex import rc

if TYPE_CHECKING:  # bot.parse.roles imports the count forms, which import this module
    from bot.parse.numbers import NumberToken
    from bot.parse.roles import Role

FEW = 5
"""'几十亿' → 5 × 十亿 = 50亿; 'tens of billions' → 5 × 10 billion = 50 billion: the middle of 2–9."""

_TENS = {"tens": 10.0, "hundreds": 100.0}
_SCALE = {"thousands": 1e3, "millions": 1e6, "billions": 1e9, "trillions": 1e12}
EN_VAGUE_RE = rc(
    r"\b(?:(?P<tens>tens|hundreds)\s+of\s+(?P<scale>thousands|millions|billions|trillions)"
    r"|(?:a\s+few|several)\s+(?P<hundred>hundred\s+)?(?P<unit>thousand|million|billion|trillion))"
    r"(?=\s+(?:of\s+)?(?:(?:training|text|pretraining|pre-training|high-quality|web)\s+)?tokens?\b)"
)
"""'tens of billions of tokens', 'hundreds of billions tokens', 'a few billion tokens', 'several hundred
million tokens': a rough token count (tokens only)."""
GATE = re.compile(" of |few|several", re.IGNORECASE)
"""A cheap test before the pattern (one C-level search)."""
_NOT_ROUGH_BEFORE = "参个总层步轮次条张样点函系倍分"
"""'参数十亿', '个数': 数 ending a word ('parameters', 'count'), not the 数 of '数十亿' (several)."""


def rough_value(tok: NumberToken, s: str) -> float | None:
    """The value of '几十亿'/'数十亿' (``tok`` = '十亿' in the normalized text ``s``): :data:`FEW` × the
    magnitude; None when no 几/数 ('several') stands right before a magnitude word."""
    if tok.kind != "cn" or tok.start == 0 or tok.raw.strip()[:1] not in ("十", "百", "千", "万", "亿"):
        return None
    before = s[tok.start - 1]
    if before == "数" and (tok.start < 2 or s[tok.start - 2] not in _NOT_ROUGH_BEFORE):
        return FEW * tok.value
    return FEW * tok.value if before == "几" else None


def rough_typed(tok: NumberToken, s: str) -> str:
    """'几十亿' / '数十亿': the rough amount as typed (the magnitude with its 几 or 数)."""
    return s[tok.start - 1] + tok.raw.strip()


RESTATED_RE = rc(
    r"(?P<rough>(?:a\s+few|several)\s+(?:hundred\s+)?(?:thousand|million|billion)"
    r"|(?:tens|hundreds)\s+of\s+(?:thousands|millions|billions)|[几数](?:十|百|千|万)+亿?)"
    r"(?P<mid>\s*(?:个\s*)?(?:tokens?|词元)[^()（）\n]{0,30}?)"
    r"\s*[(（]\s*(?:avg\.?|average|mean|on\s+average|about|around|roughly|approx\.?|~|≈|约|平均|大约|大概)"
    r"\s*(?:of\s*|[:：=]\s*)?(?P<n>\d[\d,.]*\s*[kmb]?)\s*(?:tokens?|词元)?\s*[)）]"
)
"""A rough token amount then its figure in brackets: 'a few thousand tokens each (avg 4k)', '每条几千 token
（平均 4000）' — the figure the user gave is the amount (trial s11 item 10)."""


def restated(s: str) -> str:
    """``s`` with a rough token amount followed by its stated figure (:data:`RESTATED_RE`) written as that
    figure ('4k tokens each'): the figure is read, the rough words are not sized."""
    if "(" not in s and "（" not in s:
        return s
    return RESTATED_RE.sub(lambda m: m["n"] + m["mid"], s)


def english_rough(s: str) -> str:
    """``s`` with 'tens of billions of tokens' written as '50 billion tokens' (the number the count rules
    read; :func:`english_read` names what was read)."""
    return rough_words(s) if GATE.search(s) else s


def rough_words(s: str) -> str:
    """:func:`english_rough` past its gate (:data:`GATE`; tested at the call in bot.parse.count_forms)."""
    return EN_VAGUE_RE.sub(lambda m: f"{FEW * _times(m):g} {_unit(m)}", s)


def english_read(raw: str) -> list[tuple[str, float]]:
    """Each rough English token amount of the message ``raw``, as typed, with the value sized."""
    if not GATE.search(raw):
        return []
    low = raw.lower()  # the patterns read lower case, as the normalized text is
    same = len(low) == len(raw)
    stated = [m.start() for m in RESTATED_RE.finditer(low)]  # 'a few thousand tokens (avg 4k)': 4k read
    return [
        (raw[m.start() : m.end()] if same else m.group(0), _value(m))
        for m in EN_VAGUE_RE.finditer(low)
        if m.start() not in stated
    ]


def _times(m: re.Match[str]) -> float:
    """10 ('tens of'), 100 ('hundreds of', 'several hundred'), or 1 ('a few', 'several')."""
    if m["tens"]:
        return _TENS[m["tens"].lower()]
    return 100.0 if m["hundred"] else 1.0


def _unit(m: re.Match[str]) -> str:
    return (m["scale"] or m["unit"] + "s").lower()[:-1]


def _value(m: re.Match[str]) -> float:
    return FEW * _times(m) * _SCALE[_unit(m) + "s"]


def read_rough(role: Role | None, tok: NumberToken, s: str, read: list[tuple[str, float]]) -> Role | None:
    """``role`` with a rough token amount ('几十亿 token', '数十亿 tokens') given its sized value, which is
    added to ``read`` as typed; any other role as it is."""
    if role is None or role.role != "tokens":
        return role
    value = rough_value(tok, s)
    if value is None:
        return role
    read.append((rough_typed(tok, s), value))
    return replace(role, value=value)
