"""DingTalk HTTP calls the bot needs, with httpx: session webhook replies and the robot OpenAPI.

Sources (open.dingtalk.com/document, "机器人" / "Stream 模式"; the SDK at the commit named in
:mod:`bot.dingtalk.stream`, ``stream.py`` ``get_access_token`` / ``upload_to_dingtalk`` and
``chatbot.py`` ``reply_text`` / ``reply_markdown``; issue 28):

* session webhook: ``POST <sessionWebhook>`` (on the oapi host, ``/robot/sendBySession?session=…``)
  with ``{msgtype: text|markdown|actionCard, …}`` → ``{errcode: 0, errmsg: "ok"}``; valid until the
  callback's ``sessionWebhookExpiredTime`` (ms since the epoch, about 1.5 h). Only URLs on the
  configured oapi host are posted to (the answer never goes to a URL a frame could name elsewhere).
* access token: ``POST {endpoint}/v1.0/oauth2/accessToken`` with ``{appKey, appSecret}`` →
  ``{accessToken, expireIn}`` (s, 7200); kept until 5 min before it expires, fetched again on 401.
* robot messages: ``POST {endpoint}/v1.0/robot/groupMessages/send`` ``{robotCode,
  openConversationId, msgKey, msgParam}`` and ``/v1.0/robot/oToMessages/batchSend`` ``{robotCode,
  userIds, msgKey, msgParam}`` (``msgParam`` a JSON *string*; header ``x-acs-dingtalk-access-token``);
  msgKeys ``sampleMarkdown {title, text}``, ``sampleImageMsg {photoURL}`` (a media id works),
  ``sampleFile {mediaId, fileName, fileType}``.
* media: ``POST {oapi}/media/upload?access_token=…`` multipart ``type`` (image|file) and ``media`` →
  ``{errcode: 0, media_id}``.
* limits: a group robot may send 20 messages a minute per group (beyond that DingTalk throttles it
  for 10 minutes): :class:`MinuteWindow` holds each chat's sends to 20 in any 60 s; HTTP 429 and 5xx
  are retried after :data:`BACKOFF_S`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

import httpx

from bot.chat.token import TokenCache

log = logging.getLogger(__name__)

TOKEN_PATH = "/v1.0/oauth2/accessToken"
GROUP_SEND = "/v1.0/robot/groupMessages/send"
OTO_SEND = "/v1.0/robot/oToMessages/batchSend"
UPLOAD_PATH = "/media/upload"
CARD_CREATE = "/v1.0/card/instances/createAndDeliver"
CARD_UPDATE = "/v1.0/card/instances"
GROUP_PER_MINUTE = 20
"""Messages a robot may send to one group in a minute (DingTalk's robot rules; issue 28)."""
BACKOFF_S = (1.0, 2.0, 4.0, 8.0)


class DingTalkAPIError(Exception):
    """A call DingTalk refused (non-zero ``errcode``, an error ``code``, or HTTP ≥ 400)."""

    def __init__(self, status: int, code: str, msg: str) -> None:
        super().__init__(f"DingTalk API error {code} (HTTP {status}): {msg}")
        self.status, self.code, self.msg = status, code, msg


class MinuteWindow:
    """At most ``events`` sends per key in any ``window_s`` seconds: :meth:`reserve` books the next free
    slot and says how long to wait for it (sends of one key keep their order)."""

    def __init__(
        self,
        events: int = GROUP_PER_MINUTE,
        window_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.events, self.window_s, self._clock = events, window_s, clock
        self._slots: dict[str, deque[float]] = {}

    def reserve(self, key: str) -> float:
        """Seconds to wait before the send for ``key`` may go out (its slot is booked now)."""
        now = self._clock()
        if len(self._slots) > 10_000:
            self._slots = {k: q for k, q in self._slots.items() if q and q[-1] > now - self.window_s}
        slots = self._slots.setdefault(key, deque())
        slot = now if len(slots) < self.events else max(now, slots[0] + self.window_s)
        slots.append(slot)
        while len(slots) > self.events:
            slots.popleft()
        return slot - now


class DingTalkAPI:
    """The HTTP side of the bot on DingTalk. ``sleep`` and ``clock`` are injectable for tests."""

    def __init__(
        self,
        client_id: str,
        client_secret: str,
        *,
        endpoint: str = "https://api.dingtalk.com",
        oapi_endpoint: str = "https://oapi.dingtalk.com",
        http: httpx.AsyncClient | None = None,
        window: MinuteWindow | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._id, self._secret = client_id, client_secret
        self.endpoint, self.oapi = endpoint.rstrip("/"), oapi_endpoint.rstrip("/")
        self._http = http or httpx.AsyncClient(timeout=20.0)
        self.window = window or MinuteWindow()
        self._sleep, self._clock = sleep, clock
        self.token = TokenCache(self._fetch_token, clock)  # run.py sets its on_token (log redaction)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def access_token(self, *, refresh: bool = False) -> str:
        """The cached app access token, fetched when missing, near expiry or ``refresh``."""
        return await self.token.get(refresh=refresh)

    async def _fetch_token(self) -> tuple[str, float]:
        resp = await self._http.post(
            self.endpoint + TOKEN_PATH, json={"appKey": self._id, "appSecret": self._secret}
        )
        body = _json(resp)
        if resp.status_code != 200 or not body.get("accessToken"):
            raise DingTalkAPIError(resp.status_code, str(body.get("code", "")), str(body.get("message", "")))
        return str(body["accessToken"]), float(body.get("expireIn", 7200))

    def webhook_ok(self, url: str) -> bool:
        """Whether ``url`` is a session webhook on the configured oapi host (else it is not used)."""
        want, got = urlsplit(self.oapi), urlsplit(url)
        return (got.scheme, got.netloc) == (want.scheme, want.netloc) and got.path.endswith(
            "/robot/sendBySession"
        )

    async def webhook(self, url: str, message: dict[str, Any], *, chat: str) -> None:
        """Post a reply to a session webhook; :class:`DingTalkAPIError` when DingTalk refuses it."""
        if not self.webhook_ok(url):
            raise DingTalkAPIError(0, "bad_webhook", "not a session webhook on the oapi host")
        await self._wait_slot(chat)
        try:
            resp = await self._http.post(url, json=message)
        except httpx.HTTPError as exc:  # the OpenAPI takes over; the URL (a credential) is not logged
            raise DingTalkAPIError(0, type(exc).__name__, "session webhook unreachable") from None
        body = _json(resp)
        if resp.status_code != 200 or body.get("errcode", 0) != 0:
            raise DingTalkAPIError(
                resp.status_code, str(body.get("errcode", "")), str(body.get("errmsg", ""))
            )

    async def send(self, target: dict[str, Any], msg_key: str, param: dict[str, Any], *, chat: str) -> str:
        """Send through the robot OpenAPI to a group (``openConversationId`` in ``target``) or to users
        (``userIds``) → DingTalk's ``processQueryKey``."""
        path = GROUP_SEND if "openConversationId" in target else OTO_SEND
        body = {**target, "msgKey": msg_key, "msgParam": json.dumps(param, ensure_ascii=False)}
        await self._wait_slot(chat)
        answer = await self._call(self.endpoint + path, json=body)
        return str(answer.get("processQueryKey") or "")

    async def upload(self, data: bytes, filename: str, kind: str) -> str:
        """Upload a file (``kind`` image or file) on the oapi host → its ``media_id``."""
        files = {"media": (filename, data, "image/png" if kind == "image" else "application/octet-stream")}
        answer = await self._call(self.oapi + UPLOAD_PATH, data={"type": kind}, files=files, query_token=True)
        if answer.get("errcode", 0) != 0 or not answer.get("media_id"):
            raise DingTalkAPIError(200, str(answer.get("errcode", "")), str(answer.get("errmsg", "")))
        return str(answer["media_id"])

    async def card_create(self, body: dict[str, Any], *, chat: str) -> None:
        """Create and deliver a card instance (:mod:`bot.dingtalk.cards`); counts as a message sent."""
        await self._wait_slot(chat)
        await self._call(self.endpoint + CARD_CREATE, json=body)

    async def card_update(self, body: dict[str, Any]) -> None:
        """Update a card instance in place (``PUT``, by its ``outTrackId``)."""
        await self._call(self.endpoint + CARD_UPDATE, method="PUT", json=body)

    async def _call(
        self, url: str, *, query_token: bool = False, method: str = "POST", **kwargs: Any
    ) -> dict[str, Any]:
        """POST (or ``method``) with the token (header, or ``access_token`` query on the oapi host),
        retrying 429 and 5xx after :data:`BACKOFF_S` and a 401 once with a new token."""
        refreshed = False
        for attempt in range(len(BACKOFF_S) + 1):
            token = await self.access_token()
            auth = {"params": {"access_token": token}} if query_token else {}
            headers = {} if query_token else {"x-acs-dingtalk-access-token": token}
            try:
                resp = await self._http.request(method, url, headers=headers, **auth, **kwargs)
            except httpx.TransportError as exc:
                log.warning("dingtalk: %s failed: %s", urlsplit(url).path, type(exc).__name__)
                resp = None
            if resp is not None and resp.status_code == 401 and not refreshed:
                refreshed = True
                await self.access_token(refresh=True)
                continue
            if resp is not None and resp.status_code < 400:
                return _json(resp)
            if resp is not None and resp.status_code != 429 and resp.status_code < 500:
                body = _json(resp)
                raise DingTalkAPIError(
                    resp.status_code, str(body.get("code", "")), str(body.get("message", ""))
                )
            if attempt < len(BACKOFF_S):
                await self._sleep(BACKOFF_S[attempt])
        raise DingTalkAPIError(
            0, "gave_up", f"{urlsplit(url).path}: no answer after {len(BACKOFF_S) + 1} tries"
        )

    async def _wait_slot(self, chat: str) -> None:
        wait = self.window.reserve(chat)
        if wait > 0:
            log.info("dingtalk: 20 messages a minute reached in a chat, waiting %.1f s", wait)
            await self._sleep(wait)


def _json(resp: httpx.Response) -> dict[str, Any]:
    try:
        body = resp.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}
