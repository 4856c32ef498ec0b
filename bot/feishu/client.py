"""A thin asyncio client for Feishu / Lark's event long connection ("长连接"): websockets + httpx.

Protocol, as implemented by the official SDK (github.com/larksuite/oapi-sdk-python at commit
4ad9e129d02c02a1bcbb5acbb6635db299bfa69b: ``lark_oapi/ws/client.py``, ``const.py``, ``enum.py``,
``model.py``):

* ``POST {domain}/callback/ws/endpoint`` with ``{"AppID", "AppSecret"}`` answers
  ``{"code": 0, "data": {"URL": "wss://…?device_id=…&service_id=…", "ClientConfig": {…}}}``;
  code 1 (busy) and 1000040343 (internal) are retried per the ClientConfig; any other code
  (514: bad credentials) is a refusal; HTTP 429 / 99991400 waits ``x-ogw-ratelimit-reset`` seconds.
* ``ClientConfig``: ``ReconnectCount`` (-1 = forever), ``ReconnectInterval``, ``ReconnectNonce``
  (a random 0…nonce s delay before the first retry), ``PingInterval``; all in seconds, SDK defaults
  -1 / 120 / 30 / 120.
* Frames are ``pbbp2.Frame`` (:mod:`bot.feishu.codec`). Method 0 = control: the client pings every
  ``PingInterval`` with header ``type=ping`` and ``service`` = the URL's ``service_id``; a ``pong``
  may carry a new ClientConfig as JSON. Method 1 = data: headers ``type`` (event|card),
  ``message_id``, ``trace_id``, ``sum``, ``seq`` (0-based part index; parts are joined when all
  ``sum`` arrived, the SDK keeps them 5 s).
* Acknowledgement: the same frame sent back with a ``biz_rt`` header (ms) and payload
  ``{"code": 200, "headers": {…}, "data": base64(JSON)}`` (``data`` is a Go ``[]byte`` upstream).
  Feishu re-pushes an event not acked within 3 s, so this client acks *before* the handler runs
  and runs handlers on worker tasks, dropping duplicates by event id and message id (≥ 7 h).
  A card click's ack carries the callback response ``card_ack`` decides at once (a toast).
* A handshake refused with headers ``handshake-status: 514`` and ``handshake-autherrcode:
  1000040350`` (too many connections) or ``handshake-status: 403`` is a refusal.

Refusals (bad credentials, too many connections, forbidden) end the SDK's client; here they are
logged as one clear line naming the cause and the fix, and retried after :data:`REFUSED_BACKOFF_S`
(1 s doubling to 5 min, then every 5 min): a secret fixed in the console or a connection freed is
picked up without a restart, and a process supervisor never sees a crash loop.

Beyond the SDK: a liveness watchdog (no frame for 3 ping intervals → reconnect), no module-level
event loop (runs inside any running loop, uvloop included), secrets never logged (the endpoint URL
is logged without its query string).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

import httpx
import websockets
from websockets.asyncio.client import connect as ws_connect

from bot.chat.seen import seen_delivery
from bot.chat.warmup import on_connected
from bot.feishu.codec import METHOD_CONTROL, METHOD_DATA, Frame, FrameDecodeError, decode_frame, encode_frame

log = logging.getLogger(__name__)
# websockets logs the request line (with the URL's ticket) and every frame at DEBUG: keep its
# logger at INFO whatever the root level, so no secret or user text reaches the logs from there.
_ws_log = logging.getLogger(__name__ + ".ws")
_ws_log.setLevel(logging.INFO)

ENDPOINT_PATH = "/callback/ws/endpoint"
FEISHU_DOMAIN = "https://open.feishu.cn"
LARK_DOMAIN = "https://open.larksuite.com"
CODE_OK, CODE_BUSY, CODE_INTERNAL = 0, 1, 1000040343
AUTH_FAILED, FORBIDDEN, EXCEED_CONN_LIMIT = 514, 403, 1000040350
DEDUPE_TTL_S = 8 * 3600.0  # Feishu re-pushes up to ~6 h after the first push (issue 27): keep 8 h
WATCHDOG_PINGS = 3  # no frame for this many ping intervals → the socket is dead
PART_TTL_S = 5.0  # the SDK's ExpiringCache lifetime for split payloads
RATE_LIMIT_CODE = 99991400  # HTTP 429 / this code: wait ``x-ogw-ratelimit-reset`` s
REFUSED_BACKOFF_S = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 300.0)
"""Seconds before the n-th retry after a refusal in a row (then 300 s each time)."""

EventHandler = Callable[[str, dict[str, Any]], Awaitable[None]]
CardAck = Callable[[dict[str, Any]], "dict[str, Any] | None"]
"""What a card click's ack carries (``{"toast": …}``), decided at once, before the handler runs."""


class FeishuConnectError(Exception):
    """The long connection could not be opened. ``fatal``: refused (credentials, too many connections,
    forbidden): retried after :data:`REFUSED_BACKOFF_S`, not per the ClientConfig; ``retry_after``:
    seconds the server asked to wait (rate limited)."""

    def __init__(self, code: int, msg: str, *, fatal: bool, retry_after: float | None = None) -> None:
        super().__init__(f"{code}: {msg}")
        self.code, self.msg, self.fatal, self.retry_after = code, msg, fatal, retry_after


@dataclass
class ClientConfig:
    """The server's connection settings, seconds (SDK defaults)."""

    reconnect_count: int = -1
    reconnect_interval: float = 120.0
    reconnect_nonce: float = 30.0
    ping_interval: float = 120.0

    def update(self, raw: dict[str, Any] | None) -> None:
        """Apply the fields the server sent (``ReconnectCount`` …); missing ones keep their value."""
        if not isinstance(raw, dict):
            return
        names = {
            "ReconnectCount": "reconnect_count",
            "ReconnectInterval": "reconnect_interval",
            "ReconnectNonce": "reconnect_nonce",
            "PingInterval": "ping_interval",
        }
        for wire, attr in names.items():
            value = raw.get(wire)
            if isinstance(value, int | float) and not isinstance(value, bool):
                setattr(self, attr, int(value) if attr == "reconnect_count" else float(value))


class Seen(Protocol):
    """Dedupe store: ``seen(key)`` is True when ``key`` was seen before (and records it)."""

    def seen(self, key: str) -> bool: ...


class MemorySeen:
    """In-memory :class:`Seen` whose keys expire after ``ttl`` seconds (default 8 h)."""

    def __init__(self, ttl: float = DEDUPE_TTL_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl, self._clock = ttl, clock
        self._keys: dict[str, float] = {}  # key → expiry, in insertion (≈ expiry) order

    def seen(self, key: str) -> bool:
        now = self._clock()
        self._expire(now)
        if key in self._keys:
            return True
        self._keys[key] = now + self.ttl
        return False

    def _expire(self, now: float) -> None:
        while self._keys:
            key, expiry = next(iter(self._keys.items()))
            if expiry > now:
                return
            del self._keys[key]

    def __len__(self) -> int:
        return len(self._keys)


def dedupe_keys(event: dict[str, Any]) -> list[str]:
    """Keys one delivery is known by, the deciding one first (:func:`bot.chat.seen.seen_delivery`):
    for messages the message id (one message may come in two events), then the event id."""
    keys = []
    body = event.get("event") if isinstance(event.get("event"), dict) else {}
    message = body.get("message") if isinstance(body.get("message"), dict) else {}
    if message.get("message_id"):
        keys.append(f"message:{message['message_id']}")
    header = event.get("header") if isinstance(event.get("header"), dict) else {}
    if header.get("event_id"):
        keys.append(f"event:{header['event_id']}")
    if not keys and event.get("uuid"):  # schema 1.0 events
        keys.append(f"event:{event['uuid']}")
    return keys


def ack_payload(code: int = 200, data: dict[str, Any] | None = None, **headers: str) -> bytes:
    """The acknowledgement body: ``{"code", "headers", "data": base64(JSON)}``."""
    body = {
        "code": code,
        "headers": headers,
        "data": base64.b64encode(json.dumps(data or {}).encode()).decode("ascii"),
    }
    return json.dumps(body, separators=(",", ":")).encode()


class _Parts:
    """Split payloads waiting for their siblings, dropped after ``PART_TTL_S``."""

    def __init__(self) -> None:
        self._parts: dict[str, tuple[float, list[bytes | None]]] = {}

    def add(self, message_id: str, total: int, seq: int, data: bytes) -> bytes | None:
        now = time.monotonic()
        self._parts = {k: v for k, v in self._parts.items() if now - v[0] < PART_TTL_S}
        _, slots = self._parts.get(message_id, (now, [None] * total))
        if len(slots) != total or not 0 <= seq < total:
            log.warning("feishu: bad split header sum=%s seq=%s", total, seq)
            return None
        slots[seq] = data
        if any(part is None for part in slots):
            self._parts[message_id] = (now, slots)
            return None
        self._parts.pop(message_id, None)
        return b"".join(part for part in slots if part is not None)


class LongConnection:
    """Keeps one long connection open, acks every data frame at once, hands events to ``handler``.

    ``handler(kind, event)`` gets ``kind`` ``"event"`` or ``"card"`` and the decoded JSON; it runs on
    a worker task (at most ``workers`` at once), after the ack, once per event id / message id.
    """

    def __init__(
        self,
        app_id: str,
        app_secret: str,
        handler: EventHandler,
        *,
        domain: str = FEISHU_DOMAIN,
        seen: Seen | None = None,
        workers: int = 8,
        http: httpx.AsyncClient | None = None,
        proxy: str | bool | None = True,
        card_ack: CardAck | None = None,
    ) -> None:
        self._app_id, self._secret, self._handler = app_id, app_secret, handler
        self._card_ack = card_ack
        self.domain = domain.rstrip("/")
        self.seen = seen or MemorySeen()
        self.config = ClientConfig()
        self._http, self._own_http = http, http is None
        self._proxy = proxy
        self._slots = asyncio.Semaphore(workers)
        self._tasks: set[asyncio.Task[None]] = set()
        self._parts = _Parts()
        self._ws: Any = None
        self._service = 0
        self._last_rx = time.monotonic()
        self._stopping = False
        self._stopped = asyncio.Event()
        self.connections = 0  # successful connects, for health and tests
        self.duplicates = 0  # deliveries dropped as already seen

    async def run(self) -> None:
        """Connect and serve until :meth:`stop`; reconnects per the server's ClientConfig, retries
        refusals after :data:`REFUSED_BACKOFF_S` and rate limits after ``x-ogw-ratelimit-reset``.

        Raises :class:`FeishuConnectError` only when ``ReconnectCount`` tries in a row failed.
        """
        if self._http is None:
            self._http = httpx.AsyncClient(timeout=10.0)
        try:
            failures = refusals = 0
            while not self._stopping:
                delay: float | None = None
                try:
                    await self._connect_and_serve()
                    failures = refusals = 0
                except FeishuConnectError as exc:
                    if exc.retry_after is not None:
                        delay = exc.retry_after
                        log.warning("feishu: long connection rate limited, retrying in %.1f s", delay)
                    elif exc.fatal:
                        refusals += 1
                        delay = REFUSED_BACKOFF_S[min(refusals, len(REFUSED_BACKOFF_S)) - 1]
                        log.error("feishu: %s; retrying in %.0f s", refusal_text(exc), delay)
                    else:
                        failures += 1
                        log.warning("feishu: connect failed: %s", exc)
                except (OSError, httpx.HTTPError, websockets.WebSocketException, TimeoutError) as exc:
                    failures += 1
                    log.warning("feishu: connection error: %s", type(exc).__name__)
                if self._stopping:
                    break
                count = self.config.reconnect_count
                if count >= 0 and failures > count:
                    raise FeishuConnectError(CODE_BUSY, f"gave up after {failures} tries", fatal=True)
                if await self.wait_stopped(self._retry_delay(failures) if delay is None else delay):
                    break
        finally:
            await self._drain()

    async def wait_stopped(self, seconds: float) -> bool:
        """Wait ``seconds`` or until :meth:`stop`; whether it was stopped."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopped.wait(), seconds)
        return self._stopping

    def _retry_delay(self, failures: int) -> float:
        """Random 0…nonce before the first retry after a drop, then ``ReconnectInterval``."""
        if failures == 0:
            return random.uniform(0, max(self.config.reconnect_nonce, 0.0))
        return max(self.config.reconnect_interval, 0.0)

    @property
    def connected(self) -> bool:
        """Whether the socket is open now (for the heartbeat)."""
        return self._ws is not None

    async def stop(self) -> None:
        """Close the socket; :meth:`run` returns once handlers in flight finished."""
        self._stopping = True
        self._stopped.set()
        if self._ws is not None:
            await self._ws.close()

    async def endpoint(self) -> str:
        """Ask for a WebSocket URL; applies the ClientConfig that comes with it."""
        assert self._http is not None
        resp = await self._http.post(
            self.domain + ENDPOINT_PATH,
            json={"AppID": self._app_id, "AppSecret": self._secret},
            headers={"locale": "zh"},
        )
        body = _body(resp)
        code, msg = body.get("code"), str(body.get("msg", ""))
        if resp.status_code == 429 or code == RATE_LIMIT_CODE:
            wait = _reset_seconds(resp.headers, self.config.reconnect_interval)
            raise FeishuConnectError(RATE_LIMIT_CODE, msg or "rate limited", fatal=False, retry_after=wait)
        if resp.status_code != 200:
            raise FeishuConnectError(resp.status_code, "endpoint HTTP error", fatal=False)
        if code != CODE_OK:
            raise FeishuConnectError(int(code or -1), msg, fatal=code not in (CODE_BUSY, CODE_INTERNAL))
        data = body.get("data") or {}
        self.config.update(data.get("ClientConfig"))
        return str(data["URL"])

    async def _connect_and_serve(self) -> None:
        url = await self.endpoint()
        query = parse_qs(urlsplit(url).query)
        self._service = int((query.get("service_id") or ["0"])[0])
        safe_url = url.split("?", 1)[0]
        try:
            ws = await ws_connect(
                url, ping_interval=None, max_size=None, close_timeout=2, proxy=self._proxy, logger=_ws_log
            )
        except websockets.InvalidStatus as exc:
            raise _handshake_error(exc.response.headers, exc.response.status_code) from None
        self.connections += 1
        log.info("feishu: connected to %s", safe_url)
        on_connected()  # the first answer as fast as the next (bot.chat.warmup)
        self._ws, self._last_rx = ws, time.monotonic()
        if self._stopping:  # stop() came while connecting: it saw no socket to close
            await ws.close()
        pinger = asyncio.create_task(self._ping_loop(ws))
        try:
            async for message in ws:
                self._last_rx = time.monotonic()
                if isinstance(message, bytes):
                    await self._on_message(ws, message)
        except websockets.ConnectionClosed as exc:  # a drop after a good connect: retry after the nonce
            log.warning("feishu: connection lost (close code %s)", exc.rcvd.code if exc.rcvd else "none")
        finally:
            pinger.cancel()
            self._ws = None
            with contextlib.suppress(Exception):
                await ws.close()
            log.info("feishu: disconnected from %s", safe_url)

    async def _ping_loop(self, ws: Any) -> None:
        """Ping every ``PingInterval``; close the socket when nothing came for 3 intervals. A stall of
        our own loop (a sleep that ended over an interval late) restarts the count: frames that
        came meanwhile are still unread, the peer was not silent."""
        while True:
            interval = max(self.config.ping_interval, 0.05)
            silent = time.monotonic() - self._last_rx
            if silent > WATCHDOG_PINGS * interval:
                log.warning("feishu: no frame for %.1f s, reconnecting", silent)
                ws.transport.abort()  # a silent peer may never answer a close handshake
                return
            ping = Frame(service=self._service, method=METHOD_CONTROL, headers=[("type", "ping")])
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(encode_frame(ping))
            delay = min(interval, WATCHDOG_PINGS * interval - silent + 0.01)
            due = time.monotonic() + delay
            await asyncio.sleep(delay)
            if time.monotonic() - due > interval:  # our own loop stalled: frames may sit unread
                self._last_rx = max(self._last_rx, time.monotonic())  # not the peer's silence

    async def _on_message(self, ws: Any, message: bytes) -> None:
        try:
            frame = decode_frame(message)
        except FrameDecodeError:
            log.warning("feishu: undecodable frame of %d bytes", len(message))
            return
        if frame.method == METHOD_CONTROL:
            if frame.header("type") == "pong" and frame.payload:
                with contextlib.suppress(ValueError):
                    self.config.update(json.loads(frame.payload))
        elif frame.method == METHOD_DATA:
            await self._on_data(ws, frame)

    async def _on_data(self, ws: Any, frame: Frame) -> None:
        received = time.monotonic()
        payload = frame.payload or b""
        total, seq = _int(frame.header("sum"), 1), _int(frame.header("seq"), 0)
        if total > 1:
            joined = self._parts.add(frame.header("message_id") or "", total, seq, payload)
            if joined is None:
                return  # the SDK acks only the frame that completes the payload
            payload = joined
        kind = frame.header("type") or "event"
        try:
            event = json.loads(payload)
        except ValueError:
            event = None
        code = 200 if isinstance(event, dict) else 500
        data = self._ack_data(kind, event) if isinstance(event, dict) else None
        biz_rt = str(int((time.monotonic() - received) * 1000))
        frame.headers.append(("biz_rt", biz_rt))
        frame.payload = ack_payload(code, data, biz_rt=biz_rt)
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(encode_frame(frame))
        if not isinstance(event, dict):
            log.warning("feishu: data frame %s is not a JSON object", frame.header("message_id"))
            return
        keys = dedupe_keys(event) or [f"frame:{frame.header('message_id')}"]
        if seen_delivery(self.seen, keys):
            self.duplicates += 1
            return
        task = asyncio.create_task(self._work(kind, event))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _ack_data(self, kind: str, event: dict[str, Any]) -> dict[str, Any] | None:
        """The callback response a card click's ack carries (a toast), never raising."""
        if kind != "card" or self._card_ack is None:
            return None
        try:
            return self._card_ack(event)
        except Exception:
            log.exception("feishu: card ack failed")
            return None

    async def _work(self, kind: str, event: dict[str, Any]) -> None:
        async with self._slots:
            try:
                await self._handler(kind, event)
            except Exception:
                log.exception("feishu: %s handler failed", kind)

    async def _drain(self) -> None:
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._own_http and self._http is not None:
            await self._http.aclose()
            self._http = None


def _int(text: str | None, default: int) -> int:
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default


def _body(resp: httpx.Response) -> dict[str, Any]:
    try:
        body = resp.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _reset_seconds(headers: Any, default: float) -> float:
    """``x-ogw-ratelimit-reset``: seconds until the rate-limit window resets (≥ 0)."""
    try:
        return max(float(headers["x-ogw-ratelimit-reset"]), 0.0)
    except (KeyError, ValueError):
        return max(default, 0.0)


def refusal_text(exc: FeishuConnectError) -> str:
    """One line for the log: what was refused, why, and what to do (no secret in it)."""
    if exc.code == EXCEED_CONN_LIMIT:
        return (
            f"too many long connections for this app (code {exc.code}: {exc.msg}); Feishu allows 50 "
            "per app: stop other copies of the bot"
        )
    if exc.code == AUTH_FAILED:
        return (
            f"FEISHU_APP_ID / FEISHU_APP_SECRET refused (code {exc.code}: {exc.msg}): check them in the "
            "developer console and that the app is published"
        )
    return f"long connection refused (code {exc.code}: {exc.msg})"


def _handshake_error(headers: Any, status: int) -> FeishuConnectError:
    """The SDK's ``_parse_ws_conn_exception``: 403 and 514/1000040350 are refusals."""
    code, msg = headers.get("handshake-status"), headers.get("handshake-msg", "")
    if code is None:
        return FeishuConnectError(status, "handshake refused", fatal=False)
    code = _int(code, status)
    if code == AUTH_FAILED and _int(headers.get("handshake-autherrcode"), 0) == EXCEED_CONN_LIMIT:
        return FeishuConnectError(EXCEED_CONN_LIMIT, msg, fatal=True)
    if code == AUTH_FAILED:
        return FeishuConnectError(code, msg, fatal=False)
    return FeishuConnectError(code, msg, fatal=code == FORBIDDEN)
