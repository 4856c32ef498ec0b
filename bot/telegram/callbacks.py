"""Button presses: answer variants (GPU, method, stage, language), details, chart, and settings.

Every button carries ``v1|<turn_id>|<action>|<arg>`` (:mod:`bot.telegram.keyboards`); the state stays
server-side in the Conversation. Each kind of press has its own PTB ``CallbackQueryHandler`` with a
pattern (:func:`callback_handlers`). The message is edited in place; an expired turn gets a polite
callback answer; every callback query is answered (Telegram shows a spinner until then).
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import ValidationError
from telegram import CallbackQuery, InlineKeyboardMarkup, ReplyParameters, Update
from telegram.error import BadRequest
from telegram.ext import CallbackQueryHandler

from bot.chat.commands import models_page, settings_text
from bot.chat.ratelimit import Verdict
from bot.chat.shown import Shown
from bot.chat.wording import (
    EXPIRED,
    NO_CHART,
    NO_RECIPE,
    NO_SETTINGS,
    NOT_ADMIN,
    PRICES_NEED_CURRENCY,
    SAVED,
    SETTINGS_UNAVAILABLE,
    SLOW_DOWN,
    VALUE_REFUSED,
    WAIT_SECONDS,
)
from bot.core.actions import VARIANT_FIELDS, ActionKind
from bot.core.conversation import Turn
from bot.quote.pool import Busy
from bot.telegram import keyboards as kb
from bot.telegram.common import (
    answer_keyboard,
    chat_lang,
    flood_keys,
    flood_verdict,
    may_change_settings,
    user_lang,
)
from bot.telegram.processor import run_outside_slot
from bot.telegram.recipes import send_recipes
from bot.telegram.reply import chart_caption, reply_html
from bot.telegram.settings_io import SettingsUnavailable
from bot.telegram.state import SizingContext

logger = logging.getLogger("bot.telegram")
PressHandler = Callable[[Update, SizingContext], Awaitable[None]]


def _settings_change(callback: kb.Callback) -> dict[str, Any] | None:
    """The settings fields a settings button sets; None for an unknown button."""
    auto = callback.arg == kb.AUTO
    try:
        if callback.action == kb.SET_LANG and (auto or callback.arg in kb.SETTINGS_LANGS):
            hant = callback.arg == "zh-Hant"  # Chinese in Traditional (s38)
            return {"lang": None if auto else callback.arg[:2], "script": "Hant" if hant else None}
        if callback.action == kb.SET_CURRENCY and (auto or callback.arg in kb.CURRENCIES):
            return {"currency": None if auto else callback.arg}
        if callback.action == kb.SET_MFU:
            return {"mfu": None if auto else int(callback.arg) / 100}
        if callback.action == kb.SET_DEADLINE:
            return {"deadline_days": None if auto else int(callback.arg)}
    except ValueError:
        return None
    return None


async def _on_settings_button(update: Update, context: SizingContext, callback: kb.Callback) -> None:
    query, chat = update.callback_query, update.effective_chat
    assert query is not None
    data = context.bot_data
    lang = chat_lang(update, context)
    change = _settings_change(callback)
    if data.store is None or chat is None or change is None:
        await query.answer(NO_SETTINGS[lang] if data.store is None else None)
        return
    if not await may_change_settings(update, context):
        await query.answer(NOT_ADMIN[lang], show_alert=True)
        return
    try:
        current = await data.settings_io.read(chat.id)
        if "currency" in change and current.prices and change["currency"] != current.currency:
            # the stored prices are numbers in the current currency: never reinterpret them silently
            await query.answer(PRICES_NEED_CURRENCY[lang], show_alert=True)
            return
        current = await data.settings_io.update(chat.id, **change)
    except SettingsUnavailable as err:
        logger.warning("settings button in chat %s: %s", chat.id, err)
        await query.answer(SETTINGS_UNAVAILABLE[lang], show_alert=True)
        return
    except ValidationError:  # outside bot.settings.chat' bounds: what a typed value would get
        logger.info("settings button in chat %s refused: %s", chat.id, change)
        await query.answer(VALUE_REFUSED[lang], show_alert=True)
        return
    lang = chat_lang(update, context)  # the language itself may have changed
    await query.answer(SAVED[lang])
    text = settings_text(current, lang, data.presales)
    await _edit(query, text, kb.settings_keyboard(current, lang))


async def _on_models_page(update: Update, context: SizingContext, callback: kb.Callback) -> None:
    """◀ ▶ under /models: edit the list to the page asked for."""
    query = update.callback_query
    assert query is not None
    paging = kb.models_page_arg(callback.arg)
    await query.answer()
    if paging is not None:
        page, search = paging
        text, pages = models_page(chat_lang(update, context), search, page)
        await _edit(query, text, kb.models_keyboard(search, min(page, max(pages - 1, 0)), pages))


async def _edit(query: CallbackQuery, text: str, markup: InlineKeyboardMarkup | None) -> None:
    try:
        await query.edit_message_text(text, reply_markup=markup)
    except BadRequest as err:  # pressing a button that changes nothing
        if "not modified" not in str(err).lower():
            raise


async def _send_chart(update: Update, context: SizingContext, turn: Turn) -> None:
    query, chat = update.callback_query, update.effective_chat
    assert query is not None
    from bot.render.chart import render_chart  # plotting libraries load on the first chart only

    user_id = update.effective_user.id if update.effective_user else 0
    try:  # the bounded work pool (bot.quote.pool); a worker slot is not held while waiting
        png = await run_outside_slot(
            context.bot_data.heavy.run(user_id, render_chart, turn.answer, turn.answer.lang)
        )
    except Busy as err:
        logger.info("chart for turn %s refused: %s", turn.id, err)
        await query.answer(SLOW_DOWN[turn.answer.lang])
        return
    if not png or chat is None:
        await query.answer(NO_CHART[turn.answer.lang])
        return
    await query.answer()
    quoted = ReplyParameters(query.message.message_id) if query.message else None
    caption = chart_caption(turn.answer)  # the headline: what the chart is about, in the chat list too
    await context.bot.send_photo(chat.id, photo=png, caption=caption or None, reply_parameters=quoted)


async def _send_recipes(update: Update, context: SizingContext, turn: Turn) -> None:
    """⚙️ Config: the answer's launch recipes as code blocks (or files), quoting the answer."""
    from bot.recipes import build_recipes

    query, chat = update.callback_query, update.effective_chat
    assert query is not None
    recipes = build_recipes(turn.answer.report, turn.answer.lang, (turn.answer.chosen_plan,))
    if not recipes or chat is None:
        await query.answer(NO_RECIPE[turn.answer.lang])
        return
    await query.answer()
    await send_recipes(context, chat.id, recipes, query.message.message_id if query.message else None)


async def _send_quote(update: Update, context: SizingContext, turn: Turn) -> None:
    """🧾 Quote: the answer's one-page PDF quote, quoting the answer (bot.telegram.quote)."""
    from bot.telegram.quote import CANNOT_QUOTE, send_quote

    query, chat = update.callback_query, update.effective_chat
    assert query is not None
    if chat is None:
        await query.answer()
        return
    await query.answer()
    message_id = query.message.message_id if query.message else None
    user_id = update.effective_user.id if update.effective_user else None
    if not await send_quote(context, chat.id, turn, message_id, user_id):
        await context.bot.send_message(chat.id, CANNOT_QUOTE[turn.answer.lang], parse_mode=None)


def _callback(update: Update) -> kb.Callback:
    """The press's decoded callback (its handler's pattern already matched the format)."""
    callback = kb.decode(update.callback_query.data if update.callback_query else None)
    assert callback is not None
    return callback


def _admitted(update: Update, context: SizingContext) -> bool:
    return flood_verdict(context.bot_data.flood, update) is Verdict.ALLOW


def costly(handler: PressHandler) -> PressHandler:
    """A press that makes an answer (a variant, a chart, recipes, a PDF: :data:`bot.core.actions.COSTLY`)
    counts against flood control; over it, the query is answered with when to press again. The details
    toggle, /models pages and settings buttons are navigation: never limited."""

    @functools.wraps(handler)
    async def limited(update: Update, context: SizingContext) -> None:
        if _admitted(update, context):
            await handler(update, context)
            return
        gate = context.bot_data.flood
        assert gate is not None and update.callback_query is not None
        seconds = gate.whole_seconds(gate.retry_after(*flood_keys(update)))
        await update.callback_query.answer(WAIT_SECONDS.format(user_lang(update), seconds=seconds))

    return limited


async def _show(update: Update, context: SizingContext, turn: Turn | None, details: bool | None) -> None:
    """Edit the pressed message to show ``turn`` (``details`` None: as the message shows them now)."""
    query, chat = update.callback_query, update.effective_chat
    assert query is not None
    if turn is None:
        await query.answer(EXPIRED[user_lang(update)], show_alert=False)
        return
    message, chat_id = query.message, chat.id if chat else 0
    if details is None:
        shown = context.bot_data.shown.get(chat_id, message.message_id) if message else None
        details = shown.details if shown else True
    await query.answer()
    text = reply_html(turn, details=details, contact=context.bot_data.contact)
    await _edit(query, text, answer_keyboard(context, turn, details=details))
    if message is not None:
        context.bot_data.shown.remember(chat_id, message.message_id, Shown(turn.id, details=details))


def _presser(update: Update) -> int | None:
    return update.effective_user.id if update.effective_user else None


async def on_details(update: Update, context: SizingContext) -> None:
    """🔼/🔽: the same turn, with the details hidden or shown."""
    callback = _callback(update)
    await _show(update, context, context.bot_data.conversation.turn(callback.turn_id), callback.arg == "1")


@costly
async def on_variant(update: Update, context: SizingContext) -> None:
    """Switch GPU, method, stage or language: the turn re-answered with one thing changed, in place."""
    callback, conversation, query = _callback(update), context.bot_data.conversation, update.callback_query
    assert query is not None
    kind = ActionKind(callback.action)
    try:
        if kind is ActionKind.LANG and callback.arg in kb.LANGS:
            turn = conversation.variant(callback.turn_id, lang=callback.arg, by_user=_presser(update))  # type: ignore[arg-type]
        elif kind in VARIANT_FIELDS:
            change = {VARIANT_FIELDS[kind]: callback.arg}
            turn = conversation.variant(callback.turn_id, by_user=_presser(update), **change)
        else:  # a language no keyboard of ours offers
            await query.answer()
            return
    except ValueError:  # a value no keyboard of ours offers (forged or from a newer format)
        await query.answer()
        return
    await _show(update, context, turn, None)


def _sender(send: Callable[[Update, SizingContext, Turn], Awaitable[None]]) -> PressHandler:
    """A press that sends something about the turn (chart, recipes, quote); expired: a polite answer."""

    @functools.wraps(send)
    async def press(update: Update, context: SizingContext) -> None:
        turn = context.bot_data.conversation.turn(_callback(update).turn_id)
        if turn is None:
            assert update.callback_query is not None
            await update.callback_query.answer(EXPIRED[user_lang(update)], show_alert=False)
            return
        await send(update, context, turn)

    return costly(press)


async def on_settings_button(update: Update, context: SizingContext) -> None:
    """A button under /settings."""
    await _on_settings_button(update, context, _callback(update))


async def on_models_page(update: Update, context: SizingContext) -> None:
    """◀ ▶ under /models."""
    await _on_models_page(update, context, _callback(update))


async def on_other(update: Update, context: SizingContext) -> None:
    """Any other callback (not ours, an older format, an unknown action): answered, nothing else."""
    if update.callback_query is not None:
        await update.callback_query.answer()


def _pattern(slot: str, action: str) -> re.Pattern[str]:
    return re.compile(rf"^{kb.VERSION}\|{slot}\|{action}\|[^|]*$")


_TURN = r"(?!-\|)[^|]+"  # any turn id but the settings slot
_SETTINGS = re.escape(kb.SETTINGS_SLOT)


def callback_handlers() -> list[CallbackQueryHandler[Any, Any]]:
    """PTB's own per-pattern handlers, one per kind of press (register them in this order: the first
    match wins); the last one answers any other callback query (Telegram shows a spinner until then)."""
    variants = "|".join(re.escape(k) for k in (kb.GPU, kb.METHOD, kb.STAGE, kb.LANG))
    return [
        CallbackQueryHandler(on_models_page, pattern=_pattern(_SETTINGS, re.escape(kb.MODELS_PAGE))),
        CallbackQueryHandler(on_settings_button, pattern=_pattern(_SETTINGS, "[^|]+")),
        CallbackQueryHandler(on_details, pattern=_pattern(_TURN, re.escape(kb.DETAILS))),
        CallbackQueryHandler(on_variant, pattern=_pattern(_TURN, f"(?:{variants})")),
        CallbackQueryHandler(_sender(_send_chart), pattern=_pattern(_TURN, re.escape(kb.CHART))),
        CallbackQueryHandler(_sender(_send_recipes), pattern=_pattern(_TURN, re.escape(kb.RECIPE))),
        CallbackQueryHandler(_sender(_send_quote), pattern=_pattern(_TURN, re.escape(kb.QUOTE))),
        CallbackQueryHandler(on_other),
    ]
