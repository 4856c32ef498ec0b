"""Telegram adapter (python-telegram-bot v22): humble handlers around the pure pipeline.

A handler only translates: Telegram update → ``Conversation.ask`` / ``variant`` → ``render`` →
reply, edit or inline answer. Chat behaviour (design §6):

* private chat: every text message is a question;
* groups: ``/size …`` (alias ``/estimate``, also ``/size@bot …``), messages that mention the bot
  (``@bot …``; the mention is removed before parsing) and replies to the bot's own messages;
  everything else is ignored;
* follow-ups: one ``Conversation`` (in ``bot_data``) keyed by (chat, user); a reply to one of the
  bot's answers follows up on *that* answer (bot message id → turn id, bounded);
* buttons under every answer (:mod:`bot.telegram.keyboards`): GPU, method/stage, details, chart, language;
  the message is edited in place; an expired turn gets a polite callback answer;
* inline mode: ``@bot 70B qlora 4090`` anywhere → up to three result cards;
* ``/start`` ``/help`` ``/size`` ``/estimate`` ``/gpus`` ``/models`` ``/settings``; settings are
  per chat, persist in SQLite, and only group administrators change a group's settings;
* polling or, with ``TELEGRAM_WEBHOOK_URL``, a webhook checked with a secret token.

The pure parts live next door: :mod:`bot.telegram.reply` (an answer's HTML), :mod:`bot.telegram.inline`
(inline-mode cards), :mod:`bot.telegram.commands` (/gpus, /models, /settings texts, price command) and
:mod:`bot.telegram.secrets` (the token and the webhook secret never reach a log line).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
import sys
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from telegram import (
    BotCommand,
    InlineQueryResultsButton,
    LinkPreviewOptions,
    Message,
    MessageEntity,
    ReplyParameters,
    Update,
)
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import BadRequest, InvalidToken, TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackContext,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    Defaults,
    ExtBot,
    InlineQueryHandler,
    MessageHandler,
    filters,
)
from telegram.request import BaseRequest

from bot.core.conversation import Conversation, Turn
from bot.render.renderer import render_help
from bot.telegram import keyboards as kb
from bot.telegram.commands import (
    PRICE_PROBLEMS,
    currency_of,
    gpus_text,
    models_text,
    parse_price_command,
    settings_text,
)
from bot.telegram.config import BotSettings
from bot.telegram.inline import INLINE_CACHE_S, inline_answers, inline_lang, inline_results
from bot.telegram.ratelimit import FloodGate, Verdict
from bot.telegram.reply import presales_contact, reply_html
from bot.telegram.secrets import REDACTOR, configure_logging, protect_token

try:
    from bot.settings.store import SettingsStore
except ImportError:  # until bot/settings_store.py lands: no persistent settings
    SettingsStore = None  # type: ignore[assignment,misc]

logger = logging.getLogger(__name__)

# -- wording (short adapter-only lines; the replies themselves come from templates/) -----------
ERROR_REPLY = {
    "zh": "抱歉，出错了，请换个说法再试。",
    "en": "Sorry, something went wrong — please try rephrasing.",
}
EXPIRED = {
    "zh": "这条结果已过期，请重新提问",
    "en": "This result has expired — please ask again",
}
NOT_ADMIN = {
    "zh": "只有群管理员可以修改本群的设置。",
    "en": "Only group administrators can change this group's settings.",
}
NO_SETTINGS = {
    "zh": "这个部署没有启用设置存储。",
    "en": "Settings are not available in this deployment.",
}
SAVED = {"zh": "已保存", "en": "Saved"}
PRICES_NEED_CURRENCY = {
    "zh": "自定义价格是按当前货币设置的：换货币前请先清除价格（/settings 价格 A100 清除）。",
    "en": "Custom prices are quoted in the current currency: remove them before changing it "
    "(/settings price A100 off).",
}
NO_CHART = {"zh": "暂时无法生成图表。", "en": "The chart is not available right now."}
SLOW_DOWN = {"zh": "请求太频繁，请稍后再试", "en": "Too many requests — please wait a moment"}

COMMANDS = {
    "en": [
        BotCommand("start", "What I can size, with examples"),
        BotCommand("help", "How to ask"),
        BotCommand("size", "Size a job, e.g. /size 7B 1T tokens A100"),
        BotCommand("estimate", "Same as /size"),
        BotCommand("gpus", "GPU catalog: TFLOPS, memory, price"),
        BotCommand("models", "Model catalog: parameters"),
        BotCommand("settings", "Language, currency, prices, MFU, deadline"),
    ],
    "zh": [
        BotCommand("start", "能算什么，附示例"),
        BotCommand("help", "怎么提问"),
        BotCommand("size", "估算算力，例如 /size 7B 1万亿token A100"),
        BotCommand("estimate", "同 /size"),
        BotCommand("gpus", "GPU 列表：算力、显存、价格"),
        BotCommand("models", "模型列表：参数量"),
        BotCommand("settings", "语言、货币、价格、MFU、工期"),
    ],
}

MAX_REMEMBERED_MESSAGES = 10_000
"""Bound on the bot-message → turn map (oldest dropped first)."""

FLOOD_MAX_RETRIES = 3
"""How often ``AIORateLimiter`` retries a request Telegram answered with 429 RetryAfter."""


# -- typed context ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Shown:
    """What one bot message shows: the turn behind it and whether the details are expanded."""

    turn_id: str
    details: bool = True


class ShownMessages:
    """Bounded map (chat id, bot message id) → :class:`Shown`, least recently used dropped first."""

    def __init__(self, max_entries: int = MAX_REMEMBERED_MESSAGES) -> None:
        self.max_entries = max_entries
        self._items: OrderedDict[tuple[int, int], Shown] = OrderedDict()

    def remember(self, chat_id: int, message_id: int, shown: Shown) -> None:
        key = (chat_id, message_id)
        self._items[key] = shown
        self._items.move_to_end(key)
        while len(self._items) > self.max_entries:
            self._items.popitem(last=False)

    def get(self, chat_id: int, message_id: int) -> Shown | None:
        shown = self._items.get((chat_id, message_id))
        if shown is not None:
            self._items.move_to_end((chat_id, message_id))
        return shown

    def __len__(self) -> int:
        return len(self._items)


@dataclass
class BotData:
    """Application-wide state, reached as ``context.bot_data`` (no module globals)."""

    settings: BotSettings | None = None
    username: str = ""
    conversation: Conversation | None = None
    store: Any = None
    """``bot.settings_store.SettingsStore`` or None (settings unavailable)."""
    presales: Any = None
    """``bot.presales.PresalesConfig`` or None."""
    shown: ShownMessages = field(default_factory=ShownMessages)
    migrated: set[tuple[int, int]] = field(default_factory=set)
    flood: FloodGate | None = None
    """Per-user and per-chat limits on answers (None: unlimited)."""
    inline_flood: FloodGate | None = None
    """Per-user limit on inline answers (None: unlimited)."""


SizingContext = CallbackContext[ExtBot[None], dict, dict, BotData]
CONTEXT_TYPES = ContextTypes(bot_data=BotData)


# -- pure helpers ----------------------------------------------------------------------------
def user_lang(update: Update) -> str:
    """The user's Telegram language: Chinese for zh* clients, else English."""
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


# -- state helpers ---------------------------------------------------------------------------
def _conversation(context: SizingContext) -> Conversation:
    conversation = context.bot_data.conversation
    if conversation is None:  # built outside build_application (never in the service)
        conversation = context.bot_data.conversation = Conversation()
    return conversation


def _chat_settings(context: SizingContext, scope_id: int) -> Any:
    store = context.bot_data.store
    return store.get(scope_id) if store is not None else None


def chat_lang(update: Update, context: SizingContext) -> str:
    """The chat's chosen language (settings), else the user's Telegram language."""
    chat = update.effective_chat
    chosen = getattr(_chat_settings(context, chat.id), "lang", None) if chat else None
    return chosen if chosen in ("zh", "en") else user_lang(update)


async def _may_change_settings(update: Update, context: SizingContext) -> bool:
    """Private chats: yes. Groups: administrators and the owner (and anonymous admins) only."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or chat.type == ChatType.PRIVATE:
        return True
    message = update.message
    if message is not None and message.sender_chat is not None and message.sender_chat.id == chat.id:
        return True  # an anonymous administrator posts as the group itself
    if user is None:
        return False
    member = await context.bot.get_chat_member(chat.id, user.id)
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


def _keyboard(context: SizingContext, turn: Turn, *, details: bool = True) -> Any:
    gpus = _conversation(context).alternative_gpus(turn, 3) if turn.answer.understood else []
    return kb.answer_keyboard(turn, details=details, gpus=gpus)


# -- flood control ---------------------------------------------------------------------------
def _flood_verdict(gate: FloodGate | None, update: Update, *, with_chat: bool = True) -> Verdict:
    user, chat = update.effective_user, update.effective_chat
    if gate is None:
        return Verdict.ALLOW
    chat_id = chat.id if chat and with_chat else None
    user_id = user.id if user else (chat.id if chat else 0)
    verdict = gate.check(user_id, chat_id)
    if verdict is not Verdict.ALLOW:
        logger.info("rate limited: user %s chat %s (%s)", user_id, chat_id, verdict.value)
    return verdict


MessageHandlerCallback = Callable[[Update, SizingContext], Awaitable[None]]


def rate_limited(handler: MessageHandlerCallback) -> MessageHandlerCallback:
    """Answer only within the user's and the chat's rate: the first refused message in a window gets
    one short notice, the next ones silence (:mod:`bot.telegram.ratelimit`)."""

    @functools.wraps(handler)
    async def limited(update: Update, context: SizingContext) -> None:
        verdict = _flood_verdict(context.bot_data.flood, update)
        if verdict is Verdict.ALLOW:
            await handler(update, context)
        elif verdict is Verdict.NOTICE:
            await _reply(update, SLOW_DOWN[chat_lang(update, context)])

    return limited


# -- handlers --------------------------------------------------------------------------------
async def _reply(update: Update, text: str, reply_markup: Any = None) -> Message | None:
    message = update.effective_message
    if message is None:
        return None
    if not text.strip():  # Telegram rejects empty text; the renderer should never produce it
        logger.warning("renderer returned empty text; nothing sent")
        return None
    return await message.reply_text(
        text, reply_markup=reply_markup, do_quote=message.chat.type != ChatType.PRIVATE
    )


def _replied_turn(message: Message, context: SizingContext) -> str | None:
    """The turn behind the bot message this message replies to, if we remember it."""
    replied = message.reply_to_message
    if replied is None or replied.from_user is None or replied.from_user.id != context.bot.id:
        return None
    shown = context.bot_data.shown.get(message.chat.id, replied.message_id)
    return shown.turn_id if shown else None


async def _answer_text(update: Update, context: SizingContext, text: str) -> None:
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message is None or chat is None:
        return
    if not text.strip():
        await _reply(update, render_help(chat_lang(update, context), "html"))
        return
    turn = _conversation(context).ask(
        chat.id,
        user.id if user else chat.id,
        text,
        user_lang=user_lang(update),
        reply_to_turn=_replied_turn(message, context),
    )
    contact = presales_contact(context.bot_data.presales)
    sent = await _reply(update, reply_html(turn, contact=contact), _keyboard(context, turn))
    if sent is not None:
        context.bot_data.shown.remember(chat.id, sent.message_id, Shown(turn.id, details=True))


@rate_limited
async def on_help(update: Update, context: SizingContext) -> None:
    """/start (which also forgets the user's last question in this chat) and /help."""
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message and chat and user and (message.text or "").lower().startswith("/start"):
        _conversation(context).forget(chat.id, user.id)
    await _reply(update, render_help(chat_lang(update, context), "html"))


@rate_limited
async def on_size(update: Update, context: SizingContext) -> None:
    """/size … and /estimate …: the argument is the question; no argument shows the help."""
    if update.effective_message:
        await _answer_text(update, context, command_argument(update.effective_message))


@rate_limited
async def on_private_text(update: Update, context: SizingContext) -> None:
    """Private chat: every text message is a question."""
    if update.effective_message:
        username = context.bot_data.username or context.bot.username
        await _answer_text(update, context, strip_mentions(update.effective_message, username))


@rate_limited
async def on_group_addressed(update: Update, context: SizingContext) -> None:
    """Group: a mention of the bot or a reply to it (ADDRESSED_TO_BOT let it through)."""
    if update.effective_message:
        username = context.bot_data.username or context.bot.username
        await _answer_text(update, context, strip_mentions(update.effective_message, username))


@rate_limited
async def on_gpus(update: Update, context: SizingContext) -> None:
    """/gpus: the GPU catalog (or the pre-sales offer) in the chat's language and currency."""
    lang = chat_lang(update, context)
    chat = update.effective_chat
    current = _chat_settings(context, chat.id) if chat else None
    presales = context.bot_data.presales
    text = gpus_text(
        lang,
        currency_of(current, presales, lang),
        overrides=getattr(current, "prices", None) or {},
        presales=presales,
    )
    await _reply(update, text)


@rate_limited
async def on_models(update: Update, context: SizingContext) -> None:
    """/models: catalog models with their parameter counts."""
    await _reply(update, models_text(chat_lang(update, context)))


@rate_limited
async def on_settings(update: Update, context: SizingContext) -> None:
    """/settings shows the chat's settings with buttons; ``/settings price A100 18`` sets a price."""
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None:
        return
    lang = chat_lang(update, context)
    store = context.bot_data.store
    if store is None:
        await _reply(update, NO_SETTINGS[lang])
        return
    change = parse_price_command(command_argument(message))
    if isinstance(change, str):
        await _reply(update, PRICE_PROBLEMS[change][lang])
        return
    if change is not None:
        if not await _may_change_settings(update, context):
            await _reply(update, NOT_ADMIN[lang])
            return
        current = store.get(chat.id)
        prices = dict(current.prices)
        if change.price is None:
            prices.pop(change.family, None)
        else:
            prices[change.family] = change.price
        # prices are quoted in the chat's currency: fix it now if the chat left it automatic
        store.update(chat.id, prices=prices, currency=currency_of(current, context.bot_data.presales, lang))
    current = store.get(chat.id)
    text = settings_text(current, lang, context.bot_data.presales)
    await _reply(update, text, kb.settings_keyboard(current, lang))


def _settings_change(callback: kb.Callback) -> dict[str, Any] | None:
    """The settings fields a settings button sets; None for an unknown button."""
    auto = callback.arg == kb.AUTO
    try:
        if callback.action == kb.SET_LANG and (auto or callback.arg in kb.LANGS):
            return {"lang": None if auto else callback.arg}
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
    store = context.bot_data.store
    lang = chat_lang(update, context)
    change = _settings_change(callback)
    if store is None or chat is None or change is None:
        await query.answer(NO_SETTINGS[lang] if store is None else None)
        return
    if not await _may_change_settings(update, context):
        await query.answer(NOT_ADMIN[lang], show_alert=True)
        return
    current = store.get(chat.id)
    if "currency" in change and current.prices and change["currency"] != current.currency:
        # the stored prices are numbers in the current currency: never reinterpret them silently
        await query.answer(PRICES_NEED_CURRENCY[lang], show_alert=True)
        return
    try:
        store.update(chat.id, **change)
    except ValidationError:  # e.g. currency "auto" while prices are quoted in a currency
        await query.answer(PRICES_NEED_CURRENCY[lang], show_alert=True)
        return
    lang = chat_lang(update, context)  # the language itself may have changed
    await query.answer(SAVED[lang])
    current = store.get(chat.id)
    text = settings_text(current, lang, context.bot_data.presales)
    await _edit(query, text, kb.settings_keyboard(current, lang))


async def _edit(query: Any, text: str, markup: Any) -> None:
    try:
        await query.edit_message_text(text, reply_markup=markup)
    except BadRequest as err:  # pressing a button that changes nothing
        if "not modified" not in str(err).lower():
            raise


async def _send_chart(update: Update, context: SizingContext, turn: Turn) -> None:
    query, chat = update.callback_query, update.effective_chat
    assert query is not None
    try:
        from bot.render.chart import render_chart  # plotting libraries load on the first chart only
    except ImportError:
        render_chart = None
    png = await asyncio.to_thread(render_chart, turn.answer, turn.answer.lang) if render_chart else None
    if not png or chat is None:
        await query.answer(NO_CHART[turn.answer.lang])
        return
    await query.answer()
    reply = ReplyParameters(query.message.message_id) if query.message else None
    await context.bot.send_photo(chat.id, photo=png, reply_parameters=reply)


_VARIANT_FIELDS = {kb.GPU: "gpu", kb.METHOD: "method", kb.STAGE: "stage"}


async def on_callback(update: Update, context: SizingContext) -> None:
    """A button under an answer or under /settings. Always answers the callback query."""
    query, chat = update.callback_query, update.effective_chat
    if query is None:
        return
    if _flood_verdict(context.bot_data.flood, update) is not Verdict.ALLOW:
        await query.answer(SLOW_DOWN[user_lang(update)])  # Telegram wants every query answered
        return
    callback = kb.decode(query.data)
    if callback is None:  # not ours (or from an older keyboard format)
        await query.answer()
        return
    if callback.turn_id == kb.SETTINGS_SLOT:
        await _on_settings_button(update, context, callback)
        return
    conversation = _conversation(context)
    message = query.message
    chat_id = chat.id if chat else 0
    shown = context.bot_data.shown.get(chat_id, message.message_id) if message else None
    details = shown.details if shown else True
    presser = update.effective_user.id if update.effective_user else None
    turn: Turn | None
    if callback.action in (kb.CHART, kb.DETAILS):
        turn = conversation.turn(callback.turn_id)
    elif callback.action == kb.LANG and callback.arg in kb.LANGS:
        turn = conversation.variant(callback.turn_id, lang=callback.arg, by_user=presser)  # type: ignore[arg-type]
    elif callback.action in _VARIANT_FIELDS:
        try:
            change = {_VARIANT_FIELDS[callback.action]: callback.arg}
            turn = conversation.variant(callback.turn_id, by_user=presser, **change)
        except ValueError:  # a value no keyboard of ours offers (forged or from a newer format)
            await query.answer()
            return
    else:
        await query.answer()
        return
    if turn is None:
        await query.answer(EXPIRED[user_lang(update)], show_alert=False)
        return
    if callback.action == kb.CHART:
        await _send_chart(update, context, turn)
        return
    if callback.action == kb.DETAILS:
        details = callback.arg == "1"
    await query.answer()
    contact = presales_contact(context.bot_data.presales)
    text = reply_html(turn, details=details, contact=contact)
    await _edit(query, text, _keyboard(context, turn, details=details))
    if message is not None:
        context.bot_data.shown.remember(chat_id, message.message_id, Shown(turn.id, details=details))


async def on_inline_query(update: Update, context: SizingContext) -> None:
    """``@bot question`` in any chat: up to three result cards, personal, cached briefly."""
    query = update.inline_query
    if query is None:
        return
    user = update.effective_user
    if _flood_verdict(context.bot_data.inline_flood, update, with_chat=False) is not Verdict.ALLOW:
        slow = InlineQueryResultsButton(SLOW_DOWN[user_lang(update)], start_parameter="slow_down")
        await query.answer([], cache_time=0, is_personal=True, button=slow)
        return
    own = _chat_settings(context, user.id) if user else None  # the private chat's settings
    lang = inline_lang(query.query, user_lang(update), getattr(own, "lang", None))
    answers = inline_answers(query.query, lang, _conversation(context), own)
    results = inline_results(answers, lang, presales_contact(context.bot_data.presales))
    await query.answer(results, cache_time=INLINE_CACHE_S, is_personal=True)


async def on_migrate(update: Update, context: SizingContext) -> None:
    """A group became a supergroup (new chat id): its settings move along (once per pair)."""
    message = update.effective_message
    store = context.bot_data.store
    if message is None or store is None:
        return
    if message.migrate_to_chat_id:
        old, new = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id:
        old, new = message.migrate_from_chat_id, message.chat.id
    else:
        return
    if (old, new) in context.bot_data.migrated:
        return
    context.bot_data.migrated.add((old, new))
    store.migrate(old, new)
    logger.info("settings moved from chat %s to %s", old, new)


async def on_error(update: object, context: SizingContext) -> None:
    """Log the exception (token redacted by the logging filter) and apologise, briefly."""
    logger.error("error while handling an update", exc_info=context.error)
    if not isinstance(update, Update):
        return
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(ERROR_REPLY[user_lang(update)])
            return
        if update.effective_chat is None:
            return
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


async def post_shutdown(application: Application) -> None:
    close = getattr(application.bot_data.store, "close", None)
    if callable(close):
        close()


# -- wiring ----------------------------------------------------------------------------------
_UNSET: Any = object()


def load_presales(settings: BotSettings) -> Any:
    """The pre-sales config named by SIZING_BOT_PRESALES, or None. Raises ``PresalesError``."""
    if settings.presales_path is None:
        return None
    from bot.settings.presales import load_presales as load  # only deployments that configure one

    return load(settings.presales_path)


def open_store(path: Path | None) -> Any:
    """The settings store at ``path`` (None: its default; created on first use), or None when
    the store module is unavailable."""
    if SettingsStore is None:
        logger.warning("bot.settings.store is missing: settings are not persisted")
        return None
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
) -> Application:
    """The bot, ready for ``run_polling``/``run_webhook`` (in tests: initialize/start/start_*).

    ``presales`` defaults to loading SIZING_BOT_PRESALES (raises ``PresalesError`` on a bad file).
    ``telegram_rate_limiter``: PTB's ``AIORateLimiter`` keeps outgoing requests within Telegram's
    flood limits (30 messages/s overall, 20/min per group) and retries a 429 RetryAfter up to
    ``FLOOD_MAX_RETRIES`` times; tests that push thousands of replies through a fake API turn it off.
    ``clock``: monotonic seconds for the per-user/per-chat answer limits (tests inject a fake one).
    """
    token = settings.token()
    if not token:
        raise ValueError("TELEGRAM_BOT_TOKEN is not set")
    protect_token(token)  # before the builder: the Bot logs its token-bearing URL on creation
    secret = settings.webhook_secret_value()
    if secret:
        protect_token(secret)
    if presales is _UNSET:
        presales = load_presales(settings)
    store = open_store(settings.db_path)

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
        .post_shutdown(post_shutdown)
    )
    # PTB's own HTTPXRequest (proxies from HTTPS_PROXY/ALL_PROXY, SOCKS via httpx[socks]) unless a
    # test or benchmark brings its own
    if request is not None:
        builder = builder.request(request)
    if get_updates_request is not None:
        builder = builder.get_updates_request(get_updates_request)
    if telegram_rate_limiter:
        builder = builder.rate_limiter(AIORateLimiter(max_retries=FLOOD_MAX_RETRIES))
    app = builder.build()
    data = app.bot_data
    data.settings, data.store, data.presales = settings, store, presales
    data.conversation = conversation or Conversation(settings_store=store, presales=presales)
    if settings.user_rate or settings.chat_rate:
        data.flood = FloodGate(settings.user_rate, settings.chat_rate, clock=clock)
    if settings.inline_rate:
        data.inline_flood = FloodGate(settings.inline_rate, None, clock=clock)

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
    group = 0
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate), group=group)
    app.add_handler(CommandHandler(["start", "help"], on_help, filters=new_message), group=group)
    app.add_handler(CommandHandler(["size", "estimate"], on_size, filters=new_message), group=group)
    app.add_handler(CommandHandler("gpus", on_gpus, filters=new_message), group=group)
    app.add_handler(CommandHandler("models", on_models, filters=new_message), group=group)
    app.add_handler(CommandHandler("settings", on_settings, filters=new_message), group=group)
    text = new_message & filters.TEXT & ~filters.COMMAND
    app.add_handler(MessageHandler(filters.ChatType.PRIVATE & text, on_private_text), group=group)
    app.add_handler(
        MessageHandler(filters.ChatType.GROUPS & text & ADDRESSED_TO_BOT, on_group_addressed), group=group
    )
    app.add_handler(CallbackQueryHandler(on_callback), group=group)
    app.add_handler(InlineQueryHandler(on_inline_query), group=group)
    app.add_error_handler(on_error)
    return app


def _one_line(error: BaseException) -> str:
    return "; ".join(line.strip() for line in str(error).splitlines() if line.strip()) or type(error).__name__


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
        app = build_application(settings, presales=presales)
    except (OSError, sqlite3.Error) as err:  # the settings DB cannot be opened or created
        print(f"SIZING_BOT_DB={settings.db_path}: {_one_line(err)}", file=sys.stderr)
        return 2
    asyncio.set_event_loop(new_event_loop())  # PTB's run_* use the current loop
    try:
        if settings.webhook_url:
            app.run_webhook(
                listen=settings.webhook_listen,
                port=settings.webhook_port,
                url_path=settings.webhook_local_path(),
                webhook_url=settings.webhook_url,
                secret_token=secret,
                allowed_updates=Update.ALL_TYPES,
                close_loop=False,
            )
        else:
            app.run_polling(allowed_updates=Update.ALL_TYPES, close_loop=False)
    except InvalidToken:
        print("Telegram rejected TELEGRAM_BOT_TOKEN: check it with @BotFather.", file=sys.stderr)
        return 2
    except TelegramError as err:  # e.g. no network at start-up: one redacted line, no traceback
        print(f"Telegram: {REDACTOR.redact(_one_line(err))}", file=sys.stderr)
        return 1
    finally:
        # When getMe fails, PTB skips Application.shutdown() (it was never initialized) and
        # leaves the HTTP client open; close it on the same loop, then the loop itself.
        loop = asyncio.get_event_loop()
        loop.run_until_complete(app.bot.shutdown())
        loop.close()
    return 0
