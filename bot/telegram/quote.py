"""The PDF quote in a chat (pre-sales deployments): ``/quote`` after an answer (or replying to one) and the
🧾 button under an answer send the answer's one-page quote as a document (:mod:`bot.quote`)."""

from __future__ import annotations

from telegram import InputFile, ReplyParameters, Update

from bot.chat.wording import EXPIRED, SLOW_DOWN, Phrase
from bot.core.conversation import Turn
from bot.quote import QuoteError, can_quote, decline_reason, quote_filename, quote_pdf
from bot.quote.pool import Busy
from bot.render.i18n import N_, translate
from bot.telegram.common import chat_lang, logger, rate_limited, reply
from bot.telegram.processor import run_outside_slot
from bot.telegram.state import SizingContext

NO_OFFER = Phrase(N_("Quotes need the provider's offer: this bot has none configured (SIZING_BOT_PRESALES)."))
NO_ANSWER = Phrase(N_("Ask me a sizing question first; /quote then sends its quote as a PDF."))
CANNOT_QUOTE = Phrase(N_("I could not make the quote for this answer."))
CAPTION = N_("🧾 Quote from %(provider)s — valid for %(days)s days")


def _turn_for(update: Update, context: SizingContext) -> str | None:
    """The turn /quote is about: the answer the message replies to, else the user's last answer here."""
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message is None or chat is None:
        return None
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None and replied.from_user.id == context.bot.id:
        shown = context.bot_data.shown.get(chat.id, replied.message_id)
        if shown is not None:
            return shown.turn_id
    return context.bot_data.conversation.last_turn_id(chat.id, user.id if user else chat.id)


async def send_quote(
    context: SizingContext, chat_id: int, turn: Turn, reply_to: int | None = None, user_id: int | None = None
) -> bool:
    """Send ``turn``'s PDF quote to a chat (quoting ``reply_to``). False when it cannot be made. Made in
    the bounded work pool (:mod:`bot.quote.pool`) for ``user_id``; refused there, the chat is told to
    wait a moment."""
    answer = turn.answer
    if not can_quote(answer):
        return False
    quoted = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
    declined = decline_reason(answer)  # a GPU the provider does not sell, and no offered one fits
    if declined is not None:
        await context.bot.send_message(chat_id, declined, parse_mode=None, reply_parameters=quoted)
        return True
    pool = context.bot_data.heavy
    try:
        job = pool.run(user_id or chat_id, quote_pdf, answer, turn.question)
        pdf = await run_outside_slot(job)
    except Busy as err:  # too many quotes and charts at once: say so, never queue without bound
        logger.info("quote for turn %s refused: %s", turn.id, err)
        await context.bot.send_message(
            chat_id, SLOW_DOWN[answer.lang], parse_mode=None, reply_parameters=quoted
        )
        return True
    except QuoteError as err:
        logger.warning("quote for turn %s: %s", turn.id, err)
        return False
    offer = answer.offer
    assert offer is not None
    caption = translate(answer.lang, CAPTION, provider=offer.provider, days=offer.valid_days)
    await context.bot.send_document(
        chat_id,
        document=InputFile(pdf, filename=quote_filename(answer)),
        caption=caption,
        parse_mode=None,
        reply_parameters=quoted,
    )
    return True


@rate_limited
async def on_quote(update: Update, context: SizingContext) -> None:
    """/quote: the PDF quote of the answer replied to, or of the user's last answer in this chat."""
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None:
        return
    lang = chat_lang(update, context)
    if context.bot_data.presales is None:
        await reply(update, NO_OFFER[lang])
        return
    turn_id = _turn_for(update, context)
    turn = context.bot_data.conversation.turn(turn_id) if turn_id else None
    if turn_id and turn is None:
        await reply(update, EXPIRED[lang])
        return
    if turn is None or not turn.answer.understood:
        await reply(update, NO_ANSWER[lang])
        return
    user = update.effective_user
    if not await send_quote(context, chat.id, turn, message.message_id, user.id if user else None):
        await reply(update, CANNOT_QUOTE[turn.answer.lang])
