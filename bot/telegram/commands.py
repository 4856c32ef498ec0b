"""Texts of /gpus, /models and /settings, and the ``/settings price …`` command (pure).

The handlers in :mod:`bot.telegram.app` read the chat's settings and the pre-sales config and pass
them in; nothing here talks to Telegram or the settings store.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from bot.parse import parse
from bot.render.fmt import fmt_for, params
from bot.telegram import keyboards as kb
from estimator import catalog
from estimator.models import Currency


def default_currency(lang: str) -> str:
    """The currency a chat sees when it chose none: CNY for Chinese, USD otherwise (bot.core.pipeline)."""
    return "CNY" if lang == "zh" else "USD"


def currency_of(chat_settings: Any, presales: Any, lang: str) -> str:
    """The currency prices are shown in: the chat's choice, else the pre-sales file's, else the language's."""
    chosen = getattr(chat_settings, "currency", None) or getattr(presales, "currency", None)
    return str(getattr(chosen, "value", chosen)) if chosen else default_currency(lang)


def presales_prices(presales: Any, currency: str) -> dict[str, float | None]:
    """GPU family → offered price per GPU-hour in ``currency`` (None: offered, no price in it)."""
    if presales is None:
        return {}
    return {offer.family: presales.price(offer.family, Currency(currency)) for offer in presales.gpu}


def gpu_family(name: str) -> str | None:
    """Catalog family for what a user typed ('a100', '4090', 'A100-SXM4-40GB'); None if unknown."""
    spec = catalog.gpus().get(name)
    if spec is None:
        gpu_id = parse(name).request.gpu
        spec = catalog.gpus().get(gpu_id) if gpu_id else None
    return spec.family if spec else None


_CATALOG_TITLE = {
    "gpus": {"zh": "<b>GPU 列表</b>（稠密 BF16 算力 · 显存 · 每卡·时租价）",
             "en": "<b>GPUs</b> (dense BF16 TFLOPS · memory · price per GPU-hour)"},
    "models": {"zh": "<b>模型列表</b>（总参数 / 激活参数）",
               "en": "<b>Models</b> (total / active parameters)"},
}
_PRICE_SOURCE = {
    "catalog": {"zh": "价格为市场区间，来源见 estimator/data/prices.toml；/settings 可设置本群价格。",
                "en": "Prices are market ranges (sources in estimator/data/prices.toml); "
                      "set yours with /settings."},
    "presales": {"zh": "价格为 {provider} 的报价。", "en": "Prices quoted by {provider}."},
}


def gpus_text(lang: str, currency: str, *, overrides: dict[str, float] | None = None,
              presales: Any = None) -> str:
    """/gpus: one line per GPU family (its default variant): TFLOPS, memory, price range."""
    f = fmt_for(lang)
    offered = presales_prices(presales, currency)
    overrides = overrides or {}
    price_table = catalog.prices()
    rows = []
    for spec in catalog.gpus().values():
        if not spec.default_for_family:
            continue
        tflops = spec.peak_tflops_bf16 or spec.peak_tflops_fp16 or 0
        unit = "" if spec.peak_tflops_bf16 else " fp16"
        price = "—"
        if spec.family in overrides:
            price = f.price(overrides[spec.family], currency) + " ✎"
        elif offered.get(spec.family) is not None:
            price = f.price(offered[spec.family], currency)  # type: ignore[arg-type]
        elif not offered and spec.family in price_table:
            entry = price_table[spec.family]
            cny = currency == "CNY"
            low, high = (entry.cny_low, entry.cny_high) if cny else (entry.usd_low, entry.usd_high)
            if low is not None and high is not None:
                price = f.price_range(low, high, currency)
        if offered and spec.family not in offered and spec.family not in overrides:
            continue  # a pre-sales deployment lists what it offers
        rows.append(f"{spec.family:<11} {tflops:>6,.0f}{unit:<5} {spec.memory_gib:>4g}G  {price}")
    source = _PRICE_SOURCE["presales" if offered else "catalog"][lang].format(
        provider=html.escape(str(getattr(presales, "provider", "")), quote=False)
    )
    body = html.escape("\n".join(rows), quote=False)
    return f"{_CATALOG_TITLE['gpus'][lang]}\n<pre>{body}</pre>\n{source}"


def models_text(lang: str) -> str:
    """/models: catalog models with total (and, for MoE, active) parameters."""
    rows = []
    for spec in sorted(catalog.models().values(), key=lambda m: (m.family.lower(), m.params_total)):
        size = params(spec.params_total)
        if spec.params_active:
            size += f" / {params(spec.params_active)}"
        rows.append(f"{spec.name:<24} {size}")
    body = html.escape("\n".join(rows), quote=False)
    hint = {"zh": "提问时写模型名即可，例如：全参微调 Qwen2.5-14B 要几张 A100",
            "en": "Name a model in your question, e.g. full fine-tune Qwen2.5-14B on A100"}[lang]
    return f"{_CATALOG_TITLE['models'][lang]}\n<pre>{body}</pre>\n{hint}"


_SETTINGS_WORDS = {
    "zh": {"title": "⚙️ <b>本聊天的设置</b>", "lang": "语言", "currency": "货币", "mfu": "默认 MFU",
           "deadline": "默认工期", "prices": "自定义价格", "auto": "自动", "none": "无", "days": "{n} 天",
           "provider": "报价方", "sep": "：",
           "hint": "设置价格：<code>/settings 价格 A100 18</code>（每卡·时；"
                   "清除：<code>/settings 价格 A100 清除</code>）"},
    "en": {"title": "⚙️ <b>Settings for this chat</b>", "lang": "Language", "currency": "Currency",
           "mfu": "Default MFU", "deadline": "Default deadline", "prices": "Price overrides", "auto": "auto",
           "none": "none", "days": "{n} days", "provider": "Provider", "sep": ": ",
           "hint": "Set a price: <code>/settings price A100 18</code> (per GPU-hour; remove: "
                   "<code>/settings price A100 off</code>)"},
}


def settings_text(chat_settings: Any, lang: str, presales: Any = None) -> str:
    """/settings: the current values (the keyboard changes them)."""
    w = _SETTINGS_WORDS[lang]
    f = fmt_for(lang)
    chosen_lang = getattr(chat_settings, "lang", None)
    currency = getattr(chat_settings, "currency", None)
    mfu = getattr(chat_settings, "mfu", None)
    deadline = getattr(chat_settings, "deadline_days", None)
    overrides = getattr(chat_settings, "prices", None) or {}
    shown_currency = currency_of(chat_settings, presales, lang)
    price_text = ", ".join(f"{fam} {f.price(p, shown_currency)}" for fam, p in sorted(overrides.items()))
    sep = w["sep"]
    lines = [
        w["title"],
        f"• {w['lang']}{sep}{kb.LANGUAGE_NAMES.get(chosen_lang, w['auto']) if chosen_lang else w['auto']}",
        f"• {w['currency']}{sep}{getattr(currency, 'value', currency) if currency else w['auto']}",
        f"• {w['mfu']}{sep}{f.percent(mfu) if mfu else w['auto']}",
        f"• {w['deadline']}{sep}{w['days'].format(n=f'{deadline:g}') if deadline else w['auto']}",
        f"• {w['prices']}{sep}{html.escape(price_text, quote=False) or w['none']}",
    ]
    if presales is not None and getattr(presales, "provider", None):
        lines.append(f"• {w['provider']}{sep}{html.escape(str(presales.provider), quote=False)}")
    lines += ["", w["hint"]]
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
    ('usage' or 'unknown_gpu') for a malformed one; None when the argument is not a price command."""
    words = argument.split()
    if not words or words[0].lower() not in PRICE_WORDS:
        return None
    if len(words) < 3:
        return "usage"
    name, value = " ".join(words[1:-1]), words[-1].lower().lstrip("¥$").rstrip("元")
    family = gpu_family(name)
    if family is None:
        return "unknown_gpu"
    if value in CLEAR_WORDS:
        return PriceChange(family, None)
    try:
        price = float(value.replace(",", ""))
    except ValueError:
        return "usage"
    if not 0 < price < 1e6:
        return "usage"
    return PriceChange(family, price)


PRICE_PROBLEMS = {
    "usage": {"zh": "用法：<code>/settings 价格 A100 18</code>（每卡·时的价格）",
              "en": "Usage: <code>/settings price A100 18</code> (price per GPU-hour)"},
    "unknown_gpu": {"zh": "不认识这个 GPU，/gpus 列出了可选的型号。",
                    "en": "I don't know that GPU; /gpus lists the ones I do."},
}
