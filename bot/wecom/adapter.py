"""WeCom as a :class:`bot.chat.adapter.Adapter`: long-connection callbacks in, stream replies and
template cards out.

* In: ``aibot_msg_callback`` text (and ``mixed`` text parts, ``voice`` transcripts) becomes an
  :class:`~bot.chat.adapter.Inbound`; WeCom delivers a group message only when it @s the bot, so every
  group message is ``mentioned`` (the leading ``@name`` is stripped). A ``template_card_event`` whose
  ``event_key`` is one of ours (:func:`bot.wecom.card.parse_key`) becomes a
  :class:`~bot.chat.adapter.Press` on the card's ``task_id``. Ids are scoped ``wecom:<chatid>`` (a
  single chat is the user's own ``userid``) and ``wecom:<userid>``.
* Out, with the callback's ``req_id`` (``aibot_respond_msg``): the answer as a finished markdown
  stream, then a ``button_interaction`` card with core's actions; the chart as an ``image`` and PDF
  quotes as a ``file``, uploaded first (``aibot_upload_media_init`` / ``_chunk`` of 512 KB base64 /
  ``_finish`` → ``media_id``). A click is answered by updating its card (``aibot_respond_update_msg``,
  within 5 s of the event, the only command a click's ``req_id`` accepts); files and images a click
  asks for are replies to the card's question (its ``req_id``); anything whose ``req_id`` is too old
  goes out unprompted (``aibot_send_msg``).
* Send limits: a group chat gets at most 20 messages a minute (WeCom's group robot limit): further
  ones wait for their slot (:class:`bot.chat.ratelimit.SlidingWindow`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
import re
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bot.chat.adapter import Inbound, Outbound, Press
from bot.chat.ids import raw_of, scoped
from bot.chat.ratelimit import Rate, SlidingWindow
from bot.chat.seen import Seen
from bot.wecom.card import build_card, buttons, new_task_id, parse_key, stream_markdown
from bot.wecom.client import WS_URL, WecomConnection, event_type

log = logging.getLogger(__name__)

WECOM = "wecom"
GROUP_RATE = Rate(20, 60)
"""Messages a minute a robot may send into one group chat (WeCom's limit for group robots)."""
CHUNK_BYTES = 512 * 1024
"""Raw bytes per upload chunk (sent base64); WeCom takes at most :data:`MAX_CHUNKS` of them."""
MAX_CHUNKS = 100
REPLY_WINDOW_S = 300.0
"""A message callback's ``req_id`` is used for replies this long (the stream window is 6 min)."""
CARD_WINDOW_S = 5.0
"""A card click's ``req_id`` can update the card this long after the event."""
MAX_REMEMBERED = 5000
QUEUE_MAX = 1000
MENTION = re.compile(r"(?:^|(?<=\s))@[^\s\u2005]+[\s\u2005]*")
"""An @mention as it stays in ``text.content`` (``@Sizing\u2005``)."""


def raw_id(key: str) -> str:
    """The WeCom id behind a scoped id (``wecom:wrkSFf`` → ``wrkSFf``)."""
    return raw_of(key, WECOM, "WeCom")


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def message_text(body: dict[str, Any]) -> str | None:
    """The text of a message callback body: text, the text parts of a mixed message, a voice
    transcript; None for anything else (images, files)."""
    kind = body.get("msgtype")
    if kind == "text":
        return str(_dict(body.get("text")).get("content") or "")
    if kind == "voice":
        return str(_dict(body.get("voice")).get("content") or "")
    if kind == "mixed":
        items = _dict(body.get("mixed")).get("msg_item") or []
        texts = [
            str(_dict(i.get("text")).get("content") or "") for i in items if _dict(i).get("msgtype") == "text"
        ]
        return " ".join(texts) if texts else None
    return None


def message_inbound(body: dict[str, Any]) -> Inbound | None:
    """The neutral message for an ``aibot_msg_callback`` body; None when it holds no text."""
    text, user = message_text(body), str(_dict(body.get("from")).get("userid") or "")
    if text is None or not user:
        return None
    group = body.get("chattype") == "group"
    chat = str(body.get("chatid") or "") if group else str(body.get("chatid") or user)
    if not chat:
        return None
    if group:
        text = MENTION.sub(" ", text)
    return Inbound(
        WECOM,
        scoped(WECOM, chat),
        scoped(WECOM, user),
        " ".join(text.split()),
        message_id=str(body.get("msgid") or ""),
        is_group=group,
        mentioned=group,
    )


def card_press(body: dict[str, Any]) -> Press | None:
    """The neutral press for a ``template_card_event`` body; None when the key is not ours."""
    event = _dict(_dict(body.get("event")).get("template_card_event"))
    parsed, task = parse_key(event.get("event_key")), str(event.get("task_id") or "")
    user = str(_dict(body.get("from")).get("userid") or "")
    chat = str(body.get("chatid") or user)
    if parsed is None or not task or not user or not chat:
        return None
    return Press(WECOM, scoped(WECOM, chat), scoped(WECOM, user), task, parsed[0], parsed[1])


class WecomAdapter:
    """:class:`bot.chat.adapter.Adapter` over :class:`WecomConnection`."""

    platform = WECOM

    def __init__(
        self,
        bot_id: str,
        secret: str,
        *,
        url: str = WS_URL,
        ping_interval: float = 30.0,
        seen: Seen | None = None,
        group_rate: Rate = GROUP_RATE,
    ) -> None:
        self.connection = WecomConnection(
            bot_id, secret, self._on_callback, url=url, ping_interval=ping_interval, seen=seen
        )
        self.answered = 0  # answers sent, for health and tests
        self.error: BaseException | None = None
        self.heartbeat_path: Path | None = None  # set by bot.wecom.serve.build
        self._queue: asyncio.Queue[Inbound | Press | None] = asyncio.Queue(QUEUE_MAX)
        self._task: asyncio.Task[None] | None = None
        self._req: OrderedDict[str, tuple[str, float]] = OrderedDict()
        """msgid, a card's task_id (its question's), ``card:<task_id>`` (a click) → (req_id, when it came)"""
        self._groups: OrderedDict[str, bool] = OrderedDict()  # chat → is a group (for aibot_send_msg)
        self._pace = SlidingWindow(group_rate)

    async def connect(self) -> None:
        """Open the long connection on its own task."""
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        try:
            await self.connection.run()
        except Exception as exc:  # fatal: bad credentials, replaced by another connection
            self.error = exc
        finally:
            await self._queue.put(None)

    def _remember(self, table: OrderedDict[str, Any], key: str, value: Any) -> None:
        table[key] = value
        table.move_to_end(key)
        while len(table) > MAX_REMEMBERED:
            table.popitem(last=False)

    async def _on_callback(self, frame: dict[str, Any]) -> None:
        body, req_id = _dict(frame.get("body")), str(_dict(frame.get("headers")).get("req_id") or "")
        item: Inbound | Press | None = None
        if frame.get("cmd") == "aibot_msg_callback":
            item = message_inbound(body)
            if item is not None:
                self._remember(self._req, item.message_id, (req_id, time.monotonic()))
        elif event_type(frame) == "template_card_event":
            item = card_press(body)
            if item is not None:
                self._remember(self._req, f"card:{item.message_id}", (req_id, time.monotonic()))
        if item is not None:
            self._remember(self._groups, item.chat_id, body.get("chattype") == "group")
            await self._queue.put(item)

    async def receive(self) -> AsyncIterator[Inbound | Press]:
        while (item := await self._queue.get()) is not None:
            yield item

    def _live_req(self, key: str | None, window: float) -> str | None:
        found = self._req.get(key or "")
        return found[0] if found and time.monotonic() - found[1] < window else None

    async def _pace_group(self, chat_id: str) -> None:
        if not self._groups.get(chat_id):
            return
        now = time.monotonic()
        slot = self._pace.next_slot(chat_id, now)
        self._pace.add(chat_id, now, slot)
        if slot > now:
            log.info("wecom: group send limit: waiting %.1f s", slot - now)
            await asyncio.sleep(slot - now)

    async def _send(self, chat_id: str, body: dict[str, Any], req_id: str | None) -> dict[str, Any]:
        """One message: a reply with ``req_id`` when there is one, else sent unprompted."""
        await self._pace_group(chat_id)
        if req_id:
            return await self.connection.request("aibot_respond_msg", body, req_id=req_id)
        if body.get("msgtype") == "stream":  # only a reply can stream
            body = {"msgtype": "markdown", "markdown": {"content": body["stream"]["content"]}}
        chat_type = 2 if self._groups.get(chat_id) else 1
        return await self.connection.request(
            "aibot_send_msg", {"chatid": raw_id(chat_id), "chat_type": chat_type, **body}
        )

    @staticmethod
    def _stream(content: str) -> dict[str, Any]:
        return {"msgtype": "stream", "stream": {"id": uuid.uuid4().hex, "finish": True, "content": content}}

    async def reply(self, to: Inbound | Press, out: Outbound) -> str:
        """The answer as a finished stream, then its card; the card's ``task_id`` (else the msgid)."""
        req = self._live_req(to.message_id, REPLY_WINDOW_S) if isinstance(to, Inbound) else None
        await self._send(to.chat_id, self._stream(stream_markdown(out)), req)
        self.answered += 1
        if not buttons(out):
            return to.message_id
        task = new_task_id(out.turn_id)
        await self._send(
            to.chat_id, {"msgtype": "template_card", "template_card": build_card(out, task)}, req
        )
        if req is not None:  # files and images a click on this card asks for reply to the question
            self._remember(self._req, task, self._req[to.message_id])
        return task

    async def reply_text(self, to: Inbound, text: str) -> str:
        """A plain text reply (command answers such as ``/settings``)."""
        await self._send(to.chat_id, self._stream(text), self._live_req(to.message_id, REPLY_WINDOW_S))
        return to.message_id

    async def edit(self, chat_id: str, message_id: str, out: Outbound) -> None:
        """Update the clicked card in place; after the 5 s window the answer goes out as a message."""
        req = self._live_req(f"card:{message_id}", CARD_WINDOW_S)
        self._req.pop(f"card:{message_id}", None)
        if req is None:
            log.warning(
                "wecom: card %s: the click is over %.0f s old, sending anew", message_id, CARD_WINDOW_S
            )
            await self._send(chat_id, self._stream(stream_markdown(out)), None)
            return
        body = {"response_type": "update_template_card", "template_card": build_card(out, message_id)}
        await self.connection.request("aibot_respond_update_msg", body, req_id=req)

    async def upload(self, data: bytes, kind: str, filename: str) -> str:
        """Upload ``data`` as ``kind`` (image, file) in 512 KB chunks; its ``media_id``."""
        total = max(1, -(-len(data) // CHUNK_BYTES))
        if total > MAX_CHUNKS:
            raise ValueError(f"{filename}: {len(data)} bytes is over WeCom's {MAX_CHUNKS} chunks")
        request = self.connection.request
        init = await request(
            "aibot_upload_media_init",
            {
                "type": kind,
                "filename": filename,
                "total_size": len(data),
                "total_chunks": total,
                "md5": hashlib.md5(data).hexdigest(),  # WeCom checks the upload with it
            },
        )
        upload_id = str(_dict(init.get("body")).get("upload_id") or "")
        for index in range(total):
            chunk = base64.b64encode(data[index * CHUNK_BYTES : (index + 1) * CHUNK_BYTES]).decode("ascii")
            await request(
                "aibot_upload_media_chunk",
                {"upload_id": upload_id, "chunk_index": index, "base64_data": chunk},
            )
        finish = await request("aibot_upload_media_finish", {"upload_id": upload_id})
        media_id = str(_dict(finish.get("body")).get("media_id") or "")
        if not media_id:
            raise ValueError(f"{filename}: the upload gave no media_id")
        return media_id

    async def send_file(self, chat_id: str, name: str, data: bytes, *, reply_to: str | None = None) -> str:
        media = await self.upload(data, "file", name)
        await self._send(
            chat_id,
            {"msgtype": "file", "file": {"media_id": media}},
            self._live_req(reply_to, REPLY_WINDOW_S),
        )
        return media

    async def send_photo(
        self, chat_id: str, png: bytes, *, caption: str = "", reply_to: str | None = None
    ) -> str:
        media = await self.upload(png, "image", "chart.png")
        await self._send(
            chat_id,
            {"msgtype": "image", "image": {"media_id": media}},
            self._live_req(reply_to, REPLY_WINDOW_S),
        )
        return media

    async def stop(self) -> None:
        """Close the long connection (handlers in flight finish)."""
        await self.connection.stop()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task
