"""Secrets out of logs: the bot token and the webhook secret never reach a log line.

PTB logs the token-bearing API URL at DEBUG when the bot is built and httpx logs every request
URL at INFO, so those loggers get a redacting filter and httpx/httpcore are raised to WARNING.
"""

from __future__ import annotations

import logging

# Loggers whose records can carry the token (logger filters only see records created on that
# exact logger, so each one is named). httpcore only logs at DEBUG; raising its level suffices.
_TOKEN_BEARING_LOGGERS = (
    "telegram.Bot",
    "telegram.ext.ExtBot",
    "telegram.ext.Application",
    "telegram.ext.Updater",
    "telegram.ext._utils.webhookhandler",
    "httpx",
    "bot.telegram",
)
_QUIET_LOGGERS = ("httpx", "httpcore")


# -- secrets out of logs ---------------------------------------------------------------------
class RedactSecrets(logging.Filter):
    """Replace every registered secret in a log record (message, arguments, traceback text)."""

    def __init__(self) -> None:
        super().__init__()
        self.secrets: set[str] = set()

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "<token>")
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        message = record.getMessage()
        if any(secret in message for secret in self.secrets):
            record.msg, record.args = self.redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        return True


REDACTOR = RedactSecrets()


def protect_token(token: str) -> None:
    """Keep ``token`` (or the webhook secret) out of every log line the Telegram stack can write."""
    REDACTOR.secrets.add(token)
    for name in _TOKEN_BEARING_LOGGERS:
        logging.getLogger(name).addFilter(REDACTOR)  # idempotent
    for name in _QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


def configure_logging(level: str) -> None:
    """Root logging for the service; secrets are redacted on every root handler too."""
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=level)
    for handler in logging.getLogger().handlers:
        handler.addFilter(REDACTOR)
    for name in _QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
