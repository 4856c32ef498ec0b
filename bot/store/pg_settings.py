"""Chat settings in PostgreSQL: the :class:`bot.settings.store.SettingsStore` API on a shared database.

Same table shape as SQLite (``chat_settings``: scope id, settings as JSON text, updated at); every
write notifies channel :data:`CHANNEL` with the scope id in the same transaction, so other replicas
drop that chat from their caches as soon as it commits (:meth:`bot.store.postgres.PgStore.watch`).
"""

from __future__ import annotations

import json
import time
from typing import Any

from bot.chat.ids import scope_key
from bot.settings.chat import ChatSettings
from bot.settings.store import ScopeId, _lenient

CHANNEL = "sizing_bot_settings"
"""The LISTEN/NOTIFY channel of settings changes (payload: the scoped chat id)."""


class PgSettingsStore:
    """ChatSettings by scope id in PostgreSQL; ``run(fn)`` runs ``fn(cursor)`` in one transaction."""

    def __init__(self, run: Any) -> None:
        self._run = run

    def _read(self, cur: Any, key: str, lock: bool = False) -> ChatSettings:
        cur.execute(
            "SELECT settings FROM chat_settings WHERE scope_id = %s" + (" FOR UPDATE" if lock else ""), (key,)
        )
        row = cur.fetchone()
        if row is None:
            return ChatSettings()
        try:
            data = json.loads(row[0])
        except ValueError:
            return ChatSettings()
        return _lenient(key, data)

    def _write(self, cur: Any, key: str, settings: ChatSettings) -> None:
        if settings.is_default:
            cur.execute("DELETE FROM chat_settings WHERE scope_id = %s", (key,))
        else:
            cur.execute(
                "INSERT INTO chat_settings (scope_id, settings, updated_at) VALUES (%s, %s, %s) "
                "ON CONFLICT (scope_id) DO UPDATE SET settings = excluded.settings, "
                "updated_at = excluded.updated_at",
                (key, settings.model_dump_json(exclude_defaults=True), time.time()),
            )
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, key))

    def get(self, scope_id: ScopeId) -> ChatSettings:
        key = scope_key(scope_id)
        return self._run(lambda cur: self._read(cur, key))

    def set(self, scope_id: ScopeId, settings: ChatSettings) -> None:
        key = scope_key(scope_id)
        self._run(lambda cur: self._write(cur, key, settings))

    def update(self, scope_id: ScopeId, **fields: Any) -> ChatSettings:
        key = scope_key(scope_id)

        def change(cur: Any) -> ChatSettings:
            cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (key,))  # a first write too
            current = self._read(cur, key, lock=True)
            new = ChatSettings.model_validate({**current.model_dump(), **fields})
            self._write(cur, key, new)
            return new

        return self._run(change)

    def delete(self, scope_id: ScopeId) -> None:
        key = scope_key(scope_id)
        self._run(lambda cur: self._write(cur, key, ChatSettings()))

    def migrate(self, old_scope_id: ScopeId, new_scope_id: ScopeId) -> bool:
        old, new = scope_key(old_scope_id), scope_key(new_scope_id)
        if old == new:
            return False

        def move(cur: Any) -> bool:
            cur.execute(
                "INSERT INTO chat_settings (scope_id, settings, updated_at) SELECT %s, settings, "
                "updated_at FROM chat_settings WHERE scope_id = %s ON CONFLICT DO NOTHING",
                (new, old),
            )
            cur.execute("DELETE FROM chat_settings WHERE scope_id = %s", (old,))
            moved = cur.rowcount > 0
            for key in (old, new):
                cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, key))
            return moved

        return self._run(move)

    def close(self) -> None:
        """The connections belong to the store (:class:`bot.store.postgres.PgStore`)."""
