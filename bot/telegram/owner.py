"""One journal, one owner: ``sizing-bot run`` takes an exclusive lock beside its update journal (or,
with the journal off, beside its settings database) before it starts, and a second process on the
same files refuses to start with one line instead of replaying the first one's in-flight updates.

The lock is ``flock(LOCK_EX | LOCK_NB)`` on ``<journal>.lock``: the kernel releases it when the
process ends, however it ends (kill -9 included), so a stale lock never blocks a restart. The lock
file is never deleted (deleting it would let two processes lock two different inodes). Where
``fcntl`` is missing (Windows) there is no lock. Several replicas on a shared database coordinate
through the store instead (the replicas work), not through this file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class AlreadyRunning(Exception):
    """Another process holds the lock; the message is the one line to print."""


def lock_path(journal: Path | None, settings_db: Path | None) -> Path | None:
    """``<journal>.lock``, else ``<settings db>.lock``; None when neither is a file (in-memory)."""
    target = journal if journal is not None else settings_db
    if target is None or str(target) == ":memory:":
        return None
    target = Path(target).expanduser()
    return target.with_name(target.name + ".lock")


def take(path: Path | None) -> IO[str] | None:
    """Lock ``path`` exclusively for this process's lifetime; keep the returned file open. Raises
    :class:`AlreadyRunning` when another process holds it, ``OSError`` when it cannot be created."""
    if path is None or fcntl is None:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    fh = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held open until the process ends
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        fh.seek(0)
        holder = fh.read(32).strip()
        fh.close()
        who = f" (pid {holder})" if holder.isdigit() else ""
        raise AlreadyRunning(
            f"another sizing-bot is already running on {path.with_suffix('')}{who}: "
            "stop it first, or give this one its own SIZING_BOT_DB / SIZING_BOT_JOURNAL"
        ) from None
    fh.seek(0)
    fh.truncate()
    fh.write(f"{os.getpid()}\n")
    fh.flush()
    return fh
