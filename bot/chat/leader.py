"""One connection per bot on a shared store (``SIZING_BOT_DATABASE_URL``): WeCom and DingTalk replicas
take turns under the store's leader lock (issue 29).

WeCom allows one long connection per bot (a second one replaces the first); DingTalk's Stream mode
hands each message to one connection, so a standby holding a connection would answer with no claim
on the lock. The holder of ``<platform>:<bot id>`` connects; the others wait as standbys, trying the
lock every :data:`STANDBY_POLL_S` s (and rewriting their heartbeat: a standby is healthy). PostgreSQL
frees the lock as soon as the holder's connection closes (a killed process), so a standby connects
within about half a second of a ``kill -9``. A holder whose lock connection breaks stops its
connection and exits non-zero (:class:`LeaderLost`), so that two replicas never serve one bot; the
supervisor starts it again, as a standby.

Dedupe keys, settings, the follow-up memory and what each sent message shows are in the store too,
so the new holder continues the conversations of the old one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.telegram.heartbeat import write_heartbeat

log = logging.getLogger(__name__)

STANDBY_POLL_S = 0.5
"""How often a standby tries the leader lock (seconds): the main part of the takeover time."""
LEASE_CHECK_S = 2.0
"""How often the holder checks that its lock connection is alive (seconds)."""


class LeaderLost(RuntimeError):
    """The leader lock's connection broke: another replica may connect now."""


async def wait_to_lead(
    store: Any, name: str, stop: asyncio.Event, heartbeat: Path | None = None
) -> Any | None:
    """Block (as the standby) until this process holds the lock ``name``; None when ``stop`` is set
    first. Raises :class:`bot.store.StoreUnavailable` when the database cannot be reached."""
    waiting = False
    while not stop.is_set():
        lease = await asyncio.to_thread(store.lead, name)
        if lease is not None:
            if waiting:
                log.warning("leader lock %s taken: this replica connects now", name)
            return lease
        if not waiting:
            log.warning("standby: another replica holds %s; waiting to take over", name)
            waiting = True
        if heartbeat is not None:
            await asyncio.to_thread(write_heartbeat, heartbeat)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), STANDBY_POLL_S)
    return None


async def guard(lease: Any, on_lost: Callable[[], Awaitable[None]], every_s: float = LEASE_CHECK_S) -> None:
    """Check the lease every ``every_s`` s; when it is gone, log and await ``on_lost()`` (stop serving)."""
    while True:
        await asyncio.sleep(every_s)
        if not await asyncio.to_thread(lease.held):
            log.error("leader lock lost: stopping so that only one replica is connected")
            await on_lost()
            return


async def serve_as_leader(
    store: Any,
    name: str,
    stop: asyncio.Event,
    serve: Callable[[], Awaitable[None]],
    stop_connection: Callable[[], Awaitable[None]],
    heartbeat: Path | None = None,
) -> None:
    """Wait for the lock ``name``, then ``serve()`` until it returns; a lost lock stops the connection
    (``stop_connection``) and raises :class:`LeaderLost`. Releases the lock at the end."""
    lease = await wait_to_lead(store, name, stop, heartbeat)
    if lease is None:
        return
    lost = asyncio.Event()

    async def on_lost() -> None:
        lost.set()
        await stop_connection()

    watcher = asyncio.create_task(guard(lease, on_lost))
    try:
        await serve()
    finally:
        watcher.cancel()
        await asyncio.to_thread(lease.release)
    if lost.is_set():
        raise LeaderLost(f"leader lock {name} lost")


def open_conversation(settings: Any, presales: Any, db: Path) -> tuple[Any, Any | None]:
    """The Conversation of a long-connection platform and the shared store (None without
    ``SIZING_BOT_DATABASE_URL``: settings in the SQLite file ``db``, follow-ups in memory)."""
    from bot.core.conversation import Conversation

    url = settings.database_url_value()
    if not url:
        from bot.settings.store import SettingsStore

        return Conversation(settings_store=SettingsStore(db), presales=presales), None
    from bot.store import open_store

    shared = open_store(url)
    return Conversation(settings_store=shared.settings, presales=presales, shared=shared), shared


def share_seam(seam: Any, shared: Any | None) -> None:
    """A reply to a message another replica sent finds its turn (what each message shows, shared)."""
    if shared is not None:
        from bot.chat.shown import SharedShownMessages

        seam.shown = SharedShownMessages(shared)
