"""The update journal (:mod:`bot.telegram.journal`) on its own: committed before the acknowledging
getUpdates, replayed once after a crash, redeliveries dropped, one bot's rows never replayed to
another, a replay that keeps killing the process given up, a failing file never stopping the bot."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from telegram import Update
from telegram.request import BaseRequest

from bot.telegram import journal as jr
from bot.telegram.journal import AckAfterJournal, JournaledQueue, UpdateJournal, journal_path

BOT = 123456


def update(update_id: int, text: str = "7B 1T tokens A100") -> Update:
    chat = {"id": 1001, "type": "private", "first_name": "Ada"}
    message = {
        "message_id": update_id,
        "date": 0,
        "chat": chat,
        "text": text,
        "from": {"id": 1001, "is_bot": False, "first_name": "Ada"},
    }
    return Update.de_json({"update_id": update_id, "message": message}, None)


def rows(path: Path) -> list[tuple[int, bool]]:
    with sqlite3.connect(path) as conn:
        return [(i, done is not None) for i, done in conn.execute("SELECT update_id, done FROM updates")]


class Recorder(BaseRequest):
    """A transport that records what was committed when each request went out."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seen: list[list[tuple[int, bool]]] = []

    @property
    def read_timeout(self) -> float | None:
        return 1.0

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    async def do_request(
        self, url: str, method: str, request_data: Any = None, **timeouts: Any
    ) -> tuple[int, bytes]:
        self.seen.append(rows(self.path))
        return 200, b'{"ok": true, "result": []}'


def test_updates_are_committed_before_the_getupdates_that_acknowledges_them(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"

    async def main() -> None:
        journal = UpdateJournal(path)
        assert await journal.open(BOT) == []
        queue = JournaledQueue(journal)
        recorder = Recorder(path)
        guard = AckAfterJournal(recorder, journal)
        for i in (1, 2, 3):
            await queue.put(update(i))
        await guard.do_request("http://x/bot1:a/getUpdates", "POST")
        assert recorder.seen[-1] == [(1, False), (2, False), (3, False)]
        journal.done(1)
        await journal.close()

    asyncio.run(main())
    assert rows(path) == [(1, True), (2, False), (3, False)]


def test_unhandled_updates_are_replayed_once_and_redeliveries_dropped(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"

    async def crash() -> None:
        journal = UpdateJournal(path)
        await journal.open(BOT)
        queue = JournaledQueue(journal)
        for i in (10, 11, 12):
            await queue.put(update(i))
        journal.done(10)
        await journal.flush()  # then the process dies: no close

    async def restart() -> list[int]:
        journal = UpdateJournal(path)
        queue = JournaledQueue(journal)
        assert await queue.replay(await journal.open(BOT), None) == 2
        for i in (11, 12, 13):  # Telegram sends again what it never saw acknowledged, and a new one
            await queue.put(update(i))
        got = [queue.get_nowait().update_id for _ in range(queue.qsize())]
        await journal.close()
        return got

    asyncio.run(crash())
    assert asyncio.run(restart()) == [11, 12, 13]


def test_another_bots_journal_is_discarded_not_replayed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "j.sqlite3"

    async def run(bot_id: int, ids: tuple[int, ...]) -> list[dict[str, Any]]:
        journal = UpdateJournal(path)
        pending = await journal.open(bot_id)
        queue = JournaledQueue(journal)
        for i in ids:
            await queue.put(update(i))
        await journal.flush()
        return pending

    asyncio.run(run(BOT, (1, 2)))
    assert asyncio.run(run(999, (1,))) == []  # a new token: nothing replayed, and id 1 is new
    assert rows(path) == [(1, False)]
    assert "belonged to bot 123456" in caplog.text


def test_old_updates_are_neither_replayed_nor_deduplicated(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"

    async def first() -> None:
        journal = UpdateJournal(path)
        await journal.open(BOT)
        await JournaledQueue(journal).put(update(5))
        await journal.flush()

    asyncio.run(first())
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE updates SET received = ?", (time.time() - jr.RETENTION_S - 60,))

    async def later() -> tuple[list[dict[str, Any]], bool]:
        journal = UpdateJournal(path)
        pending = await journal.open(BOT)
        return pending, journal.admit(update(5))

    assert asyncio.run(later()) == ([], True)


def test_an_update_that_keeps_killing_the_process_is_given_up(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "j.sqlite3"

    async def start(put: bool) -> int:
        journal = UpdateJournal(path)
        pending = await journal.open(BOT)
        if put:
            await JournaledQueue(journal).put(update(7))
            await journal.flush()
        return len(pending)

    asyncio.run(start(True))
    assert [asyncio.run(start(False)) for _ in range(jr.MAX_ATTEMPTS + 1)] == [1] * jr.MAX_ATTEMPTS + [0]
    assert "given up" in caplog.text


def test_a_failing_journal_never_stops_the_bot(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")

    async def main() -> list[int]:
        journal = UpdateJournal(blocker / "j.sqlite3")  # cannot be created
        assert await journal.open(BOT) == []
        queue = JournaledQueue(journal, durable_put=True)
        await queue.put(update(1))
        await AckAfterJournal(Recorder(tmp_path / "none"), journal).journal.flush()
        return [queue.get_nowait().update_id]

    caplog.set_level(logging.WARNING)
    assert asyncio.run(main()) == [1]
    assert "answering without it" in caplog.text


def test_journal_path() -> None:
    assert journal_path(None, Path("/s/settings.sqlite3")) == Path("/s/settings-updates.sqlite3")
    assert journal_path("off", Path("/s/settings.sqlite3")) is None
    assert journal_path("/j/u.db", None) == Path("/j/u.db")


def test_the_journal_body_round_trips() -> None:
    u = update(3, "那H100呢")
    assert Update.de_json(json.loads(u.to_json()), None) == u


def test_a_webhook_put_returns_only_once_the_update_is_committed(tmp_path: Path) -> None:
    """PTB's webhook handler answers Telegram's POST (the acknowledgement) after ``put`` returns."""
    path = tmp_path / "j.sqlite3"

    async def main() -> list[tuple[int, bool]]:
        journal = UpdateJournal(path)
        await journal.open(BOT)
        await JournaledQueue(journal, durable_put=True).put(update(42))
        committed = rows(path)
        await journal.close()
        return committed

    assert asyncio.run(main()) == [(42, False)]
