"""Message, command and inline-query handlers: humble translators between Telegram and the pipeline.

* private chat: every text message is a question;
* groups: ``/size …`` (alias ``/estimate``, also ``/size@bot …``), messages that mention the bot
  (``@bot …``; the mention is removed before parsing) and replies to the bot's own messages;
* a reply to one of the bot's answers follows up on *that* answer (bot message id → turn id);
* ``/start`` ``/help`` ``/gpus`` ``/models`` ``/settings``; inline mode ``@bot 70B qlora 4090``.

Flood control limits what costs (questions, config files, quotes: ``rate_limited``), never navigation
(the commands above); a question over the limit is answered late, or told when to send it again.
"""

from __future__ import annotations

from telegram import InlineQueryResultsButton, Message, Update

from bot.chat.commands import (
    PRICE_PROBLEMS,
    PriceChange,
    currency_of,
    gpus_text,
    models_page,
    parse_price_command,
    price_conflict_text,
    price_saved_text,
    settings_text,
)
from bot.chat.ratelimit import Verdict
from bot.chat.shown import Shown
from bot.chat.wording import NO_SETTINGS, NOT_ADMIN, SETTINGS_UNAVAILABLE, SLOW_DOWN
from bot.render.renderer import render_help
from bot.settings.chat import ChatSettings
from bot.telegram import keyboards as kb
from bot.telegram.common import (
    admit_answer,
    answer_keyboard,
    chat_lang,
    chat_script,
    chat_settings,
    command_argument,
    flood_verdict,
    logger,
    may_change_settings,
    rate_limited,
    reply,
    strip_mentions,
    user_lang,
)
from bot.telegram.inline import INLINE_CACHE_S, inline_answers, inline_lang, inline_results
from bot.telegram.recipes import send_recipes
from bot.telegram.reply import reply_html
from bot.telegram.settings_io import SettingsUnavailable
from bot.telegram.state import SizingContext


def _replied_turn(message: Message, context: SizingContext) -> str | None:
    """The turn behind the bot message this message replies to, if we remember it."""
    replied = message.reply_to_message
    if replied is None or replied.from_user is None or replied.from_user.id != context.bot.id:
        return None
    shown = context.bot_data.shown.get(message.chat.id, replied.message_id)
    return shown.turn_id if shown else None


async def answer_text(update: Update, context: SizingContext, text: str) -> None:
    """Answer a question (a follow-up when the conversation says so) and remember what was shown."""
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message is None or chat is None:
        return
    if not text.strip():
        script = chat_script(update, context)
        await reply(update, render_help(chat_lang(update, context), "html", script=script))
        return
    data = context.bot_data
    turn = data.conversation.ask(
        chat.id,
        user.id if user else chat.id,
        text,
        user_lang=user.language_code if user else None,
        reply_to_turn=_replied_turn(message, context),
    )
    sent = await reply(update, reply_html(turn, contact=data.contact), answer_keyboard(context, turn))
    if sent is not None:
        data.shown.remember(chat.id, sent.message_id, Shown(turn.id, details=True))
    asked = turn.answer.parsed.recipe_tools
    if asked is not None and turn.answer.understood:  # "给我DeepSpeed配置", "vllm 启动命令"
        from bot.recipes import build_recipes, matching

        recipes = matching(
            build_recipes(turn.answer.report, turn.answer.lang, (turn.answer.chosen_plan,)), asked
        )
        if recipes:
            await send_recipes(context, chat.id, recipes, sent.message_id if sent else None)


async def on_help(update: Update, context: SizingContext) -> None:
    """/start (which also forgets the user's last question in this chat) and /help."""
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message and chat and user and (message.text or "").lower().startswith("/start"):
        context.bot_data.conversation.forget(chat.id, user.id)
    await reply(update, render_help(chat_lang(update, context), "html", script=chat_script(update, context)))


async def on_size(update: Update, context: SizingContext) -> None:
    """/size … and /estimate …: the argument is the question (flood-limited like any question); no
    argument shows the help (navigation: not limited)."""
    message = update.effective_message
    if message is None:
        return
    question = command_argument(message)
    if question and not await admit_answer(update, context):
        return
    await answer_text(update, context, question)


@rate_limited
async def on_text(update: Update, context: SizingContext) -> None:
    """A private message, or a group message addressed to the bot (a mention or a reply)."""
    if update.effective_message:
        username = context.bot_data.username or context.bot.username
        await answer_text(update, context, strip_mentions(update.effective_message, username))


async def on_gpus(update: Update, context: SizingContext) -> None:
    """/gpus: the GPU catalog (or the pre-sales offer) in the chat's language and currency."""
    lang = chat_lang(update, context)
    chat = update.effective_chat
    current = chat_settings(context, chat.id) if chat else None
    presales = context.bot_data.presales
    overrides = current.prices if current else {}
    currency = currency_of(current, presales, lang)
    private = chat is not None and chat.type == "private"
    await reply(update, gpus_text(lang, currency, overrides=overrides, presales=presales, private=private))


async def on_models(update: Update, context: SizingContext) -> None:
    """/models [search]: catalog models with their parameter counts, a page at a time."""
    message = update.effective_message
    query = command_argument(message) if message else ""
    text, pages = models_page(chat_lang(update, context), query)
    await reply(update, text, kb.models_keyboard(query, 0, pages))


async def on_settings(update: Update, context: SizingContext) -> None:
    """/settings shows the chat's settings with buttons; ``/settings price A100 18`` sets a price."""
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None:
        return
    lang = chat_lang(update, context)
    data = context.bot_data
    if data.store is None:
        await reply(update, NO_SETTINGS[lang])
        return
    change = parse_price_command(command_argument(message))
    if isinstance(change, str):
        await reply(update, PRICE_PROBLEMS[change][lang])
        return
    if change is not None and not await may_change_settings(update, context):
        await reply(update, NOT_ADMIN[lang])
        return
    try:
        current = await data.settings_io.read(chat.id)
        saved = ""
        if change is not None:
            current, saved = await _set_price(context, chat.id, current, change, lang)
    except SettingsUnavailable as err:
        logger.warning("/settings in chat %s: %s", chat.id, err)
        await reply(update, SETTINGS_UNAVAILABLE[lang])
        return
    except PriceRefused as refused:
        await reply(update, str(refused))
        return
    text = settings_text(current, lang, data.presales)
    await reply(update, f"{saved}\n\n{text}" if saved else text, kb.settings_keyboard(current, lang))


class PriceRefused(Exception):
    """A price that would change what the chat's other prices mean (the message says why)."""


async def _set_price(
    context: SizingContext, chat_id: int, current: ChatSettings, change: PriceChange, lang: str
) -> tuple[ChatSettings, str]:
    """Store a price (or remove one) and the line that says what was saved, currency included: a bare
    number is in the chat's currency, a marked one ('18元', '$2.5') in its own, and it becomes the
    chat's currency when no other price is in another one (else nothing changes, and it says why)."""
    data = context.bot_data
    prices = dict(current.prices)
    if change.price is None:
        prices.pop(change.family, None)
        return await data.settings_io.update(chat_id, prices=prices), ""
    chat_currency = currency_of(current, data.presales, lang)
    currency = change.currency.value if change.currency else chat_currency
    others = {fam: p for fam, p in prices.items() if fam != change.family}
    if others and currency != chat_currency:
        raise PriceRefused(price_conflict_text(lang, chat_currency, others))
    prices[change.family] = change.price
    # prices are quoted in one currency: fix it now if the chat left it automatic
    updated = await data.settings_io.update(chat_id, prices=prices, currency=currency)
    return updated, price_saved_text(lang, change, currency, switched=currency != chat_currency)


async def on_inline_query(update: Update, context: SizingContext) -> None:
    """``@bot question`` in any chat: up to three result cards, personal, cached briefly."""
    query = update.inline_query
    if query is None:
        return
    user = update.effective_user
    if flood_verdict(context.bot_data.inline_flood, update, with_chat=False) is not Verdict.ALLOW:
        slow = InlineQueryResultsButton(SLOW_DOWN[user_lang(update)], start_parameter="slow_down")
        await query.answer([], cache_time=0, is_personal=True, button=slow)
        return
    data = context.bot_data
    own = chat_settings(context, user.id) if user else None  # the private chat's settings
    lang = inline_lang(query.query, user.language_code if user else None, own.lang if own else None)
    answers = inline_answers(query.query, lang, own, data.presales)
    results = inline_results(answers, lang, data.contact)
    await query.answer(results, cache_time=INLINE_CACHE_S, is_personal=True)


async def on_migrate(update: Update, context: SizingContext) -> None:
    """A group became a supergroup (new chat id): its settings move along (once per pair)."""
    message = update.effective_message
    if message is None or context.bot_data.store is None:
        return
    if message.migrate_to_chat_id:
        old, new = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id:
        old, new = message.migrate_from_chat_id, message.chat.id
    else:
        return
    if (old, new) in context.bot_data.migrated:
        return
    try:
        await context.bot_data.settings_io.migrate(old, new)
    except SettingsUnavailable as err:  # the next migration service message tries again
        logger.warning("settings of chat %s not moved to %s: %s", old, new, err)
        return
    context.bot_data.migrated.add((old, new))
    logger.info("settings moved from chat %s to %s", old, new)
