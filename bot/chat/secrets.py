"""Secrets out of logs: one redaction for every log record and every one-line error the bot prints.

What is hidden: the bot token and the webhook secret (registered with :func:`protect_token`), the
password of every proxy URL in the environment (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY, any case), and the
credentials part of *any* URL-like text -- ``scheme://user:password@host`` and ``user:password@host``,
malformed ones included (``http://user:pass@[bad`` appears verbatim in some parsers' errors, so the
redaction works on text, never on a parsed URL).

Where: :class:`RedactSecrets` is installed as the logging *record factory*, so every record of every
logger (python-telegram-bot, httpx, ours) is cleaned when it is created -- its message, its arguments
and its traceback text, chained exceptions included -- before any handler, filter or test fixture
sees it. ``run`` passes its one-line start-up errors through the same :data:`REDACTOR`. httpx logs
each request URL (which carries the token) at INFO, so httpx and httpcore are raised to WARNING.

Start-up: until the bot is ready (:func:`mark_ready`), records that carry a traceback are dropped
unless LOG_LEVEL is DEBUG; ``run`` prints the one line that says what failed
(:class:`StartupQuiet`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import traceback
from collections.abc import Callable
from typing import Any

_QUIET_LOGGERS = ("httpx", "httpcore")
PROXY_VARIABLES = ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy")
MIN_SECRET_CHARS = 3
"""Shorter registered strings are not replaced (they would hit ordinary words)."""

# [scheme://]user:password@ -- on text, so malformed URLs are covered too. The password runs to the
# last '@' before a space, quote or angle bracket (a password may contain '@').
_URL_CREDENTIALS = re.compile(r"""(?P<prefix>[a-zA-Z][a-zA-Z0-9+.\-]*://)?[^\s'"<>/@:]*:(?!//)[^\s'"<>]*@""")
_TOKEN_SHAPE = re.compile(r"\b\d{5,12}:[A-Za-z0-9_-]{30,}\b")
"""A Bot API token (``<bot id>:<35 characters>``), registered or not."""


class RedactSecrets:
    """The redaction: registered secrets, then URL credentials and anything shaped like a token."""

    def __init__(self) -> None:
        self.secrets: set[str] = set()

    def add(self, secret: str | None) -> None:
        if secret and len(secret) >= MIN_SECRET_CHARS:
            self.secrets.add(secret)

    def redact(self, text: str) -> str:
        """``text`` with every secret replaced by ``<token>`` / credentials by ``<credentials>``."""
        for secret in sorted(self.secrets, key=len, reverse=True):
            if secret in text:
                text = text.replace(secret, "<token>")
        if "@" in text:
            text = _URL_CREDENTIALS.sub(lambda m: f"{m['prefix'] or ''}<credentials>@", text)
        if ":" in text:
            text = _TOKEN_SHAPE.sub("<token>", text)
        return text

    def scrub(self, record: logging.LogRecord) -> None:
        """Clean one log record in place: message with its arguments, and the traceback text."""
        message = record.getMessage()
        clean = self.redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)


REDACTOR = RedactSecrets()
_factory_installed = False


def _install_record_factory() -> None:
    global _factory_installed
    if _factory_installed:
        return
    previous: Callable[..., logging.LogRecord] = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        with contextlib.suppress(Exception):  # a malformed logging call: reported when formatted
            REDACTOR.scrub(record)
        return record

    logging.setLogRecordFactory(factory)
    _factory_installed = True


def proxy_passwords(environ: dict[str, str] | os._Environ[str] | None = None) -> list[str]:
    """The passwords in the proxy variables, as written and percent-decoded (malformed URLs too)."""
    from urllib.parse import unquote

    if environ is None:
        from bot.config import proxy_environment

        environ = proxy_environment(PROXY_VARIABLES)
    env = environ
    found: list[str] = []
    for name in PROXY_VARIABLES:
        value = env.get(name, "")
        match = re.search(r"^(?:[a-zA-Z][a-zA-Z0-9+.\-]*://)?[^:@/\s]*:(?P<password>[^\s]*)@", value)
        if match and match["password"]:
            found += [match["password"], unquote(match["password"])]
    return found


def protect_token(token: str) -> None:
    """Keep ``token`` (or the webhook secret, or a password) out of every log line, from now on."""
    REDACTOR.add(token)
    for password in proxy_passwords():
        REDACTOR.add(password)
    _install_record_factory()
    for name in _QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


class StartupQuiet(logging.Filter):
    """Until :func:`mark_ready`: drop records that carry a traceback and the transport's retry notes
    (``run`` prints the one line that says what failed); at DEBUG keep them. A filter on the root
    handlers, installed by :func:`configure_logging`."""

    NOISY = ("bot.telegram.transport",)

    def __init__(self) -> None:
        super().__init__()
        self.starting = True

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.starting:
            return True
        if not (record.exc_info or record.exc_text or record.name in self.NOISY):
            return True
        return logging.getLogger().getEffectiveLevel() <= logging.DEBUG


STARTUP = StartupQuiet()


def mark_ready() -> None:
    """The bot is up: from now on tracebacks are logged as usual."""
    STARTUP.starting = False


def configure_logging(level: str) -> None:
    """Root logging for the service: the redaction everywhere, quiet start-up, httpx at WARNING."""
    _install_record_factory()
    for password in proxy_passwords():
        REDACTOR.add(password)
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=level)
    for handler in logging.getLogger().handlers:
        handler.addFilter(STARTUP)
    for name in _QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
