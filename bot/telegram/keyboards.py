"""Inline keyboards and their callback data: pure functions, no Telegram I/O.

Every button carries ``v1|<turn_id>|<action>|<arg>`` (at most 64 bytes, Telegram's limit on
``callback_data``); the state behind it (the request, the answer) stays server-side in the
``Conversation`` under the turn id. Settings buttons use ``-`` in the turn slot.

Which buttons an answer gets is decided in core (:mod:`bot.core.actions`, neutral ``Action`` values);
this module only translates them into ``InlineKeyboardButton`` s and builds the settings keyboards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.actions import LABELS, LANGUAGE_NAMES, Action, ActionKind, answer_actions
from bot.core.conversation import Turn
from bot.render.i18n import translate
from bot.settings.chat import ChatSettings

VERSION = "v1"
MAX_CALLBACK_BYTES = 64
"""Telegram's limit on ``InlineKeyboardButton.callback_data`` (1–64 bytes)."""
SETTINGS_SLOT = "-"
"""Turn-id slot of settings buttons (settings are per chat, not per answer)."""

# Answer actions (bot.core.actions decides which an answer offers)
GPU, METHOD, STAGE, DETAILS = ActionKind.GPU, ActionKind.METHOD, ActionKind.STAGE, ActionKind.DETAILS
CHART, LANG, RECIPE, QUOTE = ActionKind.CHART, ActionKind.LANG, ActionKind.RECIPE, ActionKind.QUOTE
# Settings actions and /models paging (turn slot = SETTINGS_SLOT)
SET_LANG, SET_CURRENCY, SET_MFU, SET_DEADLINE, MODELS_PAGE = "sl", "sc", "sm", "sd", "mp"
AUTO = "auto"

MFU_CHOICES_PERCENT = (30, 40, 50)
DEADLINE_CHOICES_DAYS = (14, 30, 60, 90)
CURRENCIES = ("CNY", "USD")
LANGS = ("zh", "en")
SETTINGS_LANGS = ("zh", "zh-Hant", "en")
"""The /settings language buttons: Chinese in Simplified, in Traditional (s38), English."""


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


def _label(lang: str, key: str, **values: object) -> str:
    return translate(lang, LABELS[key], **values)


def _button(text: str, turn_id: str, action: str, arg: str = "") -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=encode(turn_id, action, arg))


# -- answer keyboard -------------------------------------------------------------------------
def _enum_value(value: Any) -> str | None:
    return None if value is None else str(getattr(value, "value", value))


def actions_markup(turn_id: str, rows: list[list[Action]], lang: str) -> InlineKeyboardMarkup | None:
    """Telegram's buttons for the neutral actions core decided (:mod:`bot.core.actions`)."""
    if not rows:
        return None
    return InlineKeyboardMarkup(
        [[_button(a.label(lang), turn_id, a.kind, a.arg) for a in row] for row in rows]
    )


def answer_keyboard(
    turn: Turn,
    lang: str | None = None,
    *,
    details: bool = True,
    gpus: list[str] | None = None,
    quote: bool = False,
) -> InlineKeyboardMarkup | None:
    """Buttons under one answer (:func:`bot.core.actions.answer_actions`); None when nothing was sized."""
    lang = lang or turn.answer.lang
    rows = answer_actions(turn.answer, lang, details=details, gpus=gpus, quote=quote)
    return actions_markup(turn.id, rows, lang)


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
    if chat_lang == "zh" and getattr(current, "script", None) == "Hant":
        chat_lang = "zh-Hant"
    currency = _enum_value(getattr(current, "currency", None))
    mfu = _percent(getattr(current, "mfu", None))
    deadline = getattr(current, "deadline_days", None)
    return InlineKeyboardMarkup(
        [
            [_choice(LANGUAGE_NAMES[c], chat_lang == c, SET_LANG, c) for c in SETTINGS_LANGS]
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
