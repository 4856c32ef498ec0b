"""Updates of one chat in order, different chats at the same time.

python-telegram-bot handles updates one after another by default, so one slow call -- a send that
is being retried with backoff (:mod:`bot.telegram.transport`), a locked database, a slow Telegram --
made every other chat wait (the probes measured 10.1 s for an unrelated question). Handling all
updates concurrently would answer a user's follow-up ("那H100呢") before the question it follows.
:class:`ChatOrderedProcessor` keeps one FIFO lock per chat (inline queries: per user), so a chat's
updates run in the order Telegram sent them while up to ``workers`` chats are served at once.

A handler that has to wait (a question booked for a later slot by flood control) calls
:func:`wait_outside_slot`: it keeps its chat's place in line but gives its worker to other chats.

When an update has been handled (its handlers and the error handler have returned), ``on_done`` is
called with it: the update journal marks it (:mod:`bot.telegram.journal`).

A send outage does not lose answers (issue 30 item 5). When an answer could not be sent at all (the
transport's retries gave up on a transient fault), the error handler calls :meth:`defer`: the update
is *not* marked handled -- it stays in the journal, replayed after a restart -- and is handled again
after :data:`REDELIVER_DELAYS_S` (2 s, then longer) until it goes out or :data:`MAX_LATE_S` has
passed since its first failure. A reply made on such a second try says it is late (:func:`is_late`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from telegram import Update
from telegram.ext import BaseUpdateProcessor

T = TypeVar("T")

WORKERS = 8
"""Updates handled at the same time (of different chats). Enough for a few slow chats (a send retried
with backoff, a locked database) not to hold up the rest; more costs throughput, since the pipeline
is CPU-bound (~1.5 ms) on the one event loop: ``bench/throughput.py`` measured 279-296 updates/s with
1 worker, 294-296 with 4, 272-287 with 8, 239-253 with 16, 204-214 with 32, 169-192 with 64. Also
bounds the duplicates after a kill -9 (:mod:`bot.telegram.journal`)."""
BACKLOG = 100_000
"""Updates admitted by python-telegram-bot's processor semaphore (waiting for their chat included)."""


MAX_LATE_S = 3600.0
"""An answer that could not be sent is tried again for at most this long (1 h); later it is dropped."""
REDELIVER_DELAYS_S = (2.0, 4.0, 8.0, 15.0, 30.0, 60.0)
"""Seconds before the 1st, 2nd, … new try of an undelivered answer (the last one repeats)."""

_LATE: ContextVar[bool] = ContextVar("sizing_bot_late", default=False)
"""True while an update whose answer could not be sent earlier is handled again."""


def is_late() -> bool:
    """Whether the update being handled is a new try after a send outage (its reply says so)."""
    return _LATE.get()


_SLOT: ContextVar[asyncio.Semaphore | None] = ContextVar("sizing_bot_worker_slot", default=None)
"""The worker slot the running update holds (set by :class:`ChatOrderedProcessor`)."""


async def wait_outside_slot(
    seconds: float, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
) -> None:
    """Wait ``seconds`` without holding a worker: other chats are served meanwhile, while this chat's
    later updates still wait behind this one (its order is kept)."""
    slots = _SLOT.get()
    if slots is None:
        await sleep(seconds)
        return
    slots.release()
    try:
        await sleep(seconds)
    finally:
        # shielded: a cancellation here must not leave the processor's release unbalanced
        await asyncio.shield(slots.acquire())


async def run_outside_slot(awaitable: Awaitable[T]) -> T:
    """Await ``awaitable`` (a job queued in the bounded work pool, :mod:`bot.quote.pool`) without
    holding a worker: while a quote waits for its turn, other chats' questions are answered."""
    slots = _SLOT.get()
    if slots is None:
        return await awaitable
    slots.release()
    try:
        return await awaitable
    finally:
        await asyncio.shield(slots.acquire())


def chat_key(update: object) -> int | None:
    """The chat an update belongs to (the user, for inline queries); None: no ordering needed."""
    if not isinstance(update, Update):
        return None
    chat = update.effective_chat
    if chat is not None:
        return chat.id
    user = update.effective_user
    return user.id if user is not None else None


class ChatOrderedProcessor(BaseUpdateProcessor):
    """Per-chat FIFO, ``workers`` chats concurrently; ``on_done(update)`` after each handled update."""

    def __init__(
        self,
        workers: int = WORKERS,
        *,
        on_done: Callable[[Any], None] | None = None,
        backlog: int = BACKLOG,
    ) -> None:
        super().__init__(backlog)
        self.workers = workers
        self.on_done = on_done
        self._slots: asyncio.Semaphore | None = None
        self._chains: dict[int, asyncio.Lock] = {}
        self._waiting: dict[int, int] = {}
        self.handle: Callable[[], Callable[[Any], Awaitable[Any]] | None] | None = None
        """How an update is handled again: a weak reference to the Application's ``process_update``
        (set when built; weak, so that no cycle keeps the Application and its threads alive)."""
        self._deferred: set[int] = set()
        self._failed_at: dict[int, tuple[float, int]] = {}  # update id → (first failure, tries)
        self._retries: set[asyncio.Task[None]] = set()
        self.clock: Callable[[], float] = time.monotonic

    def defer(self, update: object) -> bool:
        """The update's answer could not be sent: handle it again later (True), or False when it is
        past :data:`MAX_LATE_S` (or cannot be retried) and is given up."""
        if self.handle is None or not isinstance(update, Update):
            return False
        first, tries = self._failed_at.get(update.update_id, (self.clock(), 0))
        if self.clock() - first > MAX_LATE_S:
            self._failed_at.pop(update.update_id, None)
            return False
        self._failed_at[update.update_id] = (first, tries + 1)
        self._deferred.add(update.update_id)
        return True

    def _retry_later(self, update: Update) -> None:
        _first, tries = self._failed_at[update.update_id]
        delay = REDELIVER_DELAYS_S[min(tries, len(REDELIVER_DELAYS_S)) - 1]

        async def again() -> None:
            await asyncio.sleep(delay)
            handle = self.handle() if self.handle is not None else None
            if handle is not None:
                await self.process_update(update, handle(update))

        task = asyncio.get_running_loop().create_task(again(), name=f"redeliver-{update.update_id}")
        self._retries.add(task)
        task.add_done_callback(self._retries.discard)

    async def initialize(self) -> None:
        self._slots = asyncio.Semaphore(self.workers)

    async def shutdown(self) -> None:
        retries = list(self._retries)
        for task in retries:  # still undelivered: left unmarked in the journal, replayed at start
            task.cancel()
        await asyncio.gather(*retries, return_exceptions=True)
        self._chains.clear()
        self._waiting.clear()

    async def _run(self, coroutine: Awaitable[Any], late: bool = False) -> None:
        token, late_token = _SLOT.set(self._slots), _LATE.set(late)
        try:
            await coroutine
        finally:
            _SLOT.reset(token)
            _LATE.reset(late_token)

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        key = chat_key(update)
        late = isinstance(update, Update) and update.update_id in self._failed_at
        started = False
        try:
            if key is None:
                async with self._slots:
                    started = True
                    await self._run(coroutine, late)
            else:
                lock = self._chains.setdefault(key, asyncio.Lock())
                self._waiting[key] = self._waiting.get(key, 0) + 1
                try:
                    async with lock, self._slots:
                        started = True
                        await self._run(coroutine, late)
                finally:  # shutdown() may have cleared both maps while this one waited (a flood at stop)
                    left = self._waiting.get(key, 1) - 1
                    if left > 0:
                        self._waiting[key] = left
                    else:
                        self._waiting.pop(key, None)
                        self._chains.pop(key, None)
        finally:
            if not started:
                close = getattr(coroutine, "close", None)
                if close is not None:
                    close()  # cancelled while waiting: never started, never awaited
        if isinstance(update, Update) and update.update_id in self._deferred:
            self._deferred.discard(update.update_id)
            self._retry_later(update)  # not marked: it stays in the journal until it is sent
            return
        if isinstance(update, Update):
            self._failed_at.pop(update.update_id, None)
        if self.on_done is not None:
            self.on_done(update)
