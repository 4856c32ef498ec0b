"""Dedupe of inbound deliveries by id, persisted in the settings SQLite so a restart does not answer a
re-push again. Shared by the long-connection platforms: Feishu / Lark (table ``feishu_seen``; Feishu
re-pushes an unacknowledged event at ~15 s, 5 min, 1 h and 6 h, issue 27) and WeCom (table
``wecom_seen``, keyed by ``msgid``; issue 28).

Keys live :data:`DEDUPE_TTL_S` (8 h, wall clock: the store outlives the process).
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

DEDUPE_TTL_S = 8 * 3600.0
"""Seconds a key is remembered: Feishu re-pushes up to ~6 h after the first push (issue 27)."""
TABLE = re.compile(r"[a-z_]{1,40}")


class Seen(Protocol):
    """Dedupe store: ``seen(key)`` is True when ``key`` was seen before (and records it)."""

    def seen(self, key: str) -> bool: ...


def seen_delivery(seen: Seen, keys: list[str]) -> bool:
    """True when a delivery known by ``keys`` was handled before. The first key alone decides (one
    atomic check in the store); the others are only recorded. Deciding on any of several keys let two
    replicas each win one key of the same re-pushed event and both drop it (issue 29)."""
    if not keys:
        return False
    for key in keys[1:]:
        seen.seen(key)
    return seen.seen(keys[0])


class SqliteSeen:
    """:class:`Seen` in table ``table`` of the SQLite file ``path`` (one table per platform)."""

    def __init__(
        self,
        path: str | Path,
        ttl: float = DEDUPE_TTL_S,
        clock: Callable[[], float] = time.time,
        *,
        table: str = "feishu_seen",
    ) -> None:
        if not TABLE.fullmatch(table):
            raise ValueError(f"not a table name: {table!r}")
        self.ttl, self._clock, self.table = ttl, clock, table
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(str(path), timeout=5.0, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA busy_timeout = 5000")
        self._conn.execute(
            f"CREATE TABLE IF NOT EXISTS {table} (key TEXT PRIMARY KEY, expires REAL NOT NULL)"
        )
        self._lock = threading.Lock()
        self._writes = 0

    def seen(self, key: str) -> bool:
        """True when ``key`` was recorded less than ``ttl`` seconds ago; records it otherwise."""
        now, table = self._clock(), self.table
        with self._lock:
            self._writes += 1
            if self._writes % 500 == 1:
                self._conn.execute(f"DELETE FROM {table} WHERE expires <= ?", (now,))
            row = self._conn.execute(f"SELECT expires FROM {table} WHERE key = ?", (key,)).fetchone()
            if row is not None and row[0] > now:
                return True
            self._conn.execute(
                f"INSERT OR REPLACE INTO {table} (key, expires) VALUES (?, ?)", (key, now + self.ttl)
            )
            return False

    def close(self) -> None:
        with self._lock:
            self._conn.close()
