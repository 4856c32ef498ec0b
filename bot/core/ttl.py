"""A bounded map whose entries expire: the conversation's memory of requests and turns."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class TTLCache(Generic[K, V]):
    """LRU map whose entries expire after ``ttl`` seconds without access; at most ``max_entries``
    (least recently used dropped first). ``clock``: monotonic seconds. Not thread-safe by itself."""

    def __init__(self, ttl: float, max_entries: int, clock: Callable[[], float]) -> None:
        self.ttl = ttl
        self.max_entries = max(1, int(max_entries))
        self._clock = clock
        self._d: OrderedDict[K, tuple[V, float]] = OrderedDict()

    def _purge(self, now: float) -> None:
        while self._d:
            key, (_, at) = next(iter(self._d.items()))
            if now - at <= self.ttl:
                break
            del self._d[key]

    def get(self, key: K) -> V | None:
        now = self._clock()
        item = self._d.get(key)
        if item is None:
            return None
        if now - item[1] > self.ttl:
            del self._d[key]
            return None
        self._d[key] = (item[0], now)
        self._d.move_to_end(key)
        return item[0]

    def put(self, key: K, value: V) -> None:
        now = self._clock()
        self._purge(now)
        self._d[key] = (value, now)
        self._d.move_to_end(key)
        while len(self._d) > self.max_entries:
            self._d.popitem(last=False)

    def pop(self, key: K) -> None:
        self._d.pop(key, None)

    def __contains__(self, key: object) -> bool:
        return key in self._d

    def __len__(self) -> int:
        self._purge(self._clock())
        return len(self._d)
