"""Inline keyboards and their callback data: pure functions, no Telegram I/O.

Every button carries ``v1|<turn_id>|<action>|<arg>`` (at most 64 bytes, Telegram's limit on
``callback_data``); the state behind it (the request, the answer) stays server-side in the
``Conversation`` under the turn id. Settings buttons use ``-`` in the turn slot.

Answer buttons (docs/design.md §5): switch GPU (three alternatives), switch fine-tuning method or stage
where it makes sense, show/hide the details, 📊 chart, ⚙️ launch recipes (training and serving answers
with a plan), the other language, and in a pre-sales deployment 🧾 the PDF quote.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.conversation import Turn
from bot.recipes import has_recipes
from bot.render.chart import chart_kind  # cheap: matplotlib is imported only when drawing
from bot.render.i18n import N_, translate
from bot.settings.chat import ChatSettings
from estimator import catalog
from estimator.models import Method, Stage

VERSION = "v1"
MAX_CALLBACK_BYTES = 64
"""Telegram's limit on ``InlineKeyboardButton.callback_data`` (1–64 bytes)."""
SETTINGS_SLOT = "-"
"""Turn-id slot of settings buttons (settings are per chat, not per answer)."""

# Answer actions
GPU, METHOD, STAGE, DETAILS, CHART, LANG, RECIPE, QUOTE = "g", "m", "s", "d", "c", "l", "r", "q"
# Settings actions and /models paging (turn slot = SETTINGS_SLOT)
SET_LANG, SET_CURRENCY, SET_MFU, SET_DEADLINE, MODELS_PAGE = "sl", "sc", "sm", "sd", "mp"
AUTO = "auto"

MFU_CHOICES_PERCENT = (30, 40, 50)
DEADLINE_CHOICES_DAYS = (14, 30, 60, 90)
CURRENCIES = ("CNY", "USD")
LANGS = ("zh", "en")


@dataclass(frozen=True)
class Callback:
    """A decoded ``callback_data``."""

    turn_id: str
    action: str
    arg: str = ""


def encode(turn_id: str, action: str, arg: str = "") -> str:
    """``v1|turn|action|arg``; ValueError when a part holds ``|`` or the result exceeds 64 bytes."""
    parts = (VERSION, turn_id, action, arg)
    if any("|" in p for p in parts) or not turn_id or not action:
        raise ValueError(f"bad callback parts: {parts!r}")
    data = "|".join(parts)
    if len(data.encode()) > MAX_CALLBACK_BYTES:
        raise ValueError(f"callback_data over {MAX_CALLBACK_BYTES} bytes: {data!r}")
    return data


def decode(data: str | None) -> Callback | None:
    """The callback, or None for anything else (another version, garbage)."""
    parts = (data or "").split("|")
    if len(parts) != 4 or parts[0] != VERSION or not parts[1] or not parts[2]:
        return None
    return Callback(parts[1], parts[2], parts[3])


# -- labels ----------------------------------------------------------------------------------
LABELS: dict[str, str] = {
    "hide": N_("🔼 Hide details"),
    "show": N_("🔽 Show details"),
    "chart": N_("📊 Chart"),
    "recipe": N_("⚙️ Config"),
    "quote": N_("🧾 Quote (PDF)"),
    "full": N_("Full FT"),
    "lora": "LoRA",
    "qlora": "QLoRA",
    "inference": N_("🚀 Serve it"),
    "finetune": N_("🎯 Fine-tune"),
    "auto": N_("auto"),
    "days": N_("%(n)s d"),
    "prev": "◀",
    "next": "▶",
}
"""Button labels (msgids; product names are not translated)."""
LANGUAGE_NAMES = {"zh": "中文", "en": "English"}
"""Each language in its own script: the 🌐 button offers the other one by its own name."""


def _label(lang: str, key: str, **values: object) -> str:
    return translate(lang, LABELS[key], **values)


def gpu_label(gpu_id: str) -> str:
    """What users call a GPU: its family, plus the memory for a non-default variant ('A100 40G')."""
    spec = catalog.gpus().get(gpu_id)
    if spec is None:
        return gpu_id
    return spec.family if spec.default_for_family else f"{spec.family} {spec.memory_gib:g}G"


def _button(text: str, turn_id: str, action: str, arg: str = "") -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=encode(turn_id, action, arg))


# -- answer keyboard -------------------------------------------------------------------------
def _enum_value(value: Any) -> str | None:
    return None if value is None else str(getattr(value, "value", value))


def answer_keyboard(
    turn: Turn,
    lang: str | None = None,
    *,
    details: bool = True,
    gpus: list[str] | None = None,
    quote: bool = False,
) -> InlineKeyboardMarkup | None:
    """Buttons under one answer; None when nothing was sized.

    ``details``: whether the message currently shows the expandable details (the toggle offers
    the opposite). Labels follow ``lang`` (default: the answer's language). ``gpus``: catalog ids
    for the GPU row (the Conversation's suggestions: a pre-sales deployment's GPUs first).
    ``quote``: a 🧾 row that sends the answer's PDF quote (pre-sales deployments).
    """
    report = turn.answer.report
    if report is None:
        return None
    lang = lang or turn.answer.lang
    rows: list[list[InlineKeyboardButton]] = []

    if gpus:
        rows.append([_button(f"🖥 {gpu_label(g)}", turn.id, GPU, g) for g in gpus[:3]])

    request = report.request
    stage, method = _enum_value(request.stage), _enum_value(request.method)
    sized_a_model = request.model is not None or request.params_total is not None
    second: list[InlineKeyboardButton] = []
    if stage == Stage.finetune.value:
        second += [  # the three common methods; freeze-tuning and P-tuning are typed, not offered
            _button(_label(lang, m.value), turn.id, METHOD, m.value)
            for m in (Method.full, Method.lora, Method.qlora)
            if m.value != method
        ]
    trains = (Stage.pretrain.value, Stage.continued_pretrain.value, Stage.finetune.value)
    if sized_a_model and stage in trains:
        second.append(_button(_label(lang, "inference"), turn.id, STAGE, Stage.inference.value))
    elif sized_a_model and stage == Stage.inference.value:
        second.append(_button(_label(lang, "finetune"), turn.id, STAGE, Stage.finetune.value))
    if second:
        rows.append(second)

    other = "en" if lang == "zh" else "zh"
    toggle = _label(lang, "hide" if details else "show")
    last = [_button(toggle, turn.id, DETAILS, "0" if details else "1")]
    if chart_kind(report) is not None:
        last.append(_button(_label(lang, "chart"), turn.id, CHART))
    if has_recipes(report):
        last.append(_button(_label(lang, "recipe"), turn.id, RECIPE))
    last.append(_button(f"🌐 {LANGUAGE_NAMES[other]}", turn.id, LANG, other))
    rows.append(last)
    if quote:
        rows.append([_button(_label(lang, "quote"), turn.id, QUOTE)])
    return InlineKeyboardMarkup(rows)


# -- settings keyboard -----------------------------------------------------------------------
def _choice(text: str, chosen: bool, action: str, arg: str) -> InlineKeyboardButton:
    return _button(("✓ " if chosen else "") + text, SETTINGS_SLOT, action, arg)


def _percent(mfu: float | None) -> int | None:
    return None if mfu is None else round(mfu * 100)


def settings_keyboard(current: ChatSettings | None, lang: str) -> InlineKeyboardMarkup:
    """Language zh/en/auto, currency CNY/USD/auto, default MFU, default deadline; ✓ marks the value.

    ``current``: a ``bot.settings_store.ChatSettings`` (or None: everything automatic).
    """
    auto = _label(lang, "auto")
    chat_lang = getattr(current, "lang", None)
    currency = _enum_value(getattr(current, "currency", None))
    mfu = _percent(getattr(current, "mfu", None))
    deadline = getattr(current, "deadline_days", None)
    return InlineKeyboardMarkup(
        [
            [_choice(LANGUAGE_NAMES[c], chat_lang == c, SET_LANG, c) for c in LANGS]
            + [_choice(auto, chat_lang is None, SET_LANG, AUTO)],
            [_choice(c, currency == c, SET_CURRENCY, c) for c in CURRENCIES]
            + [_choice(auto, currency is None, SET_CURRENCY, AUTO)],
            [_choice(f"MFU {p}%", mfu == p, SET_MFU, str(p)) for p in MFU_CHOICES_PERCENT]
            + [_choice(auto, mfu is None, SET_MFU, AUTO)],
            [
                _choice(
                    _label(lang, "days", n=d),
                    deadline is not None and round(deadline) == d,
                    SET_DEADLINE,
                    str(d),
                )
                for d in DEADLINE_CHOICES_DAYS
            ]
            + [_choice(auto, deadline is None, SET_DEADLINE, AUTO)],
        ]
    )


def all_callback_data(markup: InlineKeyboardMarkup | None) -> list[str]:
    """Every ``callback_data`` in a keyboard (for checks and tests)."""
    if markup is None:
        return []
    buttons = [b for row in markup.inline_keyboard for b in row]
    return [str(b.callback_data) for b in buttons if b.callback_data is not None]


def models_keyboard(query: str, page: int, pages: int) -> InlineKeyboardMarkup | None:
    """◀ ▶ under a /models page (``page`` from 0); None when everything fits on one page. The search
    travels in the callback data (``<page>:<query>``, cut to fit 64 bytes; '|' removed)."""
    if pages <= 1:
        return None
    query = query.replace("|", " ")
    while len(f"{VERSION}|{SETTINGS_SLOT}|{MODELS_PAGE}|{pages}:{query}".encode()) > MAX_CALLBACK_BYTES:
        query = query[:-1]
    row = []
    if page > 0:
        row.append(_button(LABELS["prev"], SETTINGS_SLOT, MODELS_PAGE, f"{page - 1}:{query}"))
    if page < pages - 1:
        row.append(_button(LABELS["next"], SETTINGS_SLOT, MODELS_PAGE, f"{page + 1}:{query}"))
    return InlineKeyboardMarkup([row])


def models_page_arg(arg: str) -> tuple[int, str] | None:
    """(page, query) from a paging button's argument; None when it is not one of ours."""
    page, sep, query = arg.partition(":")
    return (int(page), query) if sep and page.isdigit() and len(page) <= 4 else None
