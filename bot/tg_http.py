"""The HTTP client the bot talks to the Bot API with: a PTB ``BaseRequest`` on aiohttp, JSON bodies.

python-telegram-bot lets an application bring its own networking backend
(https://docs.python-telegram-bot.org/en/stable/telegram.request.baserequest.html). We use aiohttp
(C-accelerated HTTP parsing) instead of the default httpx client, and send methods that upload no
file as ``application/json`` (https://core.telegram.org/bots/api#making-requests) instead of PTB's
url-encoded form, whose percent-encoding of a 2–3 KB HTML reply was the costliest step of a
``sendMessage`` on our side. Together with uvloop this took ``bench/throughput.py`` from ~220 to
~330+ updates/s on 2 cores. Uploads (the chart's ``sendPhoto``) go as multipart/form-data.

Behaviour kept from PTB's ``HTTPXRequest``: timeouts per call with the same defaults (5 s read and
connect, 1 s pool), ``TimedOut`` on a timeout, ``NetworkError`` on any other transport failure (its
text without the token-bearing URL path), no redirects followed, proxies from the environment
(``HTTPS_PROXY``/``ALL_PROXY``, ``NO_PROXY``; HTTP proxies only). aiohttp has no write timeout: an
upload is bounded as a whole by write (PTB's 20 s media default) + read timeout.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit
from urllib.request import getproxies, proxy_bypass

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

MEDIA_WRITE_TIMEOUT = 20.0
"""Seconds to send an upload, PTB's default ``media_write_timeout`` (HTTPXRequest)."""
_UNSET = type(BaseRequest.DEFAULT_NONE)  # PTB's "not given: use this request's default" marker
_JSON = {"Content-Type": "application/json", "User-Agent": BaseRequest.USER_AGENT}
_FORM = {"User-Agent": BaseRequest.USER_AGENT}


_CREDENTIALS_RE = re.compile(r"//[^/@\s]+@")


def _without_secrets(text: str, url: str) -> str:
    """An error text without the request URL's path (it holds the bot token) or proxy passwords."""
    parts = urlsplit(url)
    text = text.replace(url, f"{parts.scheme}://{parts.netloc}/…")
    if parts.path:
        text = text.replace(parts.path, "/…")
    return _CREDENTIALS_RE.sub("//***@", text)


class AiohttpRequest(BaseRequest):
    """PTB request backend on one ``aiohttp.ClientSession`` (created in :meth:`initialize`).

    pool_size: open connections at most (PTB's default: 256 for API calls, 1 for getUpdates).
    Timeouts in seconds, as PTB's ``HTTPXRequest``; a call's own timeouts override them.
    """

    def __init__(
        self,
        pool_size: int = 256,
        *,
        read_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
    ) -> None:
        self._pool_size = pool_size
        self._read_timeout = read_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._session: aiohttp.ClientSession | None = None
        self._proxies: dict[str, str | None] = {}  # host → proxy URL, resolved once per host

    def _proxy_for(self, url: str) -> str | None:
        """The environment's proxy for ``url`` (HTTPS_PROXY/HTTP_PROXY/ALL_PROXY, NO_PROXY), looked up
        once per host: aiohttp's ``trust_env`` re-reads the environment on every request (~25 % of a
        call). Raises NetworkError for a SOCKS proxy (aiohttp speaks HTTP proxies only)."""
        parts = urlsplit(url)
        key = f"{parts.scheme}://{parts.hostname}"
        if key not in self._proxies:
            proxies = getproxies()
            proxy = proxies.get(parts.scheme) or proxies.get("all")
            if proxy and proxy_bypass(parts.hostname or ""):
                proxy = None
            if proxy and not proxy.startswith(("http://", "https://")):  # socks5://…: not in aiohttp
                raise NetworkError(f"unsupported proxy scheme {urlsplit(proxy).scheme!r}: use an HTTP proxy")
            self._proxies[key] = proxy
        return self._proxies[key]

    @property
    def read_timeout(self) -> float | None:
        """Default read timeout; PTB adds getUpdates' long-poll ``timeout`` to it."""
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._pool_size)
            self._session = aiohttp.ClientSession(connector=connector, trust_env=False)  # see _proxy_for

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: float | None = BaseRequest.DEFAULT_NONE,
        write_timeout: float | None = BaseRequest.DEFAULT_NONE,
        connect_timeout: float | None = BaseRequest.DEFAULT_NONE,
        pool_timeout: float | None = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """One HTTP call: (status code, body). Raises TimedOut or NetworkError."""
        if self._session is None or self._session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        read = self._read_timeout if isinstance(read_timeout, _UNSET) else read_timeout
        connect = self._connect_timeout if isinstance(connect_timeout, _UNSET) else connect_timeout
        pool = self._pool_timeout if isinstance(pool_timeout, _UNSET) else pool_timeout
        total = None
        if request_data is not None and request_data.contains_files:
            # aiohttp has no write timeout: bound the whole upload (PTB's media write default: 20 s)
            write = MEDIA_WRITE_TIMEOUT if isinstance(write_timeout, _UNSET) else write_timeout
            total = write + read if write is not None and read is not None else None
        timeout = aiohttp.ClientTimeout(
            total=total,
            # aiohttp's "connect" covers waiting for a pooled connection plus connecting
            connect=None if connect is None or pool is None else connect + pool,
            sock_connect=connect,
            sock_read=read,
        )
        body: bytes | aiohttp.FormData | None = None
        headers = _FORM
        if request_data is not None and request_data.contains_files:
            body = aiohttp.FormData()
            for name, value in request_data.json_parameters.items():
                body.add_field(name, value)
            for name, (filename, content, mimetype) in request_data.multipart_data.items():
                body.add_field(name, content, filename=filename, content_type=mimetype)
        elif request_data is not None:
            body, headers = json.dumps(request_data.parameters, ensure_ascii=False).encode(), _JSON
        try:
            async with self._session.request(
                method,
                url,
                data=body,
                headers=headers,
                timeout=timeout,
                proxy=self._proxy_for(url),
                allow_redirects=False,  # as PTB's httpx client: a redirect is an answer, not a hop
            ) as res:
                return res.status, await res.read()
        except TimeoutError as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:  # the class name helps when the message is empty
            detail = _without_secrets(str(err), url)
            raise NetworkError(f"aiohttp.{err.__class__.__name__}: {detail}") from err
