"""Telegram as a :class:`bot.chat.adapter.Adapter`: PTB updates in, neutral values out, and back.

The first implementation of the neutral interface. It long-polls ``getUpdates`` with a PTB ``Bot``
and turns each update into an :class:`~bot.chat.adapter.Inbound` (a text message) or a
:class:`~bot.chat.adapter.Press` (a button of ours), with ids scoped as ``telegram:<id>``; replies go
out as Telegram HTML with the actions translated by :func:`bot.telegram.keyboards.actions_markup`.
``sizing-bot run`` still serves through the full ``Application`` (journal, flood control, commands);
this adapter is the seam a second front end copies, and what :class:`bot.chat.seam.Seam` drives.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from telegram import Bot, InputFile, Message, ReplyParameters, Update
from telegram.constants import ChatType

from bot.chat.adapter import Inbound, Outbound, Press
from bot.chat.ids import TELEGRAM, scoped
from bot.core.actions import Action, ActionKind
from bot.render.fit import fit_with_footer
from bot.render.html import TELEGRAM_MAX_CHARS
from bot.telegram import keyboards as kb
from bot.telegram.common import for_this_bot, strip_mentions

IDLE_POLL_S = 0.05
"""Pause after an empty ``getUpdates`` answer when polling without a server-side timeout."""


def html_footer(text: str, line: str) -> str:
    """The seam's footer for Telegram HTML: the contact line escaped, the whole within 4,096 characters."""
    return fit_with_footer(text, line, TELEGRAM_MAX_CHARS)


def telegram_id(key: str) -> int:
    """The Telegram integer behind a scoped id (``telegram:-100123`` → ``-100123``)."""
    platform, _, raw = key.partition(":")
    if platform != TELEGRAM:
        raise ValueError(f"not a Telegram id: {key!r}")
    return int(raw)


def _inbound(message: Message, username: str) -> Inbound | None:
    if message.text is None or message.from_user is None:
        return None
    group = message.chat.type != ChatType.PRIVATE
    replied = message.reply_to_message
    return Inbound(
        TELEGRAM,
        scoped(TELEGRAM, message.chat.id),
        scoped(TELEGRAM, message.from_user.id),
        strip_mentions(message, username),
        message_id=str(message.message_id),
        reply_to=str(replied.message_id) if replied else None,
        is_group=group,
        mentioned=group and for_this_bot(message),
        user_lang=message.from_user.language_code,
    )


def neutral(update: Update, username: str) -> Inbound | Press | None:
    """The neutral value for one Telegram update; None for anything else (edits, other buttons)."""
    if update.message is not None:
        return _inbound(update.message, username)
    query = update.callback_query
    callback = kb.decode(query.data) if query is not None else None
    if query is None or callback is None or query.message is None or callback.turn_id == kb.SETTINGS_SLOT:
        return None
    try:
        action = Action(ActionKind(callback.action), callback.arg)
    except ValueError:
        return None
    chat = scoped(TELEGRAM, query.message.chat.id)
    user = scoped(TELEGRAM, query.from_user.id)
    return Press(TELEGRAM, chat, user, str(query.message.message_id), callback.turn_id, action)


class TelegramAdapter:
    """:class:`bot.chat.adapter.Adapter` over a PTB ``Bot`` (``poll_timeout_s``: getUpdates' long poll)."""

    platform = TELEGRAM

    def __init__(self, bot: Bot, *, poll_timeout_s: int = 30) -> None:
        self.bot = bot
        self.poll_timeout_s = poll_timeout_s
        self._offset: int | None = None
        self._stopping = False
        self._closed = False
        self._idle = asyncio.Event()
        self._idle.set()

    async def connect(self) -> None:
        await self.bot.initialize()

    async def receive(self) -> AsyncIterator[Inbound | Press]:
        self._idle.clear()
        try:
            while not self._stopping:
                updates = await self.bot.get_updates(offset=self._offset, timeout=self.poll_timeout_s)
                for update in updates:
                    self._offset = update.update_id + 1
                    if update.callback_query is not None:
                        await update.callback_query.answer()  # Telegram shows a spinner until then
                    item = neutral(update, self.bot.username or "")
                    if item is not None:
                        yield item
                if not updates and not self.poll_timeout_s:
                    await asyncio.sleep(IDLE_POLL_S)
        finally:
            self._idle.set()

    async def reply(self, to: Inbound | Press, out: Outbound) -> str:
        quoted = (
            ReplyParameters(int(to.message_id), allow_sending_without_reply=True)
            if isinstance(to, Inbound) and to.is_group and to.message_id
            else None
        )
        markup = kb.actions_markup(out.turn_id, out.actions, out.lang) if out.turn_id else None
        sent = await self.bot.send_message(
            telegram_id(to.chat_id), out.text, reply_markup=markup, reply_parameters=quoted
        )
        return str(sent.message_id)

    async def edit(self, chat_id: str, message_id: str, out: Outbound) -> None:
        markup = kb.actions_markup(out.turn_id, out.actions, out.lang) if out.turn_id else None
        await self.bot.edit_message_text(
            out.text, chat_id=telegram_id(chat_id), message_id=int(message_id), reply_markup=markup
        )

    def _quoted(self, reply_to: str | None) -> ReplyParameters | None:
        return ReplyParameters(int(reply_to), allow_sending_without_reply=True) if reply_to else None

    async def send_file(self, chat_id: str, name: str, data: bytes, *, reply_to: str | None = None) -> str:
        document = InputFile(data, filename=name)
        sent = await self.bot.send_document(
            telegram_id(chat_id), document=document, reply_parameters=self._quoted(reply_to)
        )
        return str(sent.message_id)

    async def send_photo(
        self, chat_id: str, png: bytes, *, caption: str = "", reply_to: str | None = None
    ) -> str:
        sent = await self.bot.send_photo(
            telegram_id(chat_id), photo=png, caption=caption or None, reply_parameters=self._quoted(reply_to)
        )
        return str(sent.message_id)

    async def stop(self) -> None:
        """Stop polling (after the poll in flight) and shut the bot's connections down, once."""
        self._stopping = True
        await self._idle.wait()
        if not self._closed:
            self._closed = True
            await self.bot.shutdown()
