"""The store interface: what the bot keeps outside its process, and what two replicas share.

Two implementations: :class:`bot.store.sqlite.SqliteStore` (the default: one file beside the
process, today's settings file) and :class:`bot.store.postgres.PgStore` (``SIZING_BOT_DATABASE_URL=
postgresql://…``: several ``sizing-bot run`` processes on one database). One contract test suite
(``tests/test_store_contract.py``) runs against both.

What it holds:

* **chat settings** (``store.settings``: the :class:`bot.settings.store.SettingsStore` API), with a
  change feed (:meth:`Store.watch`) so a replica's settings cache drops a chat another one changed;
* **follow-up context** (:meth:`Store.put_context` / :meth:`Store.get_context`): the last request per
  chat and per sent answer, each with an expiry (seconds, wall clock);
* **claims** (:meth:`Store.claim` / :meth:`Store.finish` / :meth:`Store.reclaim`): the inbound journal.
  A replica claims an update by inserting its key (insert … on conflict do nothing: exactly one
  claimant), marks it finished once handled, and claimed-but-unfinished work is taken over after a
  lease (the claimant died); a claimant still working on a claim renews its lease (:meth:`Store.renew`);
* **dedupe keys** (:meth:`Store.seen`): a platform's redelivered event ids, with a time to live;
* **leader locks** (:meth:`Store.lead`): one holder per name (``telegram:<bot id>``), released when
  the holder's process (or, with PostgreSQL, its connection) ends.

Every method blocks: callers on an event loop run them on a worker thread. Errors of the database
are raised as :class:`StoreUnavailable` (an ``OSError``, which the callers already degrade on).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

SCHEMA_VERSION = 2
"""Version 1: today's SQLite file (``chat_settings``, ``feishu_seen``), without a version table.
Version 2: adds ``schema_version``, ``context``, ``claims``, ``dedupe`` and ``meta``."""

MAX_ATTEMPTS = 3
"""A claim taken over this many times without finishing is given up (it may be what kills replicas)."""


class StoreUnavailable(OSError):
    """The database could not be reached or answered with an error just now."""


class Lease(Protocol):
    """A held leader lock."""

    def held(self) -> bool:
        """True while the lock is still ours (PostgreSQL: its connection is alive)."""
        ...

    def release(self) -> None: ...


class Store(Protocol):
    """See the module docstring. Keys are opaque strings; times are seconds (wall clock)."""

    kind: str
    """``sqlite`` or ``postgresql``"""
    settings: Any
    """chat settings: the :class:`bot.settings.store.SettingsStore` API"""

    def put_context(self, key: str, value: str, ttl_s: float) -> None: ...

    def get_context(self, key: str) -> str | None: ...

    def drop_context(self, key: str) -> None: ...

    def claim(self, stream: str, key: str, body: str, owner: str) -> bool: ...

    def claim_many(self, stream: str, items: list[tuple[str, str]], owner: str) -> None:
        """:meth:`claim` every ``(key, body)`` of ``items`` (in order; keys already claimed are left
        as they are) in one statement: a journal batch costs one round trip, not one per update."""
        ...

    def finish(self, stream: str, keys: list[str]) -> None: ...

    def renew(self, stream: str, keys: list[str], owner: str) -> None:
        """Restart the lease of ``owner``'s unfinished claims ``keys`` (still being worked on)."""
        ...

    def reclaim(self, stream: str, owner: str, lease_s: float) -> list[tuple[str, str]]: ...

    def known(self, stream: str, limit: int) -> list[str]: ...

    def prune(self, stream: str, keep: int, older_than: float) -> None: ...

    def seen(self, key: str, ttl_s: float) -> bool: ...

    def lead(self, name: str) -> Lease | None: ...

    def watch(self, callback: Callable[[str], None]) -> None: ...

    def schema_version(self) -> int: ...

    def close(self) -> None: ...


def lock_name(name: str) -> str:
    """A leader lock's name made safe for a file name (``telegram:123`` → ``telegram-123``)."""
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in name)
