"""A thin asyncio client for the WeCom smart robot (企业微信 智能机器人) long connection: websockets only.

Protocol (issue 28, from the official Beta SDK ``wecom-aibot-python-sdk`` 1.0.2 run against a loopback
fake, and developer.work.weixin.qq.com/document/path/101463):

* One WebSocket to ``wss://openws.work.weixin.qq.com``; every frame is JSON text
  ``{"cmd", "headers": {"req_id"}, "body"}``. Every command the client sends is acknowledged by a
  frame with the same ``req_id`` and an ``errcode`` (0 = ok) / ``errmsg`` (and a ``body`` for uploads).
* First ``aibot_subscribe {bot_id, secret}``; a non-zero errcode is fatal (bad credentials).
* ``ping`` every 30 s; two pings in a row without an ack = the connection is dead.
* Inbound: ``aibot_msg_callback`` (a message; ``body.msgid``) and ``aibot_event_callback``
  (``body.event.eventtype``: ``enter_chat``, ``template_card_event``, ``disconnected_event``). They
  are not acknowledged; a reply is a command carrying the callback's ``req_id``.
* A new connection of the same bot replaces the old one: the old one gets ``disconnected_event`` and
  is closed. One active connection per bot: on that event this client stops and does **not**
  reconnect (two processes reconnecting in turn would take the connection from each other forever);
  :meth:`WecomConnection.run` raises :class:`WecomReplaced`.

Beyond the SDK: a silence watchdog (no frame at all for :data:`WATCHDOG_PINGS` ping intervals → the
socket is aborted and reopened), reconnect with exponential backoff (1 s doubling to 30 s, reset by a
good subscribe), dedupe of callbacks by ``msgid`` (a re-push after a reconnect is not answered twice),
handlers on worker tasks (the socket loop never waits for an answer), no module-level event loop,
the secret never logged (websockets' logger pinned at INFO).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import websockets
from websockets.asyncio.client import connect as ws_connect

from bot.chat.reach import unreachable_line
from bot.chat.seen import Seen
from bot.chat.warmup import on_connected

log = logging.getLogger(__name__)
_ws_log = logging.getLogger(__name__ + ".ws")
_ws_log.setLevel(logging.INFO)  # at DEBUG websockets logs every frame: the subscribe carries the secret

WS_URL = "wss://openws.work.weixin.qq.com"
PING_INTERVAL_S = 30.0
"""Seconds between pings (the SDK's heartbeat interval)."""
MISSED_PINGS = 2
"""Pings in a row without an ack after which the connection is dead (issue 28)."""
WATCHDOG_PINGS = 3
"""No frame at all for this many ping intervals → the socket is dead (a silent peer)."""
REQUEST_TIMEOUT_S = 10.0
"""Seconds a command waits for its ack."""
BACKOFF_FIRST_S, BACKOFF_MAX_S = 1.0, 30.0
"""Reconnect delays: the first, doubled per failure up to the last."""
CHECK = "WECOM_WS_URL, the network / proxy and WECOM_BOT_ID / WECOM_BOT_SECRET"
"""What to check when the long connection cannot be opened (named in the log line)."""
MAX_FRAME = 4 * 1024 * 1024
"""Largest inbound frame accepted (a callback is a few KB; acks are small)."""

CALLBACKS = ("aibot_msg_callback", "aibot_event_callback")
FrameHandler = Callable[[dict[str, Any]], Awaitable[None]]


class WecomError(Exception):
    """A command acknowledged with a non-zero ``errcode``, or the connection refused."""

    def __init__(self, errcode: int, errmsg: str, *, fatal: bool = False) -> None:
        super().__init__(f"{errcode}: {errmsg}")
        self.errcode, self.errmsg, self.fatal = errcode, errmsg, fatal


class WecomReplaced(WecomError):
    """Another connection of this bot took over (``disconnected_event``): this one does not come back."""

    def __init__(self) -> None:
        super().__init__(
            0,
            "another connection of this bot took over (disconnected_event); not reconnecting, so that "
            "two processes do not take the connection from each other",
            fatal=True,
        )


def new_req_id(cmd: str) -> str:
    """A request id as the SDK makes them: the command, an underscore, 32 hex digits."""
    return f"{cmd}_{uuid.uuid4().hex}"


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def event_type(frame: dict[str, Any]) -> str:
    """``body.event.eventtype`` of an event callback ("" for anything else)."""
    return str(_dict(_dict(frame.get("body")).get("event")).get("eventtype") or "")


class WecomConnection:
    """Keeps the one long connection open and hands each callback to ``handler`` once.

    ``handler(frame)`` gets the decoded callback frame on a worker task (at most ``workers`` at once),
    once per ``msgid`` (``seen``). :meth:`request` sends a command and returns its ack.
    """

    def __init__(
        self,
        bot_id: str,
        secret: str,
        handler: FrameHandler,
        *,
        url: str = WS_URL,
        ping_interval: float = PING_INTERVAL_S,
        seen: Seen | None = None,
        workers: int = 8,
        proxy: str | bool | None = True,
    ) -> None:
        self._bot_id, self._secret, self._handler = bot_id, secret, handler
        self.url, self.ping_interval = url, ping_interval
        self.seen = seen or _MemorySeen()
        self._proxy = proxy
        self._slots = asyncio.Semaphore(workers)
        self._tasks: set[asyncio.Task[None]] = set()
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}  # req_id → its ack
        self._busy: dict[str, asyncio.Lock] = {}  # req_id → one command at a time (acks carry only it)
        self._ws: Any = None
        self._subscribed = False
        self._last_rx = time.monotonic()
        self._unacked_pings = 0
        self._stopping = False
        self._stopped = asyncio.Event()
        self.replaced = False
        self.connections = 0  # successful subscribes, for health and tests
        self.duplicates = 0  # callbacks dropped as already seen

    @property
    def connected(self) -> bool:
        """Whether the socket is open and subscribed now (for the heartbeat)."""
        return self._ws is not None and self._subscribed

    async def run(self) -> None:
        """Connect and serve until :meth:`stop`; reconnects with backoff. Raises :class:`WecomError`
        when the subscribe is refused and :class:`WecomReplaced` when another connection took over."""
        failures = 0
        try:
            while not self._stopping:
                unreachable: BaseException | None = None
                try:
                    await self._connect_and_serve()
                    failures = 0  # it was up (or is stopping): the next try comes after the first delay
                except WecomError as exc:
                    if exc.fatal:
                        log.error("wecom: %s", exc)
                        raise
                    failures += 1
                    log.warning("wecom: %s", exc)
                except (OSError, websockets.WebSocketException, TimeoutError) as exc:
                    failures += 1
                    unreachable = exc
                if self._stopping:
                    break
                delay = min(BACKOFF_FIRST_S * 2 ** max(failures - 1, 0), BACKOFF_MAX_S)
                if unreachable is not None:
                    log.warning(unreachable_line("wecom", self.url, unreachable, CHECK, delay))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopped.wait(), delay)
        finally:
            await self._drain()

    async def stop(self) -> None:
        """Close the socket; :meth:`run` returns once handlers in flight finished."""
        self._stopping = True
        self._stopped.set()
        if self._ws is not None:
            await self._ws.close()

    async def request(
        self, cmd: str, body: dict[str, Any], *, req_id: str | None = None, timeout: float = REQUEST_TIMEOUT_S
    ) -> dict[str, Any]:
        """Send ``cmd`` with ``body`` (and ``req_id``: a callback's, to reply to it); its ack frame.
        Raises :class:`WecomError` on a non-zero errcode, ``ConnectionError`` when not connected."""
        ws = self._ws
        if ws is None or not self._subscribed:
            raise ConnectionError("wecom: not connected")
        req_id = req_id or new_req_id(cmd)
        lock = self._busy.setdefault(req_id, asyncio.Lock())
        try:
            async with lock:
                return await self._call(ws, cmd, body, req_id, timeout)
        finally:
            if not lock.locked():
                self._busy.pop(req_id, None)

    async def _call(
        self, ws: Any, cmd: str, body: dict[str, Any], req_id: str, timeout: float
    ) -> dict[str, Any]:
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[req_id] = future
        try:
            frame = {"cmd": cmd, "headers": {"req_id": req_id}, "body": body}
            await ws.send(json.dumps(frame, ensure_ascii=False))
            ack = await asyncio.wait_for(future, timeout)
        finally:
            self._pending.pop(req_id, None)
        code = ack.get("errcode", 0)
        if code not in (0, None):
            raise WecomError(int(code), str(ack.get("errmsg") or ""))
        return ack

    async def _connect_and_serve(self) -> None:
        ws = await ws_connect(
            self.url,
            ping_interval=None,
            max_size=MAX_FRAME,
            close_timeout=2,
            proxy=self._proxy,
            logger=_ws_log,
        )
        self._ws, self._last_rx, self._unacked_pings = ws, time.monotonic(), 0
        reader = asyncio.create_task(self._read(ws))
        pinger: asyncio.Task[None] | None = None
        try:
            if self._stopping:
                return
            await self._subscribe(ws)
            self.connections += 1
            log.info("wecom: connected to %s", self.url.split("?", 1)[0])
            on_connected()  # the first answer as fast as the next (bot.chat.warmup)
            pinger = asyncio.create_task(self._ping_loop(ws))
            await reader
        finally:
            for task in (reader, pinger):
                if task is not None:
                    task.cancel()
            self._ws, self._subscribed = None, False
            with contextlib.suppress(Exception):
                await ws.close()
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("wecom: connection closed"))
        if self.replaced:
            raise WecomReplaced()

    async def _subscribe(self, ws: Any) -> None:
        body = {"bot_id": self._bot_id, "secret": self._secret}
        try:
            await self._call(ws, "aibot_subscribe", body, new_req_id("aibot_subscribe"), REQUEST_TIMEOUT_S)
        except WecomError as exc:
            raise WecomError(exc.errcode, f"subscribe refused: {exc.errmsg}", fatal=True) from None
        except ConnectionError:
            raise OSError("closed during subscribe") from None
        self._subscribed = True

    async def _read(self, ws: Any) -> None:
        try:
            async for message in ws:
                self._last_rx = time.monotonic()
                try:
                    frame = json.loads(message)
                except ValueError:
                    log.warning("wecom: a frame that is not JSON (%d bytes)", len(message))
                    continue
                if isinstance(frame, dict):
                    self._on_frame(ws, frame)
        except websockets.ConnectionClosed as exc:
            log.warning("wecom: connection lost (close code %s)", exc.rcvd.code if exc.rcvd else "none")

    def _on_frame(self, ws: Any, frame: dict[str, Any]) -> None:
        cmd, req_id = str(frame.get("cmd") or ""), str(_dict(frame.get("headers")).get("req_id") or "")
        if cmd not in CALLBACKS:  # an ack: of a ping, or of a command someone awaits
            if req_id.startswith("ping"):
                self._unacked_pings = 0
            future = self._pending.get(req_id)
            if future is not None and not future.done():
                future.set_result(frame)
            return
        if event_type(frame) == "disconnected_event":
            log.error("wecom: another connection of this bot took over; this one stops")
            self.replaced = self._stopping = True
            self._stopped.set()
            ws.transport.abort()
            return
        msgid = str(_dict(frame.get("body")).get("msgid") or "")
        if msgid and self.seen.seen(f"wecom:{msgid}"):
            self.duplicates += 1
            return
        task = asyncio.create_task(self._work(frame))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _ping_loop(self, ws: Any) -> None:
        """Ping every interval; abort the socket after two unanswered pings or a silent spell. After
        a stall of our own loop the silence counts from its end (from its start, a 1 s stall read as
        1.3 s of silence)."""
        interval = max(self.ping_interval, 0.05)
        while True:
            due = time.monotonic() + interval
            await asyncio.sleep(interval)
            if time.monotonic() - due > interval / 2:  # our own loop stalled: frames may be unread
                self._last_rx = max(self._last_rx, time.monotonic())  # nor is it the peer's silence
                continue
            silent = time.monotonic() - self._last_rx
            if self._unacked_pings >= MISSED_PINGS or silent > WATCHDOG_PINGS * interval:
                log.warning(
                    "wecom: %d pings unanswered, %.1f s silent: reconnecting", self._unacked_pings, silent
                )
                ws.transport.abort()  # a silent peer may never answer a close handshake
                return
            self._unacked_pings += 1
            frame = {"cmd": "ping", "headers": {"req_id": new_req_id("ping")}}
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(json.dumps(frame))

    async def _work(self, frame: dict[str, Any]) -> None:
        async with self._slots:
            try:
                await self._handler(frame)
            except Exception:
                log.exception("wecom: callback handler failed")

    async def _drain(self) -> None:
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)


class _MemorySeen:
    """In-memory :class:`~bot.chat.seen.Seen` (tests and a deployment without a settings file)."""

    def __init__(self) -> None:
        self._keys: dict[str, None] = {}

    def seen(self, key: str) -> bool:
        if key in self._keys:
            return True
        self._keys[key] = None
        while len(self._keys) > 100_000:
            self._keys.pop(next(iter(self._keys)))
        return False
