"""DingTalk Stream mode (钉钉 Stream 模式): an outbound WebSocket, websockets + httpx, no SDK.

Protocol, as the official SDK implements it (github.com/open-dingtalk/dingtalk-stream-sdk-python at
commit 8d8bb1c630848fee1ae8c7bdd11bc1b78097b611: ``dingtalk_stream/stream.py``, ``frames.py``,
``handlers.py``) and issue 28 describes it:

* ``POST {endpoint}/v1.0/gateway/connections/open`` with ``{clientId, clientSecret, subscriptions:
  [{type: "CALLBACK", topic: "/v1.0/im/bot/messages/get"}], ua, localIp}`` → ``{endpoint, ticket}``;
  HTTP 400 / 401 / 403 (bad credentials, a refused request) are fatal here, anything else is retried.
* WebSocket ``{endpoint}?ticket=…`` with JSON text frames ``{specVersion, type SYSTEM|EVENT|CALLBACK,
  headers {topic, messageId, contentType, time}, data}`` (``data`` a JSON *string*).
* Every frame is acked with ``{code: 200, headers: {messageId, contentType}, message, data}``:
  SYSTEM ``ping`` echoes its ``data``; SYSTEM ``disconnect`` (the server is moving the connection) is
  acked, the socket closed and a new one opened at once; a CALLBACK's ``data`` is
  ``"{\\"response\\": null}"`` (nothing to answer inline: replies go through the session webhook).

Beyond the SDK, on purpose: the ack goes out *before* the handler runs, on the socket's task, and the
handler runs on a worker task (the SDK awaits the handler before acking); deliveries are deduped by
the bot message's ``msgId`` (and the frame's ``messageId``) in a store that survives restarts
(:class:`bot.feishu.seen.SqliteSeen`; the SDK caches acks 5 min in memory only), because DingTalk
re-pushes an unacked callback and does not re-send what a dropped socket missed (at most once + dedupe);
a silence watchdog: the client pings every ``watchdog_s / 3`` s and a socket that gave no frame and no
pong for ``watchdog_s`` s is aborted and reopened (silent dead sockets are the SDK's most reported
problem); reconnects back off 1, 2, 4 … 60 s plus up to 1 s of jitter (the SDK's constants) and start
again from 1 s after a connection that received frames; no local-IP probe (the SDK "connects" a UDP
socket to 8.8.8.8 to learn it: ``localIp`` is sent empty); the ticket never reaches the logs
(websockets' logger pinned at INFO, the URL logged without its query).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote_plus

import httpx
import websockets
from websockets.asyncio.client import connect as ws_connect

from bot.chat.reach import unreachable_line
from bot.chat.seen import seen_delivery
from bot.chat.warmup import on_connected
from bot.feishu.client import MemorySeen, Seen

log = logging.getLogger(__name__)
_ws_log = logging.getLogger(__name__ + ".ws")
_ws_log.setLevel(logging.INFO)  # at DEBUG websockets logs the request line, with the ticket

OPEN_PATH = "/v1.0/gateway/connections/open"
BOT_TOPIC = "/v1.0/im/bot/messages/get"
USER_AGENT = "sizing-bot (DingTalk Stream; websockets)"
WATCHDOG_S = 60.0
"""Default seconds of silence (no frame, no pong) after which the socket is reopened."""
BACKOFF_BASE_S, BACKOFF_MAX_S, BACKOFF_JITTER_S = 1.0, 60.0, 1.0
"""Reconnect delays: 1 × 2^attempt s, at most 60 s, plus 0–1 s (the SDK's RECONNECT_* constants)."""

Handler = Callable[[str, dict[str, Any]], Awaitable[None]]
"""``handler(topic, data)``: a callback's topic and its decoded ``data``."""


class StreamConnectError(Exception):
    """The gateway refused to open a connection; ``fatal`` ones (bad credentials) are not retried."""

    def __init__(self, status: int, msg: str, *, fatal: bool) -> None:
        super().__init__(f"HTTP {status}: {msg}")
        self.status, self.fatal = status, fatal


def ack_frame(message_id: str, data: str, message: str = "OK", code: int = 200) -> str:
    """The acknowledgement of one frame (frames.py ``AckMessage.to_dict``)."""
    headers = {"contentType": "application/json", "messageId": message_id}
    return json.dumps({"code": code, "headers": headers, "message": message, "data": data})


CHECK = "DINGTALK_ENDPOINT, the network / proxy and DINGTALK_CLIENT_ID / DINGTALK_CLIENT_SECRET"
"""What to check when the Stream gateway cannot be reached (named in the log line)."""


def backoff_delay(attempt: int) -> float:
    """Seconds before reconnect number ``attempt`` (0-based): 1, 2, 4 … ≤ 60, plus 0–1 s jitter."""
    delay = BACKOFF_BASE_S * (2 ** min(attempt, 16)) + random.uniform(0, BACKOFF_JITTER_S)
    return min(delay, BACKOFF_MAX_S)


def dedupe_keys(message_id: str, data: dict[str, Any]) -> list[str]:
    """Keys one delivery is known by, the deciding one first (:func:`bot.chat.seen.seen_delivery`):
    the bot message's ``msgId``, then the frame's ``messageId``."""
    keys = [f"dingtalk:msg:{data['msgId']}"] if data.get("msgId") else []
    return keys + ([f"dingtalk:frame:{message_id}"] if message_id else [])


class StreamConnection:
    """Keeps one Stream connection open, acks every frame at once, hands callbacks to ``handler``
    on worker tasks (at most ``workers`` at once), once per ``msgId``."""

    def __init__(
        self,
        client_id: str,
        client_secret: str,
        handler: Handler,
        *,
        endpoint: str = "https://api.dingtalk.com",
        seen: Seen | None = None,
        watchdog_s: float = WATCHDOG_S,
        workers: int = 8,
        topics: tuple[str, ...] = (BOT_TOPIC,),
        proxy: str | bool | None = True,
    ) -> None:
        self._id, self._secret, self._handler = client_id, client_secret, handler
        self.endpoint = endpoint.rstrip("/")
        self.seen = seen or MemorySeen()
        self.watchdog_s, self.topics, self._proxy = watchdog_s, topics, proxy
        self._slots = asyncio.Semaphore(workers)
        self._tasks: set[asyncio.Task[None]] = set()
        self._ws: Any = None
        self._last_rx = time.monotonic()
        self._stopping = False
        self._stopped = asyncio.Event()
        self.connections = 0  # sockets opened, for health and tests
        self.duplicates = 0  # deliveries dropped as already seen
        self.watchdog_fired = 0

    @property
    def connected(self) -> bool:
        return self._ws is not None

    async def run(self) -> None:
        """Connect and serve until :meth:`stop`; raises :class:`StreamConnectError` when fatal."""
        attempt = 0
        async with httpx.AsyncClient(timeout=10.0) as http:
            try:
                while not self._stopping:
                    unreachable: BaseException | None = None
                    try:
                        heard = await self._connect_and_serve(http)
                        attempt = 0 if heard else attempt + 1
                    except StreamConnectError as exc:
                        if exc.fatal:
                            log.error("dingtalk: the gateway refused the connection: %s", exc)
                            raise
                        log.warning("dingtalk: open failed: %s", exc)
                        attempt += 1
                    except (OSError, httpx.HTTPError, websockets.WebSocketException, TimeoutError) as exc:
                        unreachable = exc
                        attempt += 1
                    if self._stopping:
                        break
                    delay = backoff_delay(attempt) if attempt else 0.1
                    if unreachable is not None:
                        log.warning(unreachable_line("dingtalk", self.endpoint, unreachable, CHECK, delay))
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._stopped.wait(), delay)
            finally:
                if self._tasks:
                    await asyncio.gather(*self._tasks, return_exceptions=True)

    async def stop(self) -> None:
        """Close the socket; :meth:`run` returns once the handlers in flight finished."""
        self._stopping = True
        self._stopped.set()
        if self._ws is not None:
            await self._ws.close()

    async def open(self, http: httpx.AsyncClient) -> tuple[str, str]:
        """Ask the gateway for a connection → (WebSocket endpoint, ticket)."""
        body = {
            "clientId": self._id,
            "clientSecret": self._secret,
            "subscriptions": [{"type": "CALLBACK", "topic": t} for t in self.topics],
            "ua": USER_AGENT,
            "localIp": "",
        }
        resp = await http.post(self.endpoint + OPEN_PATH, json=body, headers={"Accept": "application/json"})
        if resp.status_code != 200:
            raise StreamConnectError(
                resp.status_code, _message(resp), fatal=resp.status_code in (400, 401, 403)
            )
        data = resp.json()
        if not isinstance(data, dict) or not data.get("endpoint") or not data.get("ticket"):
            raise StreamConnectError(resp.status_code, "no endpoint/ticket in the answer", fatal=False)
        return str(data["endpoint"]), str(data["ticket"])

    async def _connect_and_serve(self, http: httpx.AsyncClient) -> bool:
        """One connection, until it closes; whether any frame came on it."""
        endpoint, ticket = await self.open(http)
        ws = await ws_connect(
            f"{endpoint}?ticket={quote_plus(ticket)}",
            ping_interval=None,
            max_size=2**22,
            close_timeout=2,
            proxy=self._proxy,
            logger=_ws_log,
        )
        self.connections += 1
        log.info("dingtalk: connected to %s", endpoint.split("?", 1)[0])
        on_connected()  # the first answer as fast as the next (bot.chat.warmup)
        self._ws, self._last_rx, heard = ws, time.monotonic(), False
        if self._stopping:
            await ws.close()
        watchdog = asyncio.create_task(self._watchdog(ws))
        try:
            async for raw in ws:
                self._last_rx, heard = time.monotonic(), True
                if await self._on_frame(ws, raw):
                    break
        except websockets.ConnectionClosed as exc:
            log.warning("dingtalk: connection lost (close code %s)", exc.rcvd.code if exc.rcvd else "none")
        finally:
            watchdog.cancel()
            self._ws = None
            with contextlib.suppress(Exception):
                await ws.close()
        return heard

    async def _watchdog(self, ws: Any) -> None:
        """Ping every ``watchdog_s / 3`` s; abort the socket after ``watchdog_s`` s with no frame, no pong.
        A stall of our own loop (a sleep over a period late) restarts the count (frames unread)."""
        period = max(self.watchdog_s / 3, 0.05)
        while True:
            silent = time.monotonic() - self._last_rx
            if silent >= self.watchdog_s:
                self.watchdog_fired += 1
                log.warning("dingtalk: no frame for %.1f s, reconnecting", silent)
                ws.transport.abort()  # a silent peer may never answer a close handshake
                return
            with contextlib.suppress(websockets.ConnectionClosed):
                pong = await ws.ping()
                pong.add_done_callback(self._on_pong)
            delay = min(period, self.watchdog_s - silent + 0.01)
            due = time.monotonic() + delay
            await asyncio.sleep(delay)
            if time.monotonic() - due > period:  # our own loop stalled: frames may sit unread
                self._last_rx = max(self._last_rx, time.monotonic())  # not the peer's silence

    def _on_pong(self, fut: asyncio.Future[Any]) -> None:
        if not fut.cancelled() and fut.exception() is None:
            self._last_rx = time.monotonic()

    async def _on_frame(self, ws: Any, raw: str | bytes) -> bool:
        """Ack one frame and dispatch it; True when the server asked to disconnect."""
        try:
            frame = json.loads(raw)
        except ValueError:
            log.warning("dingtalk: a frame of %d bytes is not JSON", len(raw))
            return False
        if not isinstance(frame, dict):
            return False
        kind, headers = frame.get("type"), frame.get("headers") or {}
        message_id, topic = str(headers.get("messageId") or ""), str(headers.get("topic") or "")
        data = frame.get("data") if isinstance(frame.get("data"), str) else ""
        reply = data if kind in ("SYSTEM", "EVENT") else json.dumps({"response": None})
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(ack_frame(message_id, reply))
        if kind == "SYSTEM":
            if topic == "disconnect":
                log.info("dingtalk: the server asked to reconnect")
                return True
            return False
        if kind == "CALLBACK":
            self._dispatch(message_id, topic, data)
        return False

    def _dispatch(self, message_id: str, topic: str, data: str) -> None:
        try:
            body = json.loads(data)
        except ValueError:
            body = None
        if not isinstance(body, dict):
            log.warning("dingtalk: callback %s has no JSON object", message_id)
            return
        if seen_delivery(self.seen, dedupe_keys(message_id, body)):
            self.duplicates += 1
            return
        task = asyncio.create_task(self._work(topic, body))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _work(self, topic: str, body: dict[str, Any]) -> None:
        async with self._slots:
            try:
                await self._handler(topic, body)
            except Exception:
                log.exception("dingtalk: handler for %s failed", topic)


def _message(resp: httpx.Response) -> str:
    """The gateway's error message (``{code, message}``), never the request."""
    try:
        body = resp.json()
    except ValueError:
        return "no JSON"
    return str(body.get("message") or body.get("code") or "") if isinstance(body, dict) else ""
