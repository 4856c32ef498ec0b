"""Issue 17, failure 5: a locked database freezes no one.

Through the real ``Application`` and the fake Bot API: another connection holds the SQLite write
lock; a settings press waits for it on a worker thread (the store's short busy timeout) and gets
"settings temporarily unavailable", while an unrelated user's question is answered meanwhile -- well
before the press gives up. A database failing to read degrades to default settings, answers go on.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_bot_api import FakeBotAPI
from htmlcheck import telegram_html_text
from tg_harness import checked_fake_api, polling, settings_for

import bot.telegram.app as tg
import bot.telegram.keyboards as kb
from bot.chat.wording import SETTINGS_UNAVAILABLE
from bot.settings.store import BUSY_TIMEOUT_S, SettingsStore

TOKEN = "123456:FAKE-TOKEN-abc"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "settings.sqlite3"
    monkeypatch.setenv("SIZING_BOT_DB", str(path))
    monkeypatch.delenv("SIZING_BOT_PRESALES", raising=False)
    return path


@pytest.fixture
def api(db: Path) -> Iterator[FakeBotAPI]:
    with checked_fake_api(TOKEN) as fake:
        yield fake


def test_a_locked_database_fails_one_press_and_freezes_no_other_chat(
    api: FakeBotAPI, db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    owner, other = api.user("Owner", "en"), api.user("Other", "en")
    owner_chat, other_chat = api.private_chat(owner), api.private_chat(other)
    timings: dict[str, float] = {}

    async def body(api: FakeBotAPI) -> None:
        api.send_text("/settings", chat=owner_chat, user=owner)
        await asyncio.to_thread(api.wait_for, "sendMessage", 1)
        panel = api.bot_messages(owner_chat["id"])[-1]
        locker = sqlite3.connect(db, isolation_level=None)
        locker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        locker.execute("INSERT OR REPLACE INTO chat_settings VALUES (1, '{}', 0)")
        try:
            start = time.monotonic()
            api.press(panel, kb.encode(kb.SETTINGS_SLOT, kb.SET_DEADLINE, "30"), user=owner)
            await asyncio.sleep(0.05)
            api.send_text("7B 1T tokens A100", chat=other_chat, user=other)
            await asyncio.to_thread(api.wait_for, "sendMessage", 2)
            timings["other"] = time.monotonic() - start
            await asyncio.to_thread(api.wait_for, "answerCallbackQuery", 1)
            timings["press"] = time.monotonic() - start
        finally:
            locker.execute("ROLLBACK")
            locker.close()

    asyncio.run(asyncio.wait_for(main(api, body), 20))
    [pressed] = api.calls_to("answerCallbackQuery")
    assert pressed.params["text"] == SETTINGS_UNAVAILABLE["en"]
    assert timings["other"] < BUSY_TIMEOUT_S < timings["press"] < BUSY_TIMEOUT_S + 2
    answer = telegram_html_text(api.calls_to("sendMessage")[-1].params["text"])
    assert "A100" in answer
    assert api.calls_to("editMessageText") == []  # nothing was saved, nothing shown as saved
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    with SettingsStore(db) as store:
        assert store.get(owner_chat["id"]).deadline_days is None


def test_a_burst_of_presses_during_a_long_lock_waits_once_not_once_per_press(
    api: FakeBotAPI, db: Path
) -> None:
    users = [api.user(f"U{n}", "en") for n in range(20)]
    chats = [api.private_chat(user) for user in users]
    other = api.user("Other", "en")
    timings: dict[str, float] = {}

    async def body(api: FakeBotAPI) -> None:
        for user, chat in zip(users, chats, strict=True):
            api.send_text("/settings", chat=chat, user=user)
        await asyncio.to_thread(api.wait_for, "sendMessage", len(users))
        locker = sqlite3.connect(db, isolation_level=None)
        locker.execute("BEGIN IMMEDIATE")
        locker.execute("INSERT OR REPLACE INTO chat_settings VALUES (1, '{}', 0)")
        try:
            start = time.monotonic()
            for user, chat in zip(users, chats, strict=True):
                panel = api.bot_messages(chat["id"])[-1]
                api.press(panel, kb.encode(kb.SETTINGS_SLOT, kb.SET_MFU, "40"), user=user)
            api.send_text("7B 1T tokens A100", chat=api.private_chat(other), user=other)
            await asyncio.to_thread(api.wait_for, "sendMessage", len(users) + 1)
            timings["other"] = time.monotonic() - start
            await asyncio.to_thread(api.wait_for, "answerCallbackQuery", len(users))
            timings["presses"] = time.monotonic() - start
        finally:
            locker.execute("ROLLBACK")
            locker.close()

    asyncio.run(asyncio.wait_for(main(api, body), 30))
    answers = {c.params.get("text") for c in api.calls_to("answerCallbackQuery")}
    assert answers == {SETTINGS_UNAVAILABLE["en"]}
    # one busy timeout (per database thread), not one per press: one per press would take 20 × 1 s; a
    # third of that leaves room for a loaded machine and still tells the two apart
    serial = len(users) * BUSY_TIMEOUT_S
    assert timings["presses"] < serial / 3 and timings["other"] < serial / 3, timings


def test_a_failing_database_answers_with_default_settings(
    api: FakeBotAPI, db: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    user = api.user("Ada", "en")
    chat = api.private_chat(user)

    def broken(self: SettingsStore, scope_id: int) -> object:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(SettingsStore, "get", broken)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B 1T tokens A100", chat=chat, user=user)
        await asyncio.to_thread(api.wait_for, "sendMessage", 1)
        api.send_text("/settings", chat=chat, user=user)
        await asyncio.to_thread(api.wait_for, "sendMessage", 2)

    asyncio.run(asyncio.wait_for(main(api, body), 20))
    first, second = (telegram_html_text(c.params["text"]) for c in api.calls_to("sendMessage"))
    assert "A100" in first  # answered with the defaults
    assert second == SETTINGS_UNAVAILABLE["en"]
    assert any("unavailable" in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)
    assert not [r for r in caplog.records if r.exc_info]


def test_settings_work_stays_off_the_event_loop(api: FakeBotAPI, db: Path) -> None:
    user = api.user("Ada", "en")
    chat = api.private_chat(user)
    threads: set[str] = set()
    real_get, real_update = SettingsStore.get, SettingsStore.update

    def get(self: SettingsStore, scope_id: int) -> object:
        import threading

        threads.add(threading.current_thread().name)
        return real_get(self, scope_id)

    def update(self: SettingsStore, scope_id: int, **fields: object) -> object:
        import threading

        threads.add(threading.current_thread().name)
        return real_update(self, scope_id, **fields)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("/settings price A100 12", chat=chat, user=user)
        api.send_text("7B 1T tokens A100", chat=chat, user=user)
        await asyncio.to_thread(api.wait_for, "sendMessage", 2)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SettingsStore, "get", get)
        patch.setattr(SettingsStore, "update", update)
        asyncio.run(asyncio.wait_for(main(api, body), 20))
    assert threads and all(name.startswith("settings-db") for name in threads)
    assert "12" in telegram_html_text(api.calls_to("sendMessage")[-1].params["text"])


async def main(api: FakeBotAPI, body: object) -> None:
    settings = settings_for(api, user_rate="off", chat_rate="off")
    async with polling(tg.build_application(settings)):
        await body(api)  # type: ignore[operator]
