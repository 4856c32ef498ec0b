"""Telegram adapter (python-telegram-bot v22): humble handlers around the pure pipeline.

A handler only translates: Telegram update → question text → ``answer`` → ``render`` → reply.
Chat behaviour (design §6):

* private chat: every text message is a question;
* groups: ``/size …`` (alias ``/estimate``, also ``/size@bot …``), messages that mention the bot
  (``@bot …``; the mention is removed before parsing) and replies to the bot's own messages;
  everything else is ignored;
* ``/start`` and ``/help`` show the help in the user's Telegram language (zh or en).

The token never reaches the logs: PTB logs the token-bearing API URL at DEBUG when the bot is
built and httpx logs every request URL at INFO, so those loggers get a redacting filter and
httpx/httpcore are raised to WARNING.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from dataclasses import dataclass

from telegram import BotCommand, LinkPreviewOptions, Message, MessageEntity, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import InvalidToken
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackContext,
    CommandHandler,
    ContextTypes,
    Defaults,
    ExtBot,
    MessageHandler,
    filters,
)
from telegram.request import BaseRequest

from bot.answer import answer
from bot.config import BotSettings
from bot.render import render, render_help

logger = logging.getLogger(__name__)

ERROR_REPLY = {
    "zh": "抱歉，出错了，请换个说法再试。",
    "en": "Sorry, something went wrong — please try rephrasing.",
}

COMMANDS = {
    "en": [
        BotCommand("start", "What I can size, with examples"),
        BotCommand("help", "How to ask"),
        BotCommand("size", "Size a job, e.g. /size 7B 1T tokens A100"),
        BotCommand("estimate", "Same as /size"),
    ],
    "zh": [
        BotCommand("start", "能算什么，附示例"),
        BotCommand("help", "怎么提问"),
        BotCommand("size", "估算算力，例如 /size 7B 1万亿token A100"),
        BotCommand("estimate", "同 /size"),
    ],
}

# Loggers whose records can carry the token (logger filters only see records created on that
# exact logger, so each one is named). httpcore only logs at DEBUG; raising its level suffices.
_TOKEN_BEARING_LOGGERS = (
    "telegram.Bot",
    "telegram.ext.ExtBot",
    "telegram.ext.Application",
    "telegram.ext.Updater",
    "httpx",
    __name__,
)
_QUIET_LOGGERS = ("httpx", "httpcore")


# -- typed context ---------------------------------------------------------------------------
@dataclass
class BotData:
    """Application-wide state, reached as ``context.bot_data`` (no module globals)."""

    settings: BotSettings | None = None
    username: str = ""


SizingContext = CallbackContext[ExtBot[None], dict, dict, BotData]
CONTEXT_TYPES = ContextTypes(bot_data=BotData)


# -- secrets out of logs ---------------------------------------------------------------------
class RedactSecrets(logging.Filter):
    """Replace every registered secret in a log record (message, arguments, traceback text)."""

    def __init__(self) -> None:
        super().__init__()
        self.secrets: set[str] = set()

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "<token>")
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        message = record.getMessage()
        if any(secret in message for secret in self.secrets):
            record.msg, record.args = self.redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        return True


REDACTOR = RedactSecrets()


def protect_token(token: str) -> None:
    """Keep ``token`` out of every log line the Telegram stack can write."""
    REDACTOR.secrets.add(token)
    for name in _TOKEN_BEARING_LOGGERS:
        logging.getLogger(name).addFilter(REDACTOR)  # idempotent
    for name in _QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


# -- pure helpers ----------------------------------------------------------------------------
def user_lang(update: Update) -> str:
    """The help and error language: Chinese for zh* Telegram clients, else English."""
    user = update.effective_user
    code = (user.language_code or "") if user else ""
    return "zh" if code.lower().startswith("zh") else "en"


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


class _AddressedToBot(filters.MessageFilter):
    """Group messages that mention this bot or reply to one of its messages."""

    def filter(self, message: Message) -> bool:
        bot = message.get_bot()
        replied = message.reply_to_message
        if replied and replied.from_user and replied.from_user.id == bot.id:
            return True
        username = (bot.username or "").lower()
        mentions = message.parse_entities([MessageEntity.MENTION]).values()
        return bool(username) and any(m.lstrip("@").lower() == username for m in mentions)


ADDRESSED_TO_BOT = _AddressedToBot(name="AddressedToBot")


# -- handlers --------------------------------------------------------------------------------
async def _reply(update: Update, html: str) -> None:
    message = update.effective_message
    if message is None:
        return
    if not html.strip():  # Telegram rejects empty text; the renderer should never produce it
        logger.warning("renderer returned empty text; nothing sent")
        return
    await message.reply_text(html, do_quote=message.chat.type != ChatType.PRIVATE)


async def _answer_text(update: Update, text: str) -> None:
    if not text.strip():
        await _reply(update, render_help(user_lang(update), "html"))
        return
    await _reply(update, render(answer(text), "html"))


async def on_help(update: Update, context: SizingContext) -> None:
    """/start and /help."""
    await _reply(update, render_help(user_lang(update), "html"))


async def on_size(update: Update, context: SizingContext) -> None:
    """/size … and /estimate …: the argument is the question; no argument shows the help."""
    if update.effective_message:
        await _answer_text(update, command_argument(update.effective_message))


async def on_private_text(update: Update, context: SizingContext) -> None:
    """Private chat: every text message is a question."""
    if update.effective_message:
        username = context.bot_data.username or context.bot.username
        await _answer_text(update, strip_mentions(update.effective_message, username))


async def on_group_addressed(update: Update, context: SizingContext) -> None:
    """Group: a mention of the bot or a reply to it (ADDRESSED_TO_BOT let it through)."""
    if update.effective_message:
        username = context.bot_data.username or context.bot.username
        await _answer_text(update, strip_mentions(update.effective_message, username))


async def on_error(update: object, context: SizingContext) -> None:
    """Log the exception (token redacted by the logging filter) and apologise, briefly."""
    logger.error("error while handling an update", exc_info=context.error)
    if not isinstance(update, Update) or update.effective_chat is None:
        return
    try:
        await context.bot.send_message(
            update.effective_chat.id, ERROR_REPLY[user_lang(update)], parse_mode=None
        )
    except Exception:  # the apology is best effort; never raise from the error handler
        logger.warning("could not send the error reply", exc_info=True)


async def post_init(application: Application) -> None:
    """Localized command menu (default English, zh Chinese) and the bot's username."""
    await application.bot.set_my_commands(COMMANDS["en"])
    await application.bot.set_my_commands(COMMANDS["zh"], language_code="zh")
    application.bot_data.username = application.bot.username or ""
    logger.info("bot @%s ready", application.bot_data.username)


# -- wiring ----------------------------------------------------------------------------------
def build_application(
    settings: BotSettings,
    *,
    request: BaseRequest | None = None,
    get_updates_request: BaseRequest | None = None,
) -> Application:
    """The bot, ready for ``run_polling`` (or, in tests, initialize/start/start_polling)."""
    token = settings.token()
    if not token:
        raise ValueError("TELEGRAM_BOT_TOKEN is not set")
    protect_token(token)  # before the builder: the Bot logs its token-bearing URL on creation

    builder = (
        ApplicationBuilder()
        .token(token)
        .base_url(settings.telegram_base_url)
        .base_file_url(settings.telegram_base_file_url)
        .defaults(
            Defaults(
                parse_mode=ParseMode.HTML,
                link_preview_options=LinkPreviewOptions(is_disabled=True),
                allow_sending_without_reply=True,
            )
        )
        .context_types(CONTEXT_TYPES)
        .post_init(post_init)
    )
    if request is not None:
        builder = builder.request(request)
    if get_updates_request is not None:
        builder = builder.get_updates_request(get_updates_request)
    app = builder.build()
    app.bot_data.settings = settings

    # Order matters. PTB runs at most one handler per group -- the first whose filters match --
    # and every group in ascending order. All replying handlers share group 0, so an update
    # gets at most one reply, and commands come first: "/size@bot 70B" sent as a reply to the
    # bot is answered as the command (its argument only), never again as free text.
    # Only new messages (UpdateType.MESSAGE): an edited question is not answered twice.
    new_message = filters.UpdateType.MESSAGE
    group = 0
    app.add_handler(CommandHandler(["start", "help"], on_help, filters=new_message), group=group)
    app.add_handler(CommandHandler(["size", "estimate"], on_size, filters=new_message), group=group)
    text = new_message & filters.TEXT & ~filters.COMMAND
    app.add_handler(MessageHandler(filters.ChatType.PRIVATE & text, on_private_text), group=group)
    app.add_handler(
        MessageHandler(filters.ChatType.GROUPS & text & ADDRESSED_TO_BOT, on_group_addressed), group=group
    )
    app.add_error_handler(on_error)
    return app


def configure_logging(level: str) -> None:
    """Root logging for the service; secrets are redacted on every root handler too."""
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=level)
    for handler in logging.getLogger().handlers:
        handler.addFilter(REDACTOR)
    for name in _QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


def run(settings: BotSettings) -> int:
    """``sizing-bot run``: poll Telegram until interrupted. Returns the process exit code."""
    token = settings.token()
    if not token:
        print(
            "TELEGRAM_BOT_TOKEN is not set: get a token from @BotFather and export it "
            "(or put TELEGRAM_BOT_TOKEN=... in .env).",
            file=sys.stderr,
        )
        return 2
    protect_token(token)
    configure_logging(settings.log_level)
    app = build_application(settings)
    try:
        app.run_polling(allowed_updates=Update.ALL_TYPES, close_loop=False)
    except InvalidToken:
        print("Telegram rejected TELEGRAM_BOT_TOKEN: check it with @BotFather.", file=sys.stderr)
        return 2
    finally:
        # When getMe fails, PTB skips Application.shutdown() (it was never initialized) and
        # leaves the HTTP client open; close it on the same loop, then the loop itself.
        loop = asyncio.get_event_loop()
        loop.run_until_complete(app.bot.shutdown())
        loop.close()
    return 0
