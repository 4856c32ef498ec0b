"""The error handler: one log line per expected failure, a traceback only for our own bugs, and an
apology only when the user can still hear us and it helps (:mod:`bot.telegram.faults`).

No apology blames the user's wording: a server fault says Telegram had a problem, a bug says the
fault is ours. Nothing is sent after a 400/403 (blocked, chat gone, message or query stale) or after
a send that may have been delivered.
"""

from __future__ import annotations

import logging

from telegram import Update

from bot.chat.wording import ERROR_REPLY, PERMISSION_CHECK_FAILED, TELEGRAM_TROUBLE, Phrase
from bot.telegram.common import PermissionCheckFailed, user_lang
from bot.telegram.faults import QUIET, Fault, classify, one_line
from bot.telegram.processor import ChatOrderedProcessor, is_late
from bot.telegram.state import SizingContext

logger = logging.getLogger("bot.telegram")


def where(update: object) -> str:
    """'update 12 (chat 34)' / 'polling' for log lines."""
    if not isinstance(update, Update):
        return "polling"
    chat = update.effective_chat
    return f"update {update.update_id} (chat {chat.id})" if chat else f"update {update.update_id}"


async def on_error(update: object, context: SizingContext) -> None:
    """Log ``context.error`` by its kind and, for a bug or a server fault, apologise once."""
    error = context.error
    place = where(update)
    if isinstance(error, PermissionCheckFailed):
        logger.warning("%s: admin check failed: %s", place, error)
        if isinstance(update, Update):
            await apologize(update, context, PERMISSION_CHECK_FAILED)
        return
    fault = classify(error)
    if fault is Fault.BUG:
        logger.error("error while handling %s", place, exc_info=error)
    elif fault in (Fault.GONE, Fault.STALE):
        logger.info("%s: %s (%s); nothing more sent", place, fault.value, one_line(error))
    elif fault is Fault.MAYBE_SENT:
        logger.warning("%s: %s; not repeated, no apology", place, one_line(error))
    elif fault is Fault.TRANSIENT and _deferred(update, context):
        logger.warning(
            "%s: %s: %s; answer kept, sent when Telegram is back", place, fault.value, one_line(error)
        )
        if not is_late() and isinstance(update, Update):  # one apology, on the first failure only;
            await apologize(update, context, TELEGRAM_TROUBLE)  # the answer follows, marked late
        return
    else:
        logger.warning("%s: %s: %s", place, fault.value, one_line(error))
    if fault in QUIET or not isinstance(update, Update):
        return
    await apologize(update, context, ERROR_REPLY if fault is Fault.BUG else TELEGRAM_TROUBLE)


def _deferred(update: object, context: SizingContext) -> bool:
    """A send outage: the update is handled again later (bot.telegram.processor), not given up."""
    processor = context.application.update_processor
    return isinstance(processor, ChatOrderedProcessor) and processor.defer(update)


async def apologize(update: Update, context: SizingContext, phrase: Phrase) -> None:
    """One short plain-text apology (a callback answer for a button); never raises."""
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(phrase[user_lang(update)])
        elif update.effective_chat is not None and update.inline_query is None:
            chat_id = update.effective_chat.id
            await context.bot.send_message(chat_id, phrase[user_lang(update)], parse_mode=None)
    except Exception as err:  # the apology is best effort: one line, whatever happened
        logger.warning("%s: could not apologise (%s)", where(update), one_line(err))
