"""Per-chat settings (language, currency, price list, MFU, deadline) persisted in SQLite.

One table keyed by *scope id*: the chat id for groups, the user id for private chats (in Telegram
a private chat's id is the user's id, so the chat id works for both). Settings are stored as JSON
so new fields need no schema change. WAL journal: a reader never blocks the writer, and a process
killed mid-write leaves either the old or the new row. Default path: ``$SIZING_BOT_DB``, else
``~/.local/state/sizing-bot/settings.sqlite3``.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.core.settings import ChatSettings

log = logging.getLogger(__name__)

ENV_PATH = "SIZING_BOT_DB"


def default_db_path() -> Path:
    env = os.environ.get(ENV_PATH, "").strip()
    if env:
        return Path(env).expanduser()
    return Path.home() / ".local" / "state" / "sizing-bot" / "settings.sqlite3"


_SCHEMA = """
CREATE TABLE IF NOT EXISTS chat_settings (
    scope_id   INTEGER PRIMARY KEY,
    settings   TEXT NOT NULL,
    updated_at REAL NOT NULL
)
"""


class SettingsStore:
    """SQLite-backed ChatSettings by scope id. One connection shared by threads under a lock."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path).expanduser() if path is not None else default_db_path()
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        # isolation_level=None: no implicit transactions; each write opens BEGIN IMMEDIATE itself.
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: safe against process kills
        self._conn.execute("PRAGMA busy_timeout=10000")
        self._conn.execute(_SCHEMA)

    # -- reading

    def _read(self, scope_id: int) -> ChatSettings:
        row = self._conn.execute(
            "SELECT settings FROM chat_settings WHERE scope_id = ?", (int(scope_id),)
        ).fetchone()
        if row is None:
            return ChatSettings()
        try:
            return ChatSettings.model_validate(json.loads(row[0]))
        except (ValueError, ValidationError):
            log.warning("settings of scope %s are unreadable; using defaults", scope_id)
            return ChatSettings()

    def get(self, scope_id: int) -> ChatSettings:
        """The scope's settings (defaults when none were saved or the row is unreadable)."""
        with self._lock:
            return self._read(scope_id)

    # -- writing (each call one transaction)

    def _write(self, scope_id: int, settings: ChatSettings) -> None:
        if settings.is_default:
            self._conn.execute("DELETE FROM chat_settings WHERE scope_id = ?", (int(scope_id),))
            return
        self._conn.execute(
            "INSERT INTO chat_settings (scope_id, settings, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT(scope_id) DO UPDATE SET settings = excluded.settings, "
            "updated_at = excluded.updated_at",
            (int(scope_id), settings.model_dump_json(exclude_defaults=True), time.time()),
        )

    def set(self, scope_id: int, settings: ChatSettings) -> None:
        """Replace the scope's settings atomically."""
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            self._write(scope_id, settings)

    def update(self, scope_id: int, **fields: Any) -> ChatSettings:
        """Change some fields (read-modify-write in one transaction); returns the new settings.
        Raises pydantic.ValidationError for invalid values (nothing is written then)."""
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            current = self._read(scope_id)
            new = ChatSettings.model_validate({**current.model_dump(), **fields})
            self._write(scope_id, new)
            return new

    def delete(self, scope_id: int) -> None:
        """Forget the scope's settings (back to defaults)."""
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            self._conn.execute("DELETE FROM chat_settings WHERE scope_id = ?", (int(scope_id),))

    def migrate(self, old_scope_id: int, new_scope_id: int) -> bool:
        """Move settings to a new id (Telegram group → supergroup). Settings already saved under the
        new id are newer and are kept. Returns True when a row was moved."""
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            old = int(old_scope_id)
            new = int(new_scope_id)
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

    def __enter__(self) -> SettingsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
