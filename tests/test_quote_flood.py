"""Issue 30 item 1: quotes and charts run in a bounded work pool (bot.quote.pool), through the real
Application and the fake Bot API: a flood of quote presses from many users is answered -- a PDF or a
clear "please wait" -- never queued without bound, at most ``workers`` PDFs are made at once, and an
unrelated question in another chat is answered while the flood goes on."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fake_bot_api import FakeBotAPI
from tg_harness import checked_fake_api, polling, settings_for

import bot.telegram.app as tg
import bot.telegram.keyboards as kb
import bot.telegram.quote as tq
from bot.chat.wording import SLOW_DOWN
from bot.quote.pool import Busy, WorkPool
from bot.settings.presales import load_presales

pytestmark = pytest.mark.filterwarnings("ignore:.*retry_after.*:DeprecationWarning")

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "presales.example.toml"
TOKEN = "123456:TEST-flood"
USERS = 12
PRESSES = 3


class Gauge:
    """How many quotes are being made at once (the most seen), around the real ``quote_pdf``."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.now, self.most, self.made = inner, 0, 0, 0
        self._lock = threading.Lock()

    def __call__(self, *args: Any) -> bytes:
        with self._lock:
            self.now += 1
            self.most = max(self.most, self.now)
        try:
            time.sleep(0.05)  # a slower machine: the flood overlaps
            return self.inner(*args)
        finally:
            with self._lock:
                self.now -= 1
                self.made += 1


def quote_button(api: FakeBotAPI, chat_id: int) -> tuple[dict[str, Any], str]:
    message = api.bot_messages(chat_id)[-1]
    for row in message["reply_markup"]["inline_keyboard"]:
        for button in row:
            if kb.decode(button["callback_data"]).action == kb.QUOTE:
                return message, button["callback_data"]
    raise AssertionError("no quote button")


def test_a_quote_flood_is_bounded_and_other_chats_keep_answering(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "s.sqlite3"))
    gauge = Gauge(tq.quote_pdf)
    monkeypatch.setattr(tq, "quote_pdf", gauge)
    presales = load_presales(EXAMPLE)
    docs_before_answer: list[int] = []
    refusals: list[int] = []

    async def body(api: FakeBotAPI, pool: WorkPool) -> None:
        users = [api.user(f"U{i}", "en") for i in range(USERS)]
        chats = [api.private_chat(u) for u in users]
        for user, chat in zip(users, chats, strict=True):
            api.send_text("How many GPUs to pretrain a 7B model on 1T tokens?", chat=chat, user=user)
        await asyncio.to_thread(api.wait_for, "sendMessage", USERS, 20.0)
        for _ in range(PRESSES):
            for user, chat in zip(users, chats, strict=True):
                message, data = quote_button(api, chat["id"])
                api.press(message, data, user=user)
        other = api.user("Bo", "en")
        api.send_text("70B inference on H100", chat=api.private_chat(other), user=other)
        await asyncio.to_thread(api.wait_for, "sendMessage", USERS + 1, 20.0)
        # how many PDFs were sent before the unrelated answer: order, not seconds (a loaded machine
        # slows both alike)
        docs_before_answer.append(len(api.calls_to("sendDocument")))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if len(api.calls_to("sendDocument")) + pool.refused == USERS * PRESSES and not pool.busy:
                break
            await asyncio.sleep(0.1)

    with checked_fake_api(TOKEN) as api:

        async def run() -> None:
            settings = settings_for(api, user_rate="off", chat_rate="off")
            app = tg.build_application(settings, presales=presales, telegram_rate_limiter=False)
            pool = app.bot_data.heavy
            pool.workers, pool.max_waiting = 1, 2
            async with polling(app):
                await body(api, pool)
            refusals.append(pool.refused)

        asyncio.run(asyncio.wait_for(run(), 90))
        docs = api.calls_to("sendDocument")
        refused = [c for c in api.calls_to("sendMessage") if c.params.get("text") == SLOW_DOWN["en"]]

    assert len(docs) + refusals[0] == USERS * PRESSES  # every press: a PDF, or refused by the bounds
    assert refused and docs  # the queue bound refused some (their users told to wait), the rest were made
    assert len(refused) <= refusals[0]  # "please wait" at most once per refusal (once per user in 10 s)
    assert gauge.most == 1 and gauge.made == len(docs)  # one worker: never two PDFs at once
    assert docs[0].params["document"].startswith(b"%PDF-")
    # the unrelated question did not wait behind the quotes: answered before the last PDF was sent
    assert docs_before_answer[0] < len(docs), (docs_before_answer, len(docs))


def test_the_pool_refuses_past_its_per_user_and_queue_bounds() -> None:
    release = threading.Event()

    async def main() -> tuple[list[str], int]:
        pool = WorkPool(1, max_waiting=1, per_user=2)
        jobs = [asyncio.ensure_future(pool.run("ann", release.wait, 5))]
        await asyncio.sleep(0.05)
        jobs.append(asyncio.ensure_future(pool.run("ann", release.wait, 5)))  # waits: queue of 1 full
        await asyncio.sleep(0.05)
        refusals = []
        for user in ("ann", "bo"):  # ann: her 2 jobs in progress; bo: the queue is full
            try:
                await pool.run(user, release.wait, 5)
            except Busy as err:
                refusals.append(err.reason)
        release.set()
        await asyncio.gather(*jobs)
        busy = pool.busy
        pool.shutdown()
        return refusals, busy

    refusals, busy = asyncio.run(main())
    assert len(refusals) == 2
    assert "ann has 2 jobs" in refusals[0] and "1 jobs waiting" in refusals[1]
    assert busy == 0


def test_one_user_starts_at_most_per_minute_jobs_in_60_s() -> None:
    now = [0.0]

    async def main() -> list[str]:
        pool = WorkPool(1, per_minute=2, clock=lambda: now[0])
        refusals = []
        for at in (0.0, 1.0, 2.0, 59.9, 60.5):
            now[0] = at
            try:
                await pool.run("ann", len, "ab")
            except Busy as err:
                refusals.append(f"{at}: {err.reason}")
        assert pool.notice_due("ann") and not pool.notice_due("ann")  # told once per 10 s
        now[0] += 10
        assert pool.notice_due("ann")
        pool.shutdown()
        return refusals

    assert asyncio.run(main()) == [
        "2.0: user ann started 2 jobs in 60 s",
        "59.9: user ann started 2 jobs in 60 s",
    ]
