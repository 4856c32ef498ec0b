"""Texts of /gpus, /models and /settings, and the ``/settings price …`` command (pure).

The handlers read the chat's settings and the pre-sales config and pass them in; nothing here talks
to Telegram or the settings store. Wording goes through the Babel catalogs.
"""

from __future__ import annotations

import functools
import html
import math
from dataclasses import dataclass

from bot.render.fmt import display_width, fmt_for, ljust, params
from bot.render.i18n import N_, translate
from bot.settings.chat import PRICE_BOUNDS, ChatSettings, within
from bot.settings.presales import PresalesConfig
from bot.telegram import keyboards as kb
from bot.telegram.wording import Phrase
from estimator import catalog
from estimator.catalog import ModelSpec
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
PRICES_CATALOG = N_("Prices are market ranges with their sources in each answer; set yours with /settings.")
PRICES_PRESALES = N_("Prices quoted by %(provider)s.")
RATE_NOTE = N_("Converted at %(rate)s CNY per USD (rate of %(as_of)s).")


def _t(lang: str, msgid: str, **values: object) -> str:
    return translate(lang, msgid, **values)


def gpus_text(
    lang: str,
    currency: str,
    *,
    overrides: dict[str, float] | None = None,
    presales: PresalesConfig | None = None,
) -> str:
    """/gpus: the provider's offer in its preferred order (pre-sales), else the catalog — one line per
    GPU family (its default variant): TFLOPS, memory, price range — data-centre cards first, fastest
    first."""
    if presales is not None and presales.families():
        return offer_text(lang, currency, presales, overrides or {})
    f = fmt_for(lang)
    overrides = overrides or {}
    price_table = catalog.prices()
    specs = [spec for spec in catalog.gpus().values() if spec.default_for_family]
    specs.sort(key=lambda g: (g.personal, -(g.peak_tflops_bf16 or g.peak_tflops_fp16 or 0), g.family))
    name_w = max(display_width(g.family) for g in specs)
    rows = []
    for spec in specs:
        tflops = spec.peak_tflops_bf16 or spec.peak_tflops_fp16 or 0
        unit = "" if spec.peak_tflops_bf16 else " fp16"
        price = "—"
        if spec.family in overrides:
            price = f.price(overrides[spec.family], currency) + " ✎"
        elif spec.family in price_table:
            entry = price_table[spec.family]
            cny = currency == "CNY"
            low, high = (entry.cny_low, entry.cny_high) if cny else (entry.usd_low, entry.usd_high)
            if low is not None and high is not None:
                price = f.price_range(low, high, currency)
        rows.append(f"{ljust(spec.family, name_w)} {tflops:>6,.0f}{unit:<5} {spec.memory_gib:>4g}G  {price}")
    body = html.escape("\n".join(rows), quote=False)
    return f"{_t(lang, GPUS_TITLE)}\n<pre>{body}</pre>\n{_t(lang, PRICES_CATALOG)}"


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
    "Set a price: <code>/settings price A100 18</code> (per GPU-hour; remove: "
    "<code>/settings price A100 off</code>)"
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
    values = {
        "lang": kb.LANGUAGE_NAMES[s.lang] if s.lang else auto,
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
    return "\n".join(lines)


PRICE_WORDS = {"price", "prices", "价格", "单价", "价钱"}
CLEAR_WORDS = {"off", "reset", "clear", "none", "auto", "清除", "删除", "取消", "自动"}


@dataclass(frozen=True)
class PriceChange:
    family: str
    price: float | None
    """None removes the override."""


def parse_price_command(argument: str) -> PriceChange | str | None:
    """``price A100 18`` / ``价格 A100 18`` / ``price RTX 4090 off`` → a change; a problem key
    ('usage', 'unknown_gpu' or 'out_of_range': outside ``bot.settings.chat.PRICE_BOUNDS``, not finite)
    for a malformed one; None when the argument is not a price command."""
    words = argument.split()
    if not words or words[0].lower() not in PRICE_WORDS:
        return None
    if len(words) < 3:
        return "usage"
    name, value = " ".join(words[1:-1]), words[-1].lower().lstrip("¥$").rstrip("元")
    family = catalog.family_of(name)
    if family is None:
        return "unknown_gpu"
    if value in CLEAR_WORDS:
        return PriceChange(family, None)
    try:
        price = float(value.replace(",", ""))
    except ValueError:
        return "usage"
    if not within(PRICE_BOUNDS, price):
        return "out_of_range"
    return PriceChange(family, price)


PRICE_PROBLEMS = {
    "usage": Phrase(N_("Usage: <code>/settings price A100 18</code> (price per GPU-hour)")),
    "unknown_gpu": Phrase(N_("I don't know that GPU; /gpus lists the ones I do.")),
    "out_of_range": Phrase(
        N_("A price must be a number from 0.01 to 10,000 per GPU-hour; nothing was changed.")
    ),
}
