"""Texts of /gpus, /models and /settings, and the ``/settings price …`` command (pure).

The handlers read the chat's settings and the pre-sales config and pass them in; nothing here talks
to Telegram or the settings store. Wording goes through the Babel catalogs.
"""

from __future__ import annotations

import functools
import html
import math
import re
from dataclasses import dataclass

from bot.chat.wording import Phrase
from bot.core.actions import LANGUAGE_NAMES
from bot.render.fmt import Fmt, display_width, fmt_for, ljust, params
from bot.render.html import TELEGRAM_MAX_CHARS
from bot.render.i18n import N_, translate
from bot.settings.chat import PRICE_BOUNDS, ChatSettings, within
from bot.settings.presales import PresalesConfig
from estimator import catalog
from estimator.catalog import GpuSpec, ModelSpec
from estimator.models import Currency


def default_currency(lang: str) -> str:
    """The currency a chat sees when it chose none: CNY for Chinese, USD otherwise (bot.core.pipeline)."""
    return "CNY" if lang == "zh" else "USD"


def currency_of(chat_settings: ChatSettings | None, presales: PresalesConfig | None, lang: str) -> str:
    """The currency prices are shown in: the chat's choice, else the pre-sales file's, else the language's."""
    chosen = (chat_settings.currency if chat_settings else None) or (presales.currency if presales else None)
    return chosen.value if chosen else default_currency(lang)


def presales_prices(presales: PresalesConfig | None, currency: str) -> dict[str, float | None]:
    """GPU family → offered price per GPU-hour in ``currency`` (None: offered, no price in it)."""
    if presales is None:
        return {}
    return {offer.family: presales.price(offer.family, Currency(currency)) for offer in presales.gpu}


GPUS_TITLE = N_("<b>GPUs</b> (dense BF16 TFLOPS · memory · price per GPU-hour)")
OFFER_TITLE = N_("<b>GPUs offered by %(provider)s</b>, recommended first")
OFFER_SPEC = N_("%(memory)s · %(tflops)s TFLOPS dense %(precision)s")
OFFER_OVERRIDE = N_("this chat's price: %(price)s ✎")
OFFER_FOOT = N_("A question that names no GPU is sized on the first of these that fits the job.")
MODELS_TITLE = N_("<b>Models</b> (total / active parameters)")
MODELS_FOUND = N_("<b>Models matching “%(query)s”</b> (total / active parameters)")
MODELS_NONE = N_("No model in the catalog starts with “%(query)s”. /models lists them all.")
MODELS_PAGE = N_("Page %(page)s of %(pages)s")
MODELS_HINT = N_(
    "Search: <code>/models qwen</code>. Name a model in your question, "
    "e.g. full fine-tune Qwen2.5-14B on A100"
)
PRICES_SOURCES = N_(
    "Prices per GPU-hour: market ranges from public rental listings and cloud price pages (%(as_of)s; "
    "each answer's assumptions cite the source). %(priced)s of %(total)s cards have a price in "
    "%(currency)s and are listed first; — means no public price in %(currency)s."
)
PRICES_OWN_CHAT = N_("Set this chat's own prices: <code>/settings price A100 18</code>.")
PRICES_OWN_GROUP = N_("Set this group's own prices: <code>/settings price A100 18</code>.")
PRICES_PRESALES = N_("Prices quoted by %(provider)s.")
RATE_NOTE = N_("Converted at %(rate)s CNY per USD (rate of %(as_of)s).")
MORE_CARDS = N_("… and %(n)s more cards without a price here: ask about one by name.")


def _t(lang: str, msgid: str, **values: object) -> str:
    return translate(lang, msgid, **values)


def gpus_text(
    lang: str,
    currency: str,
    *,
    overrides: dict[str, float] | None = None,
    presales: PresalesConfig | None = None,
    private: bool = False,
) -> str:
    """/gpus: the provider's offer in its preferred order (pre-sales), else the catalog — one line per
    GPU family (its default variant): TFLOPS, memory, price range — cards with a price in ``currency``
    first (then data-centre cards before personal ones, fastest first), and where the prices come from.
    ``private``: a private chat ('this chat'), else a group ('this group')."""
    if presales is not None and presales.families():
        return offer_text(lang, currency, presales, overrides or {})
    f = fmt_for(lang)
    overrides = overrides or {}
    prices = {spec.family: _catalog_price(spec.family, currency, overrides, f) for spec in _families()}
    specs = sorted(
        _families(),
        key=lambda g: (
            prices[g.family] is None, g.personal, -(g.peak_tflops_bf16 or g.peak_tflops_fp16 or 0), g.family
        ),
    )  # fmt: skip
    name_w = max(display_width(g.family) for g in specs)
    rows = []
    for spec in specs:
        tflops = spec.peak_tflops_bf16 or spec.peak_tflops_fp16 or 0
        unit = "" if spec.peak_tflops_bf16 else " fp16"
        price = prices[spec.family] or "—"
        rows.append(f"{ljust(spec.family, name_w)} {tflops:>6,.0f}{unit:<5} {spec.memory_gib:>4g}G  {price}")
    dates = sorted({entry.as_of for entry in catalog.prices().values()})
    span = dates[0] if len(dates) == 1 else f"{dates[0]} – {dates[-1]}"
    priced = sum(p is not None for p in prices.values())
    foot = _t(lang, PRICES_SOURCES, as_of=span, priced=priced, total=len(specs), currency=currency)
    own = _t(lang, PRICES_OWN_CHAT if private else PRICES_OWN_GROUP)
    while True:  # one message: the last (unpriced, personal, slowest) rows go first, counted (s26: 96 cards)
        left = len(specs) - len(rows)
        more = "\n" + _t(lang, MORE_CARDS, n=left) if left else ""
        body = html.escape("\n".join(rows), quote=False)
        text = f"{_t(lang, GPUS_TITLE)}\n<pre>{body}</pre>{more}\n{foot}\n{own}"
        if len(text) <= TELEGRAM_MAX_CHARS or priced >= len(rows):
            return text
        rows.pop()


def _families() -> list[GpuSpec]:
    return [spec for spec in catalog.gpus().values() if spec.default_for_family]


def _catalog_price(family: str, currency: str, overrides: dict[str, float], f: Fmt) -> str | None:
    """This chat's price (✎) or the catalog's market range in ``currency``; None when there is none."""
    if family in overrides:
        return f.price(overrides[family], currency) + " ✎"
    entry = catalog.prices().get(family)
    if entry is None:
        return None
    low, high = (entry.cny_low, entry.cny_high) if currency == "CNY" else (entry.usd_low, entry.usd_high)
    return f.price_range(low, high, currency) if low is not None and high is not None else None


def offer_text(lang: str, currency: str, presales: PresalesConfig, overrides: dict[str, float]) -> str:
    """/gpus in a pre-sales deployment: each offered GPU in the preferred order, its memory and dense
    peak, its prices with their units (GPU-hour, node-hour, month), minimum order and availability."""
    from bot.core.offer import terms_for
    from bot.render.offer_text import exchange_text, min_order_text, unit_prices

    f = fmt_for(lang)
    esc = functools.partial(html.escape, quote=False)
    lines = [_t(lang, OFFER_TITLE, provider=esc(presales.provider))]
    converted = None
    for family in presales.families():
        g = presales.offered(family)
        spec = g.spec if g is not None else catalog.default_gpu_for_family(family)
        if spec is None:
            continue
        terms = terms_for(presales, spec.id, Currency(currency))
        precision = "BF16" if spec.peak_tflops_bf16 else "FP16"
        tflops = spec.peak_tflops_bf16 or spec.peak_tflops_fp16 or 0
        memory = f.gib(spec.memory_gib * 2**30)
        spec_text = _t(lang, OFFER_SPEC, memory=memory, tflops=f.int(tflops), precision=precision)
        lines += ["", f"<b>{esc(family)}</b> · {esc(spec_text)}"]
        prices = unit_prices(terms, lang)
        if family in overrides:
            prices.append(_t(lang, OFFER_OVERRIDE, price=f.price(overrides[family], currency)))
        if prices:
            lines.append(esc(" · ".join(prices)))
        availability = terms.availability.text(lang) if terms.availability else None
        extras = [t for t in (min_order_text(terms, lang), availability) if t]
        if extras:
            lines.append(esc(f.clause_sep.join(extras)))
        converted = converted or exchange_text(terms, lang)
    lines += ["", _t(lang, PRICES_PRESALES, provider=esc(presales.provider))]
    if converted:
        rate = presales.exchange_rate
        assert rate is not None
        lines.append(esc(_t(lang, RATE_NOTE, rate=f.num(rate.cny_per_usd, 4), as_of=rate.as_of.isoformat())))
    lines.append(_t(lang, OFFER_FOOT))
    return "\n".join(lines)


MODELS_PER_PAGE = 45
"""Rows per /models page: 45 rows of ≤ 40 characters stay far below Telegram's 4,096."""
MAX_QUERY_CHARS = 32
"""A /models search is cut to this (it travels in the paging buttons' 64-byte callback data)."""


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum() or ch == ".")


def find_models(query: str = "") -> list[ModelSpec]:
    """Catalog models whose id, name, family or an alias starts with ``query`` (case, spaces and
    dashes ignored), sorted by family and size; all of them for an empty query."""
    models = sorted(catalog.models().values(), key=lambda m: (m.family.lower(), m.params_total, m.id))
    key = _key(query)
    if not key:
        return models
    return [m for m in models if any(_key(n).startswith(key) for n in (m.id, m.name, m.family, *m.aliases))]


def models_page(lang: str, query: str = "", page: int = 0) -> tuple[str, int]:
    """/models [query]: one page of the matching models (total and, for MoE, active parameters) and
    the number of pages. ``page`` counts from 0 and is clamped to the pages there are."""
    query = " ".join(query.split())[:MAX_QUERY_CHARS]
    found = find_models(query)
    if not found:
        return _t(lang, MODELS_NONE, query=html.escape(query, quote=False)), 0
    pages = math.ceil(len(found) / MODELS_PER_PAGE)
    page = min(max(page, 0), pages - 1)
    rows = []
    for spec in found[page * MODELS_PER_PAGE : (page + 1) * MODELS_PER_PAGE]:
        size = params(spec.params_total)
        if spec.params_active:
            size += f" / {params(spec.params_active)}"
        rows.append(f"{spec.id:<30} {size}")
    title = _t(lang, MODELS_FOUND, query=html.escape(query, quote=False)) if query else _t(lang, MODELS_TITLE)
    body = html.escape("\n".join(rows), quote=False)
    footer = _t(lang, MODELS_HINT)
    if pages > 1:
        footer = _t(lang, MODELS_PAGE, page=page + 1, pages=pages) + "\n" + footer
    return f"{title}\n<pre>{body}</pre>\n{footer}", pages


SETTINGS_TITLE = N_("⚙️ <b>Settings for this chat</b>")
SETTINGS_ROWS = {
    "lang": N_("Language"),
    "currency": N_("Currency"),
    "mfu": N_("Default MFU"),
    "deadline": N_("Default deadline"),
    "prices": N_("Price overrides"),
    "provider": N_("Provider"),
}
AUTO = N_("auto")
NONE = N_("none")
DAYS = N_("%(n)s days")
SETTINGS_HINT = N_(
    "Set a price: <code>/settings price A100 18</code> (per GPU-hour in this chat's currency; or write "
    "one: <code>18元</code>, <code>$2.5</code>; remove: <code>/settings price A100 off</code>)"
)


def settings_text(
    chat_settings: ChatSettings | None, lang: str, presales: PresalesConfig | None = None
) -> str:
    """/settings: the current values (the keyboard changes them)."""
    s = chat_settings or ChatSettings()
    f = fmt_for(lang)
    sep = "：" if lang == "zh" else ": "
    auto = _t(lang, AUTO)
    shown_currency = currency_of(s, presales, lang)
    price_text = ", ".join(f"{fam} {f.price(p, shown_currency)}" for fam, p in sorted(s.prices.items()))
    shown = "zh-Hant" if s.lang == "zh" and s.script == "Hant" else s.lang  # Traditional (s38)
    values = {
        "lang": LANGUAGE_NAMES[shown] if shown else auto,
        "currency": s.currency.value if s.currency else auto,
        "mfu": f.percent(s.mfu) if s.mfu else auto,
        "deadline": _t(lang, DAYS, n=f"{s.deadline_days:g}") if s.deadline_days else auto,
        "prices": html.escape(price_text, quote=False) or _t(lang, NONE),
    }
    if presales is not None and presales.provider:
        values["provider"] = html.escape(presales.provider, quote=False)
    lines = [_t(lang, SETTINGS_TITLE)]
    lines += [f"• {_t(lang, SETTINGS_ROWS[key])}{sep}{value}" for key, value in values.items()]
    lines += ["", _t(lang, SETTINGS_HINT)]
    if lang == "zh" and s.script == "Hant":  # a chat set to 繁體中文: its settings in Traditional (s38)
        from bot.render.renderer import in_script

        return in_script("\n".join(lines), lang, s.script)
    return "\n".join(lines)


PRICE_WORDS = {"price", "prices", "价格", "单价", "价钱"}
CLEAR_WORDS = {"off", "reset", "clear", "none", "auto", "清除", "删除", "取消", "自动"}
PRICE_VALUE_RE = re.compile(
    r"^(?P<pre>us\$|\$|¥|￥|rmb|cny|usd)?\s*(?P<num>\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?)\s*"
    r"(?P<post>元|块|人民币|rmb|cny|美元|美金|刀|usd|dollars?|/\s*(?:gpu[-\s]?hour|h|hr|小时|卡时|卡·时))*$",
    re.IGNORECASE,
)
"""A price as typed: '18', '18元', '¥18', '$2.5', 'US$2.5', '2.5美元', '2.5 USD', '18 CNY/h'."""
CURRENCY_WORDS = {
    "$": Currency.USD, "us$": Currency.USD, "usd": Currency.USD, "美元": Currency.USD, "美金": Currency.USD,
    "刀": Currency.USD, "dollar": Currency.USD, "dollars": Currency.USD,
    "¥": Currency.CNY, "￥": Currency.CNY, "元": Currency.CNY, "块": Currency.CNY, "人民币": Currency.CNY,
    "rmb": Currency.CNY, "cny": Currency.CNY,
}  # fmt: skip
CURRENCY_MARK = r"元|块|人民币|rmb|cny|美元|美金|刀|usd|dollars?"
"""Currency marks a price may carry (a bare number is in the chat's currency, and the reply says which)."""


@dataclass(frozen=True)
class PriceChange:
    family: str
    price: float | None
    """None removes the override."""
    currency: Currency | None = None
    """the currency written with the price ('18元', '$2.5'); None: the chat's"""


def _price_value(words: list[str]) -> tuple[str, re.Match[str]] | None:
    """The GPU name and the price match: the price may be the last word or the last two ('18 元')."""
    for take in (1, 2):
        if len(words) > take:
            m = PRICE_VALUE_RE.match(" ".join(words[-take:]))
            if m:
                return " ".join(words[1:-take]), m
    return None


def _marked_currency(m: re.Match[str]) -> Currency | str | None:
    """The currency a price's marks name, None for none, 'mixed_currency' for '$18元'."""
    after = m.group(0)[m.end("num") - m.start(0) :]
    marks = [m.group("pre") or "", *re.findall(CURRENCY_MARK, after, re.I)]
    found = {CURRENCY_WORDS[w.lower()] for w in marks if w}
    if len(found) > 1:
        return "mixed_currency"
    return found.pop() if found else None


def parse_price_command(argument: str) -> PriceChange | str | None:
    """``price A100 18`` / ``价格 A100 18元`` / ``price H100 $2.5`` / ``price RTX 4090 off`` → a change;
    a problem key ('usage', 'unknown_gpu', 'mixed_currency' or 'out_of_range': outside
    ``bot.settings.chat.PRICE_BOUNDS``, not finite) for a malformed one; None when the argument is not
    a price command."""
    words = argument.split()
    if not words or words[0].lower() not in PRICE_WORDS:
        return None
    if len(words) < 3:
        return "usage"
    if words[-1].lower() in CLEAR_WORDS:
        family = catalog.family_of(" ".join(words[1:-1]))
        return PriceChange(family, None) if family is not None else "unknown_gpu"
    found = _price_value(words)
    if found is None:
        if catalog.family_of(" ".join(words[1:-1])) is None:
            return "unknown_gpu"
        try:  # 'nan', 'inf': a number, but not a price
            float(words[-1].lstrip("¥$￥").rstrip("元"))
        except ValueError:
            return "usage"
        return "out_of_range"
    name, m = found
    family = catalog.family_of(name)
    if family is None:
        return "unknown_gpu"
    currency = _marked_currency(m)
    if currency == "mixed_currency":
        return currency
    price = float(m.group("num").replace(",", ""))
    if not within(PRICE_BOUNDS, price):
        return "out_of_range"
    return PriceChange(family, price, currency if isinstance(currency, Currency) else None)


PRICE_SAVED = N_(
    "✓ Saved: %(gpu)s at %(price)s per GPU-hour, in %(currency)s (this chat's currency). In another "
    "currency? Write it with the price: <code>18元</code>, <code>¥18</code>, <code>$2.5</code>, "
    "<code>2.5美元</code>."
)
PRICE_SAVED_MARKED = N_("✓ Saved: %(gpu)s at %(price)s per GPU-hour, in %(currency)s as you wrote it.")
PRICE_SAVED_SWITCHED = N_(
    "✓ Saved: %(gpu)s at %(price)s per GPU-hour, in %(currency)s as you wrote it; this chat now quotes "
    "in %(currency)s."
)
PRICE_CONFLICT = N_(
    "This chat's other prices are in %(currency)s (%(prices)s): give this one in %(currency)s too, or "
    "remove them first (<code>/settings price %(gpu)s off</code>). Nothing was changed."
)


def price_saved_text(lang: str, change: PriceChange, currency: str, *, switched: bool) -> str:
    """The line above /settings after a price is stored: the price with its currency, and whether the
    currency was the chat's (a bare number) or written with it."""
    f = fmt_for(lang)
    assert change.price is not None
    msgid = PRICE_SAVED_SWITCHED if switched else PRICE_SAVED_MARKED if change.currency else PRICE_SAVED
    price = html.escape(f.price(change.price, currency), quote=False)
    return _t(lang, msgid, gpu=html.escape(change.family, quote=False), price=price, currency=currency)


def price_conflict_text(lang: str, currency: str, others: dict[str, float]) -> str:
    """Why a price in another currency than the chat's other prices was not stored."""
    f = fmt_for(lang)
    listed = ", ".join(f"{fam} {f.price(p, currency)}" for fam, p in sorted(others.items()))
    esc = functools.partial(html.escape, quote=False)
    return _t(lang, PRICE_CONFLICT, currency=currency, prices=esc(listed), gpu=esc(sorted(others)[0]))


PRICE_PROBLEMS = {
    "usage": Phrase(N_("Usage: <code>/settings price A100 18</code> (price per GPU-hour)")),
    "unknown_gpu": Phrase(N_("I don't know that GPU; /gpus lists the ones I do.")),
    "out_of_range": Phrase(
        N_("A price must be a number from 0.01 to 10,000 per GPU-hour; nothing was changed.")
    ),
    "mixed_currency": Phrase(
        N_("One currency per price, please: <code>18元</code> or <code>$2.5</code>; nothing was changed.")
    ),
}
