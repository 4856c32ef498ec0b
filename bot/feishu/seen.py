"""Dedupe by event and message id, persisted in the settings SQLite so a restart does not answer a
re-push again (Feishu re-pushes unacknowledged events at ~15 s, 5 min, 1 h and 6 h; issue 27).

The store itself is shared with WeCom since issue 28: :class:`bot.chat.seen.SqliteSeen`, here in
table ``feishu_seen`` (the table Feishu deployments already have). Keys live
:data:`bot.feishu.client.DEDUPE_TTL_S` (8 h, wall clock: the store outlives the process).
"""

from __future__ import annotations

from bot.chat.seen import SqliteSeen
from bot.feishu.client import DEDUPE_TTL_S

__all__ = ["SqliteSeen", "StoreSeen"]


class StoreSeen:
    """:class:`bot.feishu.client.Seen` in a shared store (:meth:`bot.store.base.Store.seen`, keys
    ``feishu:<key>``; ``prefix=""`` where the keys carry their platform, as WeCom's and DingTalk's do):
    replicas on one database answer an event once, whichever receives it.
    A store error counts the key as new (answering twice beats not answering)."""

    def __init__(self, store: object, ttl: float = DEDUPE_TTL_S, prefix: str = "feishu:") -> None:
        self.store, self.ttl, self.prefix = store, ttl, prefix

    def seen(self, key: str) -> bool:
        try:
            return bool(self.store.seen(f"{self.prefix}{key}", self.ttl))  # type: ignore[attr-defined]
        except OSError:
            return False

    def close(self) -> None:
        """The store belongs to the caller."""
