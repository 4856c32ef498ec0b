"""Telegram start-up when the Bot API cannot be reached: retried with backoff, never fatal.

In mainland China ``api.telegram.org`` is often unreachable; a network error at start-up must not end
``sizing-bot run`` (nor the Feishu / DingTalk / WeCom connections served by the same process). The
first call (``getMe``, :meth:`telegram.Bot.initialize`) is retried after 1 s, doubling up to 5 min
(:data:`FIRST_S`, :data:`MAX_S`: the same schedule as the other platforms' long connections), with
one log line per failure naming ``TELEGRAM_BASE_URL`` and what to check. A 429 waits ``retry_after``.
An invalid token (HTTP 401/404 → :class:`telegram.error.InvalidToken`) and a 400 stay fatal: they do
not heal by waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

from telegram import Bot
from telegram.error import BadRequest, NetworkError, RetryAfter

from bot.chat.secrets import REDACTOR

log = logging.getLogger(__name__)

FIRST_S = 1.0
"""Seconds before the first retry; doubled after each failure in a row."""
MAX_S = 300.0
"""The longest wait between two tries (5 min)."""


def delay_after(failures: int) -> float:
    """Seconds to wait after ``failures`` (≥ 1) failed tries in a row: 1, 2, 4 … capped at 300."""
    return min(FIRST_S * 2 ** max(failures - 1, 0), MAX_S)


def shown_url(base_url: str) -> str:
    """TELEGRAM_BASE_URL as it may be logged: the ``{token}`` placeholder named, secrets redacted."""
    return REDACTOR.redact(base_url.replace("{token}", "<token>"))


def unreachable_line(base_url: str, error: BaseException, delay: float) -> str:
    """The one log line of a failed start-up try."""
    reason = "; ".join(p.strip() for p in str(error).splitlines() if p.strip()) or type(error).__name__
    return (
        f"telegram: cannot reach {shown_url(base_url)}: {REDACTOR.redact(reason)}; "
        "check TELEGRAM_BASE_URL, the network and the proxy (HTTPS_PROXY); "
        f"retrying in {delay:.0f} s (the other platforms keep serving)"
    )


async def reach(bot: Bot, base_url: str, stop: asyncio.Event) -> bool:
    """Initialize ``bot`` (its ``getMe``), retrying network errors until it works or ``stop`` is set.

    Returns True when reached, False when stopped first; :class:`~telegram.error.InvalidToken` and
    other refusals propagate (fatal)."""
    failures = 0
    while not stop.is_set():
        try:
            await bot.initialize()
        except RetryAfter as err:
            wait = err.retry_after  # seconds, or a timedelta (PTB_TIMEDELTA)
            delay = float(wait.total_seconds() if hasattr(wait, "total_seconds") else wait)
            log.warning("telegram: rate limited at start-up; retrying in %.0f s", delay)
        except BadRequest:
            raise
        except NetworkError as err:  # connection refused, DNS, timeout, 5xx: wait and try again
            failures += 1
            delay = delay_after(failures)
            log.error("%s", unreachable_line(base_url, err, delay))
            log.debug("telegram: start-up try failed", exc_info=err)
        else:
            if failures:
                log.warning("telegram: reached %s after %d failed tries", shown_url(base_url), failures)
            return True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), delay)
    return False


def reach_until_signalled(loop: asyncio.AbstractEventLoop, bot: Bot, base_url: str) -> bool:
    """:func:`reach` on ``loop``, stopped by SIGINT / SIGTERM (main thread) or Ctrl-C."""
    stop = asyncio.Event()
    signals = (signal.SIGINT, signal.SIGTERM)
    added = []
    for sig in signals:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
            added.append(sig)
    try:
        return loop.run_until_complete(reach(bot, base_url, stop))
    except KeyboardInterrupt:
        return False
    finally:
        for sig in added:
            loop.remove_signal_handler(sig)
