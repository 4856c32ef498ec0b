"""Replicas (issue 29): the Telegram journal kept in the shared store (:class:`bot.telegram.replica.
StoreJournal`) writes a batch in at most three statements, the marks of earlier updates first.

It used to claim each update in a transaction of its own: a burst of 100 updates took 0.3-0.5 s on an
idle machine and longer than answering 20 of them under load, and the mark of a question answered just
before the burst waited behind those claims. A leader killed in that window left the question unmarked,
and the standby answered it again after the takeover (tests/test_replicas_run.py failed when the user's
reply to an older answer was met by the replayed answer to their newer question, "7B…")."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from test_reliability_journal import update

from bot.store import open_store
from bot.telegram.replica import StoreJournal

BOT = 123456
STREAM = f"telegram:{BOT}"


class Recording:
    """The real store, recording each claim and mark statement the journal sends it."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.calls: list[tuple[str, list[str]]] = []

    def claim(self, stream: str, key: str, body: str, owner: str) -> bool:
        self.calls.append(("claim", [key]))
        return bool(self._store.claim(stream, key, body, owner))

    def claim_many(self, stream: str, items: list[tuple[str, str]], owner: str) -> None:
        self.calls.append(("claim_many", [key for key, _ in items]))
        self._store.claim_many(stream, items, owner)

    def finish(self, stream: str, keys: list[str]) -> None:
        self.calls.append(("finish", list(keys)))
        self._store.finish(stream, keys)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def test_a_burst_is_claimed_at_once_and_the_mark_answered_before_it_goes_first(tmp_path: Path) -> None:
    store = open_store(None, tmp_path / "settings.sqlite3")
    recording = Recording(store)
    burst = range(6, 106)

    async def leader() -> None:
        journal = StoreJournal(recording)  # type: ignore[arg-type]
        await journal.open(BOT)
        journal.admit(update(5, "7B模型1万亿token要多少A100"))
        await journal.flush()
        recording.calls.clear()
        for n in burst:  # 100 questions arrive in one getUpdates ...
            journal.admit(update(n))
        journal.admit(update(106))
        journal.done(5)  # ... as question 5's answer goes out: one batch holds both
        journal.done(106)  # answered before its claim was written
        await journal.flush()
        # killed here: no close()

    try:
        asyncio.run(leader())
        keys = [str(n) for n in burst]
        assert recording.calls == [
            ("finish", ["5"]),
            ("claim_many", [*keys, "106"]),
            ("finish", ["106"]),
        ]
        # what the standby replays after the takeover: the burst, not question 5 nor 106
        assert [key for key, _ in store.reclaim(STREAM, "standby", lease_s=0)] == keys
    finally:
        store.close()
