"""The bot's HTTP backend (bot.tg_http) and event loop: JSON bodies, uploads, errors, timeouts.

Everything on loopback: the fake Bot API for real calls, a socket that never answers for the
timeout, and a closed port for the connection error.
"""

from __future__ import annotations

import asyncio
import socket
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from fake_bot_api import FakeBotAPI
from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import NetworkError, TimedOut
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter
from tg_harness import checked_fake_api, polling, settings_for

import bot.telegram as tg
from bot.tg_http import AiohttpRequest

TOKEN = "123456:FAKE-TOKEN-http"


@pytest.fixture
def api():
    with checked_fake_api(TOKEN) as fake:
        yield fake


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_application_uses_the_aiohttp_backend_for_calls_and_polling(api: FakeBotAPI) -> None:
    app = tg.build_application(settings_for(api))
    assert isinstance(app.bot.request, AiohttpRequest)
    assert isinstance(app.bot._request[0], AiohttpRequest)  # getUpdates has its own (one connection)


def test_send_message_goes_as_json_with_the_keyboard_as_an_object(api: FakeBotAPI) -> None:
    """The Bot API takes application/json for every method without a file; reply_markup is then
    a JSON object, not a JSON string inside a form field."""
    user = api.user("Ann", "en")
    chat = api.private_chat(user)

    async def body() -> None:
        async with polling(tg.build_application(settings_for(api))):
            api.send_text("7B 1T tokens A100", chat=chat, user=user)
            await asyncio.to_thread(api.wait_for, "sendMessage", 1, 5.0)

    asyncio.run(asyncio.wait_for(body(), 10))
    [sent] = api.calls_to("sendMessage")
    assert sent.content_type == "application/json"
    assert isinstance(sent.params["reply_markup"]["inline_keyboard"], list)
    assert "93,483" in sent.params["text"]  # the seed's A100-hours, intact through JSON
    assert all(c.content_type == "application/json" for c in api.calls_to("getUpdates"))


def test_do_request_round_trip_keeps_unicode_and_nested_objects(api: FakeBotAPI) -> None:
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("换成 H100 <b>", callback_data="v1|t|g|H100")]])
    data = RequestData(
        [
            RequestParameter.from_input("chat_id", 42),
            RequestParameter.from_input("text", "7B模型 & <i>93,483</i> A100-hours"),
            RequestParameter.from_input("reply_markup", markup),
        ]
    )

    async def call() -> tuple[int, bytes]:
        async with AiohttpRequest() as request:
            return await request.do_request(f"{api.base_url}{TOKEN}/sendMessage", "POST", data)

    status, payload = asyncio.run(call())
    assert status == 200 and b'"ok": true' in payload
    [sent] = api.calls_to("sendMessage")
    assert sent.params["text"] == "7B模型 & <i>93,483</i> A100-hours"
    assert sent.params["reply_markup"]["inline_keyboard"][0][0]["text"] == "换成 H100 <b>"


def test_a_closed_port_is_a_network_error_not_a_crash() -> None:
    url = f"http://127.0.0.1:{_free_port()}/bot{TOKEN}/getMe"

    async def call() -> None:
        async with AiohttpRequest(connect_timeout=2.0) as request:
            await request.do_request(url, "POST")

    with pytest.raises(NetworkError, match="aiohttp"):
        asyncio.run(call())


@asynccontextmanager
async def _silent_server() -> AsyncIterator[int]:
    """A loopback server that accepts connections and never reads or answers; yields its port."""
    accepted: list[asyncio.StreamWriter] = []

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        for w in accepted:
            w.close()
        server.close()
        await server.wait_closed()


def test_a_server_that_never_answers_times_out_at_the_read_timeout() -> None:
    """PTB retries or reports TimedOut; the call must not hang past its read timeout."""

    async def call() -> None:
        async with _silent_server() as port, AiohttpRequest() as request:
            await request.do_request(f"http://127.0.0.1:{port}/bot{TOKEN}/getMe", "POST", read_timeout=0.3)

    with pytest.raises(TimedOut):
        asyncio.run(asyncio.wait_for(call(), 5))


def test_calls_before_initialize_and_double_shutdown() -> None:
    async def run() -> None:
        request = AiohttpRequest()
        with pytest.raises(RuntimeError, match="not initialized"):
            await request.do_request("http://127.0.0.1:1/x", "POST")
        await request.initialize()
        await request.shutdown()
        await request.shutdown()  # idempotent, as PTB's HTTPXRequest

    asyncio.run(run())


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop is not installed on Windows")
def test_the_bot_runs_on_uvloop_where_installed() -> None:
    import uvloop

    loop = tg.new_event_loop()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()


def test_proxy_comes_from_the_environment_and_no_proxy_is_honoured(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.corp:3128")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    request = AiohttpRequest()
    assert request._proxy_for(f"https://api.telegram.org/bot{TOKEN}/getMe") == "http://proxy.corp:3128"
    assert request._proxy_for("http://127.0.0.1:8081/bot/getMe") is None  # loopback, plain http
    assert AiohttpRequest()._proxy_for("https://localhost/bot/getMe") is None  # NO_PROXY


def _redirecting_server() -> tuple[object, str]:
    """A loopback HTTP server answering every request with a 302 to itself (a misconfigured proxy)."""
    import http.server
    import threading

    class Redirect(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.send_response(302)
            self.send_header("Location", self.path + "x")
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_POST

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/bot"


def test_redirects_are_not_followed_and_the_token_never_shows(
    tmp_path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """aiohttp follows redirects by default and puts the full URL (with the token) in its
    TooManyRedirects text; `sizing-bot run` must exit with one redacted line, no traceback."""
    from bot.config import BotSettings

    server, base_url = _redirecting_server()
    secret = "123456:SECRET-TOKEN-never-shown"
    try:

        async def call() -> int:
            async with AiohttpRequest() as request:
                status, _ = await request.do_request(f"{base_url}{secret}/getMe", "POST")
                return status

        assert asyncio.run(call()) == 302  # answered, not followed
        settings = BotSettings(
            telegram_bot_token=secret,
            telegram_base_url=base_url,
            telegram_base_file_url=base_url,
            db_path=tmp_path / "s.sqlite3",
            _env_file=None,
        )
        code = tg.run(settings)
    finally:
        server.shutdown()
    captured = capsys.readouterr()
    assert code in (1, 2)
    assert secret not in captured.err + captured.out + caplog.text
    assert "Traceback" not in captured.err


def test_network_error_text_has_no_path_and_no_proxy_password() -> None:
    from bot.tg_http import _without_secrets

    url = f"http://127.0.0.1:9/bot{TOKEN}/getMe"
    text = f"Cannot connect via http://user:pa55@proxy:3128 to {url} (path /bot{TOKEN}/getMe)"
    clean = _without_secrets(text, url)
    assert TOKEN not in clean and "pa55" not in clean
    assert "http://127.0.0.1:9/…" in clean and "//***@proxy:3128" in clean


def test_a_stalled_upload_ends_at_write_plus_read_timeout() -> None:
    """A server that accepts but never reads: a 40 MB photo must end in TimedOut, not hang."""
    from telegram import InputFile

    photo = InputFile(b"\x89PNG" + b"0" * 40_000_000, filename="chart.png")
    params = [RequestParameter.from_input("chat_id", 1), RequestParameter.from_input("photo", photo)]
    data = RequestData(params)

    async def call() -> None:
        async with _silent_server() as port, AiohttpRequest() as request:
            url = f"http://127.0.0.1:{port}/bot{TOKEN}/sendPhoto"
            await request.do_request(url, "POST", data, read_timeout=0.2, write_timeout=0.3)

    with pytest.raises(TimedOut):
        asyncio.run(asyncio.wait_for(call(), 10))


def test_socks_proxy_is_refused_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "https_proxy", "no_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.setenv("ALL_PROXY", "socks5://127.0.0.1:1080")
    with pytest.raises(NetworkError, match="socks5"):
        AiohttpRequest()._proxy_for(f"https://api.telegram.org/bot{TOKEN}/getMe")
