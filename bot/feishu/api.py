"""Feishu / Lark open-platform HTTP calls the bot needs, with httpx.

Sources (open.feishu.cn/document, server-docs; the same paths on open.larksuite.com):

* tenant_access_token: ``POST /open-apis/auth/v3/tenant_access_token/internal`` with
  ``{"app_id", "app_secret"}`` → ``{"code": 0, "tenant_access_token", "expire"}`` (seconds, 7200);
  cached until ``expire`` minus 5 min (bot/chat/token.py), fetched again on codes 99991663 (invalid) and
  99991661 (missing) as lark_oapi/core/token handling does.
* messages: reply ``POST /open-apis/im/v1/messages/:message_id/reply``, send
  ``POST /open-apis/im/v1/messages?receive_id_type=chat_id``, update a card
  ``PATCH /open-apis/im/v1/messages/:message_id``; ``content`` is a JSON *string*.
* uploads: ``POST /open-apis/im/v1/images`` (multipart ``image_type=message``, ``image``) →
  ``image_key``; ``POST /open-apis/im/v1/files`` (``file_type=pdf``, ``file_name``, ``file``) → ``file_key``.
* chat info: ``GET /open-apis/im/v1/chats/:chat_id?user_id_type=open_id`` → ``data.owner_id`` and
  ``data.user_manager_id_list`` (the group's owner and its administrators: who may change settings;
  lark_oapi/api/im/v1/model/get_chat_response_body.py). There is no GET for a group's managers:
  ``/open-apis/im/v1/chats/:chat_id/managers`` only has ``add_managers`` / ``delete_managers``.
* message resources: ``GET /open-apis/im/v1/messages/:message_id/resources/:file_key?type=file`` → the
  file's bytes (2xx), or a JSON error body (lark_oapi/api/im/v1/resource/message_resource.py).
* bot info: ``GET /open-apis/bot/v3/info`` → ``{"bot": {"open_id", "app_name", …}}``.
* limits: HTTP 429 / code 99991400 with header ``x-ogw-ratelimit-reset`` (seconds until the window
  resets); sending is limited to 5 QPS per user and per group, shared by every bot in the group
  (issue 27, "Rules"): :class:`ChatLimiter` spaces this client's calls per chat at ``1/qps`` s.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from bot.chat.token import TokenCache
from bot.feishu.client import FEISHU_DOMAIN

log = logging.getLogger(__name__)

TOKEN_PATH = "/open-apis/auth/v3/tenant_access_token/internal"
TOKEN_CODES = {99991663, 99991661}  # invalid / missing tenant access token
RATE_LIMIT_CODE = 99991400
CHAT_QPS = 5.0  # Feishu: 5 messages/s per user and per group
BACKOFF_S = (0.5, 1.0, 2.0, 4.0, 8.0)  # transport errors and 5xx
ADMINS_TTL_S = 60.0
"""A group's owner and administrators are remembered this long (a change shows within a minute)."""


class FeishuAPIError(Exception):
    """A call Feishu answered with a non-zero ``code`` (or that kept failing)."""

    def __init__(self, code: int, msg: str, status: int = 200, retry_after: float | None = None) -> None:
        super().__init__(f"Feishu API error {code} (HTTP {status}): {msg}")
        self.code, self.msg, self.status = code, msg, status
        self.retry_after = retry_after  # seconds to wait (a rate-limited token call), else None


class FileTooLarge(Exception):
    """A download stopped at its limit: ``size`` is the reported size ("12,345 bytes") or a bound."""

    def __init__(self, size: str) -> None:
        super().__init__(size)
        self.size = size


class ChatLimiter:
    """At most ``qps`` calls per second per chat: each call reserves the next free ``1/qps`` slot."""

    def __init__(self, qps: float = CHAT_QPS, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval, self._clock = 1.0 / qps, clock
        self._next: dict[str, float] = {}

    def reserve(self, chat: str) -> float:
        """Seconds to wait before the call for ``chat`` may go out (the slot is taken now)."""
        now = self._clock()
        if len(self._next) > 10_000:
            self._next = {k: t for k, t in self._next.items() if t > now}
        slot = max(now, self._next.get(chat, now))
        self._next[chat] = slot + self.interval
        return slot - now


class FeishuAPI:
    """The HTTP side of the bot on Feishu / Lark. ``sleep`` is injectable for tests."""

    def __init__(
        self,
        app_id: str,
        app_secret: str,
        *,
        domain: str = FEISHU_DOMAIN,
        http: httpx.AsyncClient | None = None,
        limiter: ChatLimiter | None = None,
        retries: int = 4,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._app_id, self._secret = app_id, app_secret
        self.domain = domain.rstrip("/")
        self._http = http or httpx.AsyncClient(timeout=20.0)
        self.limiter = limiter or ChatLimiter()
        self.retries, self._sleep, self._clock = retries, sleep, clock
        self._token = TokenCache(self._fetch_token, clock)
        self._admins: dict[str, tuple[float, frozenset[str]]] = {}  # chat → (expiry, open_ids)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def tenant_token(self, *, refresh: bool = False) -> str:
        """The cached tenant_access_token, fetched when missing, near expiry or ``refresh``."""
        return await self._token.get(refresh=refresh)

    async def _fetch_token(self) -> tuple[str, float]:
        resp = await self._http.post(
            self.domain + TOKEN_PATH, json={"app_id": self._app_id, "app_secret": self._secret}
        )
        body = _json(resp)
        if resp.status_code == 429 or body.get("code") == RATE_LIMIT_CODE:
            wait = _reset_seconds(resp, BACKOFF_S[0])
            raise FeishuAPIError(RATE_LIMIT_CODE, str(body.get("msg", "")), resp.status_code, wait)
        if body.get("code") != 0 or not body.get("tenant_access_token"):
            raise FeishuAPIError(int(body.get("code", -1)), str(body.get("msg", "")), resp.status_code)
        return str(body["tenant_access_token"]), float(body.get("expire", 7200))

    async def call(self, method: str, path: str, *, chat: str | None = None, **kwargs: Any) -> dict[str, Any]:
        """One API call with retries: 429 / 99991400 (the call's or the token's) wait
        ``x-ogw-ratelimit-reset`` s, token codes
        fetch a new token, transport errors and 5xx back off (:data:`BACKOFF_S`). Returns the body."""
        refreshed = False
        for attempt in range(self.retries + 1):
            if chat is not None:
                await self._sleep_if(self.limiter.reserve(chat))
            try:
                token = await self.tenant_token()
            except FeishuAPIError as exc:
                if exc.retry_after is None:
                    raise
                log.warning("feishu: rate limited on the token, waiting %.1f s", exc.retry_after)
                await self._sleep(exc.retry_after)
                continue
            try:
                resp = await self._http.request(
                    method, self.domain + path, headers={"Authorization": f"Bearer {token}"}, **kwargs
                )
            except httpx.TransportError as exc:
                log.warning("feishu: %s %s failed: %s", method, path, type(exc).__name__)
                await self._backoff(attempt)
                continue
            body = _json(resp)
            code = body.get("code", -1 if resp.status_code != 200 else 0)
            if resp.status_code == 429 or code == RATE_LIMIT_CODE:
                wait = _reset_seconds(resp, BACKOFF_S[min(attempt, len(BACKOFF_S) - 1)])
                log.warning("feishu: rate limited on %s, waiting %.1f s", path, wait)
                await self._sleep(wait)
                continue
            if code in TOKEN_CODES and not refreshed:
                refreshed = True
                self._token.forget()  # fetched again at the top of the loop (rate limits honoured there)
                continue
            if resp.status_code >= 500:
                await self._backoff(attempt)
                continue
            if code != 0:
                raise FeishuAPIError(int(code), str(body.get("msg", "")), resp.status_code)
            return body
        raise FeishuAPIError(-1, f"{method} {path}: gave up after {self.retries + 1} tries")

    async def _sleep_if(self, seconds: float) -> None:
        if seconds > 0:
            await self._sleep(seconds)

    async def _backoff(self, attempt: int) -> None:
        await self._sleep(BACKOFF_S[min(attempt, len(BACKOFF_S) - 1)])

    # -- messages -----------------------------------------------------------------------------------
    async def send(self, chat_id: str, msg_type: str, content: dict[str, Any], *, uuid: str | None = None):
        """Send to a chat; ``uuid`` makes retries idempotent (Feishu dedupes it for 1 h). → message data."""
        body = {"receive_id": chat_id, "msg_type": msg_type, "content": _content(content)}
        if uuid:
            body["uuid"] = uuid
        path = "/open-apis/im/v1/messages"
        answer = await self.call("POST", path, chat=chat_id, params={"receive_id_type": "chat_id"}, json=body)
        return answer.get("data") or {}

    async def reply(
        self,
        message_id: str,
        msg_type: str,
        content: dict[str, Any],
        *,
        chat_id: str | None = None,
        uuid: str | None = None,
    ) -> dict[str, Any]:
        """Reply to ``message_id``; ``chat_id`` keys the per-chat limiter (else the message id)."""
        body = {"msg_type": msg_type, "content": _content(content)}
        if uuid:
            body["uuid"] = uuid
        path = f"/open-apis/im/v1/messages/{message_id}/reply"
        answer = await self.call("POST", path, chat=chat_id or message_id, json=body)
        return answer.get("data") or {}

    async def update_card(self, message_id: str, card: dict[str, Any], *, chat_id: str | None = None) -> None:
        """Replace the card of a message the bot sent (``PATCH``, content = card JSON string)."""
        path = f"/open-apis/im/v1/messages/{message_id}"
        await self.call("PATCH", path, chat=chat_id or message_id, json={"content": _content(card)})

    async def upload_image(self, data: bytes, filename: str = "chart.png") -> str:
        """Upload an image for messages and cards → ``image_key``."""
        answer = await self.call(
            "POST",
            "/open-apis/im/v1/images",
            data={"image_type": "message"},
            files={"image": (filename, data, "application/octet-stream")},
        )
        return str(answer["data"]["image_key"])

    async def upload_file(self, data: bytes, file_name: str, file_type: str = "pdf") -> str:
        """Upload a file (a PDF quote) → ``file_key``."""
        answer = await self.call(
            "POST",
            "/open-apis/im/v1/files",
            data={"file_type": file_type, "file_name": file_name},
            files={"file": (file_name, data, "application/octet-stream")},
        )
        return str(answer["data"]["file_key"])

    async def chat_admins(self, chat_id: str) -> frozenset[str]:
        """The open_ids that may change a group's settings: its owner and its administrators
        (``data.owner_id`` + ``data.user_manager_id_list`` of ``GET /open-apis/im/v1/chats/:chat_id``),
        remembered :data:`ADMINS_TTL_S` per chat."""
        now = self._clock()
        cached = self._admins.get(chat_id)
        if cached is not None and cached[0] > now:
            return cached[1]
        path = f"/open-apis/im/v1/chats/{chat_id}"
        data = (await self.call("GET", path, params={"user_id_type": "open_id"})).get("data") or {}
        managers = data.get("user_manager_id_list")
        ids = [data.get("owner_id"), *(managers if isinstance(managers, list) else [])]
        admins = frozenset(str(i) for i in ids if i)
        if len(self._admins) > 10_000:
            self._admins = {k: v for k, v in self._admins.items() if v[0] > now}
        self._admins[chat_id] = (now + ADMINS_TTL_S, admins)
        return admins

    async def download_resource(self, message_id: str, file_key: str, *, limit: int) -> bytes:
        """A file sent in a message (``type=file``), at most ``limit`` bytes: :class:`FileTooLarge` as
        soon as the ``Content-Length`` or the bytes read pass it (the rest is never downloaded);
        :class:`FeishuAPIError` for an error body. Token codes fetch a new token once; no other retry."""
        path = f"/open-apis/im/v1/messages/{message_id}/resources/{file_key}"
        for refresh in (False, True):
            token = await self.tenant_token(refresh=refresh)
            headers = {"Authorization": f"Bearer {token}"}
            async with self._http.stream(
                "GET", self.domain + path, params={"type": "file"}, headers=headers
            ) as resp:
                if 200 <= resp.status_code < 300:
                    return await _read_capped(resp, limit)
                try:
                    body = _json_bytes(await _read_capped(resp, 65536))
                except FileTooLarge:
                    body = {}
            code = int(body.get("code", -1))
            if code not in TOKEN_CODES or refresh:
                raise FeishuAPIError(code, str(body.get("msg", "")), resp.status_code)
        raise AssertionError("unreachable")

    async def bot_info(self) -> dict[str, Any]:
        """The bot's own identity (``open_id``, ``app_name``): to recognise @-mentions of itself."""
        answer = await self.call("GET", "/open-apis/bot/v3/info")
        return dict(answer.get("bot") or {})


async def _read_capped(resp: httpx.Response, limit: int) -> bytes:
    """The body of a streamed response, refused past ``limit`` bytes (:class:`FileTooLarge`)."""
    length = resp.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise FileTooLarge(f"{int(length):,} bytes")
    data = bytearray()
    async for chunk in resp.aiter_bytes():
        data += chunk
        if len(data) > limit:
            raise FileTooLarge(f"> {limit:,} bytes")
    return bytes(data)


def _content(content: dict[str, Any] | str) -> str:
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def _json(resp: httpx.Response) -> dict[str, Any]:
    try:
        body = resp.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _json_bytes(data: bytes) -> dict[str, Any]:
    try:
        body = json.loads(data)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _reset_seconds(resp: httpx.Response, default: float) -> float:
    """``x-ogw-ratelimit-reset``: seconds until the rate-limit window resets (≥ 0)."""
    try:
        return max(float(resp.headers["x-ogw-ratelimit-reset"]), 0.0)
    except (KeyError, ValueError):
        return default
