"""Follow-up memory shared by replicas: a :class:`bot.core.ttl.TTLCache` backed by the store's
context table (:meth:`bot.store.base.Store.put_context`), so that a follow-up asked on one replica is
understood by another (issue 29).

The local cache stays first: a hit costs what it costs today. A miss reads the store (one indexed
lookup, ~0.3 ms on loopback PostgreSQL); a write goes to the local cache at once and to the store on
one background thread, in order (the store's expiry is the cache's time to live). Values are stored as
JSON, never pickled: a database row can never run code in the bot. A failing store is logged (once a
minute) and skipped for :data:`COOL_DOWN_S`: answers go on from the local cache, as with one process;
a miss in the cool-down asks the store at most once per :data:`PROBE_EVERY_S` (to notice it is back).
A write that failed or fell in the cool-down is kept (the newest per key) and sent again when the
cool-down ends, never dropped: a reply another replica takes later still finds its turn.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, TypeVar

from bot.core.ttl import TTLCache

log = logging.getLogger(__name__)

K = TypeVar("K")
V = TypeVar("V")

COOL_DOWN_S = 5.0
"""After a failed store call, the store is skipped for this long (seconds)."""

PROBE_EVERY_S = 5.0
"""In the cool-down, a miss asks the store at most once per this many seconds (a half-open circuit
breaker's probe), so that a store that is down costs its connection timeout once per window, not on
every miss (design review s10, item 3)."""


class SharedTTLCache(TTLCache[K, V], Generic[K, V]):
    """A TTLCache whose entries are also kept in ``store`` under ``prefix + name(key)``.

    ``encode(value) -> dict`` and ``decode(dict) -> value`` turn values into JSON and back."""

    def __init__(
        self,
        ttl: float,
        max_entries: int,
        clock: Callable[[], float],
        *,
        store: Any,
        prefix: str,
        name: Callable[[K], str],
        encode: Callable[[V], dict[str, Any]],
        decode: Callable[[dict[str, Any]], V],
    ) -> None:
        super().__init__(ttl, max_entries, clock)
        self.store, self.prefix, self._name = store, prefix, name
        self._encode, self._decode = encode, decode
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="shared-context")
        self._down_until = 0.0
        self._warned_at = -60.0
        self._pending: dict[str, str | None] = {}
        """writes not in the store yet, name → JSON (None: a drop); writer thread only"""
        self._retry: threading.Timer | None = None
        self._probe = threading.Lock()
        """held by the one read that asks the store in the cool-down (:meth:`get`)"""
        self._next_probe = 0.0
        """monotonic time before which no miss in the cool-down asks the store (:data:`PROBE_EVERY_S`)"""

    def _failed(self, err: BaseException) -> None:
        now = time.monotonic()
        self._down_until = now + COOL_DOWN_S
        if now - self._warned_at >= 60:
            self._warned_at = now
            log.warning("shared follow-up memory unavailable (%s): using this replica's own", err)

    def get(self, key: K) -> V | None:
        """The local value; on a miss, the store's. In the cool-down a miss asks the store at most once
        per :data:`PROBE_EVERY_S`, one read at a time (a half-open circuit breaker's probe): a row
        another replica wrote is found once the store answers again — a miss taken for "nothing stored"
        would answer a follow-up as a new question. A probe that succeeds ends the cool-down and sends
        the writes kept in it; one that fails starts it again; any other miss in the cool-down (another
        probe running, or one asked less than PROBE_EVERY_S ago) returns None without waiting."""
        value = super().get(key)
        if value is not None:
            return value
        probing = time.monotonic() < self._down_until
        if probing and not self._take_probe():
            return None
        try:
            raw = self.store.get_context(self.prefix + self._name(key))
            value = None if raw is None else self._decode(json.loads(raw))
        except Exception as err:  # a store error or a row this version cannot read
            self._failed(err)
            return None
        finally:
            if probing:
                self._probe.release()
        if probing:  # the store answered: no more cool-down, and what it kept goes now
            self._down_until = 0.0
            self._again()
        if value is not None:
            super().put(key, value)
        return value

    def _take_probe(self) -> bool:
        """Whether this miss is the cool-down's probe; if True, the probe lock is held (the caller
        releases it) and the next probe is due :data:`PROBE_EVERY_S` seconds from now."""
        if not self._probe.acquire(blocking=False):
            return False
        now = time.monotonic()
        if now < self._next_probe:
            self._probe.release()
            return False
        self._next_probe = now + PROBE_EVERY_S
        return True

    def put(self, key: K, value: V) -> None:
        super().put(key, value)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            raw = json.dumps(self._encode(value), ensure_ascii=False)
        self._writer.submit(self._write, self.prefix + self._name(key), raw)

    def _write(self, name: str, raw: str | None) -> None:
        """Write ``raw`` (None: drop the row) on the writer thread; kept for later when it fails."""
        self._pending.pop(name, None)  # this write supersedes one kept earlier
        if time.monotonic() < self._down_until:
            self._keep(name, raw)
            return
        try:
            if raw is None:
                self.store.drop_context(name)
            else:
                self.store.put_context(name, raw, self.ttl)
        except Exception as err:
            self._failed(err)
            self._keep(name, raw)

    def _keep(self, name: str, raw: str | None) -> None:
        self._pending[name] = raw
        while len(self._pending) > self.max_entries:  # a long outage: the oldest go first
            del self._pending[next(iter(self._pending))]
        if self._retry is None:
            self._retry = threading.Timer(max(0.0, self._down_until - time.monotonic()), self._again)
            self._retry.daemon = True
            self._retry.start()

    def _again(self) -> None:
        with contextlib.suppress(RuntimeError):  # the interpreter is shutting down
            self._writer.submit(self._resend)

    def _resend(self) -> None:
        self._retry = None
        pending, self._pending = self._pending, {}
        for name, raw in pending.items():
            self._write(name, raw)

    def pop(self, key: K) -> None:
        super().pop(key)
        self._writer.submit(self._write, self.prefix + self._name(key), None)

    def flush(self) -> None:
        """Wait until every write so far reached the store (tests, shutdown)."""
        self._writer.submit(lambda: None).result()
