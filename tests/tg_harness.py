"""Shared harness for the Telegram tests: the fake Bot API with a leak check, settings pointing at it,
and ``polling`` — what ``run_polling`` does, minus the signal handling and the blocking loop."""

from __future__ import annotations

import datetime as dtm
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

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
