"""Per-chat settings (language, currency, price list, MFU, deadline) persisted in SQLite.

One table keyed by *scope id*: the chat id for groups, the user id for private chats (in Telegram
a private chat's id is the user's id, so the chat id works for both), as an opaque string scoped by
platform (``telegram:123``, ``feishu:oc_ab``, :mod:`bot.chat.ids`; an ``int`` argument is a Telegram
id). A database from before string ids (an ``INTEGER`` key) is migrated on open, once, in one
transaction: each row ``123`` becomes ``telegram:123``. Settings are stored as JSON
so new fields need no schema change. WAL journal: a reader never blocks the writer, and a process
killed mid-write leaves either the old or the new row. Default path: ``$SIZING_BOT_DB``, else
``~/.local/state/sizing-bot/settings.sqlite3``.

Reads and writes use separate connections (each under its own lock), so a write waiting for another
process's lock never holds up a read. The busy timeout is short (:data:`BUSY_TIMEOUT_S`): a locked
database fails fast with ``sqlite3.OperationalError`` and the caller degrades (the bot says "settings
temporarily unavailable" for that press, :mod:`bot.telegram.settings_io`) instead of waiting. The
methods block: the bot calls them on a worker thread, never on its event loop.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.chat.ids import scope_key
from bot.settings.chat import ChatSettings

log = logging.getLogger(__name__)

ENV_PATH = "SIZING_BOT_DB"
BUSY_TIMEOUT_S = 1.0
"""How long a statement waits for another connection's lock before failing (SQLite's default is 0;
Python's ``sqlite3`` default 5 s). Long enough for a concurrent write to commit (milliseconds)."""


def default_db_path() -> Path:
    from bot.config import current_if_set

    settings = current_if_set()
    env = settings.db_path if settings is not None else None
    if env is not None:
        return Path(env).expanduser()
    return Path.home() / ".local" / "state" / "sizing-bot" / "settings.sqlite3"


_SCHEMA = """
CREATE TABLE IF NOT EXISTS {table} (
    scope_id   TEXT PRIMARY KEY,
    settings   TEXT NOT NULL,
    updated_at REAL NOT NULL
)
"""

ScopeId = str | int
"""A scoped id string (``telegram:123``, ``feishu:oc_ab``), or an int taken as a Telegram id."""


def _key_type(conn: sqlite3.Connection) -> str:
    rows = conn.execute("PRAGMA table_info(chat_settings)").fetchall()
    return next((str(r[2]).upper() for r in rows if r[1] == "scope_id"), "")


def _legacy_rows(conn: sqlite3.Connection) -> bool:
    return (
        conn.execute("SELECT 1 FROM chat_settings WHERE instr(scope_id, ':') = 0 LIMIT 1").fetchone()
        is not None
    )


def _migrate_schema(conn: sqlite3.Connection) -> None:
    """Create the table, or rebuild one from before string ids (``scope_id INTEGER``): every row
    ``123`` becomes ``telegram:123``, in one transaction (another process opening the same file
    waits on the lock, then finds the new schema). Rows an older process wrote since as integers
    are renamed the same way (a key without ``:``, stored as text by the column's affinity: a no-op
    once all processes are new). An up-to-date database is only read (no write lock taken)."""
    if _key_type(conn) == "TEXT" and not _legacy_rows(conn):
        return
    with conn:
        conn.execute("BEGIN IMMEDIATE")
        if _key_type(conn) == "INTEGER":
            conn.execute(_SCHEMA.format(table="chat_settings_v2"))
            conn.execute(
                "INSERT INTO chat_settings_v2 (scope_id, settings, updated_at) "
                "SELECT 'telegram:' || scope_id, settings, updated_at FROM chat_settings"
            )
            conn.execute("DROP TABLE chat_settings")
            conn.execute("ALTER TABLE chat_settings_v2 RENAME TO chat_settings")
            log.info("settings store migrated to string scope ids")
        conn.execute(_SCHEMA.format(table="chat_settings"))
        conn.execute(
            "UPDATE OR IGNORE chat_settings SET scope_id = 'telegram:' || scope_id "
            "WHERE instr(scope_id, ':') = 0"
        )


def _lenient(scope_id: ScopeId, data: object) -> ChatSettings:
    """Settings from a stored row; fields that no longer pass validation (e.g. a deadline saved before
    the bounds of :mod:`bot.settings.chat`) are dropped one by one, the others kept."""
    if not isinstance(data, dict):
        log.warning("settings of scope %s are unreadable; using defaults", scope_id)
        return ChatSettings()
    for _ in range(len(data) + 1):
        try:
            return ChatSettings.model_validate(data)
        except ValidationError as err:
            bad = {str(e["loc"][0]) for e in err.errors() if e["loc"]}
            bad = bad or ({"prices"} & set(data)) or set(data)  # a model-level rule: prices need a currency
            log.warning("settings of scope %s: dropped invalid %s", scope_id, ", ".join(sorted(bad)))
            data = {k: v for k, v in data.items() if k not in bad}
    return ChatSettings()


class SettingsStore:
    """SQLite-backed ChatSettings by scope id (:data:`ScopeId`). One connection shared by threads under
    a lock. ValueError for an id that is not scoped (:func:`bot.chat.ids.scope_key`)."""

    def __init__(self, path: str | Path | None = None, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self.path = Path(path).expanduser() if path is not None else default_db_path()
        memory = str(self.path) == ":memory:"
        if not memory:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._conn = self._connect(busy_timeout_s)
        self._conn.execute("PRAGMA journal_mode=WAL")
        _migrate_schema(self._conn)
        # a second connection for reads (an in-memory database exists once: it shares the first)
        self._read_lock = self._lock if memory else threading.Lock()
        self._reader = self._conn if memory else self._connect(busy_timeout_s)

    def _connect(self, busy_timeout_s: float) -> sqlite3.Connection:
        # isolation_level=None: no implicit transactions; each write opens BEGIN IMMEDIATE itself.
        conn = sqlite3.connect(
            self.path, check_same_thread=False, isolation_level=None, timeout=busy_timeout_s
        )
        conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: safe against process kills
        conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_s * 1000)}")
        return conn

    # -- reading

    def _read(self, scope_id: ScopeId, conn: sqlite3.Connection | None = None) -> ChatSettings:
        row = (
            (conn or self._conn)
            .execute("SELECT settings FROM chat_settings WHERE scope_id = ?", (scope_key(scope_id),))
            .fetchone()
        )
        if row is None:
            return ChatSettings()
        try:
            data = json.loads(row[0])
        except ValueError:
            log.warning("settings of scope %s are unreadable; using defaults", scope_id)
            return ChatSettings()
        return _lenient(scope_id, data)

    def get(self, scope_id: ScopeId) -> ChatSettings:
        """The scope's settings (defaults when none were saved or the row is unreadable)."""
        with self._read_lock:
            return self._read(scope_id, self._reader)

    # -- writing (each call one transaction)

    def _write(self, scope_id: ScopeId, settings: ChatSettings) -> None:
        if settings.is_default:
            self._conn.execute("DELETE FROM chat_settings WHERE scope_id = ?", (scope_key(scope_id),))
            return
        self._conn.execute(
            "INSERT INTO chat_settings (scope_id, settings, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT(scope_id) DO UPDATE SET settings = excluded.settings, "
            "updated_at = excluded.updated_at",
            (scope_key(scope_id), settings.model_dump_json(exclude_defaults=True), time.time()),
        )

    def set(self, scope_id: ScopeId, settings: ChatSettings) -> None:
        """Replace the scope's settings atomically."""
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            self._write(scope_id, settings)

    def update(self, scope_id: ScopeId, **fields: Any) -> ChatSettings:
        """Change some fields (read-modify-write in one transaction); returns the new settings.
        Raises pydantic.ValidationError for invalid values (nothing is written then)."""
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            current = self._read(scope_id)
            new = ChatSettings.model_validate({**current.model_dump(), **fields})
            self._write(scope_id, new)
            return new

    def delete(self, scope_id: ScopeId) -> None:
        """Forget the scope's settings (back to defaults)."""
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            self._conn.execute("DELETE FROM chat_settings WHERE scope_id = ?", (scope_key(scope_id),))

    def migrate(self, old_scope_id: ScopeId, new_scope_id: ScopeId) -> bool:
        """Move settings to a new id (Telegram group → supergroup). Settings already saved under the
        new id are newer and are kept. Returns True when a row was moved."""
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            old = scope_key(old_scope_id)
            new = scope_key(new_scope_id)
            if old == new:
                return False
            row = self._conn.execute("SELECT 1 FROM chat_settings WHERE scope_id = ?", (old,)).fetchone()
            if row is None:
                return False
            self._conn.execute(
                "INSERT OR IGNORE INTO chat_settings (scope_id, settings, updated_at) "
                "SELECT ?, settings, updated_at FROM chat_settings WHERE scope_id = ?",
                (new, old),
            )
            self._conn.execute("DELETE FROM chat_settings WHERE scope_id = ?", (old,))
            return True

    def close(self) -> None:
        with self._lock:
            self._conn.close()
        if self._reader is not self._conn:
            with self._read_lock:
                self._reader.close()

    def __enter__(self) -> SettingsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
