"""Dedupe by event and message id, persisted in the settings SQLite so a restart does not answer a
re-push again (Feishu re-pushes unacknowledged events at ~15 s, 5 min, 1 h and 6 h; issue 27).

Keys live :data:`bot.feishu.client.DEDUPE_TTL_S` (8 h, wall clock: the store outlives the process).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from bot.feishu.client import DEDUPE_TTL_S

SCHEMA = "CREATE TABLE IF NOT EXISTS feishu_seen (key TEXT PRIMARY KEY, expires REAL NOT NULL)"


class SqliteSeen:
    """:class:`bot.feishu.client.Seen` in table ``feishu_seen`` of the SQLite file ``path``."""

    def __init__(
        self, path: str | Path, ttl: float = DEDUPE_TTL_S, clock: Callable[[], float] = time.time
    ) -> None:
        self.ttl, self._clock = ttl, clock
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(str(path), timeout=5.0, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA busy_timeout = 5000")
        self._conn.execute(SCHEMA)
        self._lock = threading.Lock()
        self._writes = 0

    def seen(self, key: str) -> bool:
        """True when ``key`` was recorded less than ``ttl`` seconds ago; records it otherwise."""
        now = self._clock()
        with self._lock:
            self._writes += 1
            if self._writes % 500 == 1:
                self._conn.execute("DELETE FROM feishu_seen WHERE expires <= ?", (now,))
            row = self._conn.execute("SELECT expires FROM feishu_seen WHERE key = ?", (key,)).fetchone()
            if row is not None and row[0] > now:
                return True
            self._conn.execute(
                "INSERT OR REPLACE INTO feishu_seen (key, expires) VALUES (?, ?)", (key, now + self.ttl)
            )
            return False

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class StoreSeen:
    """:class:`bot.feishu.client.Seen` in a shared store (:meth:`bot.store.base.Store.seen`, keys
    ``feishu:<key>``): replicas on one database answer an event once, whichever receives it.
    A store error counts the key as new (answering twice beats not answering)."""

    def __init__(self, store: object, ttl: float = DEDUPE_TTL_S) -> None:
        self.store, self.ttl = store, ttl

    def seen(self, key: str) -> bool:
        try:
            return bool(self.store.seen(f"feishu:{key}", self.ttl))  # type: ignore[attr-defined]
        except OSError:
            return False

    def close(self) -> None:
        """The store belongs to the caller."""
