"""``sizing-bot run``'s Feishu / Lark side: the seam answering a :class:`FeishuAdapter` until stopped.

Wiring: the settings SQLite (``SIZING_BOT_DB``) holds the chat settings and the dedupe keys
(:class:`bot.feishu.seen.SqliteSeen`, 8 h); with ``SIZING_BOT_DATABASE_URL`` the shared store holds
them, the follow-ups and the claims of events in flight (:mod:`bot.feishu.claims`); the Conversation
and the Seam are the ones every front end uses; a card click is acked with a toast
(:mod:`bot.feishu.toast`); one item that fails (an API error, a bad event) is logged and the next one
is answered.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from bot.chat.adapter import Inbound, Press
from bot.chat.seam import Seam
from bot.chat.wiring import open_seam, serve_until_stopped
from bot.feishu.adapter import FeishuAdapter
from bot.feishu.claims import FeishuClaims, take_over
from bot.feishu.commands import is_quote_command, quote_command
from bot.feishu.files import FileMessage, answer_file
from bot.feishu.settings import settings_argument, settings_reply
from bot.feishu.toast import click_ack
from bot.telegram.heartbeat import HEARTBEAT_INTERVAL_S, write_heartbeat

if TYPE_CHECKING:
    from bot.config import AppSettings
    from bot.settings.presales import PresalesConfig

log = logging.getLogger(__name__)


def build(settings: AppSettings, presales: PresalesConfig | None) -> tuple[Seam, FeishuAdapter]:
    """The seam and the adapter for the Feishu section of ``settings`` (credentials must be set)."""
    feishu = settings.feishu
    secret = feishu.app_secret.get_secret_value() if feishu.app_secret else ""
    seam, seen, shared = open_seam(settings, presales, store_prefix="feishu:")  # shared: issue 29
    conversation = seam.conversation
    fallback = "en" if "larksuite" in feishu.domain else "zh"  # a toast whose answer expired: Lark / Feishu
    card_ack = functools.partial(click_ack, turn_lang=conversation.turn_lang, fallback=fallback)
    adapter = FeishuAdapter(feishu.app_id or "", secret, domain=feishu.domain, seen=seen, card_ack=card_ack)
    adapter.heartbeat_path = feishu_heartbeat(settings.heartbeat_path)
    if shared is not None:  # an event a dying replica took is answered by another after the lease
        adapter.claims = FeishuClaims(shared, feishu.app_id or "", feishu.claim_lease_s)
    return seam, adapter


def feishu_heartbeat(path: Path | None) -> Path | None:
    """Feishu's heartbeat file: ``SIZING_BOT_HEARTBEAT`` + ``.feishu`` (Telegram keeps the file itself)."""
    return path.with_name(path.name + ".feishu") if path else None


async def beat(adapter: FeishuAdapter, interval_s: float = HEARTBEAT_INTERVAL_S) -> None:
    """Rewrite the heartbeat every ``interval_s`` s while the long connection is open; removed at the end."""
    path = adapter.heartbeat_path
    if path is None:
        return
    try:
        while True:
            alive = adapter.connection.connected
            if alive:
                await asyncio.to_thread(write_heartbeat, path)
            await asyncio.sleep(interval_s if alive else min(interval_s, 0.2))
    finally:
        path.unlink(missing_ok=True)


async def handle(seam: Seam, adapter: FeishuAdapter, item: Inbound | Press | FileMessage) -> None:
    """Answer one message (``/settings`` here, questions through the seam), a config file, or one
    button press."""
    if isinstance(item, Press):
        await seam._on_press(adapter, item)
        return
    if isinstance(item, FileMessage):
        await answer_file(seam, adapter, item)
        return
    argument = settings_argument(item.text)
    if argument is not None and (item.mentioned or not item.is_group):
        text = await settings_reply(item, argument, seam.conversation, adapter.api)
        await adapter.reply_text(item, text)
        return
    if is_quote_command(item.text) and (item.mentioned or not item.is_group):
        await quote_command(seam, adapter, item)
        return
    out = await asyncio.to_thread(seam.answer, item)  # off the loop: acks, pings and leases go on
    if out is not None:
        seam.remember(item.chat_id, await adapter.reply(item, out), out)


async def serve(seam: Seam, adapter: FeishuAdapter) -> None:
    """Connect and answer until the adapter's stream ends; raises the connection's fatal error."""
    await adapter.connect()
    claims = adapter.claims
    takeover = (
        asyncio.create_task(take_over(claims, adapter.held, adapter.replay)) if claims is not None else None
    )
    try:
        async for item in adapter.receive():
            try:
                await handle(seam, adapter, item)
            except Exception:  # one failed answer must not stop the others
                log.exception("feishu: answering failed")
            await adapter.finished(item)
    finally:
        if takeover is not None:
            takeover.cancel()
        await adapter.stop()
    if adapter.error is not None:
        raise adapter.error


async def serve_until_signalled(
    seam: Seam, adapter: FeishuAdapter, stop: asyncio.Event | None = None
) -> None:
    """:func:`serve`, stopped by SIGINT / SIGTERM (main thread) or by ``stop``."""
    await serve_until_stopped(adapter, lambda: serve(seam, adapter), beat, stop)
