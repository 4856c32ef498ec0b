"""No update lost on kill -9: every update is written to a journal before Telegram is told it was
received, and an update not marked handled is handled again after a restart.

Why this design. With long polling, Telegram forgets an update once a ``getUpdates`` call carries a
higher ``offset``; python-telegram-bot's updater sends that offset on its very next poll, while the
updates it fetched may still wait in the queue. A SIGKILL then loses them (the probes lost 765 of
800 button presses). Acknowledging only after handling would need our own poller, and with chats
handled concurrently the offset could only move up to the oldest unfinished update: a kill would
redeliver every later update, handled or not. Journalling instead:

1. **Persist before acknowledging.** :class:`JournaledQueue` (the Application's ``update_queue``)
   records each update as it is queued; :class:`AckAfterJournal` (the getUpdates transport) waits
   until those records are committed before any ``getUpdates`` goes out, and that call is what
   acknowledges them. With a webhook the answer to Telegram's POST is the acknowledgement, so there
   ``put`` itself waits for the commit.
2. **Mark handled.** The update processor (:mod:`bot.telegram.processor`) marks an update done once
   its handlers (and error handler) have finished; marks are committed in small batches by one
   writer thread, within milliseconds.
3. **Replay.** At start-up (``post_init``, before polling starts) the updates still unmarked are put
   back on the queue, oldest first. Telegram may also send again what we had journalled but not yet
   acknowledged: an update id already in the journal is dropped.

Duplicates are possible only for updates handled but not yet marked when the process died: at most
the updates in flight (the processor's worker count) plus one batch of marks, typically a handful.
An update that was replayed ``MAX_ATTEMPTS`` times without finishing (it kills the process?) is
dropped with a warning. Like Telegram, which keeps an update at most 24 hours, the journal replays
and de-duplicates only updates received within :data:`RETENTION_S` (update ids restart at a random
number after a week without updates). The journal belongs to one bot: opened by another bot (a
new token, the same state directory), its rows are discarded, never replayed to the wrong bot.
SQLite in WAL mode with ``synchronous=NORMAL`` survives a killed process (not a power cut: that
would need ``FULL``, at a disk flush per batch). The journal keeps the last
:data:`KEEP_HANDLED` handled ids for de-duplication and deletes older rows. All SQLite work runs on
the journal's own thread, never on the event loop; if the journal cannot be written (disk full,
locked), the bot keeps answering without it and says so in the log.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from telegram import Update
from telegram.request import BaseRequest, RequestData

from bot.telegram.transport import WrappedRequest, api_method
from bot.textclean import clean_data

logger = logging.getLogger("bot.telegram.journal")

KEEP_HANDLED = 10_000
"""Handled update ids kept for de-duplication (Telegram redelivers at most one unacknowledged batch,
≤ 100 updates, after a restart)."""
PRUNE_EVERY = 1_000
"""Handled marks between two deletions of old rows."""
RETENTION_S = 24 * 3600
"""Updates older than this are neither replayed nor used for de-duplication (Telegram's own limit:
"they will not be kept longer than 24 hours", Bot API, getUpdates)."""
MAX_ATTEMPTS = 3
"""Replays of one update before it is given up."""
BUSY_TIMEOUT_MS = 2000
"""SQLite busy timeout on the journal's own thread (nothing else writes this file)."""
WARN_EVERY_S = 60.0
"""At most one 'journal failing' warning per this many seconds."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS updates (
    update_id INTEGER PRIMARY KEY,
    body      TEXT NOT NULL,
    received  REAL NOT NULL,
    done      REAL,
    attempts  INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)
"""


class UpdateJournal:
    """The journal file (SQLite) and what is waiting to be written to it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._executor: ThreadPoolExecutor | None = None
        self._conn: sqlite3.Connection | None = None
        self._adds: list[Update] = []
        self._dones: list[int] = []
        self._known: set[int] = set()
        self._order: collections.deque[int] = collections.deque()
        self._lock: asyncio.Lock | None = None
        self._drainer: asyncio.Task[None] | None = None
        self._warned_at = -WARN_EVERY_S
        self._marked = 0
        self.failing = False
        self.replayed = 0

    # -- life cycle (event loop side)

    async def open(self, bot_id: int) -> list[dict[str, Any]]:
        """Open the file for bot ``bot_id``; returns the updates to handle again (JSON, oldest first)."""
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="update-journal")
        self._lock = asyncio.Lock()
        try:
            known, pending = await self._run(self._open, bot_id)
        except (OSError, sqlite3.Error) as err:
            self._failed(err)
            return []
        for update_id in known:
            self._remember(update_id)
        return pending

    async def close(self) -> None:
        """Write what is left and close the file (graceful shutdown)."""
        if self._executor is None:
            return
        await self.flush()
        await self._run(self._close)
        self._executor.shutdown(wait=True)
        self._executor = None

    # -- recording (event loop side, no I/O)

    def admit(self, update: Update) -> bool:
        """Record a new update; False when its id is already journalled (a redelivery)."""
        if update.update_id in self._known:
            return False
        self._remember(update.update_id)
        if self._executor is not None:  # not opened (no post_init): de-duplication only
            self._adds.append(update)
            self._kick()
        return True

    def done(self, update_id: int) -> None:
        """The update was handled: mark it (committed shortly, in a batch)."""
        if self._executor is not None:
            self._dones.append(update_id)
            self._kick()

    async def flush(self) -> None:
        """Commit everything recorded so far (batches coalesce: one commit for many updates)."""
        if self._executor is None or self._lock is None:
            return
        async with self._lock:
            adds, dones = self._adds, self._dones
            self._adds, self._dones = [], []
            if not adds and not dones:
                return
            try:
                await self._run(self._write, adds, dones)
                self.failing = False
            except (OSError, sqlite3.Error) as err:
                self._failed(err)

    # -- internals

    def _remember(self, update_id: int) -> None:
        self._known.add(update_id)
        self._order.append(update_id)
        while len(self._order) > KEEP_HANDLED:
            self._known.discard(self._order.popleft())

    def _kick(self) -> None:
        if self._executor is None or (self._drainer is not None and not self._drainer.done()):
            return
        self._drainer = asyncio.get_running_loop().create_task(self._drain(), name="update-journal")

    async def _drain(self) -> None:
        while (self._adds or self._dones) and self._executor is not None:
            await self.flush()

    async def _run(self, fn: Any, *args: Any) -> Any:
        assert self._executor is not None
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    def _failed(self, err: BaseException) -> None:
        self.failing = True
        now = time.monotonic()
        if now - self._warned_at >= WARN_EVERY_S:
            self._warned_at = now
            logger.warning("update journal %s failing (%s): answering without it", self.path, err)

    # -- SQLite (journal thread only)

    def _open(self, bot_id: int) -> tuple[list[int], list[dict[str, Any]]]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        conn.executescript(_SCHEMA)
        self._conn = conn
        since = time.time() - RETENTION_S
        with conn:
            conn.execute("BEGIN IMMEDIATE")
            owner = conn.execute("SELECT value FROM meta WHERE key = 'bot_id'").fetchone()
            if owner is not None and owner[0] != str(bot_id):
                logger.warning("update journal %s belonged to bot %s: discarded", self.path, owner[0])
                conn.execute("DELETE FROM updates")
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('bot_id', ?)", (str(bot_id),))
            conn.execute("DELETE FROM updates WHERE received < ?", (since,))
            rows = conn.execute(
                "SELECT update_id, body, attempts FROM updates WHERE done IS NULL ORDER BY update_id"
            ).fetchall()
            pending: list[dict[str, Any]] = []
            for update_id, body, attempts in rows:
                if attempts >= MAX_ATTEMPTS:
                    logger.warning("update %s given up after %d attempts", update_id, attempts)
                    conn.execute(
                        "UPDATE updates SET done = ?, body = '' WHERE update_id = ?", (time.time(), update_id)
                    )
                    continue
                conn.execute("UPDATE updates SET attempts = attempts + 1 WHERE update_id = ?", (update_id,))
                pending.append(json.loads(body))
            known = [
                r[0]
                for r in conn.execute(
                    "SELECT update_id FROM updates ORDER BY update_id DESC LIMIT ?", (KEEP_HANDLED,)
                )
            ]
        return known[::-1], pending

    def _write(self, adds: list[Update], dones: list[int]) -> None:
        conn = self._conn
        if conn is None:
            return
        now = time.time()
        with conn:
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany(
                "INSERT OR IGNORE INTO updates (update_id, body, received) VALUES (?, ?, ?)",
                [(u.update_id, u.to_json(), now) for u in adds],
            )
            conn.executemany(
                "UPDATE updates SET done = ?, body = '' WHERE update_id = ?", [(now, i) for i in dones]
            )
            self._marked += len(dones)
            if self._marked >= PRUNE_EVERY:  # now and then: drop old handled rows
                self._marked = 0
                conn.execute(
                    "DELETE FROM updates WHERE done IS NOT NULL AND update_id < "
                    "(SELECT MIN(update_id) FROM (SELECT update_id FROM updates "
                    "ORDER BY update_id DESC LIMIT ?))",
                    (KEEP_HANDLED,),
                )

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def clean_update(update: Update) -> Update:
    """``update`` with lone surrogates in its strings replaced (:mod:`bot.textclean`); the same object
    when there are none."""
    data = update.to_dict()
    cleaned = clean_data(data)
    return update if cleaned is data else (Update.de_json(cleaned, update.get_bot()) or update)


class JournaledQueue(asyncio.Queue):  # type: ignore[type-arg]
    """The Application's update queue: a new update is journalled as it is queued, a redelivered
    one is dropped. ``durable_put``: wait for the commit (webhooks: the HTTP answer acknowledges)."""

    def __init__(self, journal: UpdateJournal, *, durable_put: bool = False) -> None:
        super().__init__()
        self.journal = journal
        self.durable_put = durable_put

    async def put(self, item: Any) -> None:
        if isinstance(item, Update):
            if self.durable_put:  # a webhook update skipped the Bot API transport's cleaning
                item = clean_update(item)
            if not self.journal.admit(item):
                logger.debug("update %s already journalled: dropped", item.update_id)
                return
            if self.durable_put:
                await self.journal.flush()
        await super().put(item)

    async def replay(self, pending: list[dict[str, Any]], bot: Any) -> int:
        """Queue the journalled updates that were never handled (already journalled: no new record)."""
        count = 0
        for data in pending:
            update = Update.de_json(data, bot)
            if update is None:
                continue
            await super().put(update)
            count += 1
        if count:
            logger.warning("replaying %d update(s) not handled before the last stop", count)
        self.journal.replayed += count
        return count


class AckAfterJournal(WrappedRequest):
    """The getUpdates transport: before a ``getUpdates`` (which acknowledges every update below its
    offset) goes out, every update queued so far is committed to the journal."""

    def __init__(self, inner: BaseRequest, journal: UpdateJournal) -> None:
        super().__init__(inner)
        self.journal = journal

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if api_method(url) == "getUpdates":
            await self.journal.flush()
        return await self.inner.do_request(
            url,
            method,
            request_data,
            read_timeout=read_timeout,
            write_timeout=write_timeout,
            connect_timeout=connect_timeout,
            pool_timeout=pool_timeout,
        )


def journal_path(setting: str | None, settings_db: Path | None) -> Path | None:
    """Where the journal lives: ``setting`` ('off' disables it), else beside the settings database,
    named after it (``settings.sqlite3`` → ``settings-updates.sqlite3``)."""
    if setting is not None and setting.strip().lower() in ("off", "none", "0", "false"):
        return None
    if setting:
        return Path(setting).expanduser()
    if settings_db is None or str(settings_db) == ":memory:":
        from bot.settings.store import default_db_path

        settings_db = default_db_path()
    db = Path(settings_db).expanduser()
    return db.with_name(f"{db.stem}-updates{db.suffix or '.sqlite3'}")
