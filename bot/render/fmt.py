"""Number formatting for replies, bound to one locale (Babel CLDR data, no global state).

Conventions (docs/design.md §5):
- magnitudes: CLDR compact form with one fraction digit (``9.3万`` / ``93.5K``);
- figures a user copies: exact, grouped (``93,483``);
- money: currency symbol of the locale (``¥1,402,245`` / ``US$…``), compact for headlines;
- FLOPs: ``4.2×10²²`` (superscript exponent, not localized);
- model sizes never localized: ``7B``, ``0.5B``, ``1.7T``, ``100M``;
- bytes: GB (1e9) for model weights and totals, GiB (2**30) for GPU capacity — always labelled.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from decimal import ROUND_HALF_EVEN, Decimal
from functools import cache, lru_cache, wraps
from typing import Any

from babel import Locale
from babel.numbers import (
    format_compact_decimal,
    format_currency,
    format_decimal,
    format_percent,
)

from bot.render.cldr_subset import seed
from estimator.units import GIB

GB = 1e9
KIB = 2**10

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")

LOCALES = {"zh": "zh_CN", "en": "en"}
"""Reply language (as ``bot.parse.Lang``) → Babel locale id."""

CLDR_IDS = {"zh_CN": "zh_Hans_CN"}
"""Babel locale id → the CLDR data file's own name, where they differ (the same ``Locale``:
``Locale.parse("zh_CN") == Locale.parse("zh_Hans_CN")``). ``Locale.parse("zh_CN")`` finds no
``zh_CN.dat``, lists Babel's ~1,150 locale files and loads its global data (likely subtags) to get
there: ~5 ms of a ``sizing-bot ask`` start-up in Chinese (issue 23 item 7), skipped by naming the file."""

LIST_SEPARATORS = {"zh": "，", "en": ", "}
"""Separator between short phrases in one line (CLDR has no narrow zh list pattern that fits)."""


def locale_for(lang: str) -> str:
    """Babel locale id for a reply language; unknown languages fall back to English."""
    return LOCALES.get(lang, lang if lang in LOCALES.values() else "en")


HUGE = 1e12
"""From here a GPU-hour or money figure is shown in scientific form: a trillion GPU-hours is ~10⁴ times
the largest published run; 15 grouped digits read as noise (s36 fixa #6)."""


def sci(x: float, digits: int = 2) -> str:
    """``4.2e22`` → ``4.2×10²²``, ``3.15e23`` → ``3.15×10²³``: up to ``digits`` fraction digits."""
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else str(x)
    exp = math.floor(math.log10(abs(x)))
    mant = round(x / 10**exp, digits)
    if abs(mant) >= 10:  # 9.96 → 10.0 after rounding
        mant /= 10
        exp += 1
    m = f"{mant:.{digits}f}".rstrip("0").rstrip(".")
    if exp == 0:
        return m
    return f"{m}×10{str(exp).translate(_SUPERSCRIPT)}"


def params(n: float) -> str:
    """Model size as the field writes it, never localized: 7e9 → ``7B``, 5e8 → ``0.5B``, 1.7e12 → ``1.7T``."""
    if n >= 1e12:
        v, suffix = n / 1e12, "T"
    elif n >= 3e8:
        v, suffix = n / 1e9, "B"
    elif n >= 1e6:
        v, suffix = n / 1e6, "M"
    else:
        v, suffix = n / 1e3, "K"
    text = f"{v:.1f}" if v < 100 else f"{v:.0f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text + suffix


def display_width(s: str) -> int:
    """Terminal/monospace width: East Asian wide and full-width characters count as 2."""
    if s.isascii():  # no ASCII character is wide (east_asian_width "Na" or "N")
        return len(s)
    return _wide_width(s)


@lru_cache(maxsize=4096)
def _wide_width(s: str) -> int:
    """:func:`display_width` of a text with a non-ASCII character, remembered: the same labels and
    bars ("权重", "██████▌") are measured in every reply, a character at a time (~20 a reply)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def ljust(s: str, width: int) -> str:
    """``s`` padded on the right to ``width`` cells (:func:`display_width`, written out: no frame)."""
    return s + " " * max(0, width - (len(s) if s.isascii() else _wide_width(s)))


def rjust(s: str, width: int) -> str:
    """``s`` padded on the left to ``width`` cells (:func:`display_width`, written out: no frame)."""
    return " " * max(0, width - (len(s) if s.isascii() else _wide_width(s))) + s


def bar(fraction: float, width: int = 10) -> str:
    """A text bar of ``width`` cells for a fraction in [0, 1], in eighth blocks (reads on a phone)."""
    fraction = min(max(fraction, 0.0), 1.0)
    eighths = round(fraction * width * 8)
    if fraction > 0 and eighths == 0:
        eighths = 1
    full, rest = divmod(eighths, 8)
    return "█" * full + ("" if rest == 0 else " ▏▎▍▌▋▊▉"[rest])


MEMO_ENTRIES = 4096
"""Bound on each formatter's memo of Babel results (cleared when full)."""


def _memo(method: Callable[..., str]) -> Callable[..., str]:
    """Remember a Babel-backed result per formatter: a reply formats ~20 numbers and a busy bot
    formats the same prices and GPU-hours again and again; Babel's pattern path costs ~30 µs each."""

    @wraps(method)
    def memoized(self: Fmt, *args: Any) -> str:
        key = (method.__name__, *args)
        text = self._memo.get(key)
        if text is None:
            if len(self._memo) >= MEMO_ENTRIES:
                self._memo.clear()
            text = self._memo[key] = method(self, *args)
        return text

    return memoized


FLOAT_DIGITS = 6
"""Most fraction digits :meth:`Fmt.num` rounds with Python's float formatting (more: Decimal's steps)."""


def _tie(shortest: str, digits: int) -> bool:
    """Whether rounding the decimal ``shortest`` (a float's repr, no exponent) to ``digits`` fraction
    digits is a tie: its digits after those are exactly ``5``. Only there can rounding the decimal
    text half-even (Decimal, as CLDR) and rounding the float's exact binary value (``format``) part:
    no other rounding point lies between a float and its shortest repr (that point would round-trip
    and be shorter). Checked against the Decimal steps: tests/test_render_s18_speed.py."""
    return shortest[shortest.index(".") + 1 + digits :] == "5"


class Fmt:
    """Formatters for one locale. Cheap to share: build with :func:`fmt_for`. ``cents``: the reply's
    money is in the cents style (:func:`needs_cents`): every amount and unit price with cents."""

    def __init__(self, lang: str, cents: bool = False) -> None:
        self.lang = lang
        self.cents = cents
        locale = locale_for(lang)
        cldr_id = CLDR_IDS.get(locale, locale)
        seed(cldr_id)  # the build's stored CLDR keys, not Babel's whole locale chain (bot.render.cldr_subset)
        self.locale = Locale.parse(cldr_id)
        symbols = self.locale.number_symbols.get("latn", self.locale.number_symbols)
        # en and zh_CN group with "," and use "." for decimals: Python's own formatting gives the same
        # text as CLDR there, several times faster (Babel was ~30 % of a reply's rendering time)
        self._python_digits = symbols.get("group") == "," and symbols.get("decimal") == "."
        self._memo: dict[tuple, str] = {}

    # plain numbers -------------------------------------------------------------------------
    def int(self, x: float) -> str:
        """Exact grouped integer: ``93,483``."""
        if self._python_digits:
            return f"{round(x):,}"
        return format_decimal(round(x), locale=self.locale)

    def num(self, x: float, digits: int = 1) -> str:
        """Grouped decimal with at most ``digits`` fraction digits (half-even, as CLDR): ``1,234.5``."""
        if self._python_digits and math.isfinite(x) and abs(x) < 1e15:  # quantize keeps ≤ 28 digits
            shortest = repr(float(x))
            # not _tie(shortest, digits), written out: no frame a number (s36)
            if (
                0 <= digits <= FLOAT_DIGITS
                and "e" not in shortest
                and shortest[shortest.index(".") + 1 + digits :] != "5"
            ):
                # the same digits as the Decimal steps (_tie), in C; never more than the shortest repr's
                # own (the float's binary digits beyond it are noise the Decimal never sees)
                shown = min(digits, len(shortest) - shortest.index(".") - 1)
                text = f"{float(x):,.{shown}f}"
            else:
                q = Decimal(shortest).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN)
                text = f"{q:,f}"
            if "." in text:
                text = text.rstrip("0").rstrip(".")
            return "0" if text in ("-0", "") else text
        pattern = "#,##0" + ("." + "#" * digits if digits > 0 else "")
        return format_decimal(x, format=pattern, locale=self.locale)

    def small(self, x: float) -> str:
        """A small positive quantity with two significant digits, never rounded to ``0``: ``0.04``,
        ``0.000066`` (issue 22 item 8: a job of 1K tokens is 0.000066 GPU-hours, not 0)."""
        if x == 0 or not math.isfinite(x):
            return self.num(x, 0)
        return self.num(x, max(2, 1 - math.floor(math.log10(abs(x)))))

    @_memo
    def compact(self, x: float) -> str:
        """CLDR compact form with one fraction digit: ``9.3万``/``93.5K``; ``140万`` not ``140.2万``."""
        if 0 < abs(x) < 0.1:  # one fraction digit would print 0
            return self.small(x)
        if abs(x) < 1000:
            return self.num(x, 1 if abs(x) < 100 else 0)
        if self.lang == "zh" and abs(x) < 10_000:  # Chinese has no compact form below 万: "2,166"
            return self.int(x)
        text = format_compact_decimal(x, locale=self.locale, fraction_digits=1)
        digits = "".join(c for c in text.split(".")[0] if c.isdigit())
        if len(digits) >= 3:  # "140.2万" → "140万": three significant digits are enough
            text = format_compact_decimal(x, locale=self.locale, fraction_digits=0)
        return text

    tokens = compact
    """Token counts: compact (``1万亿``/``1T``); :meth:`compact` itself (s36: one frame a count, not two)."""

    @_memo
    def percent(self, f: float) -> str:
        """Fraction → percent: 0.4 → ``40%``, 0.375 → ``37.5%``."""
        return format_percent(f, format="#,##0.#%", locale=self.locale)

    def hours(self, h: float) -> str:
        """GPU-hours: exact and grouped from 10 up (``93,483``), else with decimals (``0.31``, ``2.5``,
        ``1.0``: never a bare ``1`` that reads as a count, s32 trial)."""
        if h >= HUGE:  # '6.02×10¹⁴', not '601,615,216,533,349': beyond any real job (s36 fixa #6)
            return sci(h)
        if h >= 10:  # self.int(h), its Python path in place (a reply words ~2 GPU-hour figures)
            return f"{round(h):,}" if self._python_digits else self.int(h)
        if 0 < h < 0.01:  # two decimals would print 0
            return self.small(h)
        text = self.num(h, 1 if h >= 1 else 2)  # '1.0', not '1': a figure under 10 keeps its decimal (s32)
        return text if "." in text or h == round(h) else text + ".0"  # a whole count (billed hours): "1"

    def days(self, d: float) -> str:
        """Days: two decimals under 1 (``0.12``), one under 10 (``7.6``), whole numbers above (``61``)."""
        if 0 < d < 0.001:  # four decimals would print 0
            return self.small(d)
        if d < 1:  # two significant digits for tiny jobs: 0.45, 0.012, 0.0021
            return self.num(d, 2 if d >= 0.1 else 3 if d >= 0.01 else 4)
        if d < 10:
            return self.num(d, 1)
        return f"{round(d):,}" if self._python_digits else self.int(d)  # self.int(d), in place

    def duration(self, days: float) -> tuple[str, str]:
        """A wall-clock time in the unit a person reads it in: ``("1.6", "days")`` from a day up,
        ``("5.2", "hours")`` from an hour up, else whole ``("13", "minutes")`` (at least 1) — never
        "0.034 days". The unit is a key the caller words (``minutes``, ``hours``, ``days``)."""
        if days >= 1:
            return self.days(days), "days"
        hours = days * 24
        if hours >= 1:
            return self.num(hours, 1), "hours"
        return self.int(max(1, math.ceil(hours * 60 - 1e-9))), "minutes"

    # money -------------------------------------------------------------------------------
    @_memo
    def money(self, amount: float, currency: str) -> str:
        """Exact money with the locale's symbol, whole units: ``¥1,402,245``; cents below 100 (``$0.09``)
        or in the cents style."""
        if abs(amount) >= HUGE:  # '$9.02×10¹⁴', not '$902,422,824,800,024' (s36 fixa #6)
            return format_currency(0, str(currency), format="¤", locale=self.locale) + sci(amount)
        if 0 < abs(amount) < 100 or self.cents:
            return format_currency(
                amount, str(currency), format="¤#,##0.00", locale=self.locale, currency_digits=False
            )
        return format_currency(
            round(amount), str(currency), format="¤#,##0", locale=self.locale, currency_digits=False
        )

    @_memo
    def price(self, amount: float, currency: str, cents: bool = False) -> str:
        """A unit price: ``¥15``, ``US$1.20`` — cents when it has them, and always with ``cents`` (a
        reply whose amounts carry cents writes its prices so too: ``¥21.00``; see :func:`needs_cents`)."""
        pattern = "¤#,##0" if float(amount).is_integer() and not (cents or self.cents) else "¤#,##0.00"
        return format_currency(
            amount, str(currency), format=pattern, locale=self.locale, currency_digits=False
        )

    def price_range(self, low: float, high: float, currency: str, cents: bool = False) -> str:
        """``¥15–30`` (symbol once); a single price when low == high. Both ends in one style: with cents
        when either has them or ``cents`` says so (``$1.50–3.00``, never ``$1.50–3``)."""
        if low == high:
            return self.price(low, currency, cents)
        cents = cents or self.cents or not (float(low).is_integer() and float(high).is_integer())
        return f"{self.price(low, currency, cents)}–{self._range_end(high, cents)}"

    def _range_end(self, high: float, cents: bool) -> str:
        """The upper end of a price range, without the symbol (Babel, ~20 µs: remembered, as prices are)."""
        if high == 0:  # -0.0 and 0.0 are one key but not one text: not remembered
            return format_decimal(high, format="#,##0.00" if cents else "#,##0", locale=self.locale)
        return self._range_end_text(high, bool(cents))

    @_memo
    def _range_end_text(self, high: float, cents: bool) -> str:
        return format_decimal(high, format="#,##0.00" if cents else "#,##0", locale=self.locale)

    def money_compact(self, amount: float, currency: str) -> str:
        """Headline money: ``¥140万`` / ``CN¥1.4M``."""
        if abs(amount) < 10_000:
            return self.money(amount, currency)
        symbol = format_currency(0, str(currency), format="¤", locale=self.locale, currency_digits=False)
        symbol = symbol.replace("0", "").strip()
        return symbol + self.compact(amount)

    # science / hardware ------------------------------------------------------------------
    @staticmethod
    def sci(x: float) -> str:
        return sci(x)

    @staticmethod
    def params(n: float) -> str:
        return params(n)

    @_memo  # remembered by the bytes (one call where a hit was two: a reply shows ~12 sizes)
    def gb(self, nbytes: float) -> str:
        """Decimal gigabytes (1 GB = 10⁹ B), for weights and totals: ``140 GB``."""
        v = nbytes / GB
        return f"{self._one_decimal(v)} GB"

    @_memo
    def gib(self, nbytes: float) -> str:
        """Binary gibibytes (1 GiB = 2³⁰ B), for GPU memory: ``80 GiB``."""
        v = nbytes / GIB
        return f"{self._one_decimal(v)} GiB"

    def gibs(self, values: list[float]) -> list[str]:
        """``[self.gib(v) for v in values]``, the memo read in place: one frame for a chart's parts,
        not one a part (the memo's key is :func:`_memo`'s, ``("gib", v)``)."""
        memo, out = self._memo, []
        for v in values:
            text = memo.get(("gib", v))
            out.append(self.gib(v) if text is None else text)
        return out

    @_memo
    def _one_decimal(self, v: float) -> str:
        """``8.0``, ``13.7``; whole numbers from 100 up (``140``, ``1,087``); ``80`` for exact values."""
        if v >= 100 or float(v).is_integer():
            return self.int(v)
        return format_decimal(v, format="#,##0.0", locale=self.locale)

    def storage(self, nbytes: float) -> str:
        """Decimal bytes for files and totals, in the best unit: ``419 MB``, ``112 GB``, ``1.1 TB``."""
        if nbytes < GB:
            return f"{self.int(nbytes / 1e6)} MB"
        if nbytes >= 1e12:
            return f"{self._one_decimal(round(nbytes / 1e12, 1))} TB"
        return self.gb(nbytes)

    @property
    def clause_sep(self) -> str:
        """Separator between clauses of one sentence: ``；`` in Chinese, ``; `` in English."""
        return "；" if self.lang == "zh" else "; "

    @property
    def sep(self) -> str:
        """Separator between short phrases of one line: ``，`` in Chinese, ``, `` in English."""
        return LIST_SEPARATORS.get(self.lang, ", ")

    def kib(self, nbytes: float) -> str:
        """Binary kibibytes, for per-token KV cache: ``128 KiB``."""
        v = nbytes / KIB
        if v >= 1024:
            return f"{self.num(v / 1024, 2)} MiB"
        return f"{self.num(v, 1)} KiB"


def needs_cents(*amounts: float | None) -> bool:
    """Whether money in one reply is written with cents: when any amount in it is under 100 (``$7.20``),
    so that every amount of the reply has them (``$7.20 – $150.00``), never a mix of two styles.

    The rule, one money style per reply: amounts (a job's, a month's or a day's cost, subtotals,
    totals) are whole (``¥952,413``) unless one of the reply's amounts is under 100; then every amount
    and every unit price of the reply carries cents (``¥21.00（1 卡·时 × ¥21.00/卡·时）``). A unit price
    (per GPU-hour, per GPU-month, per million tokens) keeps the cents it has (``$1.50``, ``¥8.60``)
    beside whole amounts: the reply's figures are computed from it, and rounding it would misstate them
    (¥8.60 → ¥9 is 5 %); both ends of a range are always in one style."""
    for a in amounts:  # noqa: SIM110 (any(genexpr): a generator frame an amount)
        if a is not None and 0 < abs(a) < 100:
            return True
    return False


def money_in_style(f: Fmt, amount: float, currency: str, cents: bool) -> str:
    """``f.money`` in a given style: with cents (``¥150.00``) or in whole units (``¥150``)."""
    if not cents or 0 < abs(amount) < 100:
        return f.money(amount, currency)
    return format_currency(amount, str(currency), format="¤#,##0.00", locale=f.locale, currency_digits=False)


def money_span(f: Fmt, low: float, high: float, currency: str, cents: bool | None = None) -> str:
    """Money as a reply writes it everywhere (one style: exact): ``¥1,022,910`` or
    ``¥1,402,245 – ¥2,804,490``; both ends in the same style — with cents when either has them
    (``¥45.00 – ¥150.00``, never ``¥45.00 – ¥150``), or as ``cents`` says for the whole reply."""
    cents = (needs_cents(low, high) or f.cents) if cents is None else cents
    low_text, high_text = money_in_style(f, low, currency, cents), money_in_style(f, high, currency, cents)
    return low_text if low_text == high_text else f"{low_text} – {high_text}"


@cache
def fmt_for(lang: str, cents: bool = False) -> Fmt:
    """The cached formatter for a reply language (``zh``/``en``), in the cents style with ``cents``."""
    return Fmt(lang, cents)
