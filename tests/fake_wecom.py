"""A fake WeCom smart-robot long connection on loopback, speaking the real protocol (issue 28).

JSON text frames ``{"cmd", "headers": {"req_id"}, "body"}`` over a ``websockets`` server on its own
event-loop thread. Every command is acknowledged with the same ``req_id`` and an ``errcode``:
``aibot_subscribe`` (bot id and secret checked; 40001 otherwise), ``ping``, ``aibot_respond_msg`` (only
with a message callback's ``req_id``: a card click's gets 846605, as WeCom answers),
``aibot_respond_update_msg`` (only with a card click's ``req_id``, within 5 s, with the clicked card's
``task_id``), ``aibot_send_msg``,
``aibot_upload_media_init`` / ``_chunk`` / ``_finish`` (chunks ≤ 512 KB, ≤ 100, md5 and size checked →
``media_id``). Callbacks go to the newest subscribed connection; a push with no connection up waits
for the next subscribe.

Fault injection: ``push(frame, times=2)`` duplicate push (same msgid), ``drop()`` aborts the sockets,
``silence()`` the live sockets stay open but answer nothing, ``replace()`` another connection of the
bot takes over: the live one gets ``disconnected_event`` and is closed (``subscribes_after_replace``
counts the connections the bot opened after that: they would take it back).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

CHUNK_MAX = 512 * 1024
CARD_WINDOW_S = 5.0


@dataclass
class _Conn:
    ws: Any
    number: int
    subscribed: bool = False
    silent: bool = False


@dataclass
class Received:
    """One command the client sent, and when."""

    cmd: str
    req_id: str
    body: dict[str, Any]
    conn: int
    at: float = field(default_factory=time.monotonic)


class FakeWecom:
    """The fake server. Use as a context manager."""

    def __init__(
        self, *, bot_id: str = "wbFakeBot0001", secret: str = "fake-wecom-secret-DO-NOT-LOG"
    ) -> None:
        self.bot_id, self.secret = bot_id, secret
        self.received: list[Received] = []
        self.connections = 0
        self.subscribes = 0
        self.max_active = 0
        self.pings = 0
        self.pushes: list[tuple[str, int]] = []  # (msgid, connection) per delivery
        self.uploads: dict[str, dict[str, Any]] = {}
        self.refused: list[tuple[str, int]] = []  # (cmd, errcode) of refused commands
        self.replaced_at: float | None = None
        self._callbacks: dict[str, dict[str, Any]] = {}  # req_id → {"kind", "at", "task_id"}
        self._upload_parts: dict[str, dict[str, Any]] = {}
        self._waiting: list[dict[str, Any]] = []
        self._conns: list[_Conn] = []
        self._ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Future[None] | None = None
        self._port = 0
        self._thread: threading.Thread | None = None
        self._sending: set[asyncio.Future[None]] = set()

    # -- life cycle -------------------------------------------------------------------------------
    def __enter__(self) -> FakeWecom:
        ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(ready,), name="fake-wecom", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("fake WeCom did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set_result, None)
        if self._thread is not None:
            self._thread.join(5)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self._port}"

    def _run(self, ready: threading.Event) -> None:
        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop = self._loop.create_future()
            async with serve(self._serve, "127.0.0.1", 0, ping_interval=None, max_size=None) as srv:
                self._port = srv.sockets[0].getsockname()[1]
                ready.set()
                await self._stop
                for conn in list(self._conns):
                    conn.ws.transport.abort()

        asyncio.run(main())

    def _call(self, fn: Any) -> None:
        assert self._loop is not None
        self._loop.call_soon_threadsafe(fn)

    # -- what the client sent -----------------------------------------------------------------------
    def commands(self, cmd: str) -> list[Received]:
        return [r for r in list(self.received) if r.cmd == cmd]

    def replies(self, req_id: str | None = None, msgtype: str | None = None) -> list[Received]:
        """``aibot_respond_msg`` commands (to ``req_id``; of ``msgtype``) that were accepted."""
        return [
            r
            for r in self.commands("aibot_respond_msg")
            if (req_id is None or r.req_id == req_id)
            and (msgtype is None or r.body.get("msgtype") == msgtype)
        ]

    @property
    def active(self) -> int:
        return sum(1 for c in self._conns if c.subscribed)

    # -- faults -------------------------------------------------------------------------------------
    def drop(self) -> None:
        """Abort every live socket (no close frame)."""
        self._call(lambda: [c.ws.transport.abort() for c in list(self._conns)])

    def silence(self) -> None:
        """The live sockets stay open but answer nothing and get no more callbacks."""
        self._call(lambda: [setattr(c, "silent", True) for c in list(self._conns)])

    def replace(self) -> None:
        """Another connection of this bot subscribed: the live one gets ``disconnected_event``, then
        is closed."""

        async def go() -> None:
            self.replaced_at = time.monotonic()
            for conn in [c for c in self._conns if c.subscribed and not c.silent]:
                event = self._event_frame("disconnected_event", {})
                with contextlib.suppress(ConnectionClosed):
                    await conn.ws.send(json.dumps(event))
                conn.subscribed = False
                await conn.ws.close(1000, "replaced")

        self._call(lambda: asyncio.ensure_future(go()))

    @property
    def subscribes_after_replace(self) -> int:
        if self.replaced_at is None:
            return 0
        return sum(1 for r in self.commands("aibot_subscribe") if r.at > self.replaced_at)

    # -- callbacks ----------------------------------------------------------------------------------
    def message(
        self,
        text: str,
        *,
        chattype: str = "single",
        chatid: str = "",
        userid: str = "zhangsan",
        mention: str = "@Sizing\u2005",
    ) -> dict[str, Any]:
        """An ``aibot_msg_callback`` text frame; a group message keeps the @mention in its content."""
        msgid = f"msg{next(self._ids):08d}"
        body: dict[str, Any] = {
            "msgid": msgid,
            "aibotid": self.bot_id,
            "chattype": chattype,
            "from": {"userid": userid},
            "msgtype": "text",
            "text": {"content": (mention + text) if chattype == "group" else text},
        }
        if chattype == "group":
            body["chatid"] = chatid or "wrkGroup0001"
        return {"cmd": "aibot_msg_callback", "headers": {"req_id": f"req{next(self._ids):08d}"}, "body": body}

    def group(self, text: str, **kwargs: Any) -> dict[str, Any]:
        return self.message(text, chattype="group", **kwargs)

    def _event_frame(self, eventtype: str, detail: dict[str, Any], **body: Any) -> dict[str, Any]:
        event = {"eventtype": eventtype, **({eventtype: detail} if detail else {})}
        return {
            "cmd": "aibot_event_callback",
            "headers": {"req_id": f"req{next(self._ids):08d}"},
            "body": {"msgid": f"ev{next(self._ids):08d}", "aibotid": self.bot_id, "event": event, **body},
        }

    def card_click(
        self, task_id: str, key: str, *, chattype: str = "single", chatid: str = "", userid: str = "zhangsan"
    ) -> dict[str, Any]:
        """A ``template_card_event``: the button with ``key`` of card ``task_id`` was clicked."""
        detail = {"card_type": "button_interaction", "event_key": key, "task_id": task_id}
        extra: dict[str, Any] = {"chattype": chattype, "from": {"userid": userid}}
        if chattype == "group":
            extra["chatid"] = chatid or "wrkGroup0001"
        return self._event_frame("template_card_event", detail, **extra)

    def push(self, frame: dict[str, Any], *, times: int = 1) -> str:
        """Deliver ``frame`` ``times`` times (a duplicate keeps its msgid); its req_id."""
        req_id = frame["headers"]["req_id"]
        template = frame["body"].get("event", {}).get("template_card_event", {})
        self._callbacks[req_id] = {
            "kind": "card" if template else "msg",
            "task_id": template.get("task_id"),
            "at": time.monotonic(),
        }
        for _ in range(times):
            self._call(lambda: self._deliver(frame))
        return req_id

    def _deliver(self, frame: dict[str, Any]) -> None:
        live = [c for c in self._conns if c.subscribed and not c.silent]
        if not live:
            self._waiting.append(frame)
            return
        conn = live[-1]
        self._callbacks[frame["headers"]["req_id"]]["at"] = time.monotonic()
        self.pushes.append((frame["body"]["msgid"], conn.number))
        task = asyncio.ensure_future(self._send(conn, frame))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, conn: _Conn, frame: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionClosed):
            await conn.ws.send(json.dumps(frame, ensure_ascii=False))

    # -- the socket ---------------------------------------------------------------------------------
    async def _serve(self, ws: Any) -> None:
        self.connections += 1
        conn = _Conn(ws, self.connections)
        self._conns.append(conn)
        try:
            async for message in ws:
                if conn.silent:
                    continue
                frame = json.loads(message)
                cmd, req_id = frame.get("cmd", ""), frame.get("headers", {}).get("req_id", "")
                self.received.append(Received(cmd, req_id, frame.get("body") or {}, conn.number))
                code, body = self._answer(conn, cmd, req_id, frame.get("body") or {})
                if code:
                    self.refused.append((cmd, code))
                    self.received.pop()
                ack = {
                    "headers": {"req_id": req_id},
                    "errcode": code,
                    "errmsg": "ok" if code == 0 else "refused",
                }
                if body is not None:
                    ack["body"] = body
                await ws.send(json.dumps(ack))
                if cmd == "aibot_subscribe" and code == 0:
                    waiting, self._waiting = self._waiting, []
                    for pending in waiting:
                        self._deliver(pending)
        except ConnectionClosed:
            pass
        finally:
            conn.subscribed = False
            self._conns.remove(conn)

    def _answer(self, conn: _Conn, cmd: str, req_id: str, body: dict[str, Any]) -> tuple[int, Any]:
        if cmd == "aibot_subscribe":
            if body.get("bot_id") != self.bot_id or body.get("secret") != self.secret:
                return 40001, None
            conn.subscribed = True
            self.subscribes += 1
            self.max_active = max(self.max_active, self.active)
            return 0, None
        if not conn.subscribed:
            return 846609, None
        if cmd == "ping":
            self.pings += 1
            return 0, None
        if cmd.startswith("aibot_upload_media"):
            return self._upload(cmd, body)
        callback = self._callbacks.get(req_id)
        if cmd == "aibot_respond_msg":
            return (0, None) if callback and callback["kind"] == "msg" else (846605, None)
        if cmd == "aibot_respond_update_msg":
            fresh = callback and time.monotonic() - callback["at"] <= CARD_WINDOW_S
            ok = fresh and callback["kind"] == "card" and body.get("response_type") == "update_template_card"
            same = ok and body.get("template_card", {}).get("task_id") == callback["task_id"]
            return (0, None) if same else (846606, None)
        if cmd == "aibot_send_msg":
            return (0, None) if body.get("chatid") else (40003, None)
        return 40000, None

    def _upload(self, cmd: str, body: dict[str, Any]) -> tuple[int, Any]:
        if cmd == "aibot_upload_media_init":
            if (
                body.get("type") not in ("image", "file", "voice", "video")
                or not 1 <= body.get("total_chunks", 0) <= 100
            ):
                return 40004, None
            upload_id = f"up{next(self._ids)}"
            self._upload_parts[upload_id] = {**body, "chunks": {}}
            return 0, {"upload_id": upload_id}
        upload = self._upload_parts.get(body.get("upload_id", ""))
        if upload is None:
            return 40005, None
        if cmd == "aibot_upload_media_chunk":
            data = base64.b64decode(body.get("base64_data", ""))
            if len(data) > CHUNK_MAX:
                return 40006, None
            upload["chunks"][body.get("chunk_index")] = data
            return 0, None
        if cmd == "aibot_upload_media_finish":
            data = b"".join(upload["chunks"][i] for i in sorted(upload["chunks"]))
            if len(data) != upload["total_size"] or hashlib.md5(data).hexdigest() != upload["md5"]:
                return 40007, None
            media_id = f"media{next(self._ids)}"
            self.uploads[media_id] = {"type": upload["type"], "filename": upload["filename"], "data": data}
            return 0, {"media_id": media_id, "type": upload["type"]}
        return 40000, None
