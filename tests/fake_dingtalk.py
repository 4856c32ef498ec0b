"""A fake DingTalk on loopback, speaking Stream mode and the robot HTTP APIs (issue 28).

HTTP (stdlib ``ThreadingHTTPServer``; one server plays both ``api.dingtalk.com`` and
``oapi.dingtalk.com``): ``POST /v1.0/gateway/connections/open`` (clientId / clientSecret →
``{endpoint, ticket}``, 401 ``InvalidAuthentication`` otherwise), ``POST /v1.0/oauth2/accessToken``
(appKey / appSecret → ``{accessToken, expireIn}``), the session webhook ``POST
/robot/sendBySession?session=…`` (``{errcode: 0}``; an expired session answers a non-zero errcode),
``POST /v1.0/robot/groupMessages/send`` and ``/v1.0/robot/oToMessages/batchSend`` (header
``x-acs-dingtalk-access-token``; ``msgParam`` a JSON string → ``{processQueryKey}``), and ``POST
/media/upload?access_token=…`` (multipart ``type``, ``media`` → ``{errcode: 0, media_id}``).

WebSocket (``websockets`` server on its own loop thread): ``{endpoint}?ticket=…`` (each ticket once),
JSON text frames as in the SDK (dingtalk_stream/frames.py): CALLBACK frames on
``/v1.0/im/bot/messages/get`` with ``data`` a JSON string, SYSTEM ``ping`` every ``ping_interval`` s
(the ack must echo its data), acks recorded.

Callback cards: ``POST /v1.0/card/instances/createAndDeliver`` (recorded in ``cards`` by outTrackId,
``{create, updates}``) and ``PUT /v1.0/card/instances`` (appended to that card's ``updates``; an
unknown outTrackId answers 400), both with the access-token header; ``click(track, key)`` pushes the
CALLBACK frame on ``/v1.0/card/instances/callback`` that a button with ``params {action: key}`` sends;
``refuse_cards = True`` makes createAndDeliver answer 400 (a wrong template id).

Fault injection: ``push(data, times=2)`` duplicate push (same frame, same msgId), ``drop()`` aborts
every socket, ``silence()`` the live sockets stay open but send nothing and read nothing (no pong to
a WebSocket ping: the reader is paused), ``disconnect()`` SYSTEM disconnect, ``expire_sessions()``
every session webhook issued so far refuses (while its ``sessionWebhookExpiredTime`` still looks
valid), ``message(..., expires_in=-1)`` a webhook already past its expiry time.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.parser
import email.policy
import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, parse_qsl, urlsplit

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

BOT_TOPIC = "/v1.0/im/bot/messages/get"
CARD_TOPIC = "/v1.0/card/instances/callback"
SESSION_EXPIRED = 300001  # the fake's errcode for a dead session webhook (the bot reads any non-zero)


@dataclass
class Ack:
    message_id: str
    code: int
    data: str
    connection: int
    at: float = field(default_factory=time.monotonic)


@dataclass
class Sent:
    """One message the bot sent: ``via`` webhook or openapi; ``kind`` the msgtype or msgKey."""

    via: str
    kind: str
    chat: str  # the conversationId (webhook: of the session; OpenAPI: openConversationId or userIds[0])
    body: dict[str, Any]  # the webhook body, or the decoded msgParam
    at: float = field(default_factory=time.monotonic)


@dataclass
class _Conn:
    ws: Any
    number: int
    silent: bool = False


def _multipart(body: bytes, content_type: str) -> dict[str, Any]:
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body
    )
    out: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True) or b""
        out[name] = payload if part.get_filename() is not None else payload.decode()
        if part.get_filename() is not None:
            out[name + "_filename"] = part.get_filename()
    return out


class FakeDingTalk:
    """The fake server. Use as a context manager."""

    def __init__(
        self,
        *,
        client_id: str = "dingfake0123456789",
        client_secret: str = "fake-dingtalk-secret-DO-NOT-LOG",
        ping_interval: float = 0.5,
    ) -> None:
        self.client_id, self.client_secret, self.ping_interval = client_id, client_secret, ping_interval
        self.lock = threading.Lock()
        self.acks: list[Ack] = []
        self.ping_echoes: list[bool] = []  # per ping ack: did it echo the ping's data
        self.sent: list[Sent] = []
        self.uploads: dict[str, dict[str, Any]] = {}  # media_id → {type, media, filename}
        self.calls: list[tuple[str, str]] = []  # (method, path) of every HTTP request
        self.connections = 0
        self.opens = 0
        self.sessions: dict[str, str] = {}  # session → conversationId
        self.expired: set[str] = set()
        self.tokens: set[str] = set()
        self.subscriptions: list[list[dict[str, Any]]] = []  # per gateway open
        self.refuse_cards = False  # createAndDeliver answers 400 (a wrong template id, no permission)
        self.cards: dict[str, dict[str, Any]] = {}  # outTrackId → {create: body, updates: [body…]}
        self._tickets: set[str] = set()
        self._pending: list[str] = []  # frames waiting for a live connection
        self._conns: list[_Conn] = []
        self._ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_ws: asyncio.Future[None] | None = None
        self._ws_port = 0
        self._httpd: ThreadingHTTPServer | None = None
        self._threads: list[threading.Thread] = []
        self._sending: set[asyncio.Future[None]] = set()

    # -- life cycle -------------------------------------------------------------------------------
    def __enter__(self) -> FakeDingTalk:
        fake = self

        class Handler(_Handler):
            pass

        Handler.fake = fake
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        ready = threading.Event()
        self._threads = [
            threading.Thread(target=self._httpd.serve_forever, name="fake-dingtalk-http", daemon=True),
            threading.Thread(target=self._run_ws, args=(ready,), name="fake-dingtalk-ws", daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        if not ready.wait(10):
            raise RuntimeError("fake DingTalk WebSocket server did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop is not None and self._stop_ws is not None:
            self._loop.call_soon_threadsafe(self._stop_ws.set_result, None)
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        for thread in self._threads:
            thread.join(5)

    @property
    def endpoint(self) -> str:
        assert self._httpd is not None
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def new_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids):06d}"

    def _run_ws(self, ready: threading.Event) -> None:
        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop_ws = self._loop.create_future()
            async with serve(
                self._serve, "127.0.0.1", 0, process_request=self._handshake, ping_interval=None
            ) as srv:
                self._ws_port = srv.sockets[0].getsockname()[1]
                ready.set()
                pinger = asyncio.ensure_future(self._ping_loop())
                await self._stop_ws
                pinger.cancel()
                for conn in list(self._conns):
                    conn.ws.transport.abort()

        asyncio.run(main())

    def open_connection(self) -> dict[str, str]:
        ticket = self.new_id("ticket-SECRET-")
        with self.lock:
            self._tickets.add(ticket)
            self.opens += 1
        return {"endpoint": f"ws://127.0.0.1:{self._ws_port}/connect", "ticket": ticket}

    # -- messages the bot receives ------------------------------------------------------------------
    def message(
        self,
        text: str,
        *,
        group: bool = True,
        at_bot: bool = True,
        conversation_id: str | None = None,
        staff_id: str = "staff0001",
        expires_in: float = 5400.0,
        is_admin: bool = False,
    ) -> dict[str, Any]:
        """A bot-message callback's data; ``expires_in`` s until its session webhook expires."""
        conversation = conversation_id or ("cidGroupFake001==" if group else "cidSingleFake001==")
        session = self.new_id("sess")
        with self.lock:
            self.sessions[session] = conversation
        return {
            "conversationId": conversation,
            "atUsers": [{"dingtalkId": "$:LWCP_v1:$bot"}] if group and at_bot else [],
            "chatbotCorpId": "dingcorp",
            "chatbotUserId": "$:LWCP_v1:$bot",
            "msgId": self.new_id("msgFake"),
            "senderNick": "张三",
            "isAdmin": is_admin,
            "senderStaffId": staff_id,
            "sessionWebhookExpiredTime": int((time.time() + expires_in) * 1000),
            "createAt": int(time.time() * 1000),
            "senderCorpId": "dingcorp",
            "conversationType": "2" if group else "1",
            "senderId": f"$:LWCP_v1:${staff_id}",
            "conversationTitle": "售前群" if group else "",
            "isInAtList": bool(group and at_bot),
            "sessionWebhook": f"{self.endpoint}/robot/sendBySession?session={session}",
            "text": {"content": f" {text}"},
            "robotCode": self.client_id,
            "msgtype": "text",
        }

    def click(self, track: str, key: str, *, user: str = "staff0001") -> str:
        """A click on a card's button whose params are ``{action: key}`` (the card callback frame)."""
        content = {"cardPrivateData": {"actionIds": ["action"], "params": {"action": key}}}
        data = {
            "extension": "{}",
            "corpId": "dingcorp",
            "type": "actionCallback",
            "outTrackId": track,
            "userId": user,
            "content": json.dumps(content),
        }
        return self.push(data, topic=CARD_TOPIC)

    def push(self, data: dict[str, Any], *, times: int = 1, topic: str = BOT_TOPIC) -> str:
        """Push a callback ``times`` times (the same frame: a re-push); returns the frame's messageId."""
        message_id = self.new_id("frame-")
        headers = {
            "appId": "fake-app",
            "connectionId": "fake-conn",
            "contentType": "application/json",
            "messageId": message_id,
            "time": str(int(time.time() * 1000)),
            "topic": topic,
        }
        frame = json.dumps(
            {"specVersion": "1.0", "type": "CALLBACK", "headers": headers, "data": json.dumps(data)}
        )
        for _ in range(times):
            self._call(lambda: self._deliver(frame))
        return message_id

    def _deliver(self, frame: str) -> None:
        live = [c for c in self._conns if not c.silent]
        if not live:
            self._pending.append(frame)
            return
        self._spawn(self._send(live[-1], frame))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, conn: _Conn, frame: str) -> None:
        with contextlib.suppress(ConnectionClosed):
            await conn.ws.send(frame)

    # -- faults -----------------------------------------------------------------------------------
    def drop(self) -> None:
        """Abort every live socket (no close frame)."""
        self._call(lambda: [c.ws.transport.abort() for c in list(self._conns)])

    def silence(self) -> None:
        """The live sockets stay open, but send nothing and read nothing (no pongs)."""

        def mute() -> None:
            for conn in self._conns:
                conn.silent = True
                conn.ws.transport.pause_reading()

        self._call(mute)

    def disconnect(self) -> None:
        """SYSTEM ``disconnect`` on every live socket (the server moves the connection)."""
        self._call(lambda: [self._system(c, "disconnect") for c in self._conns if not c.silent])

    def expire_sessions(self) -> None:
        """Every session webhook issued so far refuses from now on."""
        with self.lock:
            self.expired |= set(self.sessions)

    def _call(self, fn: Any) -> None:
        assert self._loop is not None
        self._loop.call_soon_threadsafe(fn)

    # -- the socket -------------------------------------------------------------------------------
    def _handshake(self, connection: Any, request: Any) -> Any:
        ticket = (parse_qs(urlsplit(request.path).query).get("ticket") or [""])[0]
        with self.lock:
            known = ticket in self._tickets
            self._tickets.discard(ticket)
        if not known:
            return connection.respond(HTTPStatus.UNAUTHORIZED, "bad ticket\n")
        return None

    def _system(self, conn: _Conn, topic: str) -> None:
        headers = {"contentType": "application/json", "messageId": self.new_id("sys-"), "topic": topic}
        data = json.dumps({"opaque": headers["messageId"]})
        frame = json.dumps({"specVersion": "1.0", "type": "SYSTEM", "headers": headers, "data": data})
        self._spawn(self._send(conn, frame))

    async def _ping_loop(self) -> None:
        while True:
            await asyncio.sleep(self.ping_interval)
            for conn in list(self._conns):
                if not conn.silent:
                    self._system(conn, "ping")

    async def _serve(self, ws: Any) -> None:
        with self.lock:
            self.connections += 1
            conn = _Conn(ws, self.connections)
        self._conns.append(conn)
        pending, self._pending = self._pending, []
        for frame in pending:
            self._deliver(frame)
        try:
            async for raw in ws:
                self._on_ack(conn, raw)
        except ConnectionClosed:
            pass
        finally:
            self._conns.remove(conn)

    def _on_ack(self, conn: _Conn, raw: Any) -> None:
        ack = json.loads(raw)
        message_id = ack["headers"]["messageId"]
        with self.lock:
            self.acks.append(Ack(message_id, ack["code"], ack["data"], conn.number))
            if message_id.startswith("sys-"):
                self.ping_echoes.append(json.loads(ack["data"]) == {"opaque": message_id})


class _Handler(BaseHTTPRequestHandler):
    fake: FakeDingTalk

    def log_message(self, *args: object) -> None:
        pass

    def do_PUT(self) -> None:
        self.do_POST("PUT")

    def do_POST(self, method: str = "POST") -> None:
        split = urlsplit(self.path)
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        kind = self.headers.get("Content-Type", "")
        body = _multipart(raw, kind) if "multipart/form-data" in kind else (json.loads(raw) if raw else {})
        with self.fake.lock:
            self.fake.calls.append((method, split.path))
        if method == "PUT":
            status, answer = self._card_update(split.path, body)
        else:
            status, answer = self._route(split.path, dict(parse_qsl(split.query)), body)
        data = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _route(self, path: str, query: dict[str, str], body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        fake = self.fake
        if path == "/v1.0/gateway/connections/open":
            if body.get("clientId") != fake.client_id or body.get("clientSecret") != fake.client_secret:
                return 401, {"code": "InvalidAuthentication", "message": "clientId or clientSecret is wrong"}
            with fake.lock:
                fake.subscriptions.append(list(body.get("subscriptions") or []))
            return 200, fake.open_connection()
        if path == "/v1.0/oauth2/accessToken":
            if body.get("appKey") != fake.client_id or body.get("appSecret") != fake.client_secret:
                return 400, {"code": "invalidClientIdOrSecret", "message": "bad appKey/appSecret"}
            token = fake.new_id("at-SECRET-")
            with fake.lock:
                fake.tokens.add(token)
            return 200, {"accessToken": token, "expireIn": 7200}
        if path == "/robot/sendBySession":
            return self._webhook(query.get("session", ""), body)
        token = (
            query.get("access_token")
            if path == "/media/upload"
            else self.headers.get("x-acs-dingtalk-access-token")
        )
        if token not in fake.tokens:
            return 401, {"code": "InvalidAuthentication", "message": "access token invalid"}
        if path == "/media/upload":
            media_id = fake.new_id("@lADPfake")
            with fake.lock:
                fake.uploads[media_id] = {
                    "type": body.get("type"),
                    "media": body.get("media"),
                    "filename": body.get("media_filename"),
                }
            return 200, {"errcode": 0, "errmsg": "ok", "media_id": media_id, "type": body.get("type")}
        if path in ("/v1.0/robot/groupMessages/send", "/v1.0/robot/oToMessages/batchSend"):
            chat = body.get("openConversationId") or (body.get("userIds") or [""])[0]
            sent = Sent(
                "openapi", str(body.get("msgKey")), str(chat), json.loads(body.get("msgParam") or "{}")
            )
            with fake.lock:
                fake.sent.append(sent)
            return 200, {"processQueryKey": fake.new_id("pqk")}
        if path == "/v1.0/card/instances/createAndDeliver":
            if fake.refuse_cards:
                return 400, {"code": "param.cardTemplateIdInvalid", "message": "template not found"}
            with fake.lock:
                fake.cards[str(body.get("outTrackId"))] = {"create": body, "updates": []}
            return 200, {"success": True, "result": {"outTrackId": body.get("outTrackId")}}
        return 404, {"code": "NotFound", "message": path}

    def _card_update(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        fake = self.fake
        if self.headers.get("x-acs-dingtalk-access-token") not in fake.tokens:
            return 401, {"code": "InvalidAuthentication", "message": "access token invalid"}
        with fake.lock:
            card = fake.cards.get(str(body.get("outTrackId")))
            if path != "/v1.0/card/instances" or card is None:
                return 400, {"code": "param.invalid", "message": "unknown outTrackId"}
            card["updates"].append(body)
        return 200, {"success": True}

    def _webhook(self, session: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        fake = self.fake
        with fake.lock:
            conversation = fake.sessions.get(session)
            if conversation is None or session in fake.expired:
                return 200, {"errcode": SESSION_EXPIRED, "errmsg": "session expired"}
            fake.sent.append(Sent("webhook", str(body.get("msgtype")), conversation, body))
        return 200, {"errcode": 0, "errmsg": "ok"}
