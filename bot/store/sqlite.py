"""The default store: one SQLite file (today's settings file, ``SIZING_BOT_DB``), one process.

Chat settings stay in table ``chat_settings`` (:class:`bot.settings.store.SettingsStore`, unchanged);
the other tables of :mod:`bot.store.base` live beside it in the same file. A file written before the
store (schema version 1: no ``schema_version`` table, perhaps a ``feishu_seen`` table) is upgraded on
open, in one transaction: the new tables are created, Feishu's dedupe keys move to ``dedupe`` (as
``feishu:<key>``), and the version is recorded. Leader locks are ``flock`` locks on files beside the
database (``<db>.<name>.lock``), released by the kernel however the process ends.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from bot.settings.store import SettingsStore
from bot.store.base import MAX_ATTEMPTS, SCHEMA_VERSION, StoreUnavailable, lock_name

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

_V2 = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS context (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS claims (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    stream   TEXT NOT NULL,
    key      TEXT NOT NULL,
    body     TEXT NOT NULL,
    owner    TEXT NOT NULL,
    claimed  REAL NOT NULL,
    done     REAL,
    attempts INTEGER NOT NULL DEFAULT 0,
    UNIQUE (stream, key)
);
CREATE TABLE IF NOT EXISTS dedupe (key TEXT PRIMARY KEY, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def upgrade(conn: sqlite3.Connection) -> int:
    """Bring the file to :data:`SCHEMA_VERSION` (one transaction); returns the version it had."""
    with conn:
        conn.execute("BEGIN IMMEDIATE")
        has = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_version'").fetchone()
        row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone() if has else None
        before = int(row[0]) if row and row[0] is not None else 1
        if before >= SCHEMA_VERSION:
            return before
        for statement in filter(str.strip, _V2.split(";")):
            conn.execute(statement)
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'feishu_seen'").fetchone():
            conn.execute(
                "INSERT OR IGNORE INTO dedupe (key, expires) "
                "SELECT 'feishu:' || key, expires FROM feishu_seen"
            )
        conn.execute("DELETE FROM schema_version")
        conn.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
        return before


class FileLease:
    """A leader lock held as an ``flock`` on a file (kept open while held)."""

    def __init__(self, fh: IO[str] | None) -> None:
        self._fh, self._held = fh, True

    def held(self) -> bool:
        return self._held

    def release(self) -> None:
        self._held = False
        if self._fh is not None:
            self._fh.close()
            self._fh = None


class SqliteStore:
    """:class:`bot.store.base.Store` in one SQLite file (``path``; None: the settings default)."""

    kind = "sqlite"

    def __init__(self, path: str | Path | None = None) -> None:
        self.settings = SettingsStore(path)
        self.path = self.settings.path
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=2.0)
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA busy_timeout=2000")
        upgrade(self._conn)

    def _do(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        with self._lock:
            try:
                with self._conn:
                    self._conn.execute("BEGIN IMMEDIATE")
                    return fn(self._conn)
            except sqlite3.Error as err:
                raise StoreUnavailable(f"{type(err).__name__}: {err}") from err

    def schema_version(self) -> int:
        return int(self._do(lambda c: c.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]))

    # -- follow-up context

    def put_context(self, key: str, value: str, ttl_s: float) -> None:
        self._do(
            lambda c: c.execute(
                "INSERT OR REPLACE INTO context (key, value, expires) VALUES (?, ?, ?)",
                (key, value, time.time() + ttl_s),
            )
        )

    def get_context(self, key: str) -> str | None:
        row = self._do(
            lambda c: c.execute(
                "SELECT value FROM context WHERE key = ? AND expires > ?", (key, time.time())
            ).fetchone()
        )
        return None if row is None else str(row[0])

    def drop_context(self, key: str) -> None:
        self._do(lambda c: c.execute("DELETE FROM context WHERE key = ? OR expires <= ?", (key, time.time())))

    # -- claims (the inbound journal)

    def claim(self, stream: str, key: str, body: str, owner: str) -> bool:
        row = self._do(
            lambda c: c.execute(
                "INSERT INTO claims (stream, key, body, owner, claimed) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (stream, key) DO NOTHING RETURNING seq",
                (stream, key, body, owner, time.time()),
            ).fetchone()
        )
        return row is not None

    def claim_many(self, stream: str, items: list[tuple[str, str]], owner: str) -> None:
        now = time.time()
        self._do(
            lambda c: c.executemany(
                "INSERT INTO claims (stream, key, body, owner, claimed) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (stream, key) DO NOTHING",
                [(stream, key, body, owner, now) for key, body in items],
            )
        )

    def finish(self, stream: str, keys: list[str]) -> None:
        now = time.time()
        self._do(
            lambda c: c.executemany(
                "UPDATE claims SET done = ?, body = '' WHERE stream = ? AND key = ?",
                [(now, stream, k) for k in keys],
            )
        )

    def renew(self, stream: str, keys: list[str], owner: str) -> None:
        now = time.time()
        self._do(
            lambda c: c.executemany(
                "UPDATE claims SET claimed = ? WHERE stream = ? AND key = ? AND owner = ? AND done IS NULL",
                [(now, stream, k, owner) for k in keys],
            )
        )

    def reclaim(self, stream: str, owner: str, lease_s: float) -> list[tuple[str, str]]:
        now = time.time()

        def take(c: sqlite3.Connection) -> list[tuple[str, str]]:
            rows = c.execute(
                "SELECT seq, key, body, attempts FROM claims WHERE stream = ? AND done IS NULL "
                "AND claimed <= ? ORDER BY seq",
                (stream, now - lease_s),
            ).fetchall()
            taken = []
            for seq, key, body, attempts in rows:
                if attempts >= MAX_ATTEMPTS:
                    c.execute("UPDATE claims SET done = ?, body = '' WHERE seq = ?", (now, seq))
                    continue
                c.execute(
                    "UPDATE claims SET owner = ?, claimed = ?, attempts = attempts + 1 WHERE seq = ?",
                    (owner, now, seq),
                )
                taken.append((str(key), str(body)))
            return taken

        return list(self._do(take))

    def known(self, stream: str, limit: int) -> list[str]:
        rows = self._do(
            lambda c: c.execute(
                "SELECT key FROM claims WHERE stream = ? ORDER BY seq DESC LIMIT ?", (stream, limit)
            ).fetchall()
        )
        return [str(r[0]) for r in reversed(rows)]

    def prune(self, stream: str, keep: int, older_than: float) -> None:
        self._do(
            lambda c: c.execute(
                "DELETE FROM claims WHERE stream = ? AND (claimed < ? OR (done IS NOT NULL AND seq < "
                "(SELECT MIN(seq) FROM (SELECT seq FROM claims WHERE stream = ? "
                "ORDER BY seq DESC LIMIT ?))))",
                (stream, older_than, stream, keep),
            )
        )

    # -- dedupe keys

    def seen(self, key: str, ttl_s: float) -> bool:
        now = time.time()
        row = self._do(
            lambda c: c.execute(
                "INSERT INTO dedupe (key, expires) VALUES (?, ?) ON CONFLICT (key) DO UPDATE "
                "SET expires = excluded.expires WHERE dedupe.expires <= ? RETURNING key",
                (key, now + ttl_s, now),
            ).fetchone()
        )
        return row is None

    # -- leader locks, change feed

    def lead(self, name: str) -> FileLease | None:
        """The lock ``name`` (a file lock beside the database), or None when another process holds it;
        an in-memory database has nothing to share: always granted."""
        if str(self.path) == ":memory:" or fcntl is None:
            return FileLease(None)
        path = self.path.with_name(f"{self.path.name}.{lock_name(name)}.lock")
        fh = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held open while leading
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.close()
            return None
        return FileLease(fh)

    def watch(self, callback: Callable[[str], None]) -> None:
        """One process per file: its own writes already update its cache; nothing to watch."""

    def close(self) -> None:
        with self._lock:
            self._conn.close()
        self.settings.close()
