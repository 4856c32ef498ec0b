"""Telegram on a shared store (``SIZING_BOT_DATABASE_URL``): active/standby replicas (issue 29).

Telegram allows one ``getUpdates`` poller per bot (a second gets 409 Conflict), so replicas take turns:

1. **Leader lock.** Before it builds the bot, ``sizing-bot run`` takes the store's leader lock
   ``telegram:<bot id>`` (:func:`lead`); a replica that does not get it waits as the standby, trying
   every :data:`STANDBY_POLL_S` (and rewriting its heartbeat file: a standby is healthy).
   PostgreSQL frees the lock the moment the holder's connection closes (a killed process), or
   after the TCP keepalives give up on a dead host (~10 s).
2. **Takeover.** The new leader opens the journal in the store (:class:`StoreJournal`): every update
   the dead leader had claimed but not marked handled is replayed (its lease is the lock: a leader
   holds it until it dies), and the ids it had seen de-duplicate Telegram's redeliveries.
3. **Lost lock.** A leader whose lock connection breaks stops itself (SIGTERM: a graceful stop) rather
   than poll beside a new leader; the supervisor starts it again, as a standby.

The follow-up memory and what each sent message shows live in the store too, so a follow-up or a
reply after a takeover continues the conversation; settings changes come over the store's change
feed (PostgreSQL LISTEN/NOTIFY), so a replica's settings cache never serves a stale chat.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.telegram.heartbeat import write_heartbeat
from bot.telegram.journal import KEEP_HANDLED, PRUNE_EVERY, RETENTION_S, UpdateJournal

if TYPE_CHECKING:
    from telegram import Update

    from bot.config import AppSettings
    from bot.store.base import Lease, Store

logger = logging.getLogger("bot.telegram.replica")

STANDBY_POLL_S = 0.5
"""How often a standby tries the leader lock (seconds): the takeover time's main part."""
LEASE_CHECK_S = 2.0
"""How often the leader checks that its lock connection is alive (seconds)."""


def bot_id(token: str) -> str:
    """The bot's id: the part of its token before the colon (no network needed)."""
    return token.split(":", 1)[0]


def open_shared(settings: AppSettings) -> Store | None:
    """The PostgreSQL store when ``SIZING_BOT_DATABASE_URL`` is set, else None (one process, SQLite)."""
    url = settings.database_url_value()
    if not url:
        return None
    from bot.store import open_store

    return open_store(url)


class Leadership:
    """The held leader lock and its watchdog; ``close()`` releases it (the bot has stopped)."""

    def __init__(self, store: Store, lease: Lease) -> None:
        self.store, self.lease = store, lease
        self._stop = threading.Event()
        threading.Thread(target=self._watch, name="leader-watch", daemon=True).start()

    def _watch(self) -> None:
        while not self._stop.wait(LEASE_CHECK_S):
            if not self.lease.held():
                logger.error("leader lock lost: stopping so that only one replica polls Telegram")
                os.kill(os.getpid(), signal.SIGTERM)
                return

    def close(self) -> None:
        self._stop.set()
        self.lease.release()
        self.store.close()


def lead(settings: AppSettings, token: str, stop: threading.Event | None = None) -> Leadership | None:
    """Block until this process holds ``telegram:<bot id>`` (standby until then); None when ``stop``
    is set first. Raises :class:`bot.store.StoreUnavailable` when the database cannot be reached."""
    store = open_shared(settings)
    assert store is not None
    name = f"telegram:{bot_id(token)}"
    waiting = False
    while stop is None or not stop.is_set():
        lease = store.lead(name)
        if lease is not None:
            if waiting:
                logger.warning("leader lock %s taken: this replica now polls Telegram", name)
            return Leadership(store, lease)
        if not waiting:
            logger.warning("standby: another replica polls Telegram (%s); waiting to take over", name)
            waiting = True
        if settings.heartbeat_path is not None:  # a standby is healthy: it can take over
            write_heartbeat(settings.heartbeat_path)
        time.sleep(STANDBY_POLL_S)
    store.close()
    return None


class StoreJournal(UpdateJournal):
    """The update journal (:mod:`bot.telegram.journal`) in the shared store's claims, stream
    ``telegram:<bot id>``: same life cycle and batching, rows shared by the replicas."""

    def __init__(self, store: Store) -> None:
        super().__init__(Path(f"<{store.kind} store>"))
        self.store = store
        self._opened = False
        self.owner = f"{socket.gethostname()}:{os.getpid()}"
        self.stream = ""

    def _open(self, bot_id: int) -> tuple[list[int], list[dict[str, Any]]]:
        self.stream = f"telegram:{bot_id}"
        self.store.prune(self.stream, KEEP_HANDLED, time.time() - RETENTION_S)
        pending = [json.loads(body) for _, body in self.store.reclaim(self.stream, self.owner, 0.0)]
        known = [int(key) for key in self.store.known(self.stream, KEEP_HANDLED)]
        self._opened = True
        return known, pending

    def _write(self, adds: list[Update], dones: list[int]) -> None:
        if not self._opened:
            return
        # At most three statements a batch, however many updates it holds, marks of updates claimed
        # earlier first. One claim per update made a burst of 100 outlast answering 20 of them under
        # load; a mark made meanwhile waited behind it, and a kill then had the standby answer that
        # question again (tests/test_replica_journal_batch.py).
        added = {str(update.update_id) for update in adds}
        marks = [str(i) for i in dones]
        earlier = [key for key in marks if key not in added]
        if earlier:
            self.store.finish(self.stream, earlier)
        if adds:
            claims = [(str(update.update_id), update.to_json()) for update in adds]
            self.store.claim_many(self.stream, claims, self.owner)
        if len(earlier) < len(marks):
            self.store.finish(self.stream, [key for key in marks if key in added])
        self._marked += len(dones)
        if self._marked >= PRUNE_EVERY:
            self._marked = 0
            self.store.prune(self.stream, KEEP_HANDLED, time.time() - RETENTION_S)

    def _close(self) -> None:
        self._opened = False


def share(data: Any, store: Store) -> None:
    """Keep the follow-up memory and the sent messages' turns in ``store`` (BotData ``data``)."""
    from bot.chat.shown import SharedShownMessages

    data.conversation._share(store)
    data.shown = SharedShownMessages(store)


def watch_settings(data: Any, store: Store) -> None:
    """Drop a chat from the settings cache as soon as any replica changes its settings."""
    loop = asyncio.get_running_loop()

    def changed(scope: str) -> None:
        loop.call_soon_threadsafe(data.settings_io.forget, scope)

    store.watch(changed)
