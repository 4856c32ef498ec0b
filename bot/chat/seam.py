"""The neutral seam: answer :class:`~bot.chat.adapter.Inbound` messages and button
:class:`~bot.chat.adapter.Press` es for any adapter, with string ids throughout.

One :class:`Seam` per front end: it asks the :class:`~bot.core.conversation.Conversation` (follow-ups
such as "那H100呢" continue the user's last question, or the answer replied to), renders the reply in
the adapter's dialect (``render``: plain text, what ``sizing-bot ask`` prints, unless given another),
appends the contact line, attaches the actions core decided, and remembers which turn each sent
message shows (:class:`~bot.chat.shown.ShownMessages`). :meth:`Seam.serve` drives an adapter until its
stream ends; chart, recipe and quote presses become ``send_photo`` / ``send_file`` calls.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.chat.adapter import Adapter, Inbound, Outbound, Press
from bot.chat.contact import contact_line
from bot.chat.shown import Shown, ShownMessages
from bot.core.actions import VARIANT_FIELDS, ActionKind
from bot.core.conversation import Conversation, Turn
from bot.settings.presales import Localized

log = logging.getLogger(__name__)

Renderer = Callable[[Turn, bool], str]
"""``(turn, details) -> text`` in an adapter's dialect."""
Footer = Callable[[str, str], str]
"""``(text, contact line) -> text``: how a dialect appends the contact line (escaping it as it must)."""


def plain_footer(text: str, line: str) -> str:
    """Plain text: the contact line after a blank line."""
    return f"{text}\n\n{line}"


def plain_text(turn: Turn, details: bool = True) -> str:
    """The answer as plain text: exactly what ``sizing-bot ask`` prints (details always shown)."""
    from bot.render.renderer import render

    return render(turn.answer, "text")


class Seam:
    """Answers for one adapter. ``contact``: the pre-sales contact line (one text or per language),
    appended by ``footer`` (an HTML dialect escapes it and keeps its length limit)."""

    def __init__(
        self,
        conversation: Conversation,
        *,
        render: Renderer = plain_text,
        contact: str | Localized | None = None,
        footer: Footer = plain_footer,
    ) -> None:
        self.conversation = conversation
        self.render = render
        self.contact = contact
        self.footer = footer
        self.shown = ShownMessages()

    def outbound(self, turn: Turn, *, details: bool = True) -> Outbound:
        """The reply for a turn: text (with the contact line when something was sized) and actions.
        Blocks until the turn's memory is in the shared store (replicas): call it off the event loop."""
        text = self.render(turn, details)
        line = contact_line(self.contact, turn.answer.lang) if turn.answer.understood else None
        if line:
            text = self.footer(text, line)
        actions = self.conversation.actions(turn, details=details)
        self.conversation.shared_written()  # replicas: a follow-up on another one finds this turn
        return Outbound(text, turn.id, actions, details, turn.answer.lang)

    def answer(self, msg: Inbound) -> Outbound | None:
        """The reply to a message; None for a group message not addressed to the bot."""
        replied = self.shown.get(msg.chat_id, msg.reply_to) if msg.reply_to else None
        if msg.is_group and not msg.mentioned and replied is None:
            return None
        turn = self.conversation.ask(
            msg.chat_id,
            msg.user_id,
            msg.text,
            user_lang=msg.user_lang,
            reply_to_turn=replied.turn_id if replied else None,
        )
        return self.outbound(turn)

    def press(self, press: Press) -> Turn | None:
        """The turn a button leads to: a variant (GPU, method, stage, language) or the same turn
        (details, chart, recipes, quote); None when the turn expired or the value is not one of ours."""
        action, conv = press.action, self.conversation
        try:
            if action.kind is ActionKind.LANG and action.arg in ("zh", "en"):
                return conv.variant(press.turn_id, lang=action.arg, by_user=press.user_id)  # type: ignore[arg-type]
            if action.kind in VARIANT_FIELDS:
                change = {VARIANT_FIELDS[action.kind]: action.arg}
                return conv.variant(press.turn_id, by_user=press.user_id, **change)
        except ValueError:  # a value no action of ours offers (forged, or from a newer format)
            return None
        return conv.turn(press.turn_id)

    def remember(self, chat_id: str, message_id: str, out: Outbound) -> None:
        """Note which turn a sent message shows (for replies to it and presses under it)."""
        if out.turn_id and message_id:
            self.shown.remember(chat_id, message_id, Shown(out.turn_id, details=out.details))

    async def serve(self, adapter: Adapter) -> None:
        """Connect, answer everything ``adapter.receive()`` yields, then stop the adapter."""
        await adapter.connect()
        stream = adapter.receive()
        try:
            async for item in stream:
                if isinstance(item, Inbound):
                    out = await asyncio.to_thread(self.answer, item)  # off the loop: acks and pings go on
                    if out is not None:
                        self.remember(item.chat_id, await adapter.reply(item, out), out)
                else:
                    await self._on_press(adapter, item)
        finally:
            close = getattr(stream, "aclose", None)  # an async generator's own clean-up, at once
            if close is not None:
                await close()
            await adapter.stop()

    async def _on_press(self, adapter: Adapter, press: Press) -> None:
        turn = await asyncio.to_thread(self.press, press)  # a variant is a new answer: off the loop
        if turn is None:
            return
        kind, chat = press.action.kind, press.chat_id
        if kind is ActionKind.CHART:
            from bot.render.chart import render_chart

            png = await asyncio.to_thread(render_chart, turn.answer, turn.answer.lang)
            if png:
                await adapter.send_photo(chat, png, reply_to=press.message_id)
        elif kind is ActionKind.RECIPE:
            from bot.recipes import build_recipes

            for recipe in build_recipes(turn.answer.report, turn.answer.lang, (turn.answer.chosen_plan,)):
                await adapter.send_file(
                    chat, recipe.filename, recipe.text.encode(), reply_to=press.message_id
                )
        elif kind is ActionKind.QUOTE:
            await self._send_quote(adapter, press, turn)
        else:
            shown = self.shown.get(chat, press.message_id)
            details = (
                press.action.arg == "1" if kind is ActionKind.DETAILS else (shown.details if shown else True)
            )
            out = await asyncio.to_thread(self.outbound, turn, details=details)
            await adapter.edit(chat, press.message_id, out)
            self.remember(chat, press.message_id, out)

    async def _send_quote(self, adapter: Adapter, press: Press, turn: Turn) -> None:
        from bot.quote import QuoteError, can_quote, quote_filename, quote_pdf

        if not can_quote(turn.answer):
            return
        try:
            pdf = await asyncio.to_thread(quote_pdf, turn.answer, turn.question)
        except QuoteError as err:
            log.warning("quote for turn %s: %s", turn.id, err)
            return
        await adapter.send_file(press.chat_id, quote_filename(turn.answer), pdf, reply_to=press.message_id)
