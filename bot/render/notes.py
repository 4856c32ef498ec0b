"""Warnings, assumptions and their parameters as text in the reply's language."""

from __future__ import annotations

import re
from gettext import NullTranslations
from typing import Any
from weakref import WeakKeyDictionary

from bot.lazylog import lazy_logger
from bot.render.field_labels import FIELD_LABELS, INTERVAL_GROUPS, METHOD_NAMES
from bot.render.fit_change_text import NO_FIT_ADAPTER
from bot.render.fmt import Fmt, fmt_for, money_in_style, needs_cents
from bot.render.i18n import N_, translate, translations
from bot.render.ledger_texts import WHY_TEXTS
from bot.render.note_codes import NoteCode
from bot.render.rl_texts import flops_text
from bot.render.serving_budget_text import SERVING_BUDGET_MESSAGES, serving_budget_text
from bot.render.source_texts import source_text
from bot.render.word_texts import GENERIC_MOE, GENERIC_SHAPE_MHA, GENERIC_SHAPE_MOE, WORD_TEXTS
from bot.render.wording import (
    COUNT_KEYS,
    FLOPS_KEYS,
    MONEY_KEYS,
    NO_FIT_STATED_BARE,
    NOTE_FALLBACK,
    NOTE_MESSAGES,
    PAIRS_TO_TOKENS_EPOCHS,
    PARAM_KEYS,
    PARAM_NOTE_MESSAGES,
    PERCENT_KEYS,
    SAMPLES_TO_TOKENS_EPOCHS,
    SINGULAR_NOTE_MESSAGES,
    TOKEN_KEYS,
)
from bot.render.wording_extra import PARAM_NOTE_MESSAGES_EXTRA
from estimator.models import Assumption, Note, SizingReport

log = lazy_logger("bot.render")


def context_len(n: int) -> str:
    """Context lengths the way people say them, not localized: 32768 → '32K', 4000 → '4,000'."""
    if n >= 1024 and n % 1024 == 0:  # 128,000 = 125 × 1,024 too: in thousands, as its model card says it
        return f"{n // 1000}K" if n % 1000 == 0 else f"{n // 1024}K"
    return f"{n:,}"


SHOWN_GB = 0.05e9
"""Up to this a size in GB rounds to '0.0 GB' (half to even): a note or ledger line shows '< 0.1 GB' (as
:data:`bot.render.split_text.SHOWN_GIB` does for GiB)."""


def format_param(f: Fmt, key: str, value: Any) -> str:
    """One note/assumption parameter, formatted by what its name says it is."""
    if value is None:
        return "—"
    if isinstance(value, str) and key == "mfu_band":
        try:
            low, high = (float(x) for x in value.split("–"))
            return f"{f.percent(low)}–{f.percent(high)}"
        except ValueError:
            return value
    if isinstance(value, str) and key == "widened":  # interval groups (estimator.efficiency.GROUPS)
        return ", ".join(translate(f.lang, INTERVAL_GROUPS.get(g, g)) for g in value.split(", "))
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, int | float):
        if key in PERCENT_KEYS or key.startswith("mfu"):
            return f.percent(value)
        if key in PARAM_KEYS:
            return f.params(value)
        if key in FLOPS_KEYS:  # a compute budget C (estimator.compute_budget): '1×10²³'
            return f.sci(value)
        if key in TOKEN_KEYS:
            return f.tokens(value)
        if key == "days" or key.endswith("_days"):
            return f.days(value)
        if key in {"context", "seq_len"}:
            return context_len(int(value))
        if key == "gpu_hours" or key.startswith("hours") or key.endswith("_hours"):
            return f.hours(value)
        if key in COUNT_KEYS:
            return f.int(value)
        if key.endswith("_bytes"):  # a few MB (llama.cpp's compute buffer of a 0.5B model) is no '0.0 GB'
            return "< " + f.gb(2 * SHOWN_GB) if 0 < value <= SHOWN_GB else f.gb(value)
        if key.endswith("_in_gib"):  # a size the estimate gives in GiB, beside the reply's GiB lines (s43)
            return f.gib(value * 2**30)
        if key.endswith("_gib"):  # a size the user gave in "G": GiB as cards count it, and GB
            return f"{f.gib(value * 2**30)} ({f.gb(value * 2**30)})"
        if abs(value) >= 1e6:
            return f.compact(value)
        return f.num(value, 3)
    if key in NAME_KEYS and f.lang == "zh" and isinstance(value, str) and value.endswith(")"):
        from bot.render.model_name_zh import localized_model_name  # 'Ascend 910C (dual-die)' (s39 fixw #2)

        return localized_model_name(value, f.lang)
    return str(value)


NAME_KEYS = frozenset(("gpu", "model", "used", "gpu_name", "model_name"))
"""Note/assumption parameters that are a catalog card's or model's name: a bracketed note worded in
the reply's language."""


ONE_COST_MESSAGES: dict[str, str] = {
    NOTE_MESSAGES[NoteCode.over_budget]: N_(
        "Over budget: this costs %(cost_low)s, more than the %(budget)s you have. Fewer tokens, a smaller "
        "model or cheaper GPUs would fit it."
    ),
    NOTE_MESSAGES[NoteCode.within_budget]: N_("Within budget: %(cost_low)s of your %(budget)s."),
    PARAM_NOTE_MESSAGES[(NoteCode.within_budget, "cost_high_band")]: N_(
        "Within budget at the likely speed: %(cost_low)s of your %(budget)s; a slower run (the low end of "
        "the MFU range) could cost up to %(cost_high_band)s."
    ),
}
"""A budget verdict's wording when the cost is one value (a single stated price: "$204", never "$204 –
$204"), by the wording of its range."""


_AMOUNT_KEYS = frozenset(("budget", "cost_low", "cost_high", "cost_high_band", "per_month"))
"""Note parameters that are amounts of money (not unit prices): written in one style within a note."""


def note_text(note: Note, lang: str, *, alternatives_shown: bool = True) -> str:
    """A warning in ``lang``; unknown codes (or missing parameters) get a generic line. Without an
    alternatives section in the reply, 'no_fit_stated' does not point to one."""
    if note.code in SERVING_BUDGET_MESSAGES:  # ranges and the budget's period (issue 24)
        return serving_budget_text(note.code, note.params, lang)
    f = fmt_for(lang)
    params = {k: format_param(f, k, v) for k, v in note.params.items()}
    currency = note.params.get("currency")
    keys = MONEY_KEYS & set(note.params) if isinstance(currency, str) else ()
    money = [(k, v) for k in keys if isinstance(v := note.params[k], int | float)] if keys else []  # s37
    # one money style for a note's amounts ('¥75.00 – ¥200.00', never '¥75.00 – ¥200'); a unit price such as
    # max_price keeps its own cents beside whole amounts (bot.render.fmt.needs_cents)
    amounts = [v for k, v in money if k in _AMOUNT_KEYS] if money else []
    cents = len(amounts) > 1 and needs_cents(*amounts)
    for key, value in money:
        whole = cents and key in _AMOUNT_KEYS
        params[key] = money_in_style(f, value, currency, True) if whole else f.money(value, currency)
    msgid = NOTE_MESSAGES.get(note.code)
    if note.params.get("gpu_count") == 1 and note.code in SINGULAR_NOTE_MESSAGES:
        msgid = SINGULAR_NOTE_MESSAGES[note.code]
    if note.code == NoteCode.samples_to_tokens and note.params.get("epochs", 1) != 1:  # "× 3 epochs" shown
        msgid = SAMPLES_TO_TOKENS_EPOCHS
    if note.code == NoteCode.pairs_to_tokens and note.params.get("epochs", 1) != 1:
        msgid = PAIRS_TO_TOKENS_EPOCHS
    from bot.render.budget_run_text import RUN_BUDGET_MESSAGES

    if note.code in RUN_BUDGET_MESSAGES and "months" in note.params:  # a budget per period (B4)
        from bot.render.budget_run_text import RUN_BUDGET_MESSAGES

        msgid = RUN_BUDGET_MESSAGES[note.code]
    if note.code == NoteCode.no_fit and "adapter_method" in note.params:  # never "switch to QLoRA"
        msgid = NO_FIT_ADAPTER
    if note.code == NoteCode.no_fit_stated and not alternatives_shown:
        msgid = NO_FIT_STATED_BARE
    for (code, key), variant in (PARAM_NOTE_MESSAGES | PARAM_NOTE_MESSAGES_EXTRA).items():
        if code == note.code and key in note.params:
            msgid = variant
    if msgid in ONE_COST_MESSAGES and params.get("cost_low") == params.get("cost_high"):  # one price
        msgid = ONE_COST_MESSAGES[msgid]
    if msgid is not None:
        try:
            return _one_end(translate(lang, msgid, **params))
        except (KeyError, ValueError, TypeError):
            log.warning("note %s: parameters %s do not match its message", note.code, sorted(params))
    details = ", ".join(f"{k}={v}" for k, v in params.items())
    return translate(lang, NOTE_FALLBACK, code=note.code, details=f"({details})" if details else "").strip()


_SAME_ENDS_RE = re.compile(r"(?<![\w.,])([^\s–]+) – \1(?![\w.,])")


def _one_end(text: str) -> str:
    """A range whose two ends read the same ('16 – 16 GPUs', '61 – 61 hours') said as the one value."""
    return _SAME_ENDS_RE.sub(r"\1", text) if " – " in text else text


CITATION = N_(" (source: %(citation)s)")
"""A citation after the reason, kept as written (papers, model cards, price lists)."""


def why_text(lang: str, a: Assumption) -> str:
    """Why an assumption holds, in ``lang``: its reason's sentence (parameters formatted) and any
    further reasons (:mod:`bot.render.ledger_texts`)."""
    f = fmt_for(lang)
    params = {k: format_param(f, k, v) for k, v in a.params.items()}
    parts = []
    for key in (a.why, *a.also):
        msgid = WHY_TEXTS.get(key)
        if key == "generic_shape" and a.params.get("heads") == a.params.get("kv_heads"):
            msgid = GENERIC_SHAPE_MHA  # one KV head per query head: multi-head attention
        if key == "generic_shape" and str(a.value).startswith("moe-"):
            msgid = GENERIC_SHAPE_MOE  # 'ERNIE-4.5-300B-A47B' not in the catalog (s30)
        if "trained" in a.params and key.startswith("flops_"):  # the method's own derivation (s43 #4)
            msgid = flops_text(key, a.params["trained"], a.value) or msgid
        if msgid is None:
            log.warning("no ledger text for reason %r", key)
            parts.append(key)
            continue
        try:
            parts.append(translate(lang, msgid, **params))
        except (KeyError, ValueError, TypeError):
            log.warning("ledger text %r: parameters %s do not match", key, sorted(params))
            parts.append(key)
    return f.clause_sep.join(parts)


STAGE_VALUES = {
    "pretrain": N_("pre-training"),
    "continued_pretrain": N_("continued pre-training"),
    "finetune": N_("fine-tuning"),
    "inference": N_("inference"),
}
"""Stage values of the ledger, worded as the reply names stages."""
GENERIC_SHAPE = N_("generic dense %(size)s")
"""'dense-7B': the generic shape used when no model is named."""
_CURRENCY_PART = re.compile(r"\b(CNY|USD):\s*")


def citation_for(citation: str, currency: str | None) -> str:
    """The part of a price list's citation for ``currency`` ("CNY: seed article …. USD: …" → "seed
    article …"); the whole citation when it is not split by currency."""
    parts = _CURRENCY_PART.split(citation)
    if currency is None or len(parts) < 3:
        return citation
    by_currency = {parts[i]: parts[i + 1].strip().rstrip(".").strip() for i in range(1, len(parts) - 1, 2)}
    return by_currency.get(currency) or citation


def _price_value(lang: str, value: object, currency: str | None) -> str | None:
    """A ledger price ('21', '15–30 CNY') as the reply writes prices: '¥21', '¥15–30' (the label says
    per GPU-hour)."""
    f = fmt_for(lang)
    if isinstance(value, int | float) and currency:
        return f.price(round(float(value), 2), currency)
    if isinstance(value, str):
        amount, _, cur = value.partition(" ")
        low, _, high = amount.partition("–")
        try:
            return f.price_range(float(low), float(high or low), cur or currency or "")
        except ValueError:
            return None
    return None


UTILIZATION_NONE = N_("none — the engine's reserve on this layout is more than each GPU's memory")
"""The engine's memory share when its formula gives nil or less (SGLang's default mem_fraction_static
on a TP × PP whose reserve passes the card: estimator.runtimes.sglang.sglang_mem_fraction): said, not
shown as a negative percentage."""


def ledger_value(lang: str, a: Assumption, currency: str | None = None) -> str:
    """An assumption's value as text: a word in ``lang`` (:data:`WORD_TEXTS`, stages, methods, the
    generic shape, prices with their unit), else the formatted number or the value as written; an
    engine's memory share of nil or less is :data:`UTILIZATION_NONE`."""
    if a.field == "gpu_memory_utilization" and isinstance(a.value, int | float) and a.value <= 0:
        return translate(lang, UTILIZATION_NONE)
    if isinstance(a.value, str) and a.value in WORD_TEXTS:
        return translate(lang, WORD_TEXTS[a.value])
    if a.field == "stage" and a.value in STAGE_VALUES:
        return translate(lang, STAGE_VALUES[str(a.value)])
    if a.field == "method" and a.value in METHOD_NAMES:
        return translate(lang, METHOD_NAMES[str(a.value)])
    if a.field == "architecture" and isinstance(a.value, str) and a.value.startswith("dense-"):
        return translate(lang, GENERIC_SHAPE, size=a.value.removeprefix("dense-"))
    if a.field == "architecture" and isinstance(a.value, str) and a.value.startswith("moe-"):
        total, _, active = a.value.removeprefix("moe-").partition("-A")
        return translate(lang, GENERIC_MOE, total=total, active=active)
    if a.field == "kv_indexer" and isinstance(a.value, int | float):  # estimator.mla_layout: bytes a token
        return translate(lang, BYTES_PER_TOKEN, bytes=fmt_for(lang).int(round(a.value)))
    if a.field == "price_per_gpu_hour":
        price = _price_value(lang, a.value, currency)
        if price is not None:
            return price
    return format_param(fmt_for(lang), a.field, a.value)


BYTES_PER_TOKEN = N_("%(bytes)s B / token")
"""A cache's bytes per token in the ledger (DeepSeek-V3.2's indexer keys: 8,052 B / token)."""

MAX_REMEMBERED_ROWS = 4096
"""Most ledger rows :func:`assumption_rows` keeps per catalog (then it starts afresh)."""

_ROWS: WeakKeyDictionary[NullTranslations, dict[tuple[Any, ...], dict[str, str | None]]] = WeakKeyDictionary()
"""Ledger rows already worded, per catalog (a swapped catalog starts with none): the same rows — the
default MFU, the price list, the sequence length — recur across questions (the corpus's 975 rows are
191 distinct ones), and wording one is ~10 translate and format calls."""


def _row_key(a: Assumption, lang: str, currency: str | None) -> tuple[Any, ...] | None:
    """What a ledger row's text depends on, with the type of every value (``1``, ``1.0`` and ``True``
    are equal keys but are written differently); None (not remembered) for a float zero (``-0.0`` equals
    ``0.0``) or a value that cannot be a key."""
    values = (a.value, *a.params.values())
    if 0.0 in values and any(type(v) is float and v == 0 for v in values):  # `in` first: C, no frames
        return None
    key = (
        lang,
        currency,
        a.field,
        a.why,
        a.citation,
        *a.also,
        None,
        *a.params.items(),
        *values,
        *map(type, values),
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _row(a: Assumption, lang: str, currency: str | None) -> dict[str, str | None]:
    label = FIELD_LABELS.get(a.field)
    citation = a.citation
    if citation and a.field == "price_per_gpu_hour":
        citation = citation_for(citation, currency)
    return {
        "field": a.field,
        "label": translate(lang, label) if label else a.field,
        "value": ledger_value(lang, a, currency),
        "source": why_text(lang, a),
        "citation": citation,
        "cite": translate(lang, CITATION, citation=source_text(lang, citation)) if citation else "",
    }


def assumption_rows(report: SizingReport, lang: str) -> list[dict[str, str | None]]:
    """The ledger: label, value, why, and the citation as written (each row worded once per catalog,
    :data:`_ROWS`; every call gets its own dicts)."""
    rows: list[dict[str, str | None]] = []
    currency = str(report.request.currency) if report.request.currency else None  # a StrEnum: C, no frames
    remembered = _ROWS.get(translations(lang))
    if remembered is None:
        remembered = _ROWS[translations(lang)] = {}
    for a in report.assumptions:
        key = _row_key(a, lang, currency)
        row = remembered.get(key) if key is not None else None
        if row is None:
            row = _row(a, lang, currency)
            if key is not None:
                if len(remembered) >= MAX_REMEMBERED_ROWS:
                    remembered.clear()
                remembered[key] = row
        rows.append(dict(row))
    return rows
