"""``sizing-bot run``'s WeCom side: the seam answering a :class:`WecomAdapter` until stopped.

Wiring: the settings SQLite (``SIZING_BOT_DB``) holds the chat settings and the dedupe keys
(:class:`bot.chat.seen.SqliteSeen`, table ``wecom_seen``, 8 h); with ``SIZING_BOT_DATABASE_URL`` the
shared store holds them, the follow-ups and the sent messages' turns, and only the replica holding
the leader lock ``wecom:<bot id>`` connects (:mod:`bot.chat.leader`); the Conversation and the Seam are the
ones every front end uses (the seam renders in parts, :func:`bot.feishu.card.card_text`). Each item is
answered on a task of its own, at most :data:`IN_FLIGHT_PER_USER` per user at once (WeCom's limit of
interactions in flight per user), so a card click is answered within its 5 s while a question is
being sized; one item that fails is logged and the others are answered.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.chat.adapter import Inbound, Press
from bot.chat.seam import Seam
from bot.chat.wiring import open_seam, serve_until_stopped
from bot.feishu.commands import is_quote_command, quote_command
from bot.feishu.serve import beat  # the heartbeat while the long connection is up
from bot.feishu.settings import settings_argument
from bot.wecom.adapter import WecomAdapter
from bot.wecom.settings import wecom_settings_reply

if TYPE_CHECKING:
    from bot.config import AppSettings
    from bot.settings.presales import PresalesConfig

log = logging.getLogger(__name__)

IN_FLIGHT_PER_USER = 3
"""Items of one user answered at once (WeCom: at most 3 interactions in flight per user)."""
MAX_TASKS = 64


class WecomService:
    """The seam, the adapter and the admin list of one WeCom robot."""

    def __init__(self, seam: Seam, adapter: WecomAdapter, admins: frozenset[str] = frozenset()) -> None:
        self.seam, self.adapter, self.admins = seam, adapter, admins
        self._users: OrderedDict[str, asyncio.Semaphore] = OrderedDict()
        self._orders: OrderedDict[str, asyncio.Lock] = OrderedDict()
        self._all = asyncio.Semaphore(MAX_TASKS)
        self.shared: Any = None  # the store of replicas: connect only while holding ``lock_name``
        self.lock_name = "wecom"

    def _slots(self, user: str) -> asyncio.Semaphore:
        slots = self._users.get(user)
        if slots is None:
            slots = self._users[user] = asyncio.Semaphore(IN_FLIGHT_PER_USER)
            if len(self._users) > 10_000:
                stale = next((k for k, s in self._users.items() if not s.locked() and k != user), None)
                if stale is not None:
                    del self._users[stale]
        return slots

    def _order(self, user: str) -> asyncio.Lock:
        lock = self._orders.get(user)
        if lock is None:
            lock = self._orders[user] = asyncio.Lock()
            if len(self._orders) > 10_000:
                stale = next((k for k, v in self._orders.items() if not v.locked() and k != user), None)
                if stale is not None:
                    del self._orders[stale]
        return lock

    async def handle(self, item: Inbound | Press) -> None:
        """Answer one message (``/settings``, ``/quote`` here, questions through the seam) or one press."""
        seam, adapter = self.seam, self.adapter
        if isinstance(item, Press):
            await seam._on_press(adapter, item)
            return
        argument = settings_argument(item.text)
        if argument is not None:
            text = await wecom_settings_reply(item, argument, seam.conversation, self.admins)
            await adapter.reply_text(item, text)
            return
        if is_quote_command(item.text):
            await quote_command(seam, adapter, item)  # type: ignore[arg-type]
            return
        async with self._order(item.user_id):  # in order per user ("那H100呢" after its question)
            out = await asyncio.to_thread(seam.answer, item)  # off the loop: pings and clicks go on
        if out is None:
            return
        seam.remember(item.chat_id, await adapter.reply(item, out), out)
        turn = seam.conversation.turn(out.turn_id) if out.turn_id else None
        if turn is not None and turn.answer.understood:
            from bot.render.chart import render_chart

            png = await asyncio.to_thread(render_chart, turn.answer, turn.answer.lang)
            if png:
                await adapter.send_photo(item.chat_id, png, reply_to=item.message_id)

    async def _guarded(self, item: Inbound | Press) -> None:
        async with self._all, self._slots(item.user_id):
            try:
                await self.handle(item)
            except Exception:  # one failed answer must not stop the others
                log.exception("wecom: answering failed")


def build(settings: AppSettings, presales: PresalesConfig | None) -> WecomService:
    """The service for the WeCom section of ``settings`` (credentials must be set)."""
    wecom = settings.wecom
    secret = wecom.bot_secret.get_secret_value() if wecom.bot_secret else ""
    seam, seen, shared = open_seam(settings, presales, store_prefix="", table="wecom_seen")  # issue 29
    adapter = WecomAdapter(
        wecom.bot_id or "", secret, url=wecom.ws_url, ping_interval=wecom.ping_interval, seen=seen
    )
    adapter.heartbeat_path = wecom_heartbeat(settings.heartbeat_path)
    service = WecomService(seam, adapter, wecom.admin_ids())
    service.shared, service.lock_name = shared, f"wecom:{wecom.bot_id}"
    return service


def wecom_heartbeat(path: Path | None) -> Path | None:
    """WeCom's heartbeat file: ``SIZING_BOT_HEARTBEAT`` + ``.wecom``."""
    return path.with_name(path.name + ".wecom") if path else None


async def serve(service: WecomService) -> None:
    """Connect and answer until the adapter's stream ends; raises the connection's fatal error."""
    adapter, tasks = service.adapter, set()
    await adapter.connect()
    try:
        async for item in adapter.receive():
            task = asyncio.create_task(service._guarded(item))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
    finally:
        await adapter.stop()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
    if adapter.error is not None:
        raise adapter.error


async def serve_until_signalled(service: WecomService, stop: asyncio.Event | None = None) -> None:
    """:func:`serve`, stopped by SIGINT / SIGTERM (main thread) or by ``stop``."""
    await serve_until_stopped(
        service.adapter,
        lambda: serve(service),
        beat,
        stop,
        shared=service.shared,
        lock_name=service.lock_name,
    )
