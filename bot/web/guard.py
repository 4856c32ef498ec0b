"""Request guards for the web: security headers (a content security policy), the path prefix behind a
reverse proxy (``X-Forwarded-Prefix``), a body size limit and a per-client rate limit.

Plain ASGI middleware: a few dictionary lookups per request, no I/O.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections import OrderedDict

CSP = (
    "default-src 'none'; img-src 'self'; style-src 'self'; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
"""No script anywhere, styles and images from this site only, forms post back here only."""
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
MAX_BODY_BYTES = 256 * 1024
"""Largest request body (a config.json is a few kB; estimator.hf_config caps one at 1 MB)."""
_PREFIX_RE = re.compile(r"^(/[A-Za-z0-9._~-]+)+$")


class RateLimiter:
    """Token bucket per client: ``per_minute`` requests a minute on average, bursts of ``burst``.
    ``per_minute`` 0 turns it off. At most ``max_clients`` buckets are kept (least recent dropped)."""

    def __init__(self, per_minute: float, burst: int, max_clients: int = 10_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def retry_after(self, client: str, now: float | None = None) -> float:
        """0 when ``client`` may go ahead now (a token is taken), else the seconds until it may."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, last = self._buckets.pop(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            wait = 0.0 if tokens >= 1 else (1 - tokens) / self.rate
            self._buckets[client] = (tokens - 1 if wait == 0 else tokens, now)
            while len(self._buckets) > self.max_clients:
                self._buckets.popitem(last=False)
        return wait


class Guard:
    """The ASGI middleware: prefix, body limit, rate limit (answers 429 via ``too_many``), headers."""

    def __init__(self, app, limiter: RateLimiter, too_many, too_large) -> None:
        self.app, self.limiter, self.too_many, self.too_large = app, limiter, too_many, too_large

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        prefix = headers.get(b"x-forwarded-prefix", b"").decode("latin-1").rstrip("/")
        if prefix and _PREFIX_RE.match(prefix) and not scope.get("root_path"):
            scope = {**scope, "root_path": prefix, "path": prefix + scope["path"]}

        async def send_secured(message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        length = headers.get(b"content-length", b"0")
        if not length.isdigit() or int(length) > MAX_BODY_BYTES:
            await self.too_large(scope, receive, send_secured)
            return
        path = scope["path"][len(scope.get("root_path", "")) :] if scope.get("root_path") else scope["path"]
        if path not in ("/healthz", "/page.css"):
            client = (scope.get("client") or ("?", 0))[0]
            wait = self.limiter.retry_after(client)
            if wait > 0:
                await self.too_many(scope, receive, send_secured, max(1, math.ceil(wait)))
                return
        await self.app(scope, receive, send_secured)
