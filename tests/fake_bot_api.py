"""A fake Telegram Bot API server on loopback, for driving the real python-telegram-bot stack.

Standard library only: ``ThreadingHTTPServer`` in a background thread on 127.0.0.1 (free port).
It speaks the Bot API's HTTP protocol (``POST /bot<token>/<method>``, JSON or form-encoded
parameters, ``{"ok": true, "result": …}`` answers) for the methods a bot needs: getMe,
getUpdates (long polling, offsets confirm updates), sendMessage (validates HTML like Telegram
does), editMessageText, answerCallbackQuery, answerInlineQuery (validates results), sendPhoto
(multipart upload), sendDocument (multipart upload), getChatMember (statuses set with ``set_member_status``),
getFile and file downloads (documents users send: ``send_document``),
set/get/deleteMyCommands, deleteWebhook, getWebhookInfo, close, logOut, and a catch-all that
answers ``true``. ``flood(method)`` makes the next calls fail with 429 RetryAfter.

Fault injection (:class:`Fault`): ``inject(method, *faults)`` makes the next calls to ``method`` fail
in order -- an HTTP status with Telegram's error body (500, 502, 400 "message to edit not found",
403 "bot was blocked by the user", …), a dropped connection (closed without a response, the request not
handled), a malformed body (200 with text that is not JSON, not handled), or a slow answer (handled,
then answered late: the client may time out on a message that *was* delivered). ``fail_randomly``
fails a fraction of the calls to some methods with faults drawn at random (seeded). Refused calls
are recorded in ``faults``, never in ``calls``: ``calls`` is what the server handled (a slow call is
handled, so it is in ``calls``).

Every call is recorded (method and decoded parameters). Helpers build realistic updates: text
messages in private chats or groups with ``bot_command`` and ``mention`` entities at UTF-16
offsets, replies to earlier messages, button presses (``press``), inline queries
(``inline_query``) and group → supergroup migrations (``migrate``).

    with FakeBotAPI() as api:
        app = build_application(BotSettings(telegram_bot_token=api.token,
                                            telegram_base_url=api.base_url))
        ...
        api.send_text("7B 1T A100", chat=api.private_chat())
        [call] = api.wait_for("sendMessage", 1)
"""

from __future__ import annotations

import email.parser
import email.policy
import itertools
import json
import random
import re
import threading
import time
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from htmlcheck import MAX_TEXT_CHARS, telegram_html_problems, telegram_html_text

DEFAULT_TOKEN = "123456:FAKE-TOKEN-abc"

# Parameters that are plain strings on the wire; everything else form-encoded is JSON.
_STRING_PARAMS = {
    "text",
    "parse_mode",
    "caption",
    "language_code",
    "callback_query_id",
    "inline_query_id",
    "next_offset",
    "url",
    "secret_token",
    "description",
    "short_description",
    "name",
    "inline_message_id",
}

_COMMAND = re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?")
_MENTION = re.compile(r"(?<![\w@/])@[A-Za-z0-9_]{5,32}\b")


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units: the unit of Telegram's entity offsets."""
    return len(text.encode("utf-16-le")) // 2


def text_entities(text: str) -> list[dict[str, Any]]:
    """``bot_command`` and ``mention`` entities as the Telegram server computes them."""
    entities = []
    for kind, pattern in (("bot_command", _COMMAND), ("mention", _MENTION)):
        for match in pattern.finditer(text):
            entities.append(
                {
                    "type": kind,
                    "offset": utf16_len(text[: match.start()]),
                    "length": utf16_len(match.group()),
                }
            )
    return sorted(entities, key=lambda e: e["offset"])


@dataclass(frozen=True)
class Call:
    """One Bot API request as the server received it."""

    method: str
    params: dict[str, Any]
    token: str
    content_type: str = ""
    """The request's media type (``application/json``, ``multipart/form-data``, …)."""
    fault: str = ""
    """For a refused call (``FakeBotAPI.faults``): the fault's kind ('status 500', 'drop', …)."""


@dataclass(frozen=True)
class Fault:
    """One injected failure of a Bot API call (build with the class methods)."""

    kind: str
    """'status' | 'drop' | 'malformed' | 'slow'"""
    status: int = 200
    description: str = ""
    retry_after: int | None = None
    body: str = ""
    seconds: float = 0.0

    @classmethod
    def http(cls, status: int, description: str = "", *, retry_after: int | None = None) -> Fault:
        """Answer with HTTP ``status`` and Telegram's error body; the call is not handled."""
        text = description or HTTPStatus(status).phrase
        return cls("status", status=status, description=text, retry_after=retry_after)

    @classmethod
    def drop(cls) -> Fault:
        """Close the connection without answering; the call is not handled."""
        return cls("drop")

    @classmethod
    def malformed(cls, body: str = "<html><body>502 Bad Gateway</body></html>") -> Fault:
        """Answer 200 with a body that is not JSON; the call is not handled."""
        return cls("malformed", body=body)

    @classmethod
    def slow(cls, seconds: float) -> Fault:
        """Handle the call (a message *is* sent), then wait ``seconds`` before answering."""
        return cls("slow", seconds=seconds)

    @property
    def label(self) -> str:
        return f"status {self.status}" if self.kind == "status" else self.kind


TRANSIENT_FAULTS = (
    Fault.http(500), Fault.http(502), Fault.http(503), Fault.drop(), Fault.malformed(),
)  # fmt: skip
"""Faults a well-behaved client retries: server errors, a dropped connection, a malformed body."""


@dataclass
class _State:
    updates: list[dict[str, Any]] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    """method (lower case) → calls received: lets ``wait_for`` wake in O(1) under thousands of calls"""
    messages: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    chats: dict[int, dict[str, Any]] = field(default_factory=dict)
    commands: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)
    members: dict[tuple[int, int], str] = field(default_factory=dict)
    floods: dict[str, list[int]] = field(default_factory=dict)
    """method (lower case) → [calls still to refuse, retry_after seconds]"""
    files: dict[str, bytes] = field(default_factory=dict)
    """file_id → contents of a document a user sent (getFile, then GET /file/bot<token>/<path>)"""
    active_requests: int = 0
    closed: bool = False
    faults: list[Call] = field(default_factory=list)
    """calls refused by an injected fault"""
    planned: dict[str, list[Fault]] = field(default_factory=dict)
    """method (lower case) → faults for its next calls, in order"""
    random_faults: tuple[float, frozenset[str], tuple[Fault, ...]] | None = None
    """(rate, methods in lower case, faults to draw from)"""


class FakeBotAPI:
    """The fake server. Use as a context manager, or call ``start()`` / ``stop()``."""

    MAX_LONG_POLL_S = 2.0
    """getUpdates never blocks longer than this, whatever timeout the client asks for."""

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "sizing_test_bot",
        bot_id: int | None = None,
    ) -> None:
        self.token = token
        self.bot_id = bot_id if bot_id is not None else int(token.split(":", 1)[0])
        self.bot_username = bot_username
        self._state = _State()
        self._cond = threading.Condition()
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(1)
        self._user_ids = itertools.count(1001)
        self._chat_ids = itertools.count(1)
        self._query_ids = itertools.count(1)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._random = random.Random(0)

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> FakeBotAPI:
        api = self

        class Handler(_Handler):
            fake = api

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.02},
            name="fake-bot-api",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop serving, release long polls and wait for in-flight requests to finish."""
        with self._cond:
            self._state.closed = True
            self._cond.notify_all()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout)
        with self._cond:
            self._cond.wait_for(lambda: self._state.active_requests == 0, timeout)

    def __enter__(self) -> FakeBotAPI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None, "server not started"
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        """python-telegram-bot ``base_url``: the token is appended."""
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    @property
    def active_requests(self) -> int:
        with self._cond:
            return self._state.active_requests

    # -- users, chats, updates ---------------------------------------------------------------
    @property
    def bot_user(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": "Sizing Test Bot",
            "username": self.bot_username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": True,
        }

    def user(self, first_name: str = "Ada", language_code: str | None = "en") -> dict[str, Any]:
        user: dict[str, Any] = {"id": next(self._user_ids), "is_bot": False, "first_name": first_name}
        if language_code:
            user["language_code"] = language_code
        return user

    def private_chat(self, user: dict[str, Any]) -> dict[str, Any]:
        chat = {"id": user["id"], "type": "private", "first_name": user["first_name"]}
        with self._cond:
            self._state.chats[chat["id"]] = chat
        return chat

    def group_chat(self, title: str = "LLM infra", kind: str = "supergroup") -> dict[str, Any]:
        chat = {"id": -1_000_000_000_000 - next(self._chat_ids), "type": kind, "title": title}
        with self._cond:
            self._state.chats[chat["id"]] = chat
        return chat

    def enqueue_update(self, update: dict[str, Any]) -> dict[str, Any]:
        """Queue a raw update (``update_id`` is assigned) for the next getUpdates."""
        with self._cond:
            update = {"update_id": next(self._update_ids), **update}
            self._state.updates.append(update)
            self._cond.notify_all()
        return update

    def send_text(
        self,
        text: str,
        *,
        chat: dict[str, Any],
        user: dict[str, Any] | None = None,
        reply_to: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A user writes ``text`` in ``chat``; returns the Message (as JSON) that was queued."""
        message = self.text_message(text, chat=chat, user=user, reply_to=reply_to)
        self.enqueue_update({"message": message})
        return message

    def text_message(
        self,
        text: str,
        *,
        chat: dict[str, Any],
        user: dict[str, Any] | None = None,
        reply_to: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The Message (as JSON) a user writing ``text`` creates, stored but not queued (webhook tests
        deliver it themselves)."""
        if user is None:
            if chat["type"] != "private":
                raise ValueError("say who writes in a group: user=api.user(...)")
            user = {
                "id": chat["id"],
                "is_bot": False,
                "first_name": chat["first_name"],
                "language_code": "en",
            }
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": chat,
            "from": user,
            "text": text,
        }
        entities = text_entities(text)
        if entities:
            message["entities"] = entities
        if reply_to is not None:
            message["reply_to_message"] = reply_to
        with self._cond:
            self._state.messages[(chat["id"], message["message_id"])] = message
        return message

    def send_document(
        self,
        data: bytes,
        *,
        chat: dict[str, Any],
        user: dict[str, Any] | None = None,
        file_name: str = "config.json",
        mime_type: str = "application/json",
        caption: str | None = None,
        reply_to: dict[str, Any] | None = None,
        file_size: int | None = None,
    ) -> dict[str, Any]:
        """A user sends a file (a document) with an optional caption; returns the queued Message.
        ``file_size`` overrides the size Telegram reports (a huge file need not be built in memory)."""
        message = self.text_message(caption or "", chat=chat, user=user, reply_to=reply_to)
        del message["text"]
        message.pop("entities", None)
        if caption:
            message["caption"] = caption
            entities = text_entities(caption)
            if entities:
                message["caption_entities"] = entities
        file_id = f"userdoc{message['message_id']}"
        message["document"] = {
            "file_id": file_id,
            "file_unique_id": f"u{file_id}",
            "file_name": file_name,
            "mime_type": mime_type,
            "file_size": len(data) if file_size is None else file_size,
        }
        with self._cond:
            self._state.files[file_id] = data
        self.enqueue_update({"message": message})
        return message

    def next_update_id(self) -> int:
        return next(self._update_ids)

    def press(self, message: dict[str, Any], callback_data: str, *, user: dict[str, Any]) -> dict[str, Any]:
        """``user`` presses the inline button with ``callback_data`` under the bot's ``message``."""
        with self._cond:
            current = self._state.messages.get((message["chat"]["id"], message["message_id"]), message)
        query = {
            "id": str(next(self._query_ids)),
            "from": user,
            "message": current,
            "chat_instance": str(message["chat"]["id"]),
            "data": callback_data,
        }
        self.enqueue_update({"callback_query": query})
        return query

    def inline_query(self, text: str, *, user: dict[str, Any]) -> dict[str, Any]:
        """``user`` types ``@bot text`` in some chat."""
        query = {"id": str(next(self._query_ids)), "from": user, "query": text, "offset": ""}
        self.enqueue_update({"inline_query": query})
        return query

    def migrate(self, old_chat: dict[str, Any], *, user: dict[str, Any]) -> dict[str, Any]:
        """``old_chat`` (a basic group) becomes a supergroup with a new id: Telegram sends a service
        message to each chat. Returns the new supergroup."""
        new_chat = {
            "id": -1_000_000_000_000 - next(self._chat_ids),
            "type": "supergroup",
            "title": old_chat.get("title", ""),
        }
        with self._cond:
            self._state.chats[new_chat["id"]] = new_chat
        for chat, key, value in (
            (old_chat, "migrate_to_chat_id", new_chat["id"]),
            (new_chat, "migrate_from_chat_id", old_chat["id"]),
        ):
            message = {
                "message_id": next(self._message_ids),
                "date": int(time.time()),
                "chat": chat,
                "from": user,
                key: value,
            }
            self.enqueue_update({"message": message})
        return new_chat

    def set_member_status(self, chat: dict[str, Any], user: dict[str, Any], status: str) -> None:
        """getChatMember answers: 'creator', 'administrator', 'member' (default), 'left', …"""
        with self._cond:
            self._state.members[(chat["id"], user["id"])] = status

    def flood(self, method: str, *, times: int = 1, retry_after: int = 1) -> None:
        """Answer the next ``times`` calls to ``method`` with 429 Too Many Requests, as Telegram's flood
        control does (``parameters.retry_after`` in whole seconds)."""
        with self._cond:
            self._state.floods[method.lower()] = [times, retry_after]

    def inject(self, method: str, *faults: Fault) -> None:
        """The next calls to ``method`` fail with ``faults``, one each, in order (then calls succeed)."""
        with self._cond:
            self._state.planned.setdefault(method.lower(), []).extend(faults)

    def fail_randomly(
        self,
        rate: float,
        methods: tuple[str, ...] = ("sendMessage",),
        faults: tuple[Fault, ...] = TRANSIENT_FAULTS,
        *,
        seed: int = 0,
    ) -> None:
        """Each call to ``methods`` fails with probability ``rate`` with a fault drawn from ``faults``
        (seeded: the same run fails the same calls). ``rate=0`` turns it off."""
        with self._cond:
            self._random = random.Random(seed)
            methods_lower = frozenset(m.lower() for m in methods)
            self._state.random_faults = (rate, methods_lower, faults) if rate else None

    def _next_fault(self, method: str) -> Fault | None:
        name = method.lower()
        with self._cond:
            planned = self._state.planned.get(name)
            if planned:
                return planned.pop(0)
            chance = self._state.random_faults
            if chance is not None and name in chance[1] and self._random.random() < chance[0]:
                return self._random.choice(chance[2])
        return None

    def _record_fault(self, token: str, method: str, params: dict[str, Any], fault: Fault) -> None:
        with self._cond:
            self._state.faults.append(Call(method, params, token, fault=fault.label))
            self._cond.notify_all()

    @property
    def faults(self) -> list[Call]:
        """Calls refused by an injected fault (not handled: no message was sent)."""
        with self._cond:
            return list(self._state.faults)

    def wait_for_faults(self, count: int, timeout: float = 5.0) -> list[Call]:
        """Block until ``count`` calls were refused by injected faults; AssertionError on timeout."""
        with self._cond:
            arrived = self._cond.wait_for(lambda: len(self._state.faults) >= count, timeout)
            refused = list(self._state.faults)
        assert arrived, f"expected {count} refused call(s) within {timeout}s, got {len(refused)}"
        return refused

    def message(self, chat_id: int, message_id: int) -> dict[str, Any] | None:
        """A message as the server stores it now (edits applied)."""
        with self._cond:
            return self._state.messages.get((chat_id, message_id))

    # -- inspection --------------------------------------------------------------------------
    @property
    def pending_updates(self) -> int:
        """Updates queued and not yet confirmed by a getUpdates offset."""
        with self._cond:
            return len(self._state.updates)

    @property
    def calls(self) -> list[Call]:
        with self._cond:
            return list(self._state.calls)

    def calls_to(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method.lower() == method.lower()]

    def wait_for(self, method: str, count: int, timeout: float = 5.0) -> list[Call]:
        """Block until ``count`` calls to ``method`` were handled (a sent message is stored by then:
        ``bot_messages`` has it); AssertionError on timeout."""

        def matching() -> list[Call]:
            return [c for c in self._state.calls if c.method.lower() == method.lower()]

        with self._cond:
            arrived = self._cond.wait_for(lambda: self._state.counts.get(method.lower(), 0) >= count, timeout)
            calls = matching()
        assert arrived, f"expected {count} {method} call(s) within {timeout}s, got {len(calls)}: {calls}"
        return calls

    def bot_messages(self, chat_id: int | None = None) -> list[dict[str, Any]]:
        """Messages the bot sent (as the server stored them), oldest first."""
        with self._cond:
            sent = [m for m in self._state.messages.values() if m["from"]["id"] == self.bot_id]
        return sorted(
            (m for m in sent if chat_id is None or m["chat"]["id"] == chat_id), key=lambda m: m["message_id"]
        )

    def commands(self, language_code: str = "") -> list[dict[str, Any]] | None:
        with self._cond:
            return self._state.commands.get(("default", language_code))

    # -- Bot API methods ---------------------------------------------------------------------
    def handle(
        self, token: str, method: str, params: dict[str, Any], content_type: str = ""
    ) -> tuple[int, dict[str, Any]]:
        with self._cond:
            self._state.calls.append(Call(method, params, token, content_type.split(";")[0].strip()))
        try:
            return self._handle(token, method, params)
        finally:  # counted once handled: a wait_for that returns finds the message it sent stored
            with self._cond:
                self._state.counts[method.lower()] = self._state.counts.get(method.lower(), 0) + 1
                self._cond.notify_all()

    def _handle(self, token: str, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if token != self.token:
            return 401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
        name = method.lower()
        with self._cond:
            flood = self._state.floods.get(name)
            if flood and flood[0] > 0:
                flood[0] -= 1
                return 429, {
                    "ok": False,
                    "error_code": 429,
                    "description": f"Too Many Requests: retry after {flood[1]}",
                    "parameters": {"retry_after": flood[1]},
                }
        if name == "getupdates":
            return self._get_updates(params)
        handler = getattr(self, f"_m_{name}", None)
        try:
            result = handler(params) if handler else True
        except _BadRequest as err:
            return 400, {"ok": False, "error_code": 400, "description": f"Bad Request: {err}"}
        return 200, {"ok": True, "result": result}

    def _get_updates(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        offset = int(params.get("offset") or 0)
        limit = int(params.get("limit") or 100)
        timeout = min(float(params.get("timeout") or 0), self.MAX_LONG_POLL_S)
        deadline = time.monotonic() + timeout
        with self._cond:
            if offset > 0:  # confirms every update with a smaller id
                self._state.updates = [u for u in self._state.updates if u["update_id"] >= offset]
            while True:
                pending = self._state.updates[:limit]
                remaining = deadline - time.monotonic()
                if pending or remaining <= 0 or self._state.closed:
                    break
                self._cond.wait(remaining)
        return 200, {"ok": True, "result": pending}

    def _m_getme(self, params: dict[str, Any]) -> dict[str, Any]:
        return self.bot_user

    def _m_deletewebhook(self, params: dict[str, Any]) -> bool:
        if params.get("drop_pending_updates"):
            with self._cond:
                self._state.updates.clear()
        return True

    def _m_getwebhookinfo(self, params: dict[str, Any]) -> dict[str, Any]:
        with self._cond:
            pending = len(self._state.updates)
        return {"url": "", "has_custom_certificate": False, "pending_update_count": pending}

    def _m_setmycommands(self, params: dict[str, Any]) -> bool:
        scope = (params.get("scope") or {}).get("type", "default")
        with self._cond:
            self._state.commands[(scope, params.get("language_code") or "")] = params["commands"]
        return True

    def _m_getmycommands(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        scope = (params.get("scope") or {}).get("type", "default")
        with self._cond:
            return self._state.commands.get((scope, params.get("language_code") or ""), [])

    def _m_deletemycommands(self, params: dict[str, Any]) -> bool:
        scope = (params.get("scope") or {}).get("type", "default")
        with self._cond:
            self._state.commands.pop((scope, params.get("language_code") or ""), None)
        return True

    def _m_sendmessage(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        text = self._visible_text(params)
        with self._cond:
            chat = self._state.chats.get(chat_id, {"id": chat_id, "type": "private", "first_name": "?"})
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": chat,
            "from": self.bot_user,
            "text": text,
        }
        reply = params.get("reply_parameters") or {}
        reply_id = reply.get("message_id") or params.get("reply_to_message_id")
        if reply_id is not None:
            with self._cond:
                replied = self._state.messages.get((chat_id, int(reply_id)))
            if replied is not None:
                message["reply_to_message"] = replied
            elif not reply.get("allow_sending_without_reply"):
                raise _BadRequest("message to be replied not found")
        if params.get("reply_markup"):
            message["reply_markup"] = _valid_markup(params["reply_markup"])
        with self._cond:
            self._state.messages[(chat_id, message["message_id"])] = message
        return message

    def _m_sendphoto(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        photo = params.get("photo")
        if not isinstance(photo, bytes) or not photo:
            raise _BadRequest("there is no photo in the request")
        with self._cond:
            chat = self._state.chats.get(chat_id, {"id": chat_id, "type": "private", "first_name": "?"})
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": chat,
            "from": self.bot_user,
            "photo": [
                {
                    "file_id": f"photo{len(photo)}",
                    "file_unique_id": "u",
                    "width": 1000,
                    "height": 700,
                    "file_size": len(photo),
                }
            ],
        }
        with self._cond:
            self._state.messages[(chat_id, message["message_id"])] = message
        return message

    def _m_senddocument(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        document = params.get("document")
        if not isinstance(document, bytes) or not document:
            raise _BadRequest("there is no document in the request")
        with self._cond:
            chat = self._state.chats.get(chat_id, {"id": chat_id, "type": "private", "first_name": "?"})
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": chat,
            "from": self.bot_user,
            "document": {
                "file_id": f"doc{len(document)}",
                "file_unique_id": "d",
                "file_name": params.get("document_filename"),
                "file_size": len(document),
            },
        }
        with self._cond:
            self._state.messages[(chat_id, message["message_id"])] = message
        return message

    def _m_getfile(self, params: dict[str, Any]) -> dict[str, Any]:
        file_id = str(params.get("file_id"))
        with self._cond:
            data = self._state.files.get(file_id)
        if data is None:
            raise _BadRequest("invalid file_id")
        return {
            "file_id": file_id,
            "file_unique_id": f"u{file_id}",
            "file_size": len(data),
            "file_path": f"documents/{file_id}.json",
        }

    def file_contents(self, token: str, path: str) -> bytes | None:
        """GET /file/bot<token>/documents/<file_id>.json: the document's bytes (None: not found)."""
        if token != self.token or not path.startswith("documents/"):
            return None
        with self._cond:
            return self._state.files.get(path.removeprefix("documents/").removesuffix(".json"))

    def _m_getchatmember(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id, user_id = int(params["chat_id"]), int(params["user_id"])
        with self._cond:
            status = self._state.members.get((chat_id, user_id), "member")
        member: dict[str, Any] = {
            "status": status,
            "user": {"id": user_id, "is_bot": False, "first_name": "Member"},
        }
        if status == "administrator":
            member |= {name: True for name in _ADMIN_RIGHTS}
        if status == "creator":
            member["is_anonymous"] = False
        if status == "restricted":
            raise _BadRequest("restricted members are not modelled by the fake")
        return member

    def _m_editmessagetext(self, params: dict[str, Any]) -> dict[str, Any] | bool:
        if params.get("inline_message_id"):
            return True
        key = (int(params["chat_id"]), int(params["message_id"]))
        text = self._visible_text(params)
        with self._cond:
            message = self._state.messages.get(key)
            if message is None:
                raise _BadRequest("message to edit not found")
            message = message | {"text": text, "edit_date": int(time.time())}
            message.pop("reply_markup", None)
            if params.get("reply_markup"):
                message["reply_markup"] = _valid_markup(params["reply_markup"])
            self._state.messages[key] = message
        return message

    def _m_answercallbackquery(self, params: dict[str, Any]) -> bool:
        if len(str(params.get("text") or "")) > 200:
            raise _BadRequest("text is too long")  # callback answers: 0-200 characters
        return True

    def _m_answerinlinequery(self, params: dict[str, Any]) -> bool:
        results = params.get("results")
        if not isinstance(results, list) or len(results) > 50:
            raise _BadRequest("results must be a list of at most 50")
        ids = [str(r.get("id", "")) for r in results]
        if len(set(ids)) != len(ids) or any(not 1 <= len(i.encode()) <= 64 for i in ids):
            raise _BadRequest("result ids must be unique, 1-64 bytes")
        for result in results:
            content = result.get("input_message_content") or {}
            if result.get("type") == "article" and not (result.get("title") and content):
                raise _BadRequest("article needs a title and input_message_content")
            self._visible_text({"text": content.get("message_text"), "parse_mode": content.get("parse_mode")})
        return True

    def _m_close(self, params: dict[str, Any]) -> bool:
        return True

    def _m_logout(self, params: dict[str, Any]) -> bool:
        return True

    @staticmethod
    def _visible_text(params: dict[str, Any]) -> str:
        """The text as Telegram stores it, rejecting what Telegram rejects."""
        text = str(params.get("text") or "")
        if params.get("parse_mode") == "HTML":
            problems = telegram_html_problems(text)
            if problems:
                raise _BadRequest(f"can't parse entities: {problems[0]}")
            text = telegram_html_text(text)
        if not text.strip():
            raise _BadRequest("message text is empty")
        if len(text) > MAX_TEXT_CHARS:
            raise _BadRequest("message is too long")
        return text


class _BadRequest(Exception):
    pass


_ADMIN_RIGHTS = (
    "can_be_edited",
    "is_anonymous",
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
)


def _valid_markup(markup: dict[str, Any]) -> dict[str, Any]:
    """Reject inline keyboards Telegram rejects: callback_data must be 1-64 bytes."""
    for row in markup.get("inline_keyboard", []):
        for button in row:
            data = button.get("callback_data")
            if data is not None and not 1 <= len(str(data).encode()) <= 64:
                raise _BadRequest("BUTTON_DATA_INVALID")
    return markup


def _decode_multipart(body: bytes, content_type: str) -> dict[str, Any]:
    """multipart/form-data (file uploads): files as bytes, other fields as in ``_decode_form``."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body
    )
    params: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True) or b""
        if part.get_filename() is not None:
            params[name] = payload
            params[f"{name}_filename"] = part.get_filename()
        else:
            params |= _decode_form([(name, payload.decode())])
    return params


def _decode_form(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """python-telegram-bot form-encodes parameters, JSON-encoding every non-string value."""
    params: dict[str, Any] = {}
    for key, value in pairs:
        if key in _STRING_PARAMS:
            params[key] = value
            continue
        try:
            params[key] = json.loads(value)
        except ValueError:
            params[key] = value
    return params


class _Handler(BaseHTTPRequestHandler):
    fake: FakeBotAPI
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out as two writes: no 40 ms delayed-ACK stall
    _PATH = re.compile(r"^/bot(?P<token>[^/]+)/(?P<method>[A-Za-z]+)$")

    _FILE_PATH = re.compile(r"^/file/bot(?P<token>[^/]+)/(?P<path>.+)$")

    def do_GET(self) -> None:
        match = self._FILE_PATH.match(urlsplit(self.path).path)
        if match is not None:  # a file download (getFile's file_path)
            data = self.fake.file_contents(unquote(match["token"]), unquote(match["path"]))
            if data is None:
                self._send(404, {"ok": False, "error_code": 404, "description": "Not Found"})
                return
            self.send_response(200, "OK")
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        self._serve(body=b"")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if len(body) < length:  # the client died mid-request (kill -9): like Telegram, ignore it
            self.close_connection = True
            return
        self._serve(body=body)

    def _serve(self, body: bytes) -> None:
        fake = self.fake
        with fake._cond:
            fake._state.active_requests += 1
        try:
            url = urlsplit(self.path)
            match = self._PATH.match(url.path)
            if match is None:
                self._send(404, {"ok": False, "error_code": 404, "description": "Not Found"})
                return
            params = _decode_form(parse_qsl(url.query, keep_blank_values=True))
            content_type = self.headers.get("Content-Type", "")
            if "application/json" in content_type and body:
                params |= json.loads(body)
            elif "application/x-www-form-urlencoded" in content_type:
                params |= _decode_form(parse_qsl(body.decode(), keep_blank_values=True))
            elif "multipart/form-data" in content_type:
                params |= _decode_multipart(body, content_type)
            fault = fake._next_fault(match["method"])
            if fault is not None and fault.kind != "slow":
                fake._record_fault(match["token"], match["method"], params, fault)
                self._send_fault(fault)
                return
            status, payload = fake.handle(match["token"], match["method"], params, content_type)
            if fault is not None:  # slow: handled (delivered), answered late
                time.sleep(fault.seconds)
            self._send(status, payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (e.g. a cancelled long poll)
        finally:
            with fake._cond:
                fake._state.active_requests -= 1
                fake._cond.notify_all()

    def _send_fault(self, fault: Fault) -> None:
        if fault.kind == "drop":
            self.close_connection = True  # no status line: the client sees the connection closed
            return
        if fault.kind == "malformed":
            self._send_raw(200, fault.body.encode())
            return
        payload: dict[str, Any] = {"ok": False, "error_code": fault.status, "description": fault.description}
        if fault.retry_after is not None:
            payload["parameters"] = {"retry_after": fault.retry_after}
        self._send(fault.status, payload)

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        text = json.dumps(payload, ensure_ascii=False)
        try:
            data = text.encode()
        except UnicodeEncodeError:  # a lone surrogate (a hostile client's text): JSON's \ud800 escape
            data = json.dumps(payload).encode()
        self._send_raw(status, data)

    def _send_raw(self, status: int, data: bytes) -> None:
        self.send_response(status, HTTPStatus(status).phrase)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # request lines contain the token; keep them out of test output
