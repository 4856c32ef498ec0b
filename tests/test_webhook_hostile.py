"""Issue 30 item 6: webhook mode survives slow and hostile clients (bot.telegram.webhook).

The real Application behind :func:`bot.telegram.webhook.serve_webhook` (what ``sizing-bot run`` serves
with TELEGRAM_WEBHOOK_URL), the fake Bot API for the replies, and raw socket clients on loopback:
the secret is checked before the body is read, bodies are capped, half-sent requests are dropped
within the timeouts, slow connections cannot lock real updates out, and a client's bad input is one
WARNING line, never a traceback."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from fake_bot_api import FakeBotAPI
from htmlcheck import telegram_html_text
from tg_harness import api_fixture, settings_for

import bot.telegram.app as tg
from bot.telegram import webhook as wh
from bot.telegram.webhook import WebhookServer, serve_webhook

pytestmark = pytest.mark.filterwarnings("ignore:.*retry_after.*:DeprecationWarning")

TOKEN = "123456:FAKE-TOKEN-abc"
SECRET = "s3cret_Webhook-token"
TIMEOUT_S = 60


api = api_fixture(TOKEN)


@asynccontextmanager
async def served(api: FakeBotAPI, **limits: Any) -> AsyncIterator[WebhookServer]:
    """The bot serving its webhook on a free loopback port, as ``sizing-bot run`` does."""
    url = "http://127.0.0.1/hook"
    settings = settings_for(api, webhook_url=url, webhook_secret=SECRET, user_rate="off", chat_rate="off")
    app = tg.build_application(settings)
    stop = asyncio.Event()
    started: asyncio.Future[WebhookServer] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(
        serve_webhook(
            app,
            listen="127.0.0.1",
            port=0,
            path="hook",
            url=url,
            secret=SECRET,
            stop=stop,
            started=started,
            **limits,
        )
    )
    server = await asyncio.wait_for(started, 20)
    try:
        yield server
    finally:
        stop.set()
        await task


def update_body(api: FakeBotAPI, text: str) -> bytes:
    user = api.user("Ann", "en")
    message = api.text_message(text, chat=api.private_chat(user), user=user)
    return json.dumps({"update_id": api.next_update_id(), "message": message}).encode()


def head(length: int, secret: str | None = SECRET, path: str = "/hook") -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"]
    lines.append(f"Content-Length: {length}")
    if secret is not None:
        lines.append(f"X-Telegram-Bot-Api-Secret-Token: {secret}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def post(port: int, raw: bytes, timeout: float = 10.0) -> tuple[int, float]:
    """Send ``raw`` on a fresh connection; the answer's status (0: closed without one) and seconds taken."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(raw)
        answer = b""
        try:
            while b"\r\n" not in answer:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
        except ConnectionResetError:
            pass
    status = int(answer.split(b" ")[1]) if answer.startswith(b"HTTP/1.1 ") else 0
    return status, time.monotonic() - started


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def test_a_real_update_is_answered_and_a_missing_or_wrong_secret_is_refused(api: FakeBotAPI) -> None:
    async def main() -> None:
        async with served(api) as server:
            body = update_body(api, "7B 1T tokens H100")
            wrong = await asyncio.to_thread(post, server.port, head(len(body), "guess") + body)
            missing = await asyncio.to_thread(post, server.port, head(len(body), None) + body)
            right = await asyncio.to_thread(post, server.port, head(len(body)) + body)
            assert (wrong[0], missing[0], right[0]) == (403, 403, 200)
            [reply] = await asyncio.to_thread(api.wait_for, "sendMessage", 1, 20.0)
            assert "H100" in telegram_html_text(reply.params["text"]).splitlines()[0]

    asyncio.run(asyncio.wait_for(main(), TIMEOUT_S))
    [set_webhook] = api.calls_to("setWebhook")
    assert set_webhook.params["secret_token"] == SECRET
    assert len(api.calls_to("sendMessage")) == 1


def _flood_body(port: int, secret: str | None, size: int, sent: list[int]) -> None:
    """Announce ``size`` bytes and try to send them all; record how many went out before the close."""
    chunk = b"x" * (1 << 20)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head(size, secret))
        total = 0
        try:
            while total < size:
                total += sock.send(chunk)
        except OSError:
            pass
        sent.append(total)


@pytest.mark.parametrize(("secret", "status"), [(None, 403), (SECRET, 413)])
def test_a_90_mb_post_is_refused_without_reading_it(api: FakeBotAPI, secret: str | None, status: int) -> None:
    """Without the secret: 403 on the headers alone; with it, over the 1 MiB cap: 413, body unread."""
    size = 90 * 1024 * 1024

    async def main() -> None:
        async with served(api) as server:
            before = rss_mib()
            answer = await asyncio.to_thread(post, server.port, head(size, secret))  # no body sent at all
            assert answer[0] == status and answer[1] < 2.0
            sent: list[int] = []
            floods = [
                threading.Thread(target=_flood_body, args=(server.port, secret, size, sent)) for _ in range(5)
            ]
            for flood in floods:
                flood.start()
            await asyncio.to_thread(lambda: [f.join(30) for f in floods])
            assert len(sent) == 5 and all(n < size for n in sent)  # closed long before 90 MB went out
            assert rss_mib() - before < 30  # five 90 MB posts: memory stays flat
            assert server.accepted == 0

    asyncio.run(asyncio.wait_for(main(), TIMEOUT_S))
    assert not api.calls_to("sendMessage")


def test_half_sent_requests_are_dropped_within_the_timeouts(api: FakeBotAPI) -> None:
    async def main() -> None:
        async with served(api, header_timeout=0.5, body_timeout=0.5) as server:
            headers = await asyncio.to_thread(post, server.port, b"POST /hook HTTP/1.1\r\nHost: 127")
            body = await asyncio.to_thread(post, server.port, head(100) + b'{"update_id": ')
            assert headers[0] == 408 and headers[1] < 3.0
            assert body[0] == 408 and body[1] < 3.0
            for _ in range(100):  # the server closes its side just after answering
                if not server.connections:
                    break
                await asyncio.sleep(0.02)
            assert server.connections == 0

    asyncio.run(asyncio.wait_for(main(), TIMEOUT_S))


def test_1100_slow_connections_do_not_stop_real_updates(
    api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.telegram.webhook")

    async def main() -> None:
        async with served(api) as server:
            assert server.max_connections <= wh.MAX_CONNECTIONS
            slow = []
            for _ in range(1100):  # each sends half a request line and then nothing
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
                sock.sendall(b"POST /ho")
                slow.append(sock)
                if len(slow) % 100 == 0:
                    await asyncio.sleep(0.05)  # let the server accept them
            try:
                await asyncio.sleep(0.3)
                assert server.connections <= server.max_connections
                body = update_body(api, "70B inference on H100")
                status, took = await asyncio.to_thread(post, server.port, head(len(body)) + body)
                assert status == 200 and took < 5.0
                await asyncio.to_thread(api.wait_for, "sendMessage", 1, 20.0)
            finally:
                for sock in slow:
                    sock.close()

    asyncio.run(asyncio.wait_for(main(), TIMEOUT_S))
    refusals = [r for r in caplog.records if "refused" in r.getMessage()]
    assert 0 < len(refusals) <= 2 * wh.LOG_PER_S * TIMEOUT_S  # one line per refusal, rate-limited
    assert not [r for r in caplog.records if r.exc_info]


def test_malformed_bodies_are_one_warning_each_and_no_traceback(
    api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    bodies = [b"[1, 2, 3]", b'{"message": {}}', b'{"update_id": 7, "message": {}}', b"not json", b"\xff\xfe"]

    async def main() -> None:
        async with served(api) as server:
            for body in bodies:
                status, _ = await asyncio.to_thread(post, server.port, head(len(body)) + body)
                assert status == 400

    asyncio.run(asyncio.wait_for(main(), TIMEOUT_S))
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    warnings = [
        r for r in caplog.records if r.name == "bot.telegram.webhook" and r.levelno == logging.WARNING
    ]
    assert len(warnings) == len(bodies)
    assert not api.calls_to("sendMessage")


def test_the_connection_cap_stays_below_the_file_descriptor_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wh.resource, "getrlimit", lambda _which: (1024, 4096))
    assert wh.connection_cap() == wh.MAX_CONNECTIONS < 1024 - wh.FD_RESERVE
    monkeypatch.setattr(wh.resource, "getrlimit", lambda _which: (256, 4096))
    assert wh.connection_cap() == 256 - wh.FD_RESERVE
    monkeypatch.setattr(wh.resource, "getrlimit", lambda _which: (20000, 20000))
    assert wh.connection_cap() == wh.MAX_CONNECTIONS
