"""An app access token kept until shortly before it expires — the one cache Feishu's
tenant_access_token and DingTalk's accessToken both need (WeCom's long connection has none).

Both platforms hand out a token valid ``expire`` seconds (7,200) and ask that it be reused, not fetched
per call; their SDKs refresh 5 minutes early (lark-oapi ``core/token``, dingtalk-stream ``stream.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

TOKEN_MARGIN_S = 300.0
"""Refresh 5 minutes before the token's ``expire`` runs out (both SDKs' margin)."""


class TokenCache:
    """``await cache.get()``: the cached token, fetched by ``fetch()`` → ``(token, expire_s)`` when
    missing, near expiry or with ``refresh=True`` (after the platform refused it). One fetch at a time:
    concurrent callers wait for the same one. A token shorter-lived than twice the margin is kept
    for half its life."""

    def __init__(
        self,
        fetch: Callable[[], Awaitable[tuple[str, float]]],
        clock: Callable[[], float],
        on_token: Callable[[str], None] | None = None,
    ) -> None:
        self._fetch, self._clock, self.on_token = fetch, clock, on_token
        self._token, self._expiry = "", 0.0
        self._lock = asyncio.Lock()

    async def get(self, *, refresh: bool = False) -> str:
        async with self._lock:
            if not refresh and self._token and self._clock() < self._expiry:
                return self._token
            token, expire = await self._fetch()
            self._token = token
            if self.on_token is not None:
                self.on_token(token)
            self._expiry = self._clock() + max(expire - TOKEN_MARGIN_S, expire / 2)
            return token

    def forget(self) -> None:
        """Drop the token (the platform refused it): the next :meth:`get` fetches a new one."""
        self._token, self._expiry = "", 0.0
