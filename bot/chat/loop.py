"""Serve one platform on a new event loop: until a signal (main thread) or ``stop`` (a thread), with
one redacted line on stderr on a fatal error. Used by Feishu and WeCom (:mod:`bot.run`) and DingTalk
(:mod:`bot.dingtalk.run`)."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any


def one_line(error: BaseException) -> str:
    """The error's message on one line (its non-blank lines joined by ``"; "``), else its type name."""
    return "; ".join(line.strip() for line in str(error).splitlines() if line.strip()) or type(error).__name__


def serve_on_new_loop(
    label: str, serve: Callable[[asyncio.Event], Awaitable[None]], stop: threading.Event | None
) -> int:
    """Run ``serve(done)`` on a new event loop; ``done`` is set once ``stop`` is (when given).

    Returns 0 when it ends, 1 after printing ``"<label>: <redacted error>"`` for a fatal error."""
    from bot.chat.secrets import REDACTOR

    async def main() -> None:
        done = asyncio.Event()
        if stop is not None:
            loop = asyncio.get_running_loop()
            threading.Thread(
                target=lambda: (stop.wait(), loop.call_soon_threadsafe(done.set)), daemon=True
            ).start()
        await serve(done)

    try:
        asyncio.run(main())
    except Exception as err:  # fatal: bad credentials, reconnects used up, replaced by another connection
        print(f"{label}: {REDACTOR.redact(one_line(err))}", file=sys.stderr)
        return 1
    return 0


async def close_connection(connection: Any, task: asyncio.Task[None] | None, api: Any) -> None:
    """An adapter's ``stop``: close ``connection`` (handlers in flight finish), await its reading
    ``task`` (its error is the adapter's to report, not raised here), then close ``api``'s HTTP client."""
    await connection.stop()
    if task is not None:
        with contextlib.suppress(Exception):
            await task
    await api.aclose()
