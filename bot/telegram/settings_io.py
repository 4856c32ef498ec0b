"""Chat settings for the Telegram adapter: SQLite never on the event loop, a locked database never
anyone else's problem.

Every SQLite call of :class:`bot.settings.store.SettingsStore` runs on this module's worker threads.
Before an update's handlers run, :func:`preload` (a group -1 handler) reads its chat's settings into a
small cache; the handlers, the Conversation and :func:`bot.telegram.common.chat_lang` then read the
cache synchronously (:meth:`ChatSettingsIO.get`). Writes go through :meth:`ChatSettingsIO.update`,
which updates the cache with what was committed.

A locked or failing database (another process holding the write lock, disk errors): the store's
short busy timeout (:data:`bot.settings.store.BUSY_TIMEOUT_S`) makes the call fail within about a
second; a read then falls back to the cached or default settings (answers go on), a write raises
:class:`SettingsUnavailable` and that press or command gets "settings temporarily unavailable". Other
chats are not held up: the wait happens on a worker thread, and chats are handled concurrently
(:mod:`bot.telegram.processor`). After a failure, reads or writes (whichever failed) fail at once
for :data:`COOL_DOWN_S` instead of each waiting out the busy timeout: a burst of presses during a
long lock would otherwise keep every worker waiting on the database.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from telegram import Update

from bot.chat.ids import scope_key
from bot.settings.chat import ChatSettings
from bot.settings.store import SettingsStore

logger = logging.getLogger("bot.telegram.settings")

CACHE_TTL_S = 60.0
"""A cached chat's settings are read again after this long (another process may have changed them)."""
CACHE_ENTRIES = 10_000
"""Chats kept in the cache (least recently used dropped first)."""
READ_THREADS = 2
"""Worker threads for SQLite reads (writes have one thread of their own)."""
COOL_DOWN_S = 5.0
"""After a failed read (write), reads (writes) fail at once for this long, then are tried again."""


class SettingsUnavailable(Exception):
    """The settings database could not be read or written just now (locked, failing)."""


class ChatSettingsIO:
    """Async access to a :class:`SettingsStore` (None: no store, defaults everywhere) with a cache.

    ``get`` has the store's synchronous signature, so the Conversation can use this object as its
    ``settings_store``.
    """

    def __init__(self, store: SettingsStore | None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self._clock = clock
        self._cache: OrderedDict[str, tuple[ChatSettings, float]] = OrderedDict()
        self._executors: dict[str, ThreadPoolExecutor] = {}
        self._down_until = {"read": 0.0, "write": 0.0}

    # -- synchronous: the cache only, never SQLite

    def get(self, scope_id: str | int) -> ChatSettings:
        """The chat's settings as last read or written (defaults when never loaded)."""
        entry = self._cache.get(scope_key(scope_id))
        return entry[0] if entry else ChatSettings()

    def forget(self, scope_id: str) -> None:
        """Drop a chat from the cache (another replica changed its settings); ``"*"``: every chat."""
        if scope_id == "*":
            self._cache.clear()
        else:
            self._cache.pop(scope_id, None)

    def _remember(self, scope_id: str, settings: ChatSettings) -> ChatSettings:
        self._cache[scope_id] = (settings, self._clock())
        self._cache.move_to_end(scope_id)
        while len(self._cache) > CACHE_ENTRIES:
            self._cache.popitem(last=False)
        return settings

    # -- asynchronous: SQLite on a worker thread

    async def _call(self, kind: str, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on the ``kind`` ('read' / 'write') worker thread. Reads and writes have their
        own threads: a read never queues behind a write waiting for a lock. The cool-down is checked
        again on the thread, so writes queued behind a failed one fail at once too."""
        executor = self._executors.get(kind)
        if executor is None:
            threads = READ_THREADS if kind == "read" else 1  # SQLite runs one write at a time anyway
            executor = self._executors[kind] = ThreadPoolExecutor(threads, thread_name_prefix="settings-db")

        def job() -> Any:
            if self._clock() < self._down_until[kind]:
                raise SettingsUnavailable(f"the database failed a {kind} less than {COOL_DOWN_S:g} s ago")
            try:
                return fn(*args)
            except (sqlite3.Error, OSError) as err:
                self._down_until[kind] = self._clock() + COOL_DOWN_S
                raise SettingsUnavailable(f"{type(err).__name__}: {err}") from err

        if self._clock() < self._down_until[kind]:
            return job()  # fails at once, without a thread hop
        return await asyncio.get_running_loop().run_in_executor(executor, job)

    async def load(self, scope_id: str | int) -> ChatSettings:
        """The chat's settings, read from the database unless cached recently; on a database error the
        cached (or default) settings, logged as one line."""
        scope_id = scope_key(scope_id)
        entry = self._cache.get(scope_id)
        if self.store is None or (entry is not None and self._clock() - entry[1] < CACHE_TTL_S):
            return entry[0] if entry else ChatSettings()
        try:
            return self._remember(scope_id, await self._call("read", self.store.get, scope_id))
        except SettingsUnavailable as err:
            logger.warning(
                "settings of chat %s unavailable (%s); answering with %s",
                scope_id,
                err,
                "the last known" if entry else "default settings",
            )
            return entry[0] if entry else ChatSettings()

    async def read(self, scope_id: str | int) -> ChatSettings:
        """A fresh read (for /settings). Raises :class:`SettingsUnavailable`."""
        scope_id = scope_key(scope_id)
        if self.store is None:
            raise SettingsUnavailable("no settings store")
        return self._remember(scope_id, await self._call("read", self.store.get, scope_id))

    async def update(self, scope_id: str | int, **fields: Any) -> ChatSettings:
        """Change some fields. Raises :class:`SettingsUnavailable`, or pydantic's ``ValidationError``
        for a value out of bounds (nothing written then)."""
        scope_id = scope_key(scope_id)
        if self.store is None:
            raise SettingsUnavailable("no settings store")
        change = functools.partial(self.store.update, scope_id, **fields)
        return self._remember(scope_id, await self._call("write", change))

    async def migrate(self, old: str | int, new: str | int) -> bool:
        """Group → supergroup: the settings move to the new id. Raises :class:`SettingsUnavailable`."""
        if self.store is None:
            return False
        old, new = scope_key(old), scope_key(new)
        moved = await self._call("write", self.store.migrate, old, new)
        self._cache.pop(old, None)
        self._cache.pop(new, None)
        return bool(moved)

    async def close(self) -> None:
        """Stop the worker threads and close the store."""
        executors, self._executors = list(self._executors.values()), {}
        for executor in executors:
            await asyncio.get_running_loop().run_in_executor(None, executor.shutdown)
        if self.store is not None:
            self.store.close()


async def preload(update: Update, context: Any) -> None:
    """Group -1 handler: load the settings of the update's chat (inline queries: the user's private
    chat) before any other handler reads them."""
    chat, user = update.effective_chat, update.effective_user
    scope = chat.id if chat is not None else (user.id if user is not None else None)
    if scope is not None:
        await context.bot_data.settings_io.load(scope)
