"""Flood control for answers: sliding-window limits per user and per chat. Pure; injectable clock.

A :class:`Rate` says "at most ``events`` answers in any ``window_s`` seconds" (written ``6/30s``).
A :class:`SlidingWindow` enforces one rate per key (a user id, a chat id) by remembering the times
of the last ``events`` admitted events of each key: exact, and at most ``events`` floats per key.

:class:`FloodGate` combines the user and the chat limit for one answer and says what to do:

* ``Verdict.ALLOW``  — answer (the event counts against both the user and the chat);
* ``Verdict.NOTICE`` — refused, and this is the first refusal since the window last freed up:
  send one short "too many requests" line;
* ``Verdict.SILENT`` — refused, the notice was already sent: say nothing.

A refused event does not count (it costs nothing, so repeating it does not extend the wait).
The notice is owed per limit that refused: a chat over its limit gets one notice, whoever writes.

A typed question is never refused outright: :meth:`FloodGate.reserve` books the next free slot
(now, or when the window frees up: it counts from then) and says how long to wait, so the answer
comes late instead of never; only a slot more than one window away, or an answer that would come
more than two windows after its message was sent, is refused, and then the user is told once
(:meth:`FloodGate.notice_due`) when to send it again (:meth:`FloodGate.retry_after`). Booked slots
of one key are kept in time order: a later message is never answered before an earlier one.

Memory stays bounded: a key is dropped once its window holds no events and its notice has expired
(checked from the least recently used end on every call, amortised O(1)), and ``max_keys`` caps the
number of keys outright (the least recently used dropped first — lenient, never unbounded).
"""

from __future__ import annotations

import asyncio
import bisect
import math
import re
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from enum import Enum

DEFAULT_MAX_KEYS = 100_000
"""Keys (users or chats) remembered at once per window; ~200 bytes each at the default rates."""

_RATE_RE = re.compile(
    r"^\s*(\d+)\s*(?:/|per)\s*(\d+(?:\.\d+)?)?\s*(s|sec|secs|seconds?|m|min|minutes?)?\s*$", re.IGNORECASE
)
_OFF = {"off", "none", "0", "unlimited", "no"}


@dataclass(frozen=True, slots=True)
class Rate:
    """At most ``events`` events in any ``window_s`` seconds."""

    events: int
    window_s: float

    def __post_init__(self) -> None:
        if self.events < 1 or not self.window_s > 0:
            raise ValueError(
                f"a rate needs at least 1 event in a positive window, got {self.events}/{self.window_s}"
            )

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``"6/30s"``, ``"6/30"``, ``"20 per 1m"``, ``"5/s"`` → a Rate; ``"off"`` / ``"0"`` → None (no
        limit). Raises ValueError on anything else."""
        cleaned = text.strip().lower()
        if cleaned in _OFF:
            return None
        match = _RATE_RE.match(cleaned)
        if match is None:
            raise ValueError(f"rate {text!r}: write events/seconds, e.g. 6/30s, 20/1m or off")
        if match[2] is None and match[3] is None:
            raise ValueError(f"rate {text!r}: say the window, e.g. 6/30s")
        events, amount, unit = int(match[1]), float(match[2] or 1), (match[3] or "s")
        if events == 0:
            return None
        return cls(events, amount * (60 if unit.startswith("m") else 1))

    def __str__(self) -> str:
        return f"{self.events}/{self.window_s:g}s"


class Verdict(Enum):
    ALLOW = "allow"
    NOTICE = "notice"
    SILENT = "silent"


class _KeyState:
    __slots__ = ("events", "noticed_until")

    def __init__(self) -> None:
        self.events: deque[float] = deque()  # in time order, at most the rate's events
        self.noticed_until = float("-inf")


class SlidingWindow:
    """One :class:`Rate` per key. ``now`` is seconds on any monotonic clock (the caller's)."""

    def __init__(self, rate: Rate, max_keys: int = DEFAULT_MAX_KEYS) -> None:
        self.rate = rate
        self.max_keys = max(1, int(max_keys))
        self._keys: OrderedDict[Hashable, _KeyState] = OrderedDict()

    def _expired(self, state: _KeyState, now: float) -> bool:
        newest = state.events[-1] if state.events else float("-inf")
        return now - newest >= self.rate.window_s and now >= state.noticed_until

    def _purge(self, now: float) -> None:
        while self._keys:
            key, state = next(iter(self._keys.items()))
            if not self._expired(state, now):
                break
            del self._keys[key]

    def _state(self, key: Hashable, now: float) -> _KeyState:
        self._purge(now)
        state = self._keys.get(key)
        if state is None:
            state = self._keys[key] = _KeyState()
            while len(self._keys) > self.max_keys:
                self._keys.popitem(last=False)
        else:
            self._keys.move_to_end(key)
        return state

    def full(self, key: Hashable, now: float) -> bool:
        """True when one more event for ``key`` now would exceed the rate."""
        events = self._state(key, now).events
        return len(events) == self.rate.events and now - events[0] < self.rate.window_s

    def add(self, key: Hashable, now: float, at: float | None = None) -> None:
        """Count an admitted event at ``at`` (default ``now``; a booked slot may lie ahead), kept in
        time order; the oldest of a full window falls out (it left the window)."""
        events = self._state(key, now).events
        bisect.insort(events, now if at is None else at)
        while len(events) > self.rate.events:
            events.popleft()

    def frees_at(self, key: Hashable, now: float) -> float:
        """When ``key`` may next have an event admitted."""
        events = self._state(key, now).events
        if len(events) < self.rate.events:
            return now
        return max(now, events[0] + self.rate.window_s)

    def next_slot(self, key: Hashable, now: float) -> float:
        """The earliest time one more event of ``key`` fits, not before its last booked one (FIFO)."""
        events = self._state(key, now).events
        return max(self.frees_at(key, now), events[-1] if events else now)

    def notice_due(self, key: Hashable, now: float, until: float | None = None) -> bool:
        """For a refused event: True once per refusal streak (until the window frees up, or
        ``until``)."""
        state = self._state(key, now)
        if now < state.noticed_until:
            return False
        state.noticed_until = self.frees_at(key, now) if until is None else until
        return True

    def __len__(self) -> int:
        return len(self._keys)


class FloodGate:
    """Per-user and per-chat limits on answers. ``None`` for a rate means no limit on that level.

    clock: seconds, monotonic (``time.monotonic`` by default; inject a fake in tests).
    """

    def __init__(
        self,
        user_rate: Rate | None,
        chat_rate: Rate | None,
        *,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        max_keys: int = DEFAULT_MAX_KEYS,
    ) -> None:
        self.clock = clock or time.monotonic
        self.sleep = sleep or asyncio.sleep
        """How a booked answer waits for its slot, in seconds of ``clock`` (tests pair a fake clock
        with a fake sleep that advances it)."""
        self.user = SlidingWindow(user_rate, max_keys) if user_rate else None
        self.chat = SlidingWindow(chat_rate, max_keys) if chat_rate else None
        self._late = SlidingWindow(Rate(1, 1), max_keys)  # notice streaks of booked/refused messages

    def _limits(self, user_id: int, chat_id: int | None) -> list[tuple[SlidingWindow, int]]:
        limits = [(self.user, user_id)]
        if chat_id is not None:
            limits.append((self.chat, chat_id))
        return [(window, key) for window, key in limits if window is not None]

    def check(self, user_id: int, chat_id: int | None = None) -> Verdict:
        """Admit (and count) one answer to ``user_id`` in ``chat_id`` (None: no chat, e.g. inline)."""
        now = self.clock()
        limits = self._limits(user_id, chat_id)
        for window, key in limits:
            if window.full(key, now):
                return Verdict.NOTICE if window.notice_due(key, now) else Verdict.SILENT
        if any(window.next_slot(key, now) > now for window, key in limits):
            return Verdict.SILENT  # a booked answer is waiting: it goes first
        for window, key in limits:
            window.add(key, now)
        return Verdict.ALLOW

    def retry_after(self, user_id: int, chat_id: int | None = None) -> float:
        """Seconds until one more answer to ``user_id`` in ``chat_id`` could be admitted (0: now)."""
        now = self.clock()
        return max(
            [0.0] + [window.next_slot(key, now) - now for window, key in self._limits(user_id, chat_id)]
        )

    def reserve(self, user_id: int, chat_id: int | None = None, waited_s: float = 0.0) -> float | None:
        """Book the next free slot for one answer and return the seconds to wait for it (0: now), or
        None -- nothing booked -- when that slot is more than one window (the longest that applies)
        away, or the answer would come more than two windows after the message was sent,
        ``waited_s`` seconds ago (it may have waited in line behind its chat's earlier messages)."""
        now = self.clock()
        limits = self._limits(user_id, chat_id)
        if not limits:
            return 0.0
        slot = max(window.next_slot(key, now) for window, key in limits)
        longest = max(window.rate.window_s for window, _ in limits)
        wait = slot - now
        if wait > longest or (wait > 0 and wait + max(waited_s, 0.0) > 2 * longest):
            return None  # (a message under the limit is answered now, however old: a replayed one)
        for window, key in limits:
            window.add(key, now, at=slot)
        return slot - now

    def notice_due(self, kind: str, user_id: int, seconds: float) -> bool:
        """True once per streak of ``kind`` (``"late"``, ``"refused"``) for ``user_id``; the streak
        lasts ``seconds`` from now (the wait the notice announced)."""
        now = self.clock()
        return self._late.notice_due((kind, user_id), now, until=now + max(seconds, 0.0))

    @staticmethod
    def whole_seconds(seconds: float) -> int:
        """A wait as a user reads it: whole seconds, rounded up, at least 1."""
        return max(1, math.ceil(seconds - 1e-9))

    def __len__(self) -> int:
        """Keys remembered (users + chats): bounded, see the module docstring."""
        return len(self.user or ()) + len(self.chat or ())  # notice streaks are not counted
