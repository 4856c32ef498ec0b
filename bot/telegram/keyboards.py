"""Inline keyboards and their callback data: pure functions, no Telegram I/O.

Every button carries ``v1|<turn_id>|<action>|<arg>`` (at most 64 bytes, Telegram's limit on
``callback_data``); the state behind it (the request, the answer) stays server-side in the
``Conversation`` under the turn id. Settings buttons use ``-`` in the turn slot.

Answer buttons (design §5): switch GPU (three alternatives), switch fine-tuning method or stage
where it makes sense, show/hide the details, 📊 chart, and the other language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from estimator import catalog
from estimator.models import Method, Stage

try:
    from bot.core.conversation import alternative_gpus
except ImportError:  # until bot.core.conversation provides it: no GPU row
    alternative_gpus = None
try:
    from bot.render.chart import chart_kind  # cheap: matplotlib is imported only when drawing
except ImportError:  # until bot.render.chart lands: no chart button
    chart_kind = None

VERSION = "v1"
MAX_CALLBACK_BYTES = 64
"""Telegram's limit on ``InlineKeyboardButton.callback_data`` (1–64 bytes)."""
SETTINGS_SLOT = "-"
"""Turn-id slot of settings buttons (settings are per chat, not per answer)."""

# Answer actions
GPU, METHOD, STAGE, DETAILS, CHART, LANG = "g", "m", "s", "d", "c", "l"
# Settings actions (turn slot = SETTINGS_SLOT)
SET_LANG, SET_CURRENCY, SET_MFU, SET_DEADLINE = "sl", "sc", "sm", "sd"
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
_L: dict[str, dict[str, str]] = {
    "zh": {
        "hide": "🔼 收起详情",
        "show": "🔽 展开详情",
        "chart": "📊 图表",
        "lang": "🌐 English",
        "full": "全参微调",
        "lora": "LoRA",
        "qlora": "QLoRA",
        "inference": "🚀 部署推理",
        "finetune": "🎯 微调",
        "auto": "自动",
        "days": "{n}天",
    },
    "en": {
        "hide": "🔼 Hide details",
        "show": "🔽 Show details",
        "chart": "📊 Chart",
        "lang": "🌐 中文",
        "full": "Full FT",
        "lora": "LoRA",
        "qlora": "QLoRA",
        "inference": "🚀 Serve it",
        "finetune": "🎯 Fine-tune",
        "auto": "auto",
        "days": "{n} d",
    },
}
LANGUAGE_NAMES = {"zh": "中文", "en": "English"}


def _lang(lang: str) -> str:
    return lang if lang in _L else "en"


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
    turn: Any, lang: str | None = None, *, details: bool = True, gpus: list[str] | None = None
) -> InlineKeyboardMarkup | None:
    """Buttons under one answer (``turn``: a ``bot.dialogue.Turn``); None when nothing was sized.

    ``details``: whether the message currently shows the expandable details (the toggle offers
    the opposite). Labels follow ``lang`` (default: the answer's language). ``gpus``: catalog ids
    for the GPU row (default: ``bot.dialogue.alternative_gpus``; the adapter passes the
    Conversation's, which puts a pre-sales deployment's GPUs first).
    """
    report = turn.answer.report
    if report is None:
        return None
    lang = _lang(lang or turn.answer.lang)
    words = _L[lang]
    rows: list[list[InlineKeyboardButton]] = []

    if gpus is None:
        gpus = alternative_gpus(turn, n=3) if alternative_gpus is not None else []
    if gpus:
        rows.append([_button(f"🖥 {gpu_label(g)}", turn.id, GPU, g) for g in gpus[:3]])

    request = report.request
    stage, method = _enum_value(request.stage), _enum_value(request.method)
    sized_a_model = request.model is not None or request.params_total is not None
    second: list[InlineKeyboardButton] = []
    if stage == Stage.finetune.value:
        second += [_button(words[m.value], turn.id, METHOD, m.value) for m in Method if m.value != method]
    trains = (Stage.pretrain.value, Stage.continued_pretrain.value, Stage.finetune.value)
    if sized_a_model and stage in trains:
        second.append(_button(words["inference"], turn.id, STAGE, Stage.inference.value))
    elif sized_a_model and stage == Stage.inference.value:
        second.append(_button(words["finetune"], turn.id, STAGE, Stage.finetune.value))
    if second:
        rows.append(second)

    other = "en" if lang == "zh" else "zh"
    last = [_button(words["hide"] if details else words["show"], turn.id, DETAILS, "0" if details else "1")]
    if chart_kind is not None and chart_kind(report) is not None:
        last.append(_button(words["chart"], turn.id, CHART))
    last.append(_button(words["lang"], turn.id, LANG, other))
    rows.append(last)
    return InlineKeyboardMarkup(rows)


# -- settings keyboard -----------------------------------------------------------------------
def _choice(text: str, chosen: bool, action: str, arg: str) -> InlineKeyboardButton:
    return _button(("✓ " if chosen else "") + text, SETTINGS_SLOT, action, arg)


def _percent(mfu: float | None) -> int | None:
    return None if mfu is None else round(mfu * 100)


def settings_keyboard(current: Any, lang: str) -> InlineKeyboardMarkup:
    """Language zh/en/auto, currency CNY/USD/auto, default MFU, default deadline; ✓ marks the value.

    ``current``: a ``bot.settings_store.ChatSettings`` (or None: everything automatic).
    """
    words = _L[_lang(lang)]
    chat_lang = getattr(current, "lang", None)
    currency = _enum_value(getattr(current, "currency", None))
    mfu = _percent(getattr(current, "mfu", None))
    deadline = getattr(current, "deadline_days", None)
    return InlineKeyboardMarkup(
        [
            [_choice(LANGUAGE_NAMES[c], chat_lang == c, SET_LANG, c) for c in LANGS]
            + [_choice(words["auto"], chat_lang is None, SET_LANG, AUTO)],
            [_choice(c, currency == c, SET_CURRENCY, c) for c in CURRENCIES]
            + [_choice(words["auto"], currency is None, SET_CURRENCY, AUTO)],
            [_choice(f"MFU {p}%", mfu == p, SET_MFU, str(p)) for p in MFU_CHOICES_PERCENT]
            + [_choice(words["auto"], mfu is None, SET_MFU, AUTO)],
            [
                _choice(
                    words["days"].format(n=d),
                    deadline is not None and round(deadline) == d,
                    SET_DEADLINE,
                    str(d),
                )
                for d in DEADLINE_CHOICES_DAYS
            ]
            + [_choice(words["auto"], deadline is None, SET_DEADLINE, AUTO)],
        ]
    )


def all_callback_data(markup: InlineKeyboardMarkup | None) -> list[str]:
    """Every ``callback_data`` in a keyboard (for checks and tests)."""
    if markup is None:
        return []
    buttons = [b for row in markup.inline_keyboard for b in row]
    return [str(b.callback_data) for b in buttons if b.callback_data is not None]
