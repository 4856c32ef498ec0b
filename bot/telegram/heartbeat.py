"""The running bot's heartbeat: proof, readable from another process, that the bot is serving.

A container's health check runs in a process of its own, so it cannot see whether the bot's event
loop is alive or whether long polling still runs (in polling mode no port is open to probe).
While the bot runs (:class:`telegram.ext.Application` running and, when it has one, its updater
polling or serving the webhook), :func:`heartbeat_loop` rewrites a small file every
``interval_s`` seconds with the wall-clock time it was written; ``sizing-bot health --heartbeat``
(:func:`check_heartbeat`) is healthy only while that time is at most ``max_age_s`` old. A blocked
event loop, a stopped updater or a dead process stop the beats; a clean shutdown removes the file.

File: ``SIZING_BOT_HEARTBEAT`` (unset: no heartbeat). One line of JSON ``{"time": <Unix seconds>,
"pid": <process id>}``, replaced atomically (written beside it, then renamed), so a reader never
sees half a file.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

logger = logging.getLogger("bot.telegram")

HEARTBEAT_INTERVAL_S = 15.0
"""Seconds between beats: cheap (one small file write, off the event loop)."""
HEARTBEAT_MAX_AGE_S = 60.0
"""A beat older than this (four missed intervals) is unhealthy: the Docker HEALTHCHECK's default."""


def write_heartbeat(path: Path, now: float | None = None) -> None:
    """Write one beat at wall-clock ``now`` (Unix seconds; default the current time) atomically."""
    beat = {"time": time.time() if now is None else now, "pid": os.getpid()}
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    partial.write_text(json.dumps(beat) + "\n", encoding="utf-8")
    os.replace(partial, path)


def beat_problem(path: Path, max_age_s: float = HEARTBEAT_MAX_AGE_S, now: float | None = None) -> str | None:
    """None when ``path`` holds a beat at most ``max_age_s`` seconds old, else the bare fact (one line)."""
    try:
        beat = json.loads(path.read_text(encoding="utf-8"))
        written = float(beat["time"])
    except FileNotFoundError:
        return f"no heartbeat at {path}"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"unreadable heartbeat {path}: {exc}"
    age = (time.time() if now is None else now) - written
    if age > max_age_s:
        return f"last heartbeat {age:.0f} s ago (more than {max_age_s:g} s)"
    return None


def check_heartbeat(
    path: Path, max_age_s: float = HEARTBEAT_MAX_AGE_S, now: float | None = None
) -> str | None:
    """None when ``path`` holds a beat at most ``max_age_s`` seconds old, else why not (one line)."""
    problem = beat_problem(path, max_age_s, now)
    if problem is None or problem.startswith("unreadable"):
        return problem
    if problem.startswith("no heartbeat"):
        return f"{problem}: {NOT_OPEN[:-1]}, or SIZING_BOT_HEARTBEAT differs)"
    return f"{problem}: the bot is not serving"


NOT_CHECKED = "connection not checked without --heartbeat"
"""``sizing-bot health``'s platform line without ``--heartbeat``: only the settings were read."""
NOT_OPEN = "long connection not open (or the bot is not running)"
"""A platform's beat is missing or stale: the process may run while that platform is disconnected."""
NO_FILE = "connection not checked: no heartbeat file (give --heartbeat FILE or set SIZING_BOT_HEARTBEAT)"


def connection_state(
    beat: Path | None, heartbeat: str | None, max_age_s: float | None, open_words: str
) -> tuple[str, bool]:
    """The connection part of one ``health`` platform line, and whether it is healthy: not checked
    without ``--heartbeat`` (``heartbeat`` None); else ``open_words`` while ``beat`` is fresh."""
    if heartbeat is None:
        return NOT_CHECKED, True
    if beat is None:
        return NO_FILE, False
    problem = beat_problem(beat, HEARTBEAT_MAX_AGE_S if max_age_s is None else max_age_s)
    return (open_words, True) if problem is None else (f"{NOT_OPEN}: {problem}", False)


def serving(app: Any) -> bool:
    """Whether the application runs and its updater (polling or webhook), if any, too."""
    updater = getattr(app, "updater", None)
    return bool(app.running) and (updater is None or bool(updater.running))


async def heartbeat_loop(
    app: Any, path: Path, interval_s: float = HEARTBEAT_INTERVAL_S, clock: Callable[[], float] = time.time
) -> None:
    """Beat every ``interval_s`` seconds while ``app`` is serving (see :func:`serving`); runs until
    cancelled. A failed write is logged and retried at the next beat (the check then goes stale)."""
    while True:
        if serving(app):
            try:
                await asyncio.to_thread(write_heartbeat, path, clock())
            except OSError as exc:
                logger.warning("heartbeat %s not written: %s", path, exc.strerror or exc)
        await asyncio.sleep(interval_s)


def start_heartbeat(app: Any, path: Path | None, interval_s: float) -> asyncio.Task[None] | None:
    """The heartbeat task for ``app`` (None without a path)."""
    if path is None:
        return None
    return asyncio.get_running_loop().create_task(heartbeat_loop(app, path, interval_s), name="heartbeat")


async def stop_heartbeat(task: asyncio.Task[None] | None, path: Path | None) -> None:
    """Cancel the heartbeat and remove its file: a stopped bot is not healthy."""
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    if path is not None:
        with contextlib.suppress(OSError):
            path.unlink()
