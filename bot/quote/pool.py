"""Heavy work (PDF quotes, chart images) off the event loop, bounded.

A quote takes ~0.1-0.2 s of CPU and tens of MiB while it is made; a chart about as much. Run on
asyncio's default executor (up to cpu+4 threads, an unbounded queue), 20 users asking for 100 quotes
each in a minute grew the bot from 109 to 722 MiB and made unrelated questions wait 7-9 s (issue 30).
:class:`WorkPool` bounds it:

* **workers** -- at most ``workers`` jobs run at once (default: half the cores, at least one, so the
  event loop keeps a core for questions);
* **queue** -- at most ``max_waiting`` jobs wait for a worker; past that a job is refused at once
  (:class:`Busy`) and the caller tells the user to try again, instead of a growing backlog;
* **per user** -- at most ``per_user`` jobs of one user are running or waiting, and at most
  ``per_minute`` started in any 60 s; more are refused (a private chat's updates are handled in
  order, so its 100 /quote would otherwise make 100 PDFs one after another);
* **memory** -- when the pool falls idle, a garbage collection and glibc's ``malloc_trim(0)`` hand
  the freed arenas back to the system, so resident memory returns after a flood.
"""

from __future__ import annotations

import asyncio
import collections
import ctypes
import ctypes.util
import gc
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

logger = logging.getLogger("bot.quote.pool")

T = TypeVar("T")

PER_USER = 2
"""Quotes and charts of one user running or waiting at once."""
MAX_WAITING = 8
"""Jobs waiting for a worker (all users) before new ones are refused."""
PER_MINUTE = 6
"""Quotes and charts one user may start in any 60 s."""
WINDOW_S = 60.0
NOTICE_EVERY_S = 10.0
"""A refused user is told to wait at most once per this many seconds (the rest are dropped quietly)."""


def default_workers() -> int:
    """Half the cores, at least one: the other half stays with the event loop."""
    return max(1, (os.cpu_count() or 2) // 2)


class Busy(Exception):
    """The job was refused: its user already has ``per_user`` jobs, or the queue is full."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _trimmer() -> Callable[[], Any] | None:
    """glibc's ``malloc_trim`` (None elsewhere)."""
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        return getattr(ctypes.CDLL(name), "malloc_trim", None)
    except OSError:
        return None


_MALLOC_TRIM = _trimmer()


def release_memory() -> None:
    """Collect garbage and return free heap pages to the system (glibc only)."""
    gc.collect()
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


class WorkPool:
    """A bounded thread pool for CPU-heavy jobs, with per-user and global limits (see module doc)."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        max_waiting: int = MAX_WAITING,
        per_user: int = PER_USER,
        per_minute: int = PER_MINUTE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.workers = workers or default_workers()
        self.max_waiting = max_waiting
        self.per_user = per_user
        self.per_minute = per_minute
        self.clock = clock
        self._recent: dict[object, collections.deque[float]] = {}
        self._noticed: dict[object, float] = {}
        self._executor: ThreadPoolExecutor | None = None
        self._running = 0
        self._waiting = 0
        self._by_user: dict[object, int] = {}
        self._slots: asyncio.Semaphore | None = None
        self.refused = 0
        self.done = 0

    @property
    def busy(self) -> int:
        """Jobs running or waiting."""
        return self._running + self._waiting

    def notice_due(self, user: object) -> bool:
        """Whether to tell a refused ``user`` to wait (once per :data:`NOTICE_EVERY_S`)."""
        now = self.clock()
        if now - self._noticed.get(user, -NOTICE_EVERY_S) < NOTICE_EVERY_S:
            return False
        if len(self._noticed) > 10_000:
            self._noticed = {u: t for u, t in self._noticed.items() if now - t < NOTICE_EVERY_S}
        self._noticed[user] = now
        return True

    def _within_rate(self, user: object) -> bool:
        now = self.clock()
        recent = self._recent.setdefault(user, collections.deque())
        while recent and now - recent[0] >= WINDOW_S:
            recent.popleft()
        if len(self._recent) > 10_000:  # forget users with nothing in the window
            self._recent = {u: q for u, q in self._recent.items() if q and now - q[-1] < WINDOW_S}
            self._recent[user] = recent
        if len(recent) >= self.per_minute:
            return False
        recent.append(now)
        return True

    def _admit(self, user: object) -> None:
        if self._by_user.get(user, 0) >= self.per_user:
            self.refused += 1
            raise Busy(f"user {user} has {self.per_user} jobs in progress")
        if self._running >= self.workers and self._waiting >= self.max_waiting:
            self.refused += 1
            raise Busy(f"{self._waiting} jobs waiting")
        if not self._within_rate(user):
            self.refused += 1
            raise Busy(f"user {user} started {self.per_minute} jobs in {WINDOW_S:g} s")
        self._by_user[user] = self._by_user.get(user, 0) + 1

    async def run(self, user: object, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on a worker thread for ``user``; raises :class:`Busy` at once when refused."""
        self._admit(user)
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="heavy-work")
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        self._waiting += 1
        waiting = True
        try:
            async with self._slots:
                self._waiting -= 1
                waiting = False
                self._running += 1
                try:
                    loop = asyncio.get_running_loop()
                    return await loop.run_in_executor(self._executor, fn, *args)
                finally:
                    self._running -= 1
                    self.done += 1
        finally:
            if waiting:  # cancelled while waiting for a worker
                self._waiting -= 1
            left = self._by_user[user] - 1
            if left:
                self._by_user[user] = left
            else:
                del self._by_user[user]
            if not self.busy and self._executor is not None:
                self._executor.submit(release_memory)

    def shutdown(self) -> None:
        """Stop the threads (after the running jobs)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
