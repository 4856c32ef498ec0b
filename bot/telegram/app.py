"""Telegram adapter (python-telegram-bot v22): the Application, its handlers in order, and ``run``.

The handlers are humble translators (:mod:`bot.telegram.handlers`, :mod:`bot.telegram.callbacks`):
Telegram update → the Conversation (the one pipeline, :mod:`bot.core.pipeline`) → render → reply,
edit or inline answer. Chat behaviour follows docs/design.md §6; polling or, with ``TELEGRAM_WEBHOOK_URL``, a
webhook checked with a secret token, served by our own bounded server (:mod:`bot.telegram.webhook`:
the secret before the body, size caps, timeouts, a connection cap). The token and the webhook secret
never reach a log line (:mod:`bot.chat.secrets`). This package is the only one that imports
python-telegram-bot.

Reliability, wired here: sends retry transient failures (:mod:`bot.telegram.transport`); the error
handler ends expected failures quietly (:mod:`bot.telegram.errors`); updates are journalled before
Telegram is told they arrived and replayed after a crash (:mod:`bot.telegram.journal`); chats are
handled concurrently, each in order, and an answer that could not be sent is handled again once
Telegram is back (:mod:`bot.telegram.processor`); settings are read and written off the event loop
(:mod:`bot.telegram.settings_io`); quotes and charts run in a bounded work pool (:mod:`bot.quote.pool`).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import sys
import weakref
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from telegram import BotCommand, LinkPreviewOptions, Update
from telegram.constants import ParseMode
from telegram.error import InvalidToken, TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CommandHandler,
    Defaults,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.request import BaseRequest, HTTPXRequest

from bot.chat.ratelimit import FloodGate
from bot.chat.secrets import REDACTOR, configure_logging, mark_ready, protect_token
from bot.chat.shown import MAX_REMEMBERED_MESSAGES
from bot.chat.warmup import on_connected
from bot.chat.wording import (
    ANSWER_LATE,
    COMMANDS,
    ERROR_REPLY,
    EXPIRED,
    NOT_ADMIN,
    PRICES_NEED_CURRENCY,
    QUOTE_COMMAND,
    SEND_AGAIN,
    SLOW_DOWN,
    WAIT_SECONDS,
)
from bot.core.conversation import Conversation
from bot.settings.presales import PresalesConfig
from bot.settings.presales import load_presales as read_presales
from bot.settings.store import SettingsStore
from bot.telegram import owner, replica
from bot.telegram.callbacks import callback_handlers
from bot.telegram.common import ADDRESSED_TO_BOT
from bot.telegram.config import BotSettings
from bot.telegram.documents import document_handlers
from bot.telegram.errors import on_error
from bot.telegram.handlers import (
    on_gpus,
    on_help,
    on_inline_query,
    on_migrate,
    on_models,
    on_settings,
    on_size,
    on_text,
)
from bot.telegram.heartbeat import start_heartbeat, stop_heartbeat
from bot.telegram.journal import AckAfterJournal, JournaledQueue, UpdateJournal, journal_path
from bot.telegram.processor import WORKERS, ChatOrderedProcessor
from bot.telegram.quote import on_quote
from bot.telegram.settings_io import ChatSettingsIO, preload
from bot.telegram.startup import reach_until_signalled
from bot.telegram.state import CONTEXT_TYPES
from bot.telegram.transport import RetryingRequest, RetryPolicy, send_request
from bot.telegram.webhook import serve_webhook

logger = logging.getLogger("bot.telegram")

__all__ = [
    "ANSWER_LATE",
    "ERROR_REPLY",
    "EXPIRED",
    "MAX_REMEMBERED_MESSAGES",
    "NOT_ADMIN",
    "PRICES_NEED_CURRENCY",
    "SEND_AGAIN",
    "SLOW_DOWN",
    "WAIT_SECONDS",
    "Conversation",
    "build_application",
    "on_error",
    "run",
]

FLOOD_MAX_RETRIES = 3
"""How often ``AIORateLimiter`` retries a request Telegram answered with 429 RetryAfter."""


def command_menu(lang: str, quote: bool = False) -> list[BotCommand]:
    """The command menu in ``lang`` (:data:`bot.chat.wording.COMMANDS`; /quote with an offer)."""
    commands = [*COMMANDS, *((QUOTE_COMMAND,) if quote else ())]
    return [BotCommand(name, description[lang]) for name, description in commands]


async def post_init(application: Application) -> None:
    """Updates journalled before the last stop queued again, the localized command menu (default
    English, zh Chinese) and the bot's username. Runs before polling starts."""
    data = application.bot_data
    if data.journal is not None and isinstance(application.update_queue, JournaledQueue):
        pending = await data.journal.open(application.bot.id)
        await application.update_queue.replay(pending, application.bot)
    if data.shared is not None:
        replica.watch_settings(data, data.shared)
    quote = data.presales is not None
    await application.bot.set_my_commands(command_menu("en", quote))
    await application.bot.set_my_commands(command_menu("zh", quote), language_code="zh")
    data.username = application.bot.username or ""
    if data.settings is not None:  # beats only once the application and its updater run
        data.heartbeat = start_heartbeat(
            application, data.settings.heartbeat_path, data.settings.heartbeat_interval_s
        )
    mark_ready()
    on_connected(("telegram_html",))  # the first answer as fast as the next (bot.chat.warmup)
    logger.info("bot @%s ready", data.username)


async def post_shutdown(application: Application) -> None:
    """Stop the heartbeat (its file removed), commit the last handled marks and close the databases
    (after every update was handled)."""
    data = application.bot_data
    await stop_heartbeat(data.heartbeat, data.settings.heartbeat_path if data.settings else None)
    data.heartbeat = None
    if data.journal is not None:
        await data.journal.close()
    await data.settings_io.close()
    if data.shared is not None:
        await asyncio.to_thread(data.shared.close)
    await asyncio.to_thread(data.heavy.shutdown)  # the quote/chart workers, after their last job


# -- wiring ----------------------------------------------------------------------------------
_UNSET: Any = object()


def load_presales(settings: BotSettings) -> PresalesConfig | None:
    """The pre-sales config named by SIZING_BOT_PRESALES, or None. Raises ``PresalesError``."""
    if settings.presales_path is None:
        return None
    return read_presales(settings.presales_path)


def open_store(path: Path | None) -> SettingsStore:
    """The settings store at ``path`` (None: its default; created on first use)."""
    return SettingsStore(path)


def new_event_loop() -> asyncio.AbstractEventLoop:
    """uvloop's event loop where it is installed (not on Windows), else asyncio's.

    The bot is I/O-bound glue around a ~1.5 ms pipeline: with uvloop (libuv), the per-update cost
    of PTB's polling, the HTTP client and the event loop drops by about a fifth (``bench/throughput.py``).
    """
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def build_application(
    settings: BotSettings,
    *,
    request: BaseRequest | None = None,
    get_updates_request: BaseRequest | None = None,
    presales: Any = _UNSET,
    conversation: Conversation | None = None,
    telegram_rate_limiter: bool = True,
    clock: Callable[[], float] | None = None,
    sleep: Callable[[float], Awaitable[None]] | None = None,
    retry: RetryPolicy | None = None,
    workers: int = WORKERS,
) -> Application:
    """The bot, ready for ``run_polling``/``run_webhook`` (in tests: initialize/start/start_*).

    ``presales`` defaults to loading SIZING_BOT_PRESALES (raises ``PresalesError`` on a bad file).
    ``telegram_rate_limiter``: PTB's ``AIORateLimiter`` keeps outgoing requests within Telegram's
    flood limits (30 messages/s overall, 20/min per group) and retries a 429 RetryAfter up to
    ``FLOOD_MAX_RETRIES`` times; tests that push thousands of replies through a fake API turn it off.
    ``clock``: monotonic seconds for the per-user/per-chat answer limits (tests inject a fake one);
    ``sleep``: how a question booked for a later slot waits, in the clock's seconds (a fake clock
    comes with a fake sleep that advances it).
    ``retry``: how sends retry transient failures (:class:`bot.telegram.transport.RetryPolicy`).
    ``workers``: chats handled at the same time (:mod:`bot.telegram.processor`).
    ``request`` / ``get_updates_request``: transports (default PTB's ``HTTPXRequest``); sends are
    wrapped with the retries, getUpdates with the journal's acknowledgement guard.
    """
    token = _protected_token(settings)
    if presales is _UNSET:
        presales = load_presales(settings)
    shared, store, journal = _stores(settings)
    processor = ChatOrderedProcessor(workers, on_done=_journal_marker(journal))

    builder = (
        ApplicationBuilder()
        .token(token)
        .base_url(settings.telegram_base_url)
        .base_file_url(settings.telegram_base_file_url)
        .defaults(_defaults())
        .context_types(CONTEXT_TYPES)
        .post_init(post_init)
        .post_shutdown(post_shutdown)
        .concurrent_updates(processor)
        .request(send_request(retry, request))
    )
    # Transports: PTB's own HTTPXRequest (proxies from HTTPS_PROXY/ALL_PROXY, SOCKS via httpx[socks])
    # unless a test or benchmark brings its own. getUpdates: PTB's updater retries the long poll
    # itself; one try here only turns a malformed body into a one-line NetworkError (PTB would log
    # it with a traceback).
    polls: BaseRequest = RetryingRequest(
        get_updates_request or HTTPXRequest(connection_pool_size=1), RetryPolicy(attempts=1)
    )
    if journal is not None:
        # a webhook's HTTP answer is its acknowledgement: there the queue waits for the commit
        builder = builder.update_queue(JournaledQueue(journal, durable_put=bool(settings.webhook_url)))
        polls = AckAfterJournal(polls, journal)
    builder = builder.get_updates_request(polls)
    if telegram_rate_limiter:
        builder = builder.rate_limiter(AIORateLimiter(max_retries=FLOOD_MAX_RETRIES))
    app = builder.build()
    processor.handle = weakref.WeakMethod(
        app.process_update
    )  # an answer that could not be sent is handled again later
    data = app.bot_data
    data.settings, data.store, data.presales, data.journal = settings, store, presales, journal
    data.settings_io = ChatSettingsIO(store)
    # the Conversation reads settings through the cache: never SQLite on the event loop
    data.conversation = conversation or Conversation(settings_store=data.settings_io, presales=presales)
    if conversation is not None and conversation.settings_store in (None, store):
        conversation.settings_store = data.settings_io
    if shared is not None:
        data.shared = shared
        replica.share(data, shared)
    _flood_gates(data, settings, clock, sleep)

    add_handlers(app)
    return app


def _stores(settings: BotSettings) -> tuple[Any, Any, UpdateJournal | None]:
    """(the store replicas share or None, the settings store, the update journal or None): with
    ``SIZING_BOT_DATABASE_URL`` all in PostgreSQL (:mod:`bot.telegram.replica`), else SQLite files."""
    shared = replica.open_shared(settings)
    store = shared.settings if shared is not None else open_store(settings.db_path)
    path = journal_path(settings.journal, settings.db_path)
    journal = UpdateJournal(path) if path is not None else None
    if shared is not None and journal is not None:
        journal = replica.StoreJournal(shared)
    return shared, store, journal


def _protected_token(settings: BotSettings) -> str:
    """The bot token, redacted from every log line from now on (with the webhook secret)."""
    token = settings.token()
    if not token:
        raise ValueError("TELEGRAM_BOT_TOKEN is not set")
    protect_token(token)  # before the builder: the Bot logs its token-bearing URL on creation
    secret = settings.webhook_secret_value()
    if secret:
        protect_token(secret)
    return token


def _flood_gates(
    data: Any,
    settings: BotSettings,
    clock: Callable[[], float] | None,
    sleep: Callable[[float], Awaitable[None]] | None,
) -> None:
    """The per-user/per-chat answer limits and the inline-query limit the settings ask for."""
    if settings.user_rate or settings.chat_rate:
        data.flood = FloodGate(settings.user_rate, settings.chat_rate, clock=clock, sleep=sleep)
    if settings.inline_rate:
        data.inline_flood = FloodGate(settings.inline_rate, None, clock=clock)


def _defaults() -> Defaults:
    """Every send: Telegram HTML, no link previews, a reply even when its question was deleted."""
    return Defaults(
        parse_mode=ParseMode.HTML,
        link_preview_options=LinkPreviewOptions(is_disabled=True),
        allow_sending_without_reply=True,
    )


def add_handlers(app: Application) -> None:
    """The bot's handlers, in the order they must be tried."""
    # Order matters. PTB runs at most one handler per group -- the first whose filters match --
    # and every group in ascending order. Every handler shares group 0, so an update gets at
    # most one reply:
    #   1. migration status updates (no text, never a question);
    #   2. commands, before free text: "/size@bot 70B" sent as a reply to the bot is answered
    #      as the command (its argument only), never again as a follow-up;
    #   3. private text, then group text addressed to the bot (mention or reply);
    #   4. button presses and inline queries (other update types; their own handlers).
    # Only new messages (UpdateType.MESSAGE): an edited question is not answered twice.
    new_message = filters.UpdateType.MESSAGE
    app.add_handler(TypeHandler(Update, preload), group=-1)  # the chat's settings, read off the loop
    group = 0
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate), group=group)
    app.add_handler(CommandHandler(["start", "help"], on_help, filters=new_message), group=group)
    app.add_handler(CommandHandler(["size", "estimate"], on_size, filters=new_message), group=group)
    app.add_handler(CommandHandler("gpus", on_gpus, filters=new_message), group=group)
    app.add_handler(CommandHandler("models", on_models, filters=new_message), group=group)
    app.add_handler(CommandHandler("settings", on_settings, filters=new_message), group=group)
    app.add_handler(CommandHandler("quote", on_quote, filters=new_message), group=group)
    text = new_message & filters.TEXT & ~filters.COMMAND
    app.add_handler(MessageHandler(filters.ChatType.PRIVATE & text, on_text), group=group)
    app.add_handler(MessageHandler(filters.ChatType.GROUPS & text & ADDRESSED_TO_BOT, on_text), group=group)
    for handler in document_handlers():  # a config.json sent as a document (bot.telegram.documents)
        app.add_handler(handler, group=group)
    for press in callback_handlers():  # one per kind of button (bot.telegram.callbacks)
        app.add_handler(press, group=group)
    app.add_handler(InlineQueryHandler(on_inline_query), group=group)
    app.add_error_handler(on_error)


def _journal_marker(journal: UpdateJournal | None) -> Callable[[object], None] | None:
    """The processor's ``on_done``: mark a handled update in the journal."""
    if journal is None:
        return None

    def mark(update: object) -> None:
        if isinstance(update, Update):
            journal.done(update.update_id)

    return mark


def _one_line(error: BaseException) -> str:
    return "; ".join(line.strip() for line in str(error).splitlines() if line.strip()) or type(error).__name__


def _where(settings: BotSettings) -> str:
    """The setting naming the database, for a one-line error (never the URL: it may hold a password)."""
    return "SIZING_BOT_DATABASE_URL" if settings.database_url_value() else f"SIZING_BOT_DB={settings.db_path}"


def _take_lock(settings: BotSettings, token: str) -> Any:
    """The file lock of one process, or, on a shared store, the leader lock (waits as the standby)."""
    if settings.database_url_value():
        return replica.lead(settings, token)
    return owner.take(owner.lock_path(journal_path(settings.journal, settings.db_path), settings.db_path))


def run(settings: BotSettings) -> int:
    """``sizing-bot run``: poll Telegram (or serve the webhook) until interrupted. Returns the exit code."""
    token = settings.token()
    if not token:
        print(
            "TELEGRAM_BOT_TOKEN is not set: get a token from @BotFather and export it "
            "(or put TELEGRAM_BOT_TOKEN=... in .env).",
            file=sys.stderr,
        )
        return 2
    problem = settings.webhook_problem()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    protect_token(token)
    secret = settings.webhook_secret_value()
    if secret:
        protect_token(secret)
    configure_logging(settings.log_level)
    try:
        presales = load_presales(settings)
    except Exception as err:  # PresalesError (names the field), unreadable file, missing module
        print(f"SIZING_BOT_PRESALES: {_one_line(err)}", file=sys.stderr)
        return 2
    try:
        lock = _take_lock(settings, token)
    except owner.AlreadyRunning as err:
        print(f"sizing-bot: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"{_where(settings)}: {_one_line(err)}", file=sys.stderr)
        return 2
    try:
        app = build_application(settings, presales=presales)
    except (OSError, sqlite3.Error) as err:  # the settings DB cannot be opened or created
        print(f"{_where(settings)}: {_one_line(err)}", file=sys.stderr)
        return 2
    except Exception as err:  # e.g. a proxy URL httpx cannot parse: one line, traceback at DEBUG
        logger.debug("cannot start", exc_info=err)
        print(f"sizing-bot: cannot start: {REDACTOR.redact(_one_line(err))}", file=sys.stderr)
        return 1
    asyncio.set_event_loop(new_event_loop())  # PTB's run_* use the current loop
    try:
        if not reach_until_signalled(asyncio.get_event_loop(), app.bot, settings.telegram_base_url):
            return 0  # stopped while Telegram was still unreachable (bot.telegram.startup)
        if settings.webhook_url:  # our own bounded server (bot.telegram.webhook), not PTB's tornado one
            webhook = serve_webhook(
                app,
                listen=settings.webhook_listen,
                port=settings.webhook_port,
                path=settings.webhook_local_path(),
                url=settings.webhook_url,
                secret=secret,
            )
            asyncio.get_event_loop().run_until_complete(webhook)
        else:
            app.run_polling(allowed_updates=Update.ALL_TYPES, close_loop=False)
    except InvalidToken:
        print("Telegram rejected TELEGRAM_BOT_TOKEN: check it with @BotFather.", file=sys.stderr)
        return 2
    except TelegramError as err:  # e.g. no network at start-up: one redacted line, no traceback
        logger.debug("cannot start", exc_info=err)
        print(f"Telegram: {REDACTOR.redact(_one_line(err))}", file=sys.stderr)
        return 1
    except Exception as err:  # anything else before or while starting: one line as well
        logger.debug("cannot start", exc_info=err)
        print(f"sizing-bot: cannot start: {REDACTOR.redact(_one_line(err))}", file=sys.stderr)
        return 1
    finally:
        # When getMe fails, PTB skips Application.shutdown() (it was never initialized) and
        # leaves the HTTP client open; close it on the same loop, then the loop itself.
        loop = asyncio.get_event_loop()
        loop.run_until_complete(app.bot.shutdown())
        loop.close()
        if lock is not None:
            lock.close()
    return 0
