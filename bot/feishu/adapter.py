"""Feishu / Lark as a :class:`bot.chat.adapter.Adapter`: long-connection events in, cards out.

* In: ``im.message.receive_v1`` text messages become :class:`~bot.chat.adapter.Inbound` (p2p always;
  in groups ``mentioned`` when a mention carries the bot's own ``open_id`` from ``GET
  /open-apis/bot/v3/info``; the ``@_user_N`` placeholders are stripped; ``parent_id`` is the message
  replied to, so a reply to the bot's card is a follow-up of that card's turn). ``card.action.trigger``
  clicks whose ``value`` is one of ours (:func:`bot.feishu.card.parse_value`) become
  :class:`~bot.chat.adapter.Press` es; ``file`` messages become :class:`bot.feishu.files.FileMessage`
  s (config files). Ids are scoped ``feishu:<chat_id>`` / ``feishu:<open_id>``.
* Out: replies are cards (:func:`bot.feishu.card.build_card`) sent as replies to the question;
  presses update the card in place (``PATCH``); files (PDF quotes, recipes) and images (charts) are
  uploaded and sent as ``file`` / ``image`` messages.

The client acks every frame before the handler runs (:mod:`bot.feishu.client`); the handler only
queues the item, so the seam answers on its own task, never inside the 3 s ack window.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections import OrderedDict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

from bot.chat.adapter import Inbound, Outbound, Press
from bot.chat.ids import raw_of, scoped
from bot.chat.loop import close_connection
from bot.chat.reach import unreachable_line
from bot.feishu.api import FeishuAPI, FeishuAPIError
from bot.feishu.card import build_card, parse_value
from bot.feishu.claims import FeishuClaims, event_key
from bot.feishu.client import REFUSED_BACKOFF_S, CardAck, LongConnection, Seen
from bot.feishu.files import FileMessage, file_message

log = logging.getLogger(__name__)

FEISHU = "feishu"
MENTION = re.compile(r"@_user_\d+")
"""The placeholder a mention leaves in a text message's content (``@_user_1``)."""
QUEUE_MAX = 1000
MAX_CARDS = 2000
"""Cards remembered for adding a chart in place (oldest dropped first)."""


def raw_id(key: str) -> str:
    """The Feishu id behind a scoped id (``feishu:oc_ab`` → ``oc_ab``)."""
    return raw_of(key, FEISHU, "Feishu")


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def message_inbound(event: dict[str, Any], bot_open_id: str) -> Inbound | FileMessage | None:
    """The neutral message for an ``im.message.receive_v1`` event body (a ``file`` message: a
    :class:`~bot.feishu.files.FileMessage`); None for other message types."""
    message, sender = _dict(event.get("message")), _dict(event.get("sender"))
    kind = message.get("message_type")
    if kind not in ("text", "file") or sender.get("sender_type") not in (None, "user"):
        return None
    text = ""
    if kind == "text":
        try:
            text = str(_dict(json.loads(message.get("content") or "{}")).get("text") or "")
        except ValueError:
            return None
    chat, user = message.get("chat_id"), _dict(sender.get("sender_id")).get("open_id")
    if not chat or not user:
        return None
    mentions = [m for m in message.get("mentions") or [] if isinstance(m, dict)]
    mentioned = any(_dict(m.get("id")).get("open_id") == bot_open_id for m in mentions)
    group = message.get("chat_type") != "p2p"
    inbound = Inbound(
        FEISHU,
        scoped(FEISHU, chat),
        scoped(FEISHU, user),
        " ".join(MENTION.sub(" ", text).split()),
        message_id=str(message.get("message_id") or ""),
        reply_to=str(message.get("parent_id")) if message.get("parent_id") else None,
        is_group=group,
        mentioned=group and mentioned,
    )
    return inbound if kind == "text" else file_message(inbound, message.get("content"))


def card_press(event: dict[str, Any]) -> Press | None:
    """The neutral press for a ``card.action.trigger`` event body; None when the value is not ours."""
    parsed = parse_value(_dict(event.get("action")).get("value"))
    context, operator = _dict(event.get("context")), _dict(event.get("operator"))
    chat, message, user = context.get("open_chat_id"), context.get("open_message_id"), operator.get("open_id")
    if parsed is None or not chat or not message or not user:
        return None
    turn_id, action = parsed
    return Press(FEISHU, scoped(FEISHU, chat), scoped(FEISHU, user), str(message), turn_id, action)


class FeishuAdapter:
    """:class:`bot.chat.adapter.Adapter` over :class:`LongConnection` and :class:`FeishuAPI`."""

    platform = FEISHU

    def __init__(
        self,
        app_id: str,
        app_secret: str,
        *,
        domain: str,
        seen: Seen | None = None,
        api: FeishuAPI | None = None,
        card_ack: CardAck | None = None,
    ) -> None:
        self.api = api or FeishuAPI(app_id, app_secret, domain=domain)
        self.connection = LongConnection(
            app_id, app_secret, self._on_event, domain=domain, seen=seen, card_ack=card_ack
        )
        self.bot_open_id = ""
        self.answered = 0  # replies sent, for health and tests
        self._queue: asyncio.Queue[Inbound | Press | FileMessage | None] = asyncio.Queue(QUEUE_MAX)
        self._task: asyncio.Task[None] | None = None
        self.error: BaseException | None = None
        self.heartbeat_path: Path | None = None  # set by bot.feishu.serve.build
        self._cards: OrderedDict[str, tuple[str, Outbound, str | None]] = OrderedDict()
        """message id → (chat, what its card shows, its chart's image_key): to add the chart in place"""
        self.claims: FeishuClaims | None = None  # replicas: events claimed in the shared store
        self._claimed: dict[int, tuple[Inbound | Press | FileMessage, str]] = {}

    async def connect(self) -> None:
        """Open the long connection on its own task, after learning the bot's open_id (mentions)."""
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        try:
            if await self._learn_identity():
                await self.connection.run()
        except Exception as exc:  # fatal: ReconnectCount tries in a row failed
            self.error = exc
        finally:
            await self._queue.put(None)

    async def _learn_identity(self) -> bool:
        """``GET /open-apis/bot/v3/info``; while it fails (a refused secret: code 10014, no network)
        one log line per try, retried after :data:`~bot.feishu.client.REFUSED_BACKOFF_S`. False when
        stopped meanwhile."""
        tries = 0
        while True:
            try:
                info = await self.api.bot_info()
            except (FeishuAPIError, httpx.HTTPError) as exc:
                delay = REFUSED_BACKOFF_S[min(tries, len(REFUSED_BACKOFF_S) - 1)]
                tries += 1
                _log_login_failure(exc, self.api.domain, delay)
                if await self.connection.wait_stopped(delay):
                    return False
                continue
            self.bot_open_id = str(info.get("open_id") or "")
            return True

    async def _on_event(self, kind: str, event: dict[str, Any], replay_key: str | None = None) -> None:
        header, body = _dict(event.get("header")), _dict(event.get("event"))
        event_type = header.get("event_type")
        item: Inbound | Press | FileMessage | None = None
        if event_type == "im.message.receive_v1":
            item = message_inbound(body, self.bot_open_id)
        elif event_type == "card.action.trigger" or kind == "card":
            item = card_press(body)
        if item is None:
            return
        key = event_key(event) if self.claims is not None else None
        if key is not None and self.claims is not None:  # replicas: claimed before it is queued
            if replay_key is None and not await asyncio.to_thread(self.claims.claim, key, kind, event):
                return  # another replica took it
            self._claimed[id(item)] = (item, key)
        await self._queue.put(item)

    async def replay(self, key: str, kind: str, event: dict[str, Any]) -> None:
        """Answer an event another replica claimed but never finished (now claimed by this one)."""
        await self._on_event(kind, event, replay_key=key)

    def held(self) -> list[str]:
        """The keys of the claims this replica holds: queued or being answered."""
        return [key for _, key in self._claimed.values()]

    async def finished(self, item: Inbound | Press | FileMessage) -> None:
        """``item`` is answered (or failed): its claim is finished."""
        claimed = self._claimed.pop(id(item), None)
        if claimed is not None and self.claims is not None:
            await asyncio.to_thread(self.claims.finish, claimed[1])

    async def receive(self) -> AsyncIterator[Inbound | Press | FileMessage]:
        while (item := await self._queue.get()) is not None:
            yield item

    async def reply(self, to: Inbound | Press, out: Outbound) -> str:
        card, chat = build_card(out), raw_id(to.chat_id)
        if isinstance(to, Inbound) and to.message_id:
            sent = await self.api.reply(to.message_id, "interactive", card, chat_id=chat, uuid=to.message_id)
        else:
            sent = await self.api.send(chat, "interactive", card)
        self.answered += 1
        message_id = str(sent.get("message_id") or "")
        self._shown(message_id, to.chat_id, out, None)
        return message_id

    def _shown(self, message_id: str, chat_id: str, out: Outbound, image_key: str | None) -> None:
        self._cards[message_id] = (chat_id, out, image_key)
        self._cards.move_to_end(message_id)
        while len(self._cards) > MAX_CARDS:
            self._cards.popitem(last=False)

    async def reply_text(self, to: Inbound, text: str) -> str:
        """A plain text reply to ``to`` (command answers such as ``/settings``)."""
        return await self._send(to.chat_id, "text", {"text": text}, to.message_id or None)

    async def edit(self, chat_id: str, message_id: str, out: Outbound) -> None:
        _, shown, image_key = self._cards.get(message_id, ("", out, None))
        image_key = image_key if shown.turn_id == out.turn_id else None  # a variant has its own chart
        await self.api.update_card(message_id, build_card(out, image_key), chat_id=raw_id(chat_id))
        self._shown(message_id, chat_id, out, image_key)

    async def _send(self, chat_id: str, msg_type: str, content: dict[str, Any], reply_to: str | None) -> str:
        chat = raw_id(chat_id)
        if reply_to:
            sent = await self.api.reply(reply_to, msg_type, content, chat_id=chat)
        else:
            sent = await self.api.send(chat, msg_type, content)
        return str(sent.get("message_id") or "")

    async def send_file(self, chat_id: str, name: str, data: bytes, *, reply_to: str | None = None) -> str:
        file_type = "pdf" if name.lower().endswith(".pdf") else "stream"
        key = await self.api.upload_file(data, name, file_type)
        return await self._send(chat_id, "file", {"file_key": key}, reply_to)

    async def send_photo(
        self, chat_id: str, png: bytes, *, caption: str = "", reply_to: str | None = None
    ) -> str:
        """The chart goes into the card it was asked from (PATCH with an ``img``), else as an image."""
        key = await self.api.upload_image(png)
        card = self._cards.get(reply_to or "")
        if reply_to and card is not None:
            await self.api.update_card(reply_to, build_card(card[1], key), chat_id=raw_id(chat_id))
            self._shown(reply_to, card[0], card[1], key)
            return reply_to
        return await self._send(chat_id, "image", {"image_key": key}, reply_to)

    async def stop(self) -> None:
        """Close the long connection (handlers in flight finish) and the HTTP client."""
        await close_connection(self.connection, self._task, self.api)


def _log_login_failure(exc: Exception, base_url: str, delay: float) -> None:
    """One line per failed login, pointing at what to check: a refused secret (the platform answered) is
    an ERROR naming the credentials; an unreachable host (DNS, proxy, timeout: the platform never
    answered) a WARNING naming the network and FEISHU_DOMAIN, as WeCom's and DingTalk's clients say."""
    if isinstance(exc, FeishuAPIError | httpx.HTTPStatusError):
        log.error(
            "feishu: cannot log in (%s): check FEISHU_APP_ID / FEISHU_APP_SECRET and FEISHU_DOMAIN; "
            "retrying in %.0f s",
            exc if isinstance(exc, FeishuAPIError) else type(exc).__name__,
            delay,
        )
        return
    log.warning("%s", unreachable_line("feishu", base_url, exc, "FEISHU_DOMAIN, the network / proxy", delay))
