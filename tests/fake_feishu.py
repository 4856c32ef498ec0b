"""A fake Feishu / Lark on loopback, speaking the real long-connection protocol.

HTTP (tests/fake_feishu_http.py, stdlib ``ThreadingHTTPServer``): the long-connection endpoint, the
tenant token, messages (reply / send / PATCH a card), image and file upload, bot info. WebSocket
(``websockets`` server on its own event loop thread): ``pbbp2.Frame`` protobuf frames as in
lark_oapi/ws/client.py @ 4ad9e129: pong to each ping (optionally carrying a new ClientConfig),
data frames (headers type, message_id, trace_id, sum, seq) to one random live connection, acks
recorded; an event not acked within ``ack_timeout`` s is pushed again (Feishu: 3 s).

Fault injection: ``push(..., times=2)`` duplicate push, ``push(..., parts=3)`` split payload,
``lose_acks(n)`` the next acks are ignored (→ re-push), ``drop()`` aborts every socket, ``silence()``
makes the live sockets stop answering anything, ``rate_limit(path, reset)`` 429 with
``x-ogw-ratelimit-reset``, ``fail_endpoint(514)`` auth failure on the endpoint call,
``refuse_connections()`` the handshake refused as "too many connections" (headers
``handshake-status: 514``, ``handshake-autherrcode: 1000040350``), ``expire_tokens()``.

    with FakeFeishu() as fake:
        client = LongConnection(fake.app_id, fake.app_secret, handler, domain=fake.domain)
        fake.push(fake.group_message("@_user_1 7B 1T A100", mention_bot=True))
        await fake.until(lambda: len(fake.acks) == 1)
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from fake_feishu_http import FeishuHTTPHandler, HttpState
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

from bot.feishu.codec import Frame, FrameDecodeError, decode_frame, encode_frame


@dataclass
class Ack:
    """One acknowledgement the client sent back."""

    message_id: str
    code: int
    data: Any
    headers: dict[str, str]
    latency: float  # seconds from the (latest) push to the ack
    at: float = field(default_factory=time.monotonic)


@dataclass
class _Conn:
    ws: Any
    number: int
    silent: bool = False


@dataclass
class _Pending:
    message_id: str
    kind: str
    payload: bytes
    parts: int
    reverse: bool
    pushed_at: float = 0.0
    pushes: int = 0
    acked: bool = False


class FakeFeishu:
    """The fake server. Use as a context manager, or ``start()`` / ``stop()``."""

    def __init__(
        self,
        *,
        app_id: str = "cli_fake0123456789",
        app_secret: str = "fake-app-secret-DO-NOT-LOG",
        ping_interval: float = 0.3,
        reconnect_interval: float = 0.05,
        reconnect_nonce: float = 0.0,
        reconnect_count: int = -1,
        ack_timeout: float = 3.0,
        max_repush: int = 3,
        seed: int = 27,
    ) -> None:
        self.app_id, self.app_secret = app_id, app_secret
        self.client_config = {
            "PingInterval": ping_interval,
            "ReconnectCount": reconnect_count,
            "ReconnectInterval": reconnect_interval,
            "ReconnectNonce": reconnect_nonce,
        }
        self.ack_timeout, self.max_repush = ack_timeout, max_repush
        self.bot_open_id = "ou_bot0000000000000000000000000001"
        self.http = HttpState(app_id, app_secret, self.bot_open_id)
        self.http.ws_url = self._ws_url
        self.acks: list[Ack] = []
        self.lost_acks: list[str] = []
        self.pushes: list[tuple[str, int]] = []  # (message_id, connection number) per delivery
        self.pings = 0
        self.ping_frames: list[Frame] = []
        self.connections = 0
        self.pong_config: dict[str, Any] | None = None  # sent with every pong when set
        self._pending: dict[str, _Pending] = {}
        self._conns: list[_Conn] = []
        self._lose = 0
        self._refuse = 0
        self._ticket = "ticket-SECRET-abc123"
        self._rng = random.Random(seed)
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ws_port = 0
        self._threads: list[threading.Thread] = []
        self._httpd: ThreadingHTTPServer | None = None
        self._stop_ws: asyncio.Future[None] | None = None
        self._sending: set[asyncio.Future[None]] = set()

    # -- life cycle -------------------------------------------------------------------------------
    def start(self) -> FakeFeishu:
        state = self.http

        class Handler(FeishuHTTPHandler):
            pass

        Handler.state = state
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        ready = threading.Event()
        self._threads = [
            threading.Thread(target=self._httpd.serve_forever, name="fake-feishu-http", daemon=True),
            threading.Thread(target=self._run_ws, args=(ready,), name="fake-feishu-ws", daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        if not ready.wait(10):
            raise RuntimeError("fake Feishu WebSocket server did not start")
        return self

    def stop(self) -> None:
        if self._loop is not None and self._stop_ws is not None:
            self._loop.call_soon_threadsafe(self._stop_ws.set_result, None)
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        for thread in self._threads:
            thread.join(5)

    def __enter__(self) -> FakeFeishu:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def domain(self) -> str:
        assert self._httpd is not None
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def _run_ws(self, ready: threading.Event) -> None:
        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop_ws = self._loop.create_future()
            async with serve(
                self._serve, "127.0.0.1", 0, process_request=self._handshake, ping_interval=None
            ) as srv:
                self._ws_port = srv.sockets[0].getsockname()[1]
                ready.set()
                await self._stop_ws
                for conn in list(self._conns):
                    conn.ws.transport.abort()

        asyncio.run(main())

    def _ws_url(self) -> tuple[str, dict[str, Any]]:
        device = f"dev{next(self._ids)}"
        url = f"ws://127.0.0.1:{self._ws_port}/ws?device_id={device}&service_id=33&ticket={self._ticket}"
        return url, dict(self.client_config)

    # -- faults -----------------------------------------------------------------------------------
    def lose_acks(self, n: int = 1) -> None:
        """Ignore the next ``n`` acks, as if they were lost: the events are pushed again."""
        with self._lock:
            self._lose += n

    def refuse_connections(self, n: int = 1) -> None:
        """Refuse the next ``n`` handshakes as "too many connections" (514 / 1000040350)."""
        with self._lock:
            self._refuse += n

    def fail_endpoint(self, *codes: int) -> None:
        """The next endpoint calls answer these codes (514 auth failed, 1 busy, …)."""
        with self.http.lock:
            self.http.faults.endpoint_codes.extend(codes)

    def rate_limit(self, path_prefix: str, *resets: int) -> None:
        """The next calls under ``path_prefix`` get 429 / 99991400 with these reset seconds."""
        with self.http.lock:
            self.http.faults.rate_limits.setdefault(path_prefix, []).extend(resets)

    def expire_tokens(self) -> None:
        self.http.expire_tokens()

    def drop(self) -> None:
        """Abort every live socket (no close frame)."""
        self._call(lambda: [conn.ws.transport.abort() for conn in list(self._conns)])

    def silence(self) -> None:
        """The live sockets stay open but answer nothing and get no more events."""
        self._call(lambda: [setattr(conn, "silent", True) for conn in list(self._conns)])

    def _call(self, fn: Callable[[], Any]) -> None:
        assert self._loop is not None
        self._loop.call_soon_threadsafe(fn)

    # -- pushing events ---------------------------------------------------------------------------
    def push(
        self,
        event: dict[str, Any],
        *,
        kind: str = "event",
        times: int = 1,
        parts: int = 1,
        reverse: bool = False,
    ) -> str:
        """Push ``event`` ``times`` times (duplicates share the frame message id), split in ``parts``."""
        message_id = f"ws_msg_{next(self._ids)}"
        payload = json.dumps(event, ensure_ascii=False).encode()
        pending = _Pending(message_id, kind, payload, parts, reverse)
        with self._lock:
            self._pending[message_id] = pending
        for _ in range(times):
            self._call(lambda: self._deliver(pending))
        return message_id

    def _live(self) -> list[_Conn]:
        return [conn for conn in self._conns if not conn.silent]

    def _deliver(self, pending: _Pending) -> None:
        live = self._live()
        if not live:
            return  # re-pushed on the next connection
        conn = self._rng.choice(live)
        pending.pushes += 1
        pending.pushed_at = time.monotonic()
        self.pushes.append((pending.message_id, conn.number))
        size = -(-len(pending.payload) // pending.parts)
        chunks = [pending.payload[i * size : (i + 1) * size] for i in range(pending.parts)]
        order = range(pending.parts - 1, -1, -1) if pending.reverse else range(pending.parts)
        for seq in order:
            frame = Frame(
                seq_id=next(self._ids),
                log_id=self._rng.getrandbits(63),
                service=33,
                method=1,
                headers=[
                    ("type", pending.kind),
                    ("message_id", pending.message_id),
                    ("trace_id", f"trace-{pending.message_id}"),
                    ("sum", str(pending.parts)),
                    ("seq", str(seq)),
                ],
                payload=chunks[seq],
            )
            task = asyncio.ensure_future(self._send(conn, encode_frame(frame)))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)
        assert self._loop is not None
        self._loop.call_later(self.ack_timeout, self._check_ack, pending, pending.pushes)

    async def _send(self, conn: _Conn, data: bytes) -> None:
        with contextlib.suppress(ConnectionClosed):
            await conn.ws.send(data)

    def _check_ack(self, pending: _Pending, push: int) -> None:
        if pending.acked or pending.pushes != push or pending.pushes > self.max_repush:
            return
        self._deliver(pending)

    def _redeliver_unacked(self) -> None:
        for pending in list(self._pending.values()):
            overdue = time.monotonic() - pending.pushed_at > self.ack_timeout
            if not pending.acked and (pending.pushes == 0 or overdue):
                self._deliver(pending)

    # -- the socket -------------------------------------------------------------------------------
    def _handshake(self, connection: Any, request: Any) -> Any:
        query = parse_qs(urlsplit(request.path).query)
        if query.get("ticket") != [self._ticket]:
            response = connection.respond(HTTPStatus.FORBIDDEN, "bad ticket\n")
            response.headers["handshake-status"] = "403"
            response.headers["handshake-msg"] = "forbidden"
            return response
        with self._lock:
            refuse = self._refuse > 0
            self._refuse -= int(refuse)
        if refuse:
            response = connection.respond(HTTPStatus.BAD_REQUEST, "too many connections\n")
            response.headers["handshake-status"] = "514"
            response.headers["handshake-msg"] = "exceed connection limit"
            response.headers["handshake-autherrcode"] = "1000040350"
            return response
        return None

    async def _serve(self, ws: Any) -> None:
        self.connections += 1
        conn = _Conn(ws, self.connections)
        self._conns.append(conn)
        self._redeliver_unacked()
        try:
            async for message in ws:
                if conn.silent:
                    continue
                try:
                    frame = decode_frame(message)
                except FrameDecodeError:
                    continue
                if frame.method == 0 and frame.header("type") == "ping":
                    self.pings += 1
                    self.ping_frames.append(frame)
                    pong = Frame(service=frame.service, method=0, headers=[("type", "pong")])
                    if self.pong_config is not None:
                        pong.payload = json.dumps(self.pong_config).encode()
                    await ws.send(encode_frame(pong))
                elif frame.method == 1:
                    self._on_ack(frame)
        except ConnectionClosed:
            pass
        finally:
            self._conns.remove(conn)

    def _on_ack(self, frame: Frame) -> None:
        message_id = frame.header("message_id") or ""
        pending = self._pending.get(message_id)
        with self._lock:
            lose = self._lose > 0
            self._lose -= int(lose)
        if lose or pending is None:
            self.lost_acks.append(message_id)
            return
        body = json.loads(frame.payload or b"{}")
        latency = time.monotonic() - pending.pushed_at
        headers = dict(frame.headers)
        self.acks.append(Ack(message_id, body.get("code"), body.get("data"), headers, latency))
        if latency <= self.ack_timeout:
            pending.acked = True

    # -- waiting ----------------------------------------------------------------------------------
    async def until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        """Wait (in the test's event loop) until ``predicate()``; fails the test on timeout."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"condition not met within {timeout} s")
            await asyncio.sleep(0.01)

    # -- events -----------------------------------------------------------------------------------
    def _header(self, event_type: str) -> dict[str, Any]:
        return {
            "event_id": f"ev_{next(self._ids):08d}",
            "event_type": event_type,
            "create_time": str(int(time.time() * 1000)),
            "token": "",
            "app_id": self.app_id,
            "tenant_key": "tenant_fake",
        }

    def message_event(
        self,
        text: str,
        *,
        chat_type: str = "p2p",
        chat_id: str = "oc_p2p0001",
        user: str = "ou_user0001",
        mentions: list[tuple[str, str]] | None = None,
        parent_id: str = "",
        message_type: str = "text",
        content: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """``im.message.receive_v1``: ``text`` may hold ``@_user_N`` placeholders for ``mentions``
        (name, open_id) in order; content is a JSON *string*, as on the wire (``content`` replaces
        ``{"text": text}`` for other message types)."""
        message_id = f"om_in_{next(self._ids):06d}"
        return {
            "schema": "2.0",
            "header": self._header("im.message.receive_v1"),
            "event": {
                "sender": {
                    "sender_id": {"open_id": user, "union_id": f"on_{user}", "user_id": None},
                    "sender_type": "user",
                    "tenant_key": "tenant_fake",
                },
                "message": {
                    "message_id": message_id,
                    "root_id": parent_id,
                    "parent_id": parent_id,
                    "create_time": str(int(time.time() * 1000)),
                    "chat_id": chat_id,
                    "chat_type": chat_type,
                    "message_type": message_type,
                    "content": json.dumps(content or {"text": text}, ensure_ascii=False),
                    "mentions": [
                        {
                            "key": f"@_user_{i}",
                            "id": {"open_id": open_id},
                            "name": name,
                            "tenant_key": "tenant_fake",
                        }
                        for i, (name, open_id) in enumerate(mentions or [], start=1)
                    ],
                },
            },
        }

    def file_message(self, data: bytes, file_name: str, **kwargs: Any) -> dict[str, Any]:
        """A ``file`` message (content ``{"file_key", "file_name"}``); its bytes are served at
        ``GET /open-apis/im/v1/messages/:id/resources/:file_key?type=file``."""
        key = f"file_v3_in_{next(self._ids):06d}"
        content = {"file_key": key, "file_name": file_name}
        event = self.message_event("", message_type="file", content=content, **kwargs)
        with self.http.lock:
            self.http.resources[(event["event"]["message"]["message_id"], key)] = data
        return event

    def group_message(
        self, text: str, *, chat_id: str = "oc_group0001", mention_bot: bool = True, **kwargs: Any
    ) -> dict[str, Any]:
        """A group message; with ``mention_bot`` the bot is ``@_user_1``."""
        mentions = [("Sizing", self.bot_open_id)] if mention_bot else []
        return self.message_event(text, chat_type="group", chat_id=chat_id, mentions=mentions, **kwargs)

    def card_action(
        self,
        value: dict[str, Any],
        *,
        message_id: str,
        chat_id: str = "oc_group0001",
        user: str = "ou_user0001",
    ) -> dict[str, Any]:
        """``card.action.trigger``: a button whose ``behaviors`` carried callback ``value``."""
        return {
            "schema": "2.0",
            "header": self._header("card.action.trigger"),
            "event": {
                "operator": {"open_id": user, "tenant_key": "tenant_fake"},
                "token": f"c-{next(self._ids)}",
                "action": {"tag": "button", "value": value},
                "context": {"open_message_id": message_id, "open_chat_id": chat_id},
            },
        }
