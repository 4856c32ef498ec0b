"""What each sent answer shows: the turn behind a bot message and whether its details are expanded.

Every adapter keeps one :class:`ShownMessages` so that a button press or a reply to an answer finds
the turn (and the details state) behind the message it was made on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from bot.chat.ids import scope_key

MAX_REMEMBERED_MESSAGES = 10_000
"""Bound on the bot-message → turn map (oldest dropped first)."""


@dataclass(frozen=True)
class Shown:
    """What one bot message shows: the turn behind it and whether the details are expanded."""

    turn_id: str
    details: bool = True


class ShownMessages:
    """Bounded map (scoped chat id, bot message id) → :class:`Shown`, least recently used dropped
    first. Ids are opaque strings (``telegram:123``, message ``"45"``; an int chat id is a Telegram
    id, :func:`bot.chat.ids.scope_key`), so a platform with string message ids fits as it is.
    Thread-safe: answers are worked out on worker threads while the event loop remembers sent ones."""

    def __init__(self, max_entries: int = MAX_REMEMBERED_MESSAGES) -> None:
        self.max_entries = max_entries
        self._items: OrderedDict[tuple[str, str], Shown] = OrderedDict()
        self._lock = threading.Lock()

    def remember(self, chat_id: str | int, message_id: str | int, shown: Shown) -> None:
        key = (scope_key(chat_id), str(message_id))
        with self._lock:
            self._items[key] = shown
            self._items.move_to_end(key)
            while len(self._items) > self.max_entries:
                self._items.popitem(last=False)

    def get(self, chat_id: str | int, message_id: str | int) -> Shown | None:
        key = (scope_key(chat_id), str(message_id))
        with self._lock:
            shown = self._items.get(key)
            if shown is not None:
                self._items.move_to_end(key)
            return shown

    def __len__(self) -> int:
        return len(self._items)


SHARED_SHOWN_TTL_S = 24 * 3600.0
"""How long a replica can find what another one's message shows (seconds): a day of replies."""


class SharedShownMessages(ShownMessages):
    """:class:`ShownMessages` kept in a store's context table too (:mod:`bot.core.shared`), so that a
    reply to an answer another replica sent finds its turn."""

    def __init__(self, store: object, max_entries: int = MAX_REMEMBERED_MESSAGES) -> None:
        import time

        from bot.core.shared import SharedTTLCache

        super().__init__(max_entries)
        self._shared: SharedTTLCache[tuple[str, str], Shown] = SharedTTLCache(
            SHARED_SHOWN_TTL_S, max_entries, time.monotonic, store=store, prefix="shown:",
            name=lambda key: f"{key[0]}|{key[1]}",
            encode=lambda s: {"turn_id": s.turn_id, "details": s.details},
            decode=lambda d: Shown(str(d["turn_id"]), bool(d.get("details", True))),
        )  # fmt: skip

    def remember(self, chat_id: str | int, message_id: str | int, shown: Shown) -> None:
        with self._lock:
            self._shared.put((scope_key(chat_id), str(message_id)), shown)

    def get(self, chat_id: str | int, message_id: str | int) -> Shown | None:
        with self._lock:
            return self._shared.get((scope_key(chat_id), str(message_id)))

    def __len__(self) -> int:
        return len(self._shared)


__all__ = ["MAX_REMEMBERED_MESSAGES", "SharedShownMessages", "Shown", "ShownMessages"]
