"""Small helpers every handler uses: languages, mentions, flood control, replies, keyboards."""

from __future__ import annotations

import functools
import html
import logging
import time
from collections.abc import Awaitable, Callable

from telegram import InlineKeyboardMarkup, Message, MessageEntity, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import filters

from bot.chat.ratelimit import FloodGate, Verdict
from bot.chat.wording import ANSWER_LATE, SEND_AGAIN, Phrase
from bot.core.conversation import Turn
from bot.parse.lang import Lang, client_lang, reply_lang
from bot.render.fit import fit_html
from bot.render.html import TELEGRAM_MAX_CHARS
from bot.render.i18n import N_
from bot.settings.chat import ChatSettings
from bot.telegram import keyboards as kb
from bot.telegram.faults import Fault, classify, one_line
from bot.telegram.processor import is_late, wait_outside_slot
from bot.telegram.state import SizingContext

logger = logging.getLogger("bot.telegram")


def user_lang(update: Update) -> Lang:
    """The user's Telegram language: Chinese for zh* clients, else English."""
    user = update.effective_user
    return client_lang(user.language_code if user else None) or "en"


def chat_settings(context: SizingContext, scope_id: int) -> ChatSettings:
    """A chat's (or, for inline mode, a user's private chat's) settings; defaults without a store."""
    return context.bot_data.conversation.settings(scope_id)


def chat_lang(update: Update, context: SizingContext) -> Lang:
    """The chat's chosen language (settings), else the user's Telegram language."""
    chat = update.effective_chat
    chosen = chat_settings(context, chat.id).lang if chat else None
    return reply_lang(chosen=chosen, client=user_lang(update))


def chat_script(update: Update, context: SizingContext) -> str:
    """The script of the bot's own Chinese words in this chat (/help): the chat's /settings, else the
    user's conversation's (bot.core.conversation.Conversation.script_of; s38 fixm #4)."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None:
        return "Hans"
    return context.bot_data.conversation.script_of(chat.id, user.id if user else chat.id)


def strip_mentions(message: Message, username: str) -> str:
    """The message text without ``@username`` mentions of this bot, whitespace tidied.

    Entity offsets are UTF-16 code units; ``parse_entities`` converts them for us.
    """
    text = message.text or ""
    mentions = message.parse_entities([MessageEntity.MENTION])
    ours = [e for e, value in mentions.items() if value.lstrip("@").lower() == username.lower()]
    if ours:
        units = text.encode("utf-16-le")
        for entity in sorted(ours, key=lambda e: e.offset, reverse=True):
            start, end = 2 * entity.offset, 2 * (entity.offset + entity.length)
            units = units[:start] + " ".encode("utf-16-le") + units[end:]
        text = units.decode("utf-16-le")
    return " ".join(text.split())


def command_argument(message: Message) -> str:
    """The text after ``/size`` or ``/size@bot`` (line breaks kept)."""
    parts = (message.text or "").split(maxsplit=1)
    return parts[1].strip() if len(parts) > 1 else ""


def for_this_bot(message: Message, caption: bool = False) -> bool:
    """Whether a group message replies to one of this bot's messages or mentions it (in its text, or
    in its caption when ``caption``: a document)."""
    bot = message.get_bot()
    replied = message.reply_to_message
    if replied and replied.from_user and replied.from_user.id == bot.id:
        return True
    username = (bot.username or "").lower()
    parse = message.parse_caption_entities if caption else message.parse_entities
    mentions = parse([MessageEntity.MENTION]).values()
    return bool(username) and any(m.lstrip("@").lower() == username for m in mentions)


class _AddressedToBot(filters.MessageFilter):
    """Group messages that mention this bot or reply to one of its messages."""

    def filter(self, message: Message) -> bool:
        return for_this_bot(message)


ADDRESSED_TO_BOT = _AddressedToBot(name="AddressedToBot")


class PermissionCheckFailed(Exception):
    """Telegram could not say whether the user is a group administrator (``getChatMember`` kept
    failing after the retries); the error handler tells the user so (not a delivery problem)."""


async def may_change_settings(update: Update, context: SizingContext) -> bool:
    """Private chats: yes. Groups: administrators and the owner (and anonymous admins) only.
    Raises :class:`PermissionCheckFailed` when Telegram's answer to the check is a transient fault."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or chat.type == ChatType.PRIVATE:
        return True
    message = update.message
    if message is not None and message.sender_chat is not None and message.sender_chat.id == chat.id:
        return True  # an anonymous administrator posts as the group itself
    if user is None:
        return False
    try:
        member = await context.bot.get_chat_member(chat.id, user.id)
    except TelegramError as err:
        if classify(err) not in (Fault.TRANSIENT, Fault.MAYBE_SENT):
            raise
        raise PermissionCheckFailed(one_line(err)) from err
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


def answer_keyboard(
    context: SizingContext, turn: Turn, *, details: bool = True
) -> InlineKeyboardMarkup | None:
    """The buttons under an answer: the actions core decided (:meth:`Conversation.actions`), as
    Telegram buttons."""
    rows = context.bot_data.conversation.actions(turn, details=details)
    return kb.actions_markup(turn.id, rows, turn.answer.lang)


# -- flood control ---------------------------------------------------------------------------
# What costs is limited (answers: questions, config files, variants, charts, recipes, quotes), not
# navigation (/start /help /gpus /models /settings, the details toggle, settings buttons).
LATE_NOTICE_S = 5.0
"""A question booked this many seconds or more ahead gets one line saying when it is answered."""


def flood_keys(update: Update, *, with_chat: bool = True) -> tuple[int, int | None]:
    """The user and the chat an answer counts against. The chat limit is Telegram's per-group
    posting limit: a private chat counts against its user only."""
    user, chat = update.effective_user, update.effective_chat
    in_group = chat is not None and chat.type != ChatType.PRIVATE
    chat_id = chat.id if chat is not None and in_group and with_chat else None
    user_id = user.id if user else (chat.id if chat else 0)
    return user_id, chat_id


def flood_verdict(gate: FloodGate | None, update: Update, *, with_chat: bool = True) -> Verdict:
    """Admit (and count) one answer for the update's user and chat, or say how to refuse it."""
    if gate is None:
        return Verdict.ALLOW
    user_id, chat_id = flood_keys(update, with_chat=with_chat)
    verdict = gate.check(user_id, chat_id)
    if verdict is not Verdict.ALLOW:
        logger.info("rate limited: user %s chat %s (%s)", user_id, chat_id, verdict.value)
    return verdict


def _waited_s(update: Update) -> float:
    """Seconds since the message was sent (Telegram's date; wall clock): time spent in line behind
    the chat's earlier messages counts towards how late its answer may come."""
    message = update.effective_message
    sent = message.date if message is not None else None
    return max(0.0, time.time() - sent.timestamp()) if sent is not None else 0.0


async def admit_answer(update: Update, context: SizingContext) -> bool:
    """For a typed message that costs an answer: True to answer it now -- at once, or after waiting
    for the slot flood control booked for it (one line says when, once per streak) -- or False when
    its answer would come more than a window after the message was sent: then the user is told once
    when to send it again."""
    gate = context.bot_data.flood
    if gate is None:
        return True
    user_id, chat_id = flood_keys(update)
    wait = gate.reserve(user_id, chat_id, waited_s=_waited_s(update))
    if wait is None:
        retry = gate.retry_after(user_id, chat_id)
        logger.info("rate limited: user %s chat %s, send again in %.1f s", user_id, chat_id, retry)
        if gate.notice_due("refused", user_id, retry):
            seconds = gate.whole_seconds(retry)
            await reply(update, SEND_AGAIN.format(chat_lang(update, context), seconds=seconds))
        return False
    if wait > 0:
        logger.info("rate limited: user %s chat %s, answering in %.1f s", user_id, chat_id, wait)
        if wait >= LATE_NOTICE_S and gate.notice_due("late", user_id, wait):
            seconds = gate.whole_seconds(wait)
            await reply(update, ANSWER_LATE.format(chat_lang(update, context), seconds=seconds))
        await wait_outside_slot(wait, gate.sleep)
    return True


DELAYED = Phrase(N_("(delayed: Telegram was unreachable)"))
"""The first line of a reply sent late, after a send outage (bot.telegram.processor)."""

MessageHandlerCallback = Callable[[Update, SizingContext], Awaitable[None]]


def rate_limited(handler: MessageHandlerCallback) -> MessageHandlerCallback:
    """Answer a typed message that costs an answer within the user's and the group's rate: over it,
    late (its slot booked) or, far over it, with one line saying when to send it again -- never
    nothing (:func:`admit_answer`, :mod:`bot.chat.ratelimit`)."""

    @functools.wraps(handler)
    async def limited(update: Update, context: SizingContext) -> None:
        if await admit_answer(update, context):
            await handler(update, context)

    return limited


async def reply(
    update: Update, text: str, reply_markup: InlineKeyboardMarkup | None = None
) -> Message | None:
    """Send ``text`` (HTML) in the update's chat, quoting the question in groups."""
    message = update.effective_message
    if message is None:
        return None
    if not text.strip():  # Telegram rejects empty text; the renderer should never produce it
        logger.warning("renderer returned empty text; nothing sent")
        return None
    if is_late():  # a new try after a send outage (bot.telegram.processor): say it is late
        text = f"<i>{html.escape(DELAYED[user_lang(update)], quote=False)}</i>\n\n{text}"
    text = fit_html(text, TELEGRAM_MAX_CHARS)  # every reply, whatever made it (bot.render.fit)
    return await message.reply_text(
        text, reply_markup=reply_markup, do_quote=message.chat.type != ChatType.PRIVATE
    )
