"""The HTTP half of the fake Feishu (tests/fake_feishu.py): stdlib ``ThreadingHTTPServer`` on loopback.

Endpoints and bodies as documented at open.feishu.cn/document (server-docs): tenant_access_token
(``POST /open-apis/auth/v3/tenant_access_token/internal`` → ``tenant_access_token``, ``expire`` s),
messages (reply, send with ``receive_id_type=chat_id``, PATCH a card), image and file upload
(multipart), bot info (``GET /open-apis/bot/v3/info`` → ``bot.open_id``), and the long-connection
endpoint (``POST /callback/ws/endpoint``, lark_oapi/ws/client.py ``_get_conn_url``). Errors use
Feishu's codes: 99991663 invalid tenant token, 99991400 rate limited (HTTP 429 with
``x-ogw-ratelimit-reset`` seconds), 514 auth failed on the endpoint.
"""

from __future__ import annotations

import email.parser
import email.policy
import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl, urlsplit

TOKEN_INVALID = 99991663
RATE_LIMITED = 99991400


@dataclass
class Call:
    """One HTTP request the fake handled (or refused: ``refused`` holds the error code)."""

    method: str
    path: str
    query: dict[str, str]
    body: dict[str, Any]
    headers: dict[str, str]
    at: float = field(default_factory=time.monotonic)
    refused: int | None = None


@dataclass
class HttpFaults:
    rate_limits: dict[str, list[int]] = field(default_factory=dict)  # path prefix → reset seconds, in order
    endpoint_codes: list[int] = field(default_factory=list)  # next codes the endpoint call answers


class HttpState:
    """What the HTTP side knows: tokens, messages, uploads, calls; shared with the WS side."""

    def __init__(self, app_id: str, app_secret: str, bot_open_id: str) -> None:
        self.app_id, self.app_secret, self.bot_open_id = app_id, app_secret, bot_open_id
        self.lock = threading.Lock()
        self.calls: list[Call] = []
        self.messages: dict[str, dict[str, Any]] = {}  # message_id → message the bot sent
        self.uploads: dict[str, dict[str, Any]] = {}  # image_key / file_key → upload
        self.tokens: dict[str, float] = {}  # token → expiry (monotonic)
        self.token_ttl = 7200
        self.faults = HttpFaults()
        self.ids = itertools.count(1)
        self.chat_owners: dict[str, str] = {}  # chat_id → owner open_id (GET /open-apis/im/v1/chats/:id)
        self.chat_managers: dict[str, list[str]] = {}  # chat_id → administrators' open_ids (same call)
        self.chat_info_errors: set[str] = set()  # chats whose info call fails (the bot lacks the scope)
        self.resources: dict[tuple[str, str], bytes] = {}  # (message_id, file_key) → a file sent by a user
        self.ws_url: Any = None  # callable () -> (url, client config), set by FakeFeishu
        # Open by default; a test clears it to hold every sent message's response (the message is
        # recorded first), so a replica is caught mid-answer whatever the machine's speed.
        self.reply_gate = threading.Event()
        self.reply_gate.set()

    def new_id(self, prefix: str) -> str:
        return f"{prefix}{next(self.ids):06d}"

    def expire_tokens(self) -> None:
        with self.lock:
            self.tokens.clear()

    def sent(self) -> list[dict[str, Any]]:
        """Messages the bot sent or replied, in order."""
        with self.lock:
            return list(self.messages.values())


def _decode_multipart(body: bytes, content_type: str) -> dict[str, Any]:
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body
    )
    params: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True) or b""
        params[name] = payload if part.get_filename() is not None else payload.decode()
    return params


class FeishuHTTPHandler(BaseHTTPRequestHandler):
    state: HttpState  # set by a subclass in FakeFeishu.start

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def do_PATCH(self) -> None:
        self._handle("PATCH")

    def _answer(self, status: int, body: dict[str, Any] | bytes, headers: dict[str, str] | None) -> None:
        raw = isinstance(body, bytes)  # a message resource (a file a user sent)
        data = body if raw else json.dumps(body).encode()
        self.send_response(status)
        kind = "application/octet-stream" if raw else "application/json; charset=utf-8"
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _read(self) -> dict[str, Any]:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        content_type = self.headers.get("Content-Type", "")
        if "multipart/form-data" in content_type:
            return _decode_multipart(raw, content_type)
        return json.loads(raw) if raw else {}

    def _handle(self, method: str) -> None:
        split = urlsplit(self.path)
        call = Call(method, split.path, dict(parse_qsl(split.query)), self._read(), dict(self.headers))
        st = self.state
        with st.lock:
            st.calls.append(call)
            status, body, headers = self._route(call)
        if method == "POST" and "/im/v1/messages" in call.path:
            st.reply_gate.wait(60)
        self._answer(status, body, headers)

    def _route(self, call: Call) -> tuple[int, dict[str, Any], dict[str, str] | None]:
        st, path = self.state, call.path
        for prefix, resets in st.faults.rate_limits.items():
            if path.startswith(prefix) and resets:
                call.refused = RATE_LIMITED
                reset = {"x-ogw-ratelimit-reset": str(resets.pop(0))}
                return 429, {"code": RATE_LIMITED, "msg": "request trigger frequency limit"}, reset
        if path == "/callback/ws/endpoint":
            return self._endpoint(call)
        if path == "/open-apis/auth/v3/tenant_access_token/internal":
            return self._token(call)
        auth = call.headers.get("Authorization", "")
        token = auth.removeprefix("Bearer ")
        if st.tokens.get(token, 0) <= time.monotonic():
            call.refused = TOKEN_INVALID
            return 400, {"code": TOKEN_INVALID, "msg": "Invalid access token for authorization."}, None
        return self._api(call)

    def _endpoint(self, call: Call) -> tuple[int, dict[str, Any], None]:
        st = self.state
        if st.faults.endpoint_codes:
            code = st.faults.endpoint_codes.pop(0)
            call.refused = code
            return 200, {"code": code, "msg": "fault injected"}, None
        if call.body.get("AppID") != st.app_id or call.body.get("AppSecret") != st.app_secret:
            call.refused = 514
            return 200, {"code": 514, "msg": "auth failed"}, None
        url, config = st.ws_url()
        return 200, {"code": 0, "msg": "ok", "data": {"URL": url, "ClientConfig": config}}, None

    def _token(self, call: Call) -> tuple[int, dict[str, Any], None]:
        st = self.state
        if call.body.get("app_id") != st.app_id or call.body.get("app_secret") != st.app_secret:
            call.refused = 10014
            return 200, {"code": 10014, "msg": "app secret invalid"}, None
        token = st.new_id("t-fake")
        st.tokens[token] = time.monotonic() + st.token_ttl
        return 200, {"code": 0, "msg": "ok", "tenant_access_token": token, "expire": st.token_ttl}, None

    def _api(self, call: Call) -> tuple[int, dict[str, Any], None]:
        st, path, method = self.state, call.path, call.method
        parts = path.strip("/").split("/")
        if method == "GET" and path == "/open-apis/bot/v3/info":
            bot = {"activate_status": 2, "app_name": "Sizing", "open_id": st.bot_open_id}
            return 200, {"code": 0, "msg": "ok", "bot": bot}, None
        if method == "GET" and len(parts) == 5 and parts[:4] == ["open-apis", "im", "v1", "chats"]:
            if parts[4] in st.chat_info_errors:
                return 400, {"code": 99991672, "msg": "Access denied: scope im:chat:readonly"}, None
            data = {
                "chat_id": parts[4],
                "owner_id": st.chat_owners.get(parts[4], ""),
                "owner_id_type": "open_id",
                "user_manager_id_list": st.chat_managers.get(parts[4], []),
                "bot_manager_id_list": [],
            }
            return 200, {"code": 0, "msg": "success", "data": data}, None
        if method == "POST" and path == "/open-apis/im/v1/images":
            return self._upload(call, "image_key", "img_v2_", ("image_type", "image"))
        if method == "POST" and path == "/open-apis/im/v1/files":
            return self._upload(call, "file_key", "file_v3_", ("file_type", "file_name", "file"))
        if method == "POST" and path == "/open-apis/im/v1/messages":
            if call.query.get("receive_id_type") != "chat_id":
                return 400, {"code": 99992402, "msg": "field validation failed"}, None
            return self._message(call, chat_id=call.body.get("receive_id"), parent=None)
        messages = ["open-apis", "im", "v1", "messages"]
        if method == "POST" and len(parts) == 6 and parts[:4] == messages and parts[5] == "reply":
            parent = st.messages.get(parts[4]) or {"chat_id": "oc_unknown"}
            return self._message(call, chat_id=parent["chat_id"], parent=parts[4])
        if method == "PATCH" and len(parts) == 5 and parts[:4] == messages:
            return self._patch(call, parts[4])
        if method == "GET" and len(parts) == 7 and parts[:4] == messages and parts[5] == "resources":
            return self._resource(call, parts[4], parts[6])
        return 404, {"code": 404, "msg": "not found"}, None

    def _message(self, call: Call, *, chat_id: Any, parent: str | None) -> tuple[int, dict[str, Any], None]:
        content, msg_type = call.body.get("content"), call.body.get("msg_type")
        try:
            json.loads(content)
        except (TypeError, ValueError):
            return 400, {"code": 230001, "msg": "content is not a JSON string"}, None
        message = {
            "message_id": self.state.new_id("om_"),
            "chat_id": chat_id,
            "msg_type": msg_type,
            "parent_id": parent or "",
            "body": {"content": content},
            "uuid": call.body.get("uuid"),
            "updates": [],
        }
        self.state.messages[message["message_id"]] = message
        return 200, {"code": 0, "msg": "success", "data": message}, None

    def _resource(self, call: Call, message_id: str, key: str) -> tuple[int, Any, None]:
        data = self.state.resources.get((message_id, key))
        if call.query.get("type") != "file" or data is None:
            return 400, {"code": 234003, "msg": "file not found or wrong type"}, None
        return 200, data, None

    def _patch(self, call: Call, message_id: str) -> tuple[int, dict[str, Any], None]:
        message = self.state.messages.get(message_id)
        if message is None or message["msg_type"] != "interactive":
            return 400, {"code": 230001, "msg": "not a card the bot sent"}, None
        message["updates"].append(call.body.get("content"))
        message["body"] = {"content": call.body.get("content")}
        return 200, {"code": 0, "msg": "success", "data": {}}, None

    def _upload(self, call: Call, key_name: str, prefix: str, fields: tuple[str, ...]):
        missing = [name for name in fields if name not in call.body]
        if missing:
            return 400, {"code": 99992402, "msg": f"field validation failed: {missing}"}, None
        key = self.state.new_id(prefix)
        self.state.uploads[key] = dict(call.body)
        return 200, {"code": 0, "msg": "success", "data": {key_name: key}}, None
