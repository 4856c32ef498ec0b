"""``sizing-bot run``'s DingTalk side: the seam answering a :class:`DingTalkAdapter` until stopped.

Wiring as on Feishu (:mod:`bot.feishu.serve`): the settings SQLite (``SIZING_BOT_DB``) holds the chat
settings and the dedupe keys (:class:`bot.feishu.seen.SqliteSeen`, keys prefixed ``dingtalk:``, 8 h);
with ``SIZING_BOT_DATABASE_URL`` the shared store holds them, the follow-ups and the sent messages'
turns, and only the replica holding the leader lock ``dingtalk:<client id>`` connects
(:mod:`bot.chat.leader`);
the answer's parts come from :func:`bot.feishu.card.card_text`; every answer that has a chart is
followed by it (DingTalk's link buttons cannot ask the robot for one); ``/settings`` and ``/quote``
are answered here; one item that fails is logged and the next one is answered.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from bot.chat.adapter import Inbound, Outbound, Press
from bot.chat.seam import Seam
from bot.chat.wiring import open_seam, serve_until_stopped
from bot.core.actions import Action, ActionKind
from bot.dingtalk.adapter import DingTalkAdapter
from bot.dingtalk.card import WebLinks
from bot.dingtalk.settings import admins_of, settings_argument, settings_reply
from bot.feishu.commands import is_quote_command, quote_command
from bot.feishu.serve import beat

if TYPE_CHECKING:
    from bot.config import AppSettings
    from bot.settings.presales import PresalesConfig

log = logging.getLogger(__name__)


class DingTalkServer:
    """The seam, the adapter and the group-settings admins of one DingTalk robot."""

    def __init__(self, seam: Seam, adapter: DingTalkAdapter, admins: frozenset[str]) -> None:
        self.seam, self.adapter, self.admins = seam, adapter, admins
        self.shared: Any = None  # the store of replicas: connect only while holding ``lock_name``
        self.lock_name = "dingtalk"


def build(settings: AppSettings, presales: PresalesConfig | None) -> DingTalkServer:
    """The server for the DingTalk section of ``settings`` (credentials must be set)."""
    section = settings.dingtalk
    secret = section.client_secret.get_secret_value() if section.client_secret else ""
    seam, seen, shared = open_seam(settings, presales, store_prefix="")  # shared: replicas (issue 29)
    adapter = DingTalkAdapter(
        section.client_id or "",
        secret,
        endpoint=section.endpoint,
        oapi_endpoint=section.oapi_endpoint,
        seen=seen,
        watchdog_s=section.watchdog_s,
        links=WebLinks(settings.web.public_url, shared),
        card_template=section.card_template_id.strip(),
    )
    path = settings.heartbeat_path
    adapter.heartbeat_path = path.with_name(path.name + ".dingtalk") if path else None
    server = DingTalkServer(seam, adapter, admins_of(section.admins))
    server.shared, server.lock_name = shared, f"dingtalk:{section.client_id}"
    return server


async def handle(server: DingTalkServer, item: Inbound | Press) -> None:
    """Answer one message: ``/settings``, ``/quote``, else the question (then its chart)."""
    seam, adapter = server.seam, server.adapter
    if isinstance(item, Press):  # a callback card's button (link buttons never call back)
        await seam._on_press(adapter, item)
        return
    addressed = item.mentioned or not item.is_group
    argument = settings_argument(item.text)
    if argument is not None and addressed:
        text = await settings_reply(item, argument, seam.conversation, server.admins)
        await adapter.reply_text(item, text)
        return
    if is_quote_command(item.text) and addressed:
        await quote_command(seam, adapter, item)  # type: ignore[arg-type]  # same reply_text / send_file
        return
    out = await asyncio.to_thread(seam.answer, item)  # off the loop: acks and the watchdog go on
    if out is None:
        return
    turn = seam.conversation.turn(out.turn_id) if out.turn_id else None
    if turn is not None:
        adapter.links.remember(out.turn_id, item.chat_id, item.user_id, item.text, turn.followup)
    sent = await adapter.reply(item, out)
    seam.remember(item.chat_id, sent, out)
    await _chart(seam, adapter, item, out, sent)


async def _chart(seam: Seam, adapter: DingTalkAdapter, item: Inbound, out: Outbound, sent: str) -> None:
    """The answer's chart as an image, when core offers one (the 📊 action)."""
    if any(a.kind is ActionKind.CHART for row in out.actions for a in row):
        press = Press(item.platform, item.chat_id, item.user_id, sent, out.turn_id, Action(ActionKind.CHART))
        await seam._on_press(adapter, press)


async def serve(server: DingTalkServer) -> None:
    """Connect and answer until the adapter's stream ends; raises the connection's fatal error."""
    adapter = server.adapter
    await adapter.connect()
    try:
        async for item in adapter.receive():
            try:
                await handle(server, item)
            except Exception:  # one failed answer must not stop the others
                log.exception("dingtalk: answering failed")
    finally:
        await adapter.stop()
    if adapter.error is not None:
        raise adapter.error


async def serve_until_signalled(server: DingTalkServer, stop: asyncio.Event | None = None) -> None:
    """:func:`serve`, stopped by SIGINT / SIGTERM (main thread) or by ``stop``."""
    await serve_until_stopped(
        server.adapter,
        lambda: serve(server),
        beat,  # type: ignore[arg-type]  # heartbeat_path + connection
        stop,
        shared=server.shared,
        lock_name=server.lock_name,
    )
