"""Answers are worked out off the event loop (Feishu / Lark, DingTalk, the neutral seam), so that while
one answer takes long (a loaded machine: CI's two cores) the long connection goes on acking, pinging
and renewing its claims.

Before, ``seam.answer`` ran on the loop: an answer that took over 0.9 s stopped the pings and the
Feishu watchdog (3 ping intervals of 0.3 s in the tests) reconnected, an answer over 3 s let Feishu
re-push the next event, and replicas renewed their claims late (another replica answered them again).
Here the first question's answer is held (as a slow machine would) until the connection has acked a
second push and pinged four times: on the loop that never happens while it is held."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fake_dingtalk import FakeDingTalk
from fake_feishu import FakeFeishu
from feishu_run import cards

from bot.config import AppSettings

HOLD_S = 8.0
"""The longest the held answer waits for the test (a backstop: the test releases it on its event)."""


class HeldAsk:
    """Wraps ``Conversation.ask``: the first call waits until ``release`` (at most :data:`HOLD_S`)."""

    def __init__(self, ask: Callable[..., Any]) -> None:
        self.ask, self.entered, self.release = ask, threading.Event(), threading.Event()
        self.on_loop: bool | None = None
        self.timed_out = False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not self.entered.is_set():
            try:
                asyncio.get_running_loop()
                self.on_loop = True
            except RuntimeError:
                self.on_loop = False
            self.entered.set()
            self.timed_out = not self.release.wait(HOLD_S)
        return self.ask(*args, **kwargs)


def _env(monkeypatch: pytest.MonkeyPatch, tmp: Path, **names: str) -> AppSettings:
    monkeypatch.setenv("SIZING_BOT_DB", str(tmp / "settings.sqlite3"))
    for name, value in names.items():
        monkeypatch.setenv(name, value)
    return AppSettings(_env_file=None)


def test_feishu_acks_and_pings_while_an_answer_is_worked_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.feishu.serve import build, serve

    async def main() -> None:
        with FakeFeishu() as fake:
            settings = _env(
                monkeypatch,
                tmp_path,
                FEISHU_APP_ID=fake.app_id,
                FEISHU_APP_SECRET=fake.app_secret,
                FEISHU_DOMAIN=fake.domain,
            )
            seam, adapter = build(settings, None)
            held = HeldAsk(seam.conversation.ask)
            monkeypatch.setattr(seam.conversation, "ask", held)
            task = asyncio.create_task(serve(seam, adapter))
            await fake.until(lambda: fake.connections >= 1, 30)
            fake.push(fake.message_event("70B模型推理要多少A100"))
            assert await asyncio.to_thread(held.entered.wait, 30)
            pings = fake.pings
            second = fake.push(fake.message_event("那H100呢"))
            try:  # acked and pinged while the first answer is still being worked out
                await fake.until(
                    lambda: any(a.message_id == second for a in fake.acks) and fake.pings >= pings + 4, 30
                )
            finally:
                held.release.set()
            await fake.until(lambda: len(cards(fake)) == 2, 60)
            await adapter.connection.stop()
            await asyncio.wait_for(task, 30)
            assert held.on_loop is False and not held.timed_out
            assert fake.connections == 1  # the watchdog never took our answer for a dead socket
            assert len(fake.pushes) == 2  # both acked in time: nothing re-pushed

    asyncio.run(main())


def test_dingtalk_acks_while_an_answer_is_worked_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.dingtalk.serve import build, serve

    async def main() -> None:
        with FakeDingTalk() as fake:
            settings = _env(
                monkeypatch,
                tmp_path,
                DINGTALK_CLIENT_ID=fake.client_id,
                DINGTALK_CLIENT_SECRET=fake.client_secret,
                DINGTALK_ENDPOINT=fake.endpoint,
                DINGTALK_OAPI_ENDPOINT=fake.endpoint,
            )
            server = build(settings, None)
            held = HeldAsk(server.seam.conversation.ask)
            monkeypatch.setattr(server.seam.conversation, "ask", held)
            task = asyncio.create_task(serve(server))
            await asyncio.to_thread(_until, lambda: fake.connections >= 1)
            fake.push(fake.message("70B模型推理要多少A100", group=False))
            assert await asyncio.to_thread(held.entered.wait, 30)
            second = fake.push(fake.message("那H100呢", group=False))
            try:  # acked while the first answer is still being worked out
                await asyncio.to_thread(_until, lambda: any(a.message_id == second for a in fake.acks))
            finally:
                held.release.set()
            await asyncio.to_thread(_until, lambda: server.adapter.answered >= 2)
            await server.adapter.connection.stop()
            await asyncio.wait_for(task, 30)
            assert held.on_loop is False and not held.timed_out
            assert fake.connections == 1

    asyncio.run(main())


def _until(predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    """Poll ``predicate`` (on a worker thread: the test's loop stays free); fails after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        time.sleep(0.02)


async def _ignore(*_: Any) -> None:
    return None


def test_a_stall_of_our_own_loop_is_not_taken_for_a_silent_feishu_peer() -> None:
    """The event loop blocked for 1.5 s (5 ping intervals: a loaded machine, a long synchronous step):
    the pongs that came meanwhile are unread, so the watchdog must not reconnect. Before, it did at
    once (seen in CI logs as ``no frame for 1.6 s, reconnecting`` during a quote)."""
    from bot.feishu.client import LongConnection

    async def main() -> None:
        with FakeFeishu(ping_interval=0.3) as fake:
            client = LongConnection(fake.app_id, fake.app_secret, _ignore, domain=fake.domain, proxy=None)
            task = asyncio.create_task(client.run())
            await fake.until(lambda: fake.connections >= 1 and fake.pings >= 1, 30)
            time.sleep(1.5)  # the stall: this loop runs nothing
            pings = fake.pings
            await fake.until(lambda: fake.pings >= pings + 4, 30)  # pinging on, on the same socket
            assert fake.connections == 1
            await client.stop()
            await asyncio.wait_for(task, 10)

    asyncio.run(main())


def test_a_stall_of_our_own_loop_is_not_taken_for_a_silent_dingtalk_peer() -> None:
    from bot.dingtalk.stream import StreamConnection

    async def main() -> None:
        with FakeDingTalk(ping_interval=60) as fake:  # no SYSTEM ping: nothing comes during the stall
            client = StreamConnection(
                fake.client_id,
                fake.client_secret,
                _ignore,
                endpoint=fake.endpoint,
                watchdog_s=1.5,  # a ping every 0.5 s
                proxy=None,
            )
            task = asyncio.create_task(client.run())
            while client.connections < 1:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.2)  # the first ping's pong is in: none is in flight during the stall
            time.sleep(2.5)  # the stall: longer than the watchdog, and this loop runs nothing
            await asyncio.sleep(1.0)  # two ping periods more: the reconnect would have come by now
            assert fake.connections == 1 and client.watchdog_fired == 0
            await client.stop()
            await asyncio.wait_for(task, 10)

    asyncio.run(main())


def test_a_stall_of_our_own_loop_is_not_taken_for_a_silent_wecom_peer() -> None:
    """WeCom's watchdog knew stalls, but counted the silence from where the stall began: a 1 s stall
    then read as 1.3 s of silence and the socket was dropped ('0 pings unanswered, 1.0 s silent:
    reconnecting', in the middle of sending a quote: 'wecom: not connected', the quote lost)."""
    from fake_wecom import FakeWecom

    from bot.wecom.client import WecomConnection

    async def main() -> None:
        with FakeWecom() as fake:
            client = WecomConnection(
                fake.bot_id, fake.secret, _ignore, url=fake.url, ping_interval=0.3, proxy=None
            )
            task = asyncio.create_task(client.run())
            while fake.pings < 1:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.1)  # the ping's ack is in: nothing is in flight during the stall
            time.sleep(1.5)  # the stall: 5 ping intervals in which this loop runs nothing
            pings = fake.pings
            while fake.pings < pings + 4:  # pinging on, on the same socket
                await asyncio.sleep(0.01)
            assert fake.subscribes == 1
            await client.stop()
            await asyncio.wait_for(task, 10)

    asyncio.run(asyncio.wait_for(main(), 60))
