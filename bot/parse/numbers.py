"""Numbers as people type them in sizing questions, Chinese and English.

Arabic numerals with separators, decimals and exponents (``1,000``, ``1.5``, ``2e12``), Chinese
numerals (``七十亿``, ``三千亿``, ``两千``, ``一万亿``, ``千亿``), magnitude words mixed with digits
(``1.5万亿``, ``3000亿``, ``2万``), English suffixes and words (``7B``, ``7 billion``, ``1T``,
``500M``, ``32k``, ``four``, ``a million``), percentages (``40%``, ``百分之四十``) and money
(``¥15``, ``100万元``, ``$2.50/hr``, ``US$10k``).

:func:`scan_numbers` finds every number in a normalized (lower-case, NFKC) text with its position
and its magnitude word, so the parser can decide from the words around it what the number means.
No third-party numeral package: the rules are small and tested in ``tests/test_numbers.py``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bot.parse.regex import compile_pattern, rc

CN_DIGITS: dict[str, int] = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
CN_SMALL_UNITS: dict[str, int] = {"十": 10, "百": 100, "千": 1000}
CN_BIG_UNITS: dict[str, int] = {"万": 10**4, "亿": 10**8}
CN_CHARS = "".join(CN_DIGITS) + "".join(CN_SMALL_UNITS) + "".join(CN_BIG_UNITS)
_NUMERAL_CHARS = CN_CHARS + "点"

# Magnitude words after a number. Single letters are only magnitudes when glued to the digits
# ("7b", "2t", "32k"); "1tb" is bytes, not trillions. k/m/b/t are decimal here (the parser
# reads "32k" context as 32,768 itself).
WORD_MAGNITUDES: dict[str, float] = {
    "thousand": 1e3,
    "k": 1e3,
    "million": 1e6,
    "mn": 1e6,
    "m": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "b": 1e9,
    "trillion": 1e12,
    "t": 1e12,
    # beyond any model, said to test the bounds ('a 500 quadrillion parameter model'): read, then named
    "quadrillion": 1e15,
    "quintillion": 1e18,
    "sextillion": 1e21,
    # everyday Chinese shorthand: 80w = 80万, 5kw = 5千万 (glued to the digits, like 7b)
    "w": 1e4,
    "kw": 1e7,
}
ENGLISH_WORD_NUMBERS: dict[str, int] = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "sixteen": 16,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "thousand": 1000,
    "single": 1,
    "a single": 1,
    "pair of": 2,
    "a pair of": 2,
    "couple of": 2,
    "a couple of": 2,
    "dozen": 12,
    "a dozen": 12,
}

_CN_MAG = r"亿亿|千万亿|百万亿|十万亿|万亿|千亿|百亿|十亿|亿|千万|百万|十万|万|千|百"
_EN_MAG = r"sextillion|quintillion|quadrillion|trillion|billion|million|thousand|bn|mn"
NUMBER_RE = rc(
    r"(?=[-−0-9adefnopst零〇一二两三四五六七八九十百千万亿])"  # what a number starts with: other text skipped
    r"(?P<sign>(?<![a-z0-9.万千亿])[-−])?"  # s43: '1万-5万条' is a range, not minus 5万
    r"(?:"
    r"(?P<digits>(?<![a-z0-9_.])(?<!\d,)(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[+-]?\d+)?(?![\d]))"
    r"|(?P<cn>[零〇一二两三四五六七八九十百千万亿]+(?:点[零〇一二两三四五六七八九]+[十百千万亿]*)?)"
    r"|(?P<word>\b(?:a\s+single|a\s+pair\s+of|pair\s+of|a\s+couple\s+of|a\s+dozen|"
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|twenty|thirty|"
    r"forty|fifty|sixty|seventy|eighty|ninety|single|dozen)\b)"
    r"|(?P<aword>\b(?:a|an|one|per)\s+(?=(?:hundred|thousand|million|billion|trillion)\b))"
    r")"
    r"(?P<mag>\s*(?:" + _CN_MAG + r")|\s?(?:" + _EN_MAG + r")\b|kw(?![a-z])|[kmbtw](?![a-z]))?"
)
CJK_RE = rc(r"[\u4e00-\u9fff]")
PERCENT_CN_RE = rc(r"百分之([零〇一二两三四五六七八九十百点\d.]+)")


@dataclass(frozen=True, slots=True)
class NumberToken:
    """One number in a text: value (magnitude applied), span, and how it was written."""

    value: float
    start: int
    end: int
    raw: str
    mag: str | None = None
    kind: str = "digits"  # digits | cn | word

    @property
    def mag_scale(self) -> str | None:
        """'T' (≥ 1e12 magnitude word), 'B' (1e8–1e11), 'M', 'K', or None: how big the written unit is."""
        return scale_letter(self.mag) if self.mag else None


@lru_cache(maxsize=256)  # C wrapper: a word seen before costs no Python frame (~4 a parse, s30-spparse)
def scale_letter(mag: str) -> str:
    """:attr:`NumberToken.mag_scale` of the magnitude word ``mag`` (as :func:`magnitude_value` reads it)."""
    scale = magnitude_value(mag)
    if scale >= 1e12:
        return "T"
    if scale >= 1e8:
        return "B"
    if scale >= 1e6:
        return "M"
    return "K"


def magnitude_value(word: str) -> float:
    """Multiplier of a magnitude word: '万亿' → 1e12, 'b' → 1e9, 'k' → 1e3 (1 if unknown)."""
    w = word.strip().lower()
    if w in WORD_MAGNITUDES:
        return WORD_MAGNITUDES[w]
    scale = 1.0
    for ch in w:
        if ch in CN_SMALL_UNITS:
            scale *= CN_SMALL_UNITS[ch]
        elif ch in CN_BIG_UNITS:
            scale *= CN_BIG_UNITS[ch]
        else:
            return 1.0
    return scale


def parse_chinese_numeral(text: str) -> float | None:
    """Chinese numeral → number: '七十亿' → 7e9, '一万亿' → 1e12, '两千' → 2000, '千亿' → 1e11,
    '一千零五' → 1005, '一点五万亿' → 1.5e12, '十' → 10. None when it is not a number."""
    s = text.strip()
    if not s or s.strip(_NUMERAL_CHARS):  # what is left once every numeral character is stripped: not one
        return None
    if "点" in s:
        head, _, tail = s.partition("点")
        i = 0
        while i < len(tail) and tail[i] in CN_DIGITS:
            i += 1
        decimals, units = tail[:i], tail[i:]
        if not decimals:
            return None
        base = parse_chinese_numeral(head) if head else 0.0
        if base is None:
            return None
        frac = float("0." + "".join(str(CN_DIGITS[c]) for c in decimals))
        scale = magnitude_value(units) if units else 1.0
        return (base + frac) * scale
    total = 0
    section = 0
    digit: int | None = None
    for ch in s:
        if ch in CN_DIGITS:
            digit = CN_DIGITS[ch]
        elif ch in CN_SMALL_UNITS:
            section += (1 if digit is None else digit) * CN_SMALL_UNITS[ch]
            digit = None
        elif ch == "万":
            section = (section + (digit or 0)) or 1
            section *= 10**4
            digit = None
        elif ch == "亿":
            total = ((total + section + (digit or 0)) or 1) * 10**8
            section = 0
            digit = None
    return float(total + section + (digit or 0))


def parse_arabic(text: str) -> float | None:
    """'1,000' → 1000, '1.5' → 1.5, '2e12' → 2e12; None if not a plain number."""
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _token_value(m: re.Match[str]) -> tuple[float | None, str]:
    if m.group("digits"):
        return parse_arabic(m.group("digits")), "digits"
    if m.group("cn"):
        return parse_chinese_numeral(m.group("cn")), "cn"
    if m.group("word"):
        word = " ".join(m.group("word").split())
        return float(ENGLISH_WORD_NUMBERS.get(word, 0)) or None, "word"
    if m.group("aword"):
        return 1.0, "word"
    return None, "digits"


ONE_IN_A_WORD = frozenset("直起样般些定旦切致边向律同再共齐道并下" + "开味旁路面贯概番系模点会")
"""Characters that make 一 part of a word ('一直' all along, '一起' together, '一共' in total, '一下' a
moment; '一开始' at first, '一点' a little, '一会' a while, '一系列' a series …), not the number one."""


MONEY_BEFORE_RE = compile_pattern(r"(?:budget|spend|cost|rmb|cny|¥|元)\s*(?:of|is|about|around|~|:|=)?\s*$")
MONEY_AFTER_RE = compile_pattern(r"\s*(?:rmb|cny|yuan|元|(?:of\s+)?budget)\b")
"""Money words before or after a number: its 'w' / 'kw' is 万 / 千万 even in English text ('budget 3kw',
'1.5kw RMB')."""


MINUS_MONEY_RE = compile_pattern(r"(?<![a-z0-9.])[-−][$¥￥€£]\s?$")
"""A minus sign right before a currency sign ('budget -$2000', '-¥500'; a spaced dash is a separator):
the amount is negative (trial s11 item 14: before, '-$2000' was sized as a budget of $2,000)."""


def scan_numbers(text: str) -> list[NumberToken]:
    """All numbers in a normalized lower-case text, left to right, magnitude word applied.

    A leading minus sign (not a hyphen inside a name like 'qwen2.5-7b'), also before a currency sign
    ('-$2000'), makes the value negative, so the caller can drop it.
    """
    out: list[NumberToken] = []
    cjk = CJK_RE.search(text) is not None
    for m in NUMBER_RE.finditer(text):
        value, kind = _token_value(m)
        if value is None:
            continue
        mag = m.group("mag")
        if m.group("cn") == "一" and not mag and text[m.end() : m.end() + 1] in ONE_IN_A_WORD:
            continue  # "一直到 100k", "一起", "一共": a word, not the number one
        if mag in ("w", "kw") and not cjk and not _money_beside(text, m):  # "450W", "10kW" in English
            # text are watts, not 万 ("budget 3kw", "¥1.5kw": money, so Chinese shorthand: 3千万)
            mag = None
        cn = m.group("cn")
        if kind == "cn" and cn and mag:
            # "三千" + "亿" are one Chinese numeral: fold the magnitude into the numeral text.
            value = parse_chinese_numeral(cn + mag.strip())
            if value is None:
                continue
            mag_word: str | None = _trailing_cn_units(cn + mag.strip())
        elif mag:
            value *= magnitude_value(mag)
            mag_word = mag.strip()
        else:
            mag_word = _trailing_cn_units(cn) if kind == "cn" and cn else None
        raw = m.group(0)
        minus = None if m.group("sign") else MINUS_MONEY_RE.search(text[max(0, m.start() - 4) : m.start()])
        if m.group("sign") or minus:
            value, raw = -value, (minus.group(0).replace(" ", "") if minus else "") + raw  # '-$2000' as typed
        if not math.isfinite(value):
            continue
        out.append(NumberToken(value, m.start(), m.end(), raw, mag_word or None, kind))
    return out


def _money_beside(text: str, m: re.Match[str]) -> bool:
    """Whether a money word stands just before or after the number ``m`` (read only for a 'w'/'kw')."""
    before = MONEY_BEFORE_RE.search(text[max(0, m.start() - 24) : m.start()])
    return bool(before or MONEY_AFTER_RE.match(text, m.end()))


def _trailing_cn_units(cn: str) -> str | None:
    """'七十亿' → '亿', '一万亿' → '万亿', '三千' → None (small units are not magnitude words)."""
    i = len(cn)
    while i > 0 and cn[i - 1] in CN_BIG_UNITS:
        i -= 1
    return cn[i:] or None


_CURRENCY_FIRST = compile_pattern(r"^(?:us\$|\$|¥|￥|rmb|cny|usd)\s*")
"""A currency written before an amount ('$5', 'rmb 100'; :func:`parse_number` drops it)."""
_MONEY_UNIT = compile_pattern(r"\s*(?:元|块钱|块|人民币|rmb|cny|yuan|美元|美金|刀|dollars?|usd|bucks)?")
"""A currency word after an amount (:func:`parse_money`: a per-hour rate may follow it)."""


def parse_number(text: str) -> float | None:
    """One number written any supported way: '1,000', '2e12', '七十亿', '1.5万亿', '7B', '7 billion',
    '500M', '8k', '40%' (→ 0.4), '百分之四十' (→ 0.4), '$10k' (→ 10000). None if there is none."""
    s = text.strip().lower()
    pm = PERCENT_CN_RE.fullmatch(s)
    if pm:
        inner = parse_number(pm.group(1))
        return None if inner is None else inner / 100
    s = _CURRENCY_FIRST.sub("", s)
    percent = s.endswith("%")
    s = s.rstrip("%").strip()
    tokens = scan_numbers(s)
    if not tokens:
        return None
    value = tokens[0].value
    return value / 100 if percent else value


@dataclass(frozen=True, slots=True)
class Money:
    amount: float
    currency: str | None  # "CNY" | "USD" | None
    per_gpu_hour: bool = False


_MONEY_PREFIX = rc(r"^\s*(us\$|\$|¥|￥|rmb|cny|usd)\s*")
_MONEY_SUFFIX_CNY = rc(r"(元|块钱|块|人民币|rmb|cny|yuan)")
_MONEY_SUFFIX_USD = rc(r"(美元|美金|刀|dollars?|usd|bucks)")
PER_HOUR_RE = rc(
    r"^\s*(?:each\s*)?(?:/\s*(?:gpu[\s-]*|卡\s*[·/]?\s*)?(?:hr|hour|h|小时|时)(?![a-z])"
    r"|/\s*卡时|per\s+(?:gpu[\s-]*)?(?:hour|hr|h)\b|an?\s+(?:gpu[\s-]*)?hour|每(?:卡)?(?:小时|卡时))"
)


def parse_money(text: str) -> Money | None:
    """'¥15' → 15 CNY, '100万人民币' → 1e6 CNY, '$2.50/hr' → 2.5 USD per GPU-hour, '$10k' → 1e4 USD."""
    s = text.strip().lower()
    currency: str | None = None
    pm = _MONEY_PREFIX.match(s)
    if pm:
        currency = "CNY" if pm.group(1) in ("¥", "￥", "rmb", "cny") else "USD"
        s = s[pm.end() :]
    tokens = scan_numbers(s)
    if not tokens:
        return None
    tok = tokens[0]
    rest = s[tok.end :]
    if currency is None:
        if _MONEY_SUFFIX_CNY.match(rest.lstrip()):
            currency = "CNY"
        elif _MONEY_SUFFIX_USD.match(rest.lstrip()):
            currency = "USD"
    unit = _MONEY_UNIT.match(rest)
    per_hour = bool(PER_HOUR_RE.match(rest[unit.end() if unit else 0 :]))
    return Money(tok.value, currency, per_hour)


def size_as_typed(roles: list[Any], params: float) -> str:
    """A model size beyond the bounds, named as the user typed it ('500 quadrillion', '50 亿亿'; trial s17
    #5): the raw text of the ``params`` role of that value when it has a word or CJK magnitude, else the
    value in billions ('1,000,000B', not the normalized '1000000b'). ``roles``: bot.parse.roles.Role
    (``role``, ``value``, ``tok.raw``)."""
    said = next((r.tok.raw.strip() for r in roles if r.role == "params" and r.value == params), "")
    return said if " " in said or not said.isascii() else f"{params / 1e9:,.0f}B"  # not '1000000b'
