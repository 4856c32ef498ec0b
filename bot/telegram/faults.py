"""What went wrong, for the error handler: each failure classified, so that expected outcomes end
quietly (one log line, no traceback, no further call) and only our own bugs get a traceback.

=================  =========================================================  =======  ===========
kind               examples (Bot API descriptions, PTB error types)           log      apology
=================  =========================================================  =======  ===========
``GONE``           403 "bot was blocked by the user", "bot was kicked",       INFO     none: the
                   "user is deactivated"; 400 "chat not found",                        chat cannot
                   "not enough rights to send text messages"                           hear us
``STALE``          400 "message is not modified", "message to edit not         INFO     none
                   found", "message can't be edited", "query is too old and
                   response timeout expired or query ID is invalid"
``MAYBE_SENT``     a read timeout (:class:`bot.telegram.transport.MaybeDelivered`)  WARNING  none: it may
                                                                                       have arrived
``TRANSIENT``      5xx, dropped connection, malformed body, 429 after the     WARNING  "Telegram had
                   retries (:mod:`bot.telegram.transport`, AIORateLimiter)             a problem"
``CONFLICT``       409: another instance is polling with this token           WARNING  none
``BUG``            anything else: our code, or a request Telegram refused     ERROR +  "something
                   that we should not have made (e.g. "can't parse entities")  trace    went wrong
                                                                                       on my side"
=================  =========================================================  =======  ===========

Descriptions are matched case-insensitively on fragments: python-telegram-bot strips the
"Bad Request: " / "Forbidden: " prefixes and capitalizes the rest.
"""

from __future__ import annotations

from enum import Enum

from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from bot.telegram.transport import MaybeDelivered


class Fault(Enum):
    GONE = "gone"
    STALE = "stale"
    MAYBE_SENT = "maybe sent"
    TRANSIENT = "transient"
    CONFLICT = "conflict"
    BUG = "bug"


_GONE = (
    "chat not found",
    "user not found",
    "peer_id_invalid",
    "user is deactivated",
    "have no rights to send",
    "not enough rights",
    "chat_write_forbidden",
    "topic_closed",
    "bot was blocked",
    "bot was kicked",
    "bot is not a member",
)
_STALE = (
    "message is not modified",
    "message to edit not found",
    "message can't be edited",
    "message to be replied not found",
    "message to delete not found",
    "message_id_invalid",
    "query is too old",
    "query id is invalid",
)

QUIET = frozenset({Fault.GONE, Fault.STALE, Fault.MAYBE_SENT, Fault.CONFLICT})
"""Kinds that end without a reply to the user."""


def classify(error: BaseException | None) -> Fault:
    """The kind of ``error`` (see the module table)."""
    if isinstance(error, Forbidden):
        return Fault.GONE
    if isinstance(error, ChatMigrated):
        return Fault.GONE  # the group moved (bot.telegram.handlers.on_migrate moves its settings)
    if isinstance(error, Conflict):
        return Fault.CONFLICT
    if isinstance(error, BadRequest):
        text = error.message.lower()
        if any(fragment in text for fragment in _GONE):
            return Fault.GONE
        if any(fragment in text for fragment in _STALE):
            return Fault.STALE
        return Fault.BUG
    if isinstance(error, MaybeDelivered):
        return Fault.MAYBE_SENT
    if isinstance(error, TimedOut):  # PTB's own (getUpdates, or a request never sent after retries)
        return Fault.TRANSIENT
    if isinstance(error, NetworkError | RetryAfter):
        return Fault.TRANSIENT
    if isinstance(error, TelegramError) and "invalid server response" in error.message.lower():
        return Fault.TRANSIENT
    return Fault.BUG


def one_line(error: BaseException | None) -> str:
    """``Type: message`` on one line (the message redacted by the log filter like any other text)."""
    if error is None:
        return "unknown error"
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
