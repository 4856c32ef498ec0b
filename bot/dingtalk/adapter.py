"""DingTalk as a :class:`bot.chat.adapter.Adapter`: Stream-mode bot messages in, Markdown out.

* In: callbacks on ``/v1.0/im/bot/messages/get`` with ``msgtype: text`` become
  :class:`~bot.chat.adapter.Inbound` (``conversationType`` "1" = 1:1, "2" = group, where DingTalk only
  delivers messages that @ the robot: ``isInAtList``). Ids are scoped ``dingtalk:<conversationId>`` and
  ``dingtalk:<senderStaffId>`` (``senderId`` when the sender has no staff id). A quoted reply's
  ``text.repliedMsg.msgId`` is ``reply_to``; a follow-up without one continues the user's last question
  in the chat (the conversation's memory), in 1:1 chats and, with an @, in groups.
* Out: replies go to the message's ``sessionWebhook`` (an ``actionCard`` with link buttons, or
  Markdown: :mod:`bot.dingtalk.card`) while it is valid; after ``sessionWebhookExpiredTime``, when the
  webhook refuses, and always for images and files, through the robot OpenAPI (:mod:`bot.dingtalk.api`:
  a media upload, then ``sampleImageMsg`` / ``sampleFile``). DingTalk gives no id for a webhook message
  and cannot edit one: the ids returned are this adapter's own, and an edit sends a new message.

With a card template id (``DINGTALK_CARD_TEMPLATE_ID``) an answer with buttons is an interactive card
instance instead (:mod:`bot.dingtalk.cards`): its ``outTrackId`` is the message id, a click on
``/v1.0/card/instances/callback`` becomes a :class:`~bot.chat.adapter.Press` on it, and :meth:`edit`
updates that card in place.

The connection acks every frame before the handler runs (:mod:`bot.dingtalk.stream`); the handler only
queues the item, so the seam answers on its own task.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.chat.adapter import Inbound, Outbound, Press
from bot.chat.ids import scoped
from bot.chat.loop import close_connection
from bot.dingtalk.api import DingTalkAPI, DingTalkAPIError
from bot.dingtalk.card import WebLinks, message_of, openapi_markdown
from bot.dingtalk.cards import CARD_TOPIC, click_of, create_body, new_track_id, open_space, update_body
from bot.dingtalk.stream import BOT_TOPIC, StreamConnection
from bot.feishu.client import Seen

log = logging.getLogger(__name__)

DINGTALK = "dingtalk"
QUEUE_MAX = 1000
WEBHOOK_MARGIN_S = 60.0
"""A session webhook is not used in its last minute (the send could arrive after it expired)."""
MAX_SESSIONS = 10_000
LEADING_MENTIONS = re.compile(r"^(?:@\S+\s+)+")
"""@names in front of a group message's text (the robot's own, when a client leaves it in)."""


@dataclass
class Session:
    """Where to answer one chat: its latest session webhook and the OpenAPI target."""

    group: bool
    conversation_id: str
    staff_id: str
    robot_code: str
    webhook: str = ""
    expires_ms: float = 0.0

    def target(self) -> dict[str, Any]:
        """The OpenAPI's receiver: the group, or the user of a 1:1 chat."""
        if self.group:
            return {"robotCode": self.robot_code, "openConversationId": self.conversation_id}
        return {"robotCode": self.robot_code, "userIds": [self.staff_id]}


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def message_inbound(data: dict[str, Any]) -> Inbound | None:
    """The neutral message for a bot-message callback; None for non-text messages or missing ids."""
    text = _dict(data.get("text"))
    chat, user = data.get("conversationId"), data.get("senderStaffId") or data.get("senderId")
    if data.get("msgtype") != "text" or not chat or not user:
        return None
    group = str(data.get("conversationType")) == "2"
    replied = _dict(text.get("repliedMsg")).get("msgId") if text.get("isReplyMsg") else None
    return Inbound(
        DINGTALK,
        scoped(DINGTALK, str(chat)),
        scoped(DINGTALK, str(user)),
        LEADING_MENTIONS.sub("", " ".join(str(text.get("content") or "").split())),
        message_id=str(data.get("msgId") or ""),
        reply_to=str(replied) if replied else None,
        is_group=group,
        mentioned=group and bool(data.get("isInAtList")),
    )


def session_of(data: dict[str, Any], robot_code: str) -> Session:
    """The answering route a callback gives (its webhook and expiry, the OpenAPI target)."""
    return Session(
        group=str(data.get("conversationType")) == "2",
        conversation_id=str(data.get("conversationId") or ""),
        staff_id=str(data.get("senderStaffId") or ""),
        robot_code=str(data.get("robotCode") or robot_code),
        webhook=str(data.get("sessionWebhook") or ""),
        expires_ms=float(data.get("sessionWebhookExpiredTime") or 0),
    )


class DingTalkAdapter:
    """:class:`bot.chat.adapter.Adapter` over :class:`StreamConnection` and :class:`DingTalkAPI`."""

    platform = DINGTALK

    def __init__(
        self,
        client_id: str,
        client_secret: str,
        *,
        endpoint: str,
        oapi_endpoint: str,
        seen: Seen | None = None,
        watchdog_s: float = 60.0,
        links: WebLinks | None = None,
        api: DingTalkAPI | None = None,
        wall_clock: Callable[[], float] = time.time,
        card_template: str = "",
    ) -> None:
        self.client_id = client_id
        self.card_template = card_template
        self.cards: dict[str, str] = {}  # outTrackId → scoped chat id, of the cards this process sent
        self.api = api or DingTalkAPI(
            client_id, client_secret, endpoint=endpoint, oapi_endpoint=oapi_endpoint
        )
        self.connection = StreamConnection(
            client_id,
            client_secret,
            self._on_callback,
            endpoint=endpoint,
            seen=seen,
            watchdog_s=watchdog_s,
            topics=(BOT_TOPIC, CARD_TOPIC) if card_template else (BOT_TOPIC,),
        )
        self.links = links or WebLinks("")
        self.sessions: dict[str, Session] = {}
        self.senders: dict[str, dict[str, Any]] = {}  # scoped user id → {isAdmin, nick} of their last message
        self.answered = 0  # replies sent, for health and tests
        self.error: BaseException | None = None
        self.heartbeat_path: Path | None = None  # set by bot.dingtalk.serve.build
        self._clock = wall_clock
        self._ids = itertools.count(1)
        self._queue: asyncio.Queue[Inbound | Press | None] = asyncio.Queue(QUEUE_MAX)
        self._task: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        """Open the Stream connection on its own task."""
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        try:
            await self.connection.run()
        except Exception as exc:  # fatal: bad credentials
            self.error = exc
        finally:
            await self._queue.put(None)

    async def _on_callback(self, topic: str, data: dict[str, Any]) -> None:
        if topic == CARD_TOPIC:
            await self._on_click(data)
            return
        if topic != BOT_TOPIC:
            return
        item = message_inbound(data)
        if item is None:
            return
        self.sessions[item.chat_id] = session_of(data, self.client_id)
        self.senders[item.user_id] = {"isAdmin": bool(data.get("isAdmin")), "nick": data.get("senderNick")}
        for memo in (self.sessions, self.senders):
            while len(memo) > MAX_SESSIONS:
                memo.pop(next(iter(memo)))
        await self._queue.put(item)

    async def _on_click(self, data: dict[str, Any]) -> None:
        """A card button's callback → a :class:`Press` on the card (cards of this process only)."""
        click = click_of(data)
        chat = self.cards.get(click[0]) if click is not None else None
        if click is None or chat is None:
            log.info("dingtalk: a card callback that is not one of our buttons was ignored")
            return
        track, user, turn, action = click
        await self._queue.put(Press(DINGTALK, chat, scoped(DINGTALK, user), track, turn, action))

    async def receive(self) -> AsyncIterator[Inbound | Press]:
        while (item := await self._queue.get()) is not None:
            yield item

    def _new_id(self) -> str:
        return f"dt-{next(self._ids)}"

    def webhook_fresh(self, session: Session) -> bool:
        """Whether the session webhook may still be used (not in its last :data:`WEBHOOK_MARGIN_S`)."""
        return bool(session.webhook) and self._clock() < session.expires_ms / 1000 - WEBHOOK_MARGIN_S

    async def _post(self, chat_id: str, webhook_body: dict[str, Any], key: str, param: dict[str, Any]) -> str:
        """Through the session webhook while it is fresh, else (or when it refuses) the OpenAPI."""
        session = self.sessions[chat_id]
        if self.webhook_fresh(session):
            try:
                await self.api.webhook(session.webhook, webhook_body, chat=chat_id)
                return self._new_id()
            except DingTalkAPIError as exc:
                log.warning(
                    "dingtalk: the session webhook refused (%s): sending through the OpenAPI", exc.code
                )
                session.webhook = ""
        await self.api.send(session.target(), key, param, chat=chat_id)
        return self._new_id()

    async def reply(self, to: Inbound | Press, out: Outbound) -> str:
        if self.card_template and out.turn_id and out.actions:
            track = await self._card(to.chat_id, out)
            if track is not None:
                self.answered += 1
                return track
        buttons = self.links.buttons(out)
        sent = await self._post(
            to.chat_id, message_of(out, buttons), "sampleMarkdown", openapi_markdown(out, buttons)
        )
        self.answered += 1
        return sent

    async def reply_text(self, to: Inbound, text: str) -> str:
        """A plain text reply (command answers such as ``/settings``)."""
        return await self._post(
            to.chat_id, {"msgtype": "text", "text": {"content": text}}, "sampleText", {"content": text}
        )

    async def _card(self, chat_id: str, out: Outbound) -> str | None:
        """Create and deliver the answer's card → its ``outTrackId``; None when DingTalk refused it
        (the answer then goes out as a message)."""
        session, track = self.sessions[chat_id], new_track_id(out.turn_id)
        space = open_space(session.group, session.conversation_id, session.staff_id, session.robot_code)
        try:
            await self.api.card_create(create_body(self.card_template, track, out, space), chat=chat_id)
        except DingTalkAPIError as exc:
            log.warning("dingtalk: the card was refused (%s): sending a message instead", exc.code)
            return None
        self.cards[track] = chat_id
        while len(self.cards) > MAX_SESSIONS:
            self.cards.pop(next(iter(self.cards)))
        return track

    async def edit(self, chat_id: str, message_id: str, out: Outbound) -> None:
        """A card of ours is updated in place; a webhook message cannot be edited: the new answer is
        sent as a new message."""
        if message_id in self.cards:
            await self.api.card_update(update_body(message_id, out))
            return
        buttons = self.links.buttons(out)
        await self._post(chat_id, message_of(out, buttons), "sampleMarkdown", openapi_markdown(out, buttons))

    async def send_file(self, chat_id: str, name: str, data: bytes, *, reply_to: str | None = None) -> str:
        """Upload, then ``sampleFile`` through the OpenAPI (a webhook cannot carry files)."""
        media = await self.api.upload(data, name, "file")
        kind = name.rsplit(".", 1)[-1].lower() if "." in name else "file"
        param = {"mediaId": media, "fileName": name, "fileType": kind}
        await self.api.send(self.sessions[chat_id].target(), "sampleFile", param, chat=chat_id)
        return self._new_id()

    async def send_photo(
        self, chat_id: str, png: bytes, *, caption: str = "", reply_to: str | None = None
    ) -> str:
        """Upload, then ``sampleImageMsg`` (``photoURL`` = the media id) through the OpenAPI."""
        media = await self.api.upload(png, "chart.png", "image")
        await self.api.send(
            self.sessions[chat_id].target(), "sampleImageMsg", {"photoURL": media}, chat=chat_id
        )
        return self._new_id()

    async def stop(self) -> None:
        """Close the connection (handlers in flight finish) and the HTTP client."""
        await close_connection(self.connection, self._task, self.api)
