"""Dedupe by event and message id, persisted in the settings SQLite so a restart does not answer a
re-push again (Feishu re-pushes unacknowledged events at ~15 s, 5 min, 1 h and 6 h; issue 27).

The store itself is shared with WeCom since issue 28: :class:`bot.chat.seen.SqliteSeen`, here in
table ``feishu_seen`` (the table Feishu deployments already have). Keys live
:data:`bot.feishu.client.DEDUPE_TTL_S` (8 h, wall clock: the store outlives the process).
"""

from __future__ import annotations

from bot.chat.seen import SqliteSeen

__all__ = ["SqliteSeen"]
