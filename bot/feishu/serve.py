"""``sizing-bot run``'s Feishu / Lark side: the seam answering a :class:`FeishuAdapter` until stopped.

Wiring: the settings SQLite (``SIZING_BOT_DB``) holds the chat settings and the dedupe keys
(:class:`bot.feishu.seen.SqliteSeen`, 8 h); the Conversation and the Seam are the ones every front end
uses; one item that fails (an API error, a bad event) is logged and the next one is answered.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import TYPE_CHECKING

from bot.chat.adapter import Inbound, Press
from bot.chat.contact import contact_of
from bot.chat.seam import Seam
from bot.core.conversation import Conversation
from bot.feishu.adapter import FeishuAdapter
from bot.feishu.card import card_footer, card_text
from bot.feishu.commands import is_quote_command, quote_command
from bot.feishu.seen import SqliteSeen
from bot.feishu.settings import settings_argument, settings_reply
from bot.settings.store import SettingsStore, default_db_path

if TYPE_CHECKING:
    from bot.config import AppSettings
    from bot.settings.presales import PresalesConfig

log = logging.getLogger(__name__)


def build(settings: AppSettings, presales: PresalesConfig | None) -> tuple[Seam, FeishuAdapter]:
    """The seam and the adapter for the Feishu section of ``settings`` (credentials must be set)."""
    feishu = settings.feishu
    secret = feishu.app_secret.get_secret_value() if feishu.app_secret else ""
    db = settings.db_path or default_db_path()
    conversation = Conversation(settings_store=SettingsStore(db), presales=presales)
    seam = Seam(conversation, render=card_text, contact=contact_of(presales), footer=card_footer)
    adapter = FeishuAdapter(feishu.app_id or "", secret, domain=feishu.domain, seen=SqliteSeen(db))
    return seam, adapter


async def handle(seam: Seam, adapter: FeishuAdapter, item: Inbound | Press) -> None:
    """Answer one message (``/settings`` here, questions through the seam) or one button press."""
    if isinstance(item, Press):
        await seam._on_press(adapter, item)
        return
    argument = settings_argument(item.text)
    if argument is not None and (item.mentioned or not item.is_group):
        text = await settings_reply(item, argument, seam.conversation, adapter.api)
        await adapter.reply_text(item, text)
        return
    if is_quote_command(item.text) and (item.mentioned or not item.is_group):
        await quote_command(seam, adapter, item)
        return
    out = seam.answer(item)
    if out is not None:
        seam.remember(item.chat_id, await adapter.reply(item, out), out)


async def serve(seam: Seam, adapter: FeishuAdapter) -> None:
    """Connect and answer until the adapter's stream ends; raises the connection's fatal error."""
    await adapter.connect()
    try:
        async for item in adapter.receive():
            try:
                await handle(seam, adapter, item)
            except Exception:  # one failed answer must not stop the others
                log.exception("feishu: answering failed")
    finally:
        await adapter.stop()
    if adapter.error is not None:
        raise adapter.error


async def serve_until_signalled(
    seam: Seam, adapter: FeishuAdapter, stop: asyncio.Event | None = None
) -> None:
    """:func:`serve`, stopped by SIGINT / SIGTERM (main thread) or by ``stop``."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
    except (ValueError, RuntimeError, NotImplementedError):  # not the main thread, or Windows
        pass

    async def stopper() -> None:
        await stop.wait()
        await adapter.connection.stop()

    watcher = asyncio.create_task(stopper())
    try:
        await serve(seam, adapter)
    finally:
        watcher.cancel()
