"""Shared harness for the Telegram tests: the fake Bot API with a leak check, settings pointing at it,
and ``polling`` — what ``run_polling`` does, minus the signal handling and the blocking loop."""

from __future__ import annotations

import datetime as dtm
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import pytest
from fake_bot_api import FakeBotAPI
from telegram.ext import Application

from bot.telegram.config import BotSettings


@contextmanager
def checked_fake_api(token: str) -> Iterator[FakeBotAPI]:
    """A fake Bot API on loopback; afterwards no request may be open and no thread left running."""
    threads_before = set(threading.enumerate())
    with FakeBotAPI(token=token) as fake:
        yield fake
    assert fake.active_requests == 0
    leftover = [t for t in set(threading.enumerate()) - threads_before if t.is_alive() and not t.daemon]
    assert not leftover, f"threads left running: {leftover}"


def api_fixture(token: str) -> Any:
    """The ``api`` fixture most Telegram tests write out: a checked fake Bot API for ``token``, the
    settings DB in the test's tmp dir, no pre-sales offer (``api = api_fixture(TOKEN)`` in a module)."""

    @pytest.fixture
    def api(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeBotAPI]:
        monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "settings.sqlite3"))
        monkeypatch.delenv("SIZING_BOT_PRESALES", raising=False)
        with checked_fake_api(token) as fake:
            yield fake

    return api


def settings_for(api: FakeBotAPI, token: str | None = None, **extra: Any) -> BotSettings:
    return BotSettings(
        telegram_bot_token=token or api.token,
        telegram_base_url=api.base_url,
        telegram_base_file_url=api.base_file_url,
        _env_file=None,
        **extra,
    )


@asynccontextmanager
async def polling(app: Application) -> AsyncIterator[Application]:
    """Initialize, post_init (run_polling calls it; initialize/start do not), start, poll; on exit
    stop (handles every update already fetched), shut down, post_shutdown (closes the DB)."""
    async with app:
        assert app.post_init is not None
        await app.post_init(app)
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=dtm.timedelta(seconds=1))
        try:
            yield app
        finally:
            await app.updater.stop()
            await app.stop()
    if app.post_shutdown is not None:
        await app.post_shutdown(app)
