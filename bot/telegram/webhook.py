"""The webhook server: Telegram's POSTs in, bounded against slow and hostile clients.

python-telegram-bot's tornado server read a request's whole body before checking the secret token
(five 90 MB posts without the secret: 109 → 758 MB), held a half-sent request open for minutes, and
with 1,100 slow connections ran out of file descriptors and logged a traceback per accept (issue 30).
This small asyncio HTTP/1.1 server does only what Telegram needs, in this order:

1. **Connection cap** -- at most :data:`MAX_CONNECTIONS` open connections (and never more than the
   file-descriptor limit less :data:`FD_RESERVE`). At the cap the oldest connection still sending
   its headers is dropped for the new one: slow clients cannot lock real updates out.
2. **Header timeout** -- the request line and headers (at most :data:`MAX_HEADER_BYTES`) must arrive
   within :data:`HEADER_TIMEOUT_S`.
3. **Path, method, secret** -- checked on the headers alone, before any of the body is read (the
   secret in constant time, ``X-Telegram-Bot-Api-Secret-Token``); refused: 403/404/405, body unread.
4. **Body** -- a ``Content-Length`` is required and at most :data:`MAX_BODY_BYTES` (Telegram's
   updates are a few KiB); it must arrive within :data:`BODY_TIMEOUT_S`.
5. **Update** -- a JSON object Telegram could have sent; anything else is a 400 and one WARNING line.

Every refusal is one log line, at most :data:`LOG_PER_S` a second (the rest counted and summed up);
no client input produces a traceback. Each connection serves one request and is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import resource
import signal
import time
from typing import Any

from telegram import Update

logger = logging.getLogger("bot.telegram.webhook")

MAX_BODY_BYTES = 1 << 20
"""1 MiB: a Telegram update is a few KiB (a message is at most 4,096 characters)."""
MAX_HEADER_BYTES = 16 * 1024
HEADER_TIMEOUT_S = 10.0
BODY_TIMEOUT_S = 10.0
MAX_CONNECTIONS = 512
"""Open connections at most (Telegram itself opens up to 40, setWebhook's max_connections)."""
FD_RESERVE = 128
"""File descriptors kept for everything else (databases, the Bot API client, logs)."""
LOG_PER_S = 5
"""Refusal lines logged per second at most."""
SECRET_HEADER = "x-telegram-bot-api-secret-token"

_REASONS = {
    200: "OK",
    400: "Bad Request",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    408: "Request Timeout",
    411: "Length Required",
    413: "Payload Too Large",
    431: "Request Header Fields Too Large",
}


def connection_cap(limit: int = MAX_CONNECTIONS) -> int:
    """``limit``, lowered below the soft file-descriptor limit (RLIMIT_NOFILE) less :data:`FD_RESERVE`."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return limit
    return max(8, min(limit, soft - FD_RESERVE))


class Refusals:
    """One log line per refused request, at most ``per_s`` a second; the rest are counted."""

    def __init__(self, per_s: int = LOG_PER_S) -> None:
        self.per_s = per_s
        self.total = 0
        self._second = 0
        self._logged = 0
        self._skipped = 0

    def __call__(self, peer: str, status: int, why: str, level: int = logging.INFO) -> None:
        self.total += 1
        second = int(time.monotonic())
        if second != self._second:
            if self._skipped:
                logger.warning("webhook: %d more refused request(s) not logged", self._skipped)
            self._second, self._logged, self._skipped = second, 0, 0
        if self._logged >= self.per_s:
            self._skipped += 1
            return
        self._logged += 1
        logger.log(level, "webhook: refused %s from %s: %s", status, peer, why)


class _Reject(Exception):
    def __init__(self, status: int, why: str, level: int = logging.INFO) -> None:
        super().__init__(why)
        self.status, self.why, self.level = status, why, level


class WebhookServer:
    """Serves ``path`` on ``listen``:``port``; each valid update goes to ``put`` (the update queue)."""

    def __init__(self, put: Any, bot: Any, path: str, secret: str | None, **limits: Any) -> None:
        self.put, self.bot = put, bot
        self.path = "/" + path.strip("/")
        self.secret = (secret or "").encode()
        self.max_body = limits.get("max_body", MAX_BODY_BYTES)
        self.header_timeout = limits.get("header_timeout", HEADER_TIMEOUT_S)
        self.body_timeout = limits.get("body_timeout", BODY_TIMEOUT_S)
        self.max_connections = connection_cap(limits.get("max_connections", MAX_CONNECTIONS))
        self.refused = Refusals()
        self.accepted = 0
        self.port = 0
        self._open: dict[asyncio.StreamWriter, bool] = {}  # writer → still reading its headers
        self._server: asyncio.Server | None = None

    async def start(self, listen: str, port: int) -> int:
        """Listen; returns the port (``port`` 0: a free one)."""
        self._server = await asyncio.start_server(
            self._serve, listen, port, limit=MAX_HEADER_BYTES, backlog=self.max_connections
        )
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def stop(self) -> None:
        if self._server is None:
            return
        self._server.close()
        for writer in list(self._open):
            writer.close()
        await self._server.wait_closed()
        self._server = None

    @property
    def connections(self) -> int:
        return len(self._open)

    def _make_room(self) -> None:
        """At the cap: drop the oldest connection still sending its headers (or the oldest)."""
        while len(self._open) >= self.max_connections:
            victim = next((w for w, reading in self._open.items() if reading), None)
            victim = victim or next(iter(self._open))
            self._open.pop(victim)
            victim.close()
            self.refused("-", 503, "connection cap reached: oldest idle connection dropped", logging.WARNING)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._make_room()
        self._open[writer] = True
        peer = _peer(writer)
        try:
            status = await self._request(reader, writer)
        except _Reject as err:
            self.refused(peer, err.status, err.why, err.level)
            status = err.status
        except (ConnectionError, asyncio.IncompleteReadError):
            status = 0  # the client went away
        except Exception as err:  # never a traceback for a client's request: one line
            self.refused(peer, 500, f"{type(err).__name__}: {err}", logging.WARNING)
            status = 500
        try:
            if status and not writer.is_closing():
                writer.write(_response(status))
                await asyncio.wait_for(writer.drain(), 5)
        except (ConnectionError, TimeoutError):
            pass
        finally:
            self._open.pop(writer, None)
            writer.close()

    async def _request(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> int:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self.header_timeout)
        except TimeoutError:
            raise _Reject(408, f"headers not complete within {self.header_timeout:g} s") from None
        except asyncio.LimitOverrunError:
            raise _Reject(431, f"headers over {MAX_HEADER_BYTES} bytes") from None
        method, target, headers = _parse_head(head)
        self._open[writer] = False
        self._check(method, target, headers)
        length = _content_length(headers, self.max_body)
        try:
            body = await asyncio.wait_for(reader.readexactly(length), self.body_timeout)
        except TimeoutError:
            raise _Reject(408, f"body not complete within {self.body_timeout:g} s") from None
        update = self._update(body)
        await self.put(update)
        self.accepted += 1
        return 200

    def _check(self, method: str, target: str, headers: dict[str, str]) -> None:
        if target.split("?", 1)[0] != self.path:
            raise _Reject(404, "unknown path")
        if method != "POST":
            raise _Reject(405, f"method {method[:16]!r}")
        given = headers.get(SECRET_HEADER, "").encode("utf-8", "replace")
        if self.secret and not hmac.compare_digest(given, self.secret):
            raise _Reject(403, "secret token missing or wrong (body not read)")

    def _update(self, body: bytes) -> Update:
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError) as err:
            raise _Reject(400, f"body is not JSON ({err})", logging.WARNING) from None
        if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
            raise _Reject(400, "body is not a Telegram update (no update_id)", logging.WARNING)
        try:
            update = Update.de_json(data, self.bot)
        except Exception as err:  # {"message": {}}: fields missing
            raise _Reject(400, f"malformed update ({type(err).__name__}: {err})", logging.WARNING) from None
        if update is None:
            raise _Reject(400, "empty update", logging.WARNING)
        return update


def _peer(writer: asyncio.StreamWriter) -> str:
    peer = writer.get_extra_info("peername")
    return f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) and len(peer) >= 2 else "?"


def _parse_head(head: bytes) -> tuple[str, str, dict[str, str]]:
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        raise _Reject(400, "not an HTTP/1.x request line")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep:
            raise _Reject(400, "malformed header line")
        headers[name.strip().lower()] = value.strip()
    return parts[0], parts[1], headers


def _content_length(headers: dict[str, str], cap: int) -> int:
    if "transfer-encoding" in headers:
        raise _Reject(411, "chunked bodies not accepted: Content-Length required")
    value = headers.get("content-length")
    if value is None or not value.isdigit():
        raise _Reject(411, "Content-Length required")
    length = int(value)
    if length > cap:
        raise _Reject(413, f"body of {length} bytes over the {cap}-byte cap (not read)")
    return length


def _response(status: int) -> bytes:
    reason = _REASONS.get(status, "Error")
    body = b"" if status == 200 else reason.encode()
    return (
        f"HTTP/1.1 {status} {reason}\r\nContent-Length: {len(body)}\r\n"
        f"Content-Type: text/plain\r\nConnection: close\r\n\r\n"
    ).encode() + body


async def serve_webhook(
    app: Any,
    *,
    listen: str,
    port: int,
    path: str,
    url: str,
    secret: str | None,
    stop: asyncio.Event | None = None,
    started: asyncio.Future[WebhookServer] | None = None,
    **limits: Any,
) -> None:
    """What ``Application.run_webhook`` does, with :class:`WebhookServer` in place of PTB's tornado
    server: initialize, ``post_init``, listen, ``setWebhook`` (with the secret), start; until ``stop``
    is set (SIGINT/SIGTERM set it) -- then stop, shut down and ``post_shutdown``. ``limits``: the
    server's (``max_body``, ``header_timeout``, ``body_timeout``, ``max_connections``)."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not main thread/Windows
            loop.add_signal_handler(sig, stop.set)
    await app.initialize()
    try:
        if app.post_init is not None:
            await app.post_init(app)
        server = WebhookServer(app.update_queue.put, app.bot, path, secret, **limits)
        await server.start(listen, port)
        try:
            await app.bot.set_webhook(url, secret_token=secret, allowed_updates=Update.ALL_TYPES)
            await app.start()
            if started is not None:
                started.set_result(server)
            try:
                await stop.wait()
            finally:
                await app.stop()
        finally:
            await server.stop()
    finally:
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
