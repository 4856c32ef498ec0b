"""The wiring every long-connection platform (Feishu, WeCom, DingTalk) shares: the seam over one
Conversation with its dedupe store (:func:`open_seam`), and serving until a signal or ``stop``, as the
leader when replicas share a store (:func:`serve_until_stopped`)."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.chat.contact import contact_of
from bot.chat.leader import open_conversation, serve_as_leader, share_seam
from bot.chat.seam import Seam
from bot.chat.seen import SqliteSeen
from bot.settings.store import default_db_path

if TYPE_CHECKING:
    from bot.config import AppSettings
    from bot.settings.presales import PresalesConfig


def open_seam(
    settings: AppSettings, presales: PresalesConfig | None, *, store_prefix: str, table: str = "feishu_seen"
) -> tuple[Seam, Any, Any | None]:
    """The seam (answers in card parts, :func:`bot.feishu.card.card_text`), the dedupe store and the
    shared store (None without ``SIZING_BOT_DATABASE_URL``).

    Without a shared store the settings and the dedupe keys live in the SQLite file ``SIZING_BOT_DB``
    (dedupe in ``table``, 8 h); with one, both live there (dedupe keys prefixed ``store_prefix``) and a
    reply to a message another replica sent finds its turn (issue 29)."""
    from bot.feishu.seen import StoreSeen

    db = settings.db_path or default_db_path()
    conversation, shared = open_conversation(settings, presales, db)
    seam = card_seam(conversation, presales)
    share_seam(seam, shared)
    if shared is not None:
        return seam, StoreSeen(shared, prefix=store_prefix), shared
    return seam, SqliteSeen(db, table=table), None


def card_seam(conversation: Any, presales: PresalesConfig | None) -> Seam:
    """The seam the long-connection platforms answer through: replies in card parts
    (:func:`bot.feishu.card.card_text`), the offer's contact line appended (``sizing-bot preview`` uses
    it too, so what it prints is what the running bot sends)."""
    from bot.feishu.card import card_footer, card_text

    return Seam(conversation, render=card_text, contact=contact_of(presales), footer=card_footer)


async def serve_until_stopped(
    adapter: Any,
    serve: Callable[[], Awaitable[None]],
    beat: Callable[[Any], Awaitable[None]],
    stop: asyncio.Event | None = None,
    *,
    shared: Any = None,
    lock_name: str = "",
) -> None:
    """``serve()``, stopped by SIGINT / SIGTERM (main thread) or by ``stop`` (which stops
    ``adapter.connection``), with ``beat(adapter)`` writing the heartbeat meanwhile; with ``shared``,
    only while this replica holds the leader lock ``lock_name`` (:func:`bot.chat.leader.serve_as_leader`)."""
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

    watcher, beater = asyncio.create_task(stopper()), asyncio.create_task(beat(adapter))
    try:
        if shared is None:
            await serve()
        else:  # replicas: only the holder of the lock connects
            await serve_as_leader(
                shared, lock_name, stop, serve, adapter.connection.stop, adapter.heartbeat_path
            )
    finally:
        watcher.cancel()
        beater.cancel()
