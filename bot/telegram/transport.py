"""Sending to the Bot API: transient failures retried with backoff and jitter, bounded in time; a send
that timed out waiting for Telegram's answer is never repeated blindly.

:class:`RetryingRequest` wraps python-telegram-bot's transport (``HTTPXRequest``, or whatever a test
brings) below every Bot API call except ``getUpdates`` (PTB's updater retries its long poll itself).
What is repeated, and why:

* **Not sent at all** — connection refused, connect/pool/write timeout (Telegram cannot act on a
  request it did not receive in full): repeated.
* **Server fault** — HTTP 5xx, or a 2xx body that is not JSON (a proxy's HTML error page, a cut
  answer): repeated. A gateway that failed after Telegram had acted would make this a duplicate; we
  accept that rare case over losing the answer on every 502.
* **Dropped connection** — the server closed the connection without an answer. Almost always a
  keep-alive connection the other side had already closed, so the request was never read: repeated
  (same trade-off as above).
* **Read timeout** — the request reached Telegram and no answer came in time: the message *may have
  been delivered*. Not repeated (that is how a slow send doubled the reply): it surfaces as
  :class:`MaybeDelivered`, which the error handler logs as one line, with no apology. Sends get a
  longer read timeout (:data:`SEND_READ_TIMEOUT_S`) so a slow Telegram is waited for instead.
* **Everything else** (400, 401, 403, 404, 409, 429) is an answer: returned to PTB, which raises the
  matching error (429 RetryAfter is retried by PTB's ``AIORateLimiter``; the error handler classifies
  the rest, :mod:`bot.telegram.faults`).

Backoff: attempt *n* waits a uniform random time in [d/2, d] with d = min(``max_delay_s``,
``base_delay_s`` · 2ⁿ⁻¹) ("equal jitter", AWS Architecture Blog, *Exponential Backoff and Jitter*,
2015): retries from many chats after one outage spread out instead of arriving together. At most
``attempts`` tries and never past ``budget_s`` seconds after the first one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, HTTPXRequest, RequestData

from bot.textclean import clean_data

logger = logging.getLogger("bot.telegram.transport")

SEND_READ_TIMEOUT_S = 20.0
"""Read timeout for Bot API calls other than getUpdates (PTB's default: 5 s). Telegram normally
answers in well under a second; under load it can take several (the probes saw 7 s). Waiting longer
is cheaper than a reply that is delivered and then reported as failed."""

CONNECTION_POOL_SIZE = 256
"""Concurrent connections for sends (python-telegram-bot's ApplicationBuilder default)."""


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry a transient failure (seconds)."""

    attempts: int = 4
    """tries in all, the first included"""
    base_delay_s: float = 0.5
    max_delay_s: float = 4.0
    budget_s: float = 15.0
    """no retry starts later than this after the first try"""

    def delay(self, retry: int, draw: Callable[[], float] = random.random) -> float:
        """Seconds to wait before retry number ``retry`` (1, 2, …): equal jitter in [d/2, d]."""
        ceiling = min(self.max_delay_s, self.base_delay_s * 2 ** (retry - 1))
        return ceiling / 2 + draw() * ceiling / 2


class MaybeDelivered(TimedOut):
    """Telegram received the request and did not answer in time: it may have acted on it."""

    def __init__(self, method: str) -> None:
        super().__init__(f"{method}: timed out waiting for Telegram's answer (it may have been delivered)")


class BadResponse(NetworkError):
    """Telegram (or a proxy in front of it) answered with a body that is not JSON."""


def api_method(url: str) -> str:
    """``https://api.telegram.org/bot<token>/sendMessage`` → ``sendMessage`` (no token)."""
    return url.rstrip("/").rsplit("/", 1)[-1]


def _never_sent(error: TimedOut) -> bool:
    """A timeout before the request was fully sent: Telegram cannot have acted on it."""
    return isinstance(error.__cause__, httpx.ConnectTimeout | httpx.PoolTimeout | httpx.WriteTimeout)


def _is_json(payload: bytes) -> bool:
    try:
        json.loads(payload)
    except ValueError:
        return False
    return True


def _is_file(url: str) -> bool:
    """A file download (``…/file/bot<token>/<path>``): its body is the file, not a JSON answer."""
    return "/file/bot" in url


class WrappedRequest(BaseRequest):
    """A transport that wraps another (``inner``): its timeouts, start and shutdown are the inner one's;
    subclasses add what happens around ``do_request``."""

    def __init__(self, inner: BaseRequest) -> None:
        self.inner = inner

    @property
    def read_timeout(self) -> float | None:
        return self.inner.read_timeout

    async def initialize(self) -> None:
        await self.inner.initialize()

    async def shutdown(self) -> None:
        await self.inner.shutdown()

    @staticmethod
    def parse_json_payload(payload: bytes) -> Any:
        """PTB's parsing, then lone surrogates in every string replaced (:mod:`bot.textclean`): an
        update's text, caption, inline query or callback data is clean before any handler sees it."""
        return clean_data(BaseRequest.parse_json_payload(payload))


class RetryingRequest(WrappedRequest):
    """A :class:`telegram.request.BaseRequest` that retries transient failures of ``inner``."""

    def __init__(
        self,
        inner: BaseRequest,
        policy: RetryPolicy | None = None,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        draw: Callable[[], float] = random.random,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(inner)
        self.policy = policy or RetryPolicy()
        self._sleep, self._draw, self._clock = sleep, draw, clock

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        name = api_method(url)
        started = self._clock()
        retry = 0
        while True:
            problem: str
            try:
                code, payload = await self.inner.do_request(
                    url,
                    method,
                    request_data,
                    read_timeout=read_timeout,
                    write_timeout=write_timeout,
                    connect_timeout=connect_timeout,
                    pool_timeout=pool_timeout,
                )
            except TimedOut as err:
                if not _never_sent(err):
                    raise MaybeDelivered(name) from err
                failure: Exception | tuple[int, bytes] = err
                problem = f"{type(err.__cause__).__name__}"
            except NetworkError as err:
                failure, problem = err, err.message
            else:
                if code >= 500:
                    failure, problem = (code, payload), f"HTTP {code}"
                elif 200 <= code < 300 and not _is_file(url) and not _is_json(payload):
                    failure = BadResponse(f"{name}: Telegram's answer is not JSON (HTTP {code})")
                    problem = "malformed body"
                else:
                    return code, payload
            retry += 1
            wait = self.policy.delay(retry, self._draw)
            if retry >= self.policy.attempts or self._clock() - started + wait > self.policy.budget_s:
                if isinstance(failure, tuple):
                    return failure  # PTB raises NetworkError with Telegram's description
                raise failure
            logger.info(
                "%s failed (%s); retry %d of %d in %.2f s",
                name,
                problem,
                retry,
                self.policy.attempts - 1,
                wait,
            )
            await self._sleep(wait)


def send_request(policy: RetryPolicy | None = None, inner: BaseRequest | None = None) -> RetryingRequest:
    """The transport for every Bot API call but getUpdates: ``inner`` (default PTB's ``HTTPXRequest``
    with the longer send read timeout; proxies from HTTPS_PROXY/ALL_PROXY) with retries."""
    if inner is None:
        inner = HTTPXRequest(connection_pool_size=CONNECTION_POOL_SIZE, read_timeout=SEND_READ_TIMEOUT_S)
    return RetryingRequest(inner, policy)
