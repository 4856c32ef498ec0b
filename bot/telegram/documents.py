"""A model's ``config.json`` sent as a document: size that exact architecture.

Private chats: any document; groups: a document whose caption mentions the bot or that replies to one
of the bot's messages. The caption is the question ("serve it on 2 H100"); without one the config alone
is sized as a bare model name is (serving, with the defaults stated). The file is checked before it is
downloaded (Telegram reports its size) and read by :func:`bot.core.configfile.read_config`: a file that
is too large, not JSON or not a config gets a friendly reply saying why. The architecture stays in the
conversation's request, so plain-text follow-ups ("QLoRA it", "那用4090呢") size the same model.
"""

from __future__ import annotations

from telegram import Message, MessageEntity, Update
from telegram.error import TelegramError
from telegram.ext import BaseHandler, MessageHandler, filters

from bot.chat.shown import Shown
from bot.core.configfile import ConfigInfo, file_too_large, file_unreadable, read_config_file_data
from bot.telegram.common import answer_keyboard, for_this_bot, logger, rate_limited, reply
from bot.telegram.reply import reply_html
from bot.telegram.state import SizingContext
from estimator.hf_config import MAX_CONFIG_BYTES

MAX_DOCUMENT_BYTES = MAX_CONFIG_BYTES
"""Largest document downloaded as a config.json (a real one is a few kB)."""


def caption_text(message: Message, username: str) -> str:
    """The caption without ``@username`` mentions of this bot, whitespace tidied."""
    caption = message.caption or ""
    mentions = message.parse_caption_entities([MessageEntity.MENTION])
    for entity, value in sorted(mentions.items(), key=lambda kv: kv[0].offset, reverse=True):
        if value.lstrip("@").lower() == username.lower():
            units = caption.encode("utf-16-le")
            start, end = 2 * entity.offset, 2 * (entity.offset + entity.length)
            caption = (units[:start] + " ".encode("utf-16-le") + units[end:]).decode("utf-16-le")
    return " ".join(caption.split())


class _DocumentForBot(filters.MessageFilter):
    """Group documents whose caption mentions this bot or that reply to one of its messages."""

    def filter(self, message: Message) -> bool:
        return for_this_bot(message, caption=True)


DOCUMENT_FOR_BOT = _DocumentForBot(name="DocumentForBot")


async def download_config(message: Message, context: SizingContext) -> ConfigInfo | str:
    """The document's bytes read as a config.json; a file over :data:`MAX_DOCUMENT_BYTES` is refused
    before it is downloaded (and again if Telegram did not report its size). A training or serving
    config or command line (:mod:`bot.parse.configs`) comes back as its text, to be read with the
    caption as one message."""
    document = message.document
    assert document is not None
    if document.file_size and document.file_size > MAX_DOCUMENT_BYTES:
        return file_too_large(document.file_size)
    try:
        file = await context.bot.get_file(document.file_id)
        data = bytes(await file.download_as_bytearray())
    except TelegramError as exc:  # too big for the Bot API (20 MB), or gone
        logger.info("could not download document %s: %s", document.file_unique_id, exc)
        return file_unreadable(type(exc).__name__)
    read = read_config_file_data(data)
    return read if isinstance(read, ConfigInfo) else data.decode("utf-8", "replace")


@rate_limited
async def on_document(update: Update, context: SizingContext) -> None:
    """A config.json sent as a document (the caption is the question)."""
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message is None or chat is None or message.document is None:
        return
    username = context.bot_data.username or context.bot.username or ""
    config = await download_config(message, context)
    question = caption_text(message, username)
    if isinstance(config, str):  # a training/serving config: read with the caption as one message
        question, config = f"{question}\n{config}", None
    data = context.bot_data
    replied = message.reply_to_message
    shown = None
    if replied is not None and replied.from_user is not None and replied.from_user.id == context.bot.id:
        shown = data.shown.get(chat.id, replied.message_id)
    turn = data.conversation.ask(
        chat.id,
        user.id if user else chat.id,
        question,
        user_lang=user.language_code if user else None,
        reply_to_turn=shown.turn_id if shown else None,
        config=config,
    )
    sent = await reply(update, reply_html(turn, contact=data.contact), answer_keyboard(context, turn))
    if sent is not None:
        data.shown.remember(chat.id, sent.message_id, Shown(turn.id, details=True))


def document_handlers() -> list[BaseHandler]:
    """The handlers to register (after the text handlers, before buttons): private documents, and
    group documents addressed to the bot. New messages only (an edited caption is not answered twice)."""
    new_document = filters.UpdateType.MESSAGE & filters.Document.ALL
    return [
        MessageHandler(filters.ChatType.PRIVATE & new_document, on_document),
        MessageHandler(filters.ChatType.GROUPS & new_document & DOCUMENT_FOR_BOT, on_document),
    ]
