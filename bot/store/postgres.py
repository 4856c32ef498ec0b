"""The shared store: PostgreSQL (``SIZING_BOT_DATABASE_URL=postgresql://…``), for replicas.

Driver: psycopg 3 (sync) with psycopg-pool. The bot's store calls already run on worker threads off
the event loop (settings, journal, Feishu's dedupe), so a blocking driver fits the code as it is;
asyncpg would need an event loop per worker thread or a rewrite of those callers. Measured on this
machine (issue 29, imported into a process that has already loaded the Telegram bot): psycopg +
psycopg_pool 138-207 ms and +8.0 MiB resident; asyncpg 18-21 ms and +1.6 MiB. asyncpg is lighter,
but the cost is paid once at start and only when ``SIZING_BOT_DATABASE_URL`` is set (this module is
imported only then): fitting the existing threads wins.

* Schema: created and upgraded under an advisory transaction lock (two replicas starting at once
  create it once); version in ``schema_version``.
* Claims: ``INSERT … ON CONFLICT DO NOTHING RETURNING``: exactly one replica claims a key; take-over of
  claimed-but-unfinished work with ``SELECT … FOR UPDATE SKIP LOCKED`` (two replicas never take the
  same row).
* Leader locks: ``pg_try_advisory_lock`` on a dedicated connection with TCP keepalives
  (:data:`KEEPALIVE`): the server frees the lock when the holder's process dies (its socket closes at
  once) or, for a dead host, after about idle + interval × count = 10 s.
* Change feed: ``LISTEN`` on :data:`bot.store.pg_settings.CHANNEL` on a thread of its own.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from bot.store.base import MAX_ATTEMPTS, SCHEMA_VERSION, StoreUnavailable
from bot.store.pg_settings import CHANNEL, PgSettingsStore

log = logging.getLogger(__name__)

KEEPALIVE = {"keepalives": 1, "keepalives_idle": 4, "keepalives_interval": 2, "keepalives_count": 3}
"""libpq TCP keepalive settings (seconds, probes) for every connection: a silent peer is dropped
after about 4 + 2 × 3 = 10 s."""
CONNECT_TIMEOUT_S = 5
POOL_SIZE = 4
"""Connections in the pool (settings readers, the journal's writer, context, dedupe)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS chat_settings (
    scope_id TEXT PRIMARY KEY, settings TEXT NOT NULL, updated_at DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS context (
    key TEXT PRIMARY KEY, value TEXT NOT NULL, expires DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS claims (
    seq BIGSERIAL PRIMARY KEY, stream TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL,
    owner TEXT NOT NULL, claimed DOUBLE PRECISION NOT NULL, done DOUBLE PRECISION,
    attempts INTEGER NOT NULL DEFAULT 0, UNIQUE (stream, key));
CREATE TABLE IF NOT EXISTS dedupe (key TEXT PRIMARY KEY, expires DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)
"""


def _first_line(err: BaseException) -> str:
    return next((line.strip() for line in str(err).splitlines() if line.strip()), type(err).__name__)


def _tell(callback: Callable[[str], None], scope: str) -> None:
    try:
        callback(scope)
    except Exception as err:  # e.g. the bot's event loop already closed at shutdown
        log.debug("settings change %s not delivered: %s", scope, err)


class PgLease:
    """A leader lock: ``pg_try_advisory_lock`` held by a connection of its own."""

    def __init__(self, conn: psycopg.Connection[Any], key: str = "") -> None:
        self._conn: psycopg.Connection[Any] | None = conn
        self._key = key

    def held(self) -> bool:
        if self._conn is None:
            return False
        try:
            self._conn.execute("SELECT 1")
            return True
        except psycopg.Error:
            self.release()
            return False

    def release(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        # unlock first: closing frees it too, but only once the server's backend has exited;
        # on a dead connection the server frees it with the session
        with contextlib.suppress(psycopg.Error):
            conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (self._key,))
        conn.close()


class PgStore:
    """:class:`bot.store.base.Store` on PostgreSQL at ``url``."""

    kind = "postgresql"

    def __init__(self, url: str) -> None:
        self.url = url
        self._closed = threading.Event()
        self._waiting: dict[str, psycopg.Connection[Any]] = {}
        try:  # fail fast (a refused connection), with the server's own words
            psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S, **KEEPALIVE).close()
        except psycopg.Error as err:
            raise StoreUnavailable(f"cannot connect to PostgreSQL: {_first_line(err)}") from err
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=POOL_SIZE,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT_S, **KEEPALIVE},
            open=False,
            timeout=CONNECT_TIMEOUT_S,
        )
        try:
            self.pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
        except Exception as err:  # psycopg_pool.PoolTimeout: the server is unreachable
            self.pool.close()
            raise StoreUnavailable(f"cannot connect to PostgreSQL: {err}") from err
        self.settings = PgSettingsStore(self._run)
        self._run(self._upgrade)

    def _run(self, fn: Callable[[Any], Any]) -> Any:
        """``fn(cursor)`` in one transaction on a pooled connection; database errors as StoreUnavailable."""
        try:
            with self.pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                return fn(cur)
        except (psycopg.Error, OSError) as err:
            if isinstance(err, StoreUnavailable):
                raise
            raise StoreUnavailable(f"{type(err).__name__}: {err}") from err
        except Exception as err:
            if type(err).__name__ in ("PoolTimeout", "PoolClosed"):
                raise StoreUnavailable(str(err)) from err
            raise

    @staticmethod
    def _upgrade(cur: Any) -> int:
        cur.execute("SELECT pg_advisory_xact_lock(hashtext('sizing-bot schema'))")
        for statement in filter(str.strip, _SCHEMA.split(";")):
            cur.execute(statement)
        cur.execute("SELECT MAX(version) FROM schema_version")
        before = cur.fetchone()[0] or 0
        if before < SCHEMA_VERSION:
            cur.execute("DELETE FROM schema_version")
            cur.execute("INSERT INTO schema_version (version) VALUES (%s)", (SCHEMA_VERSION,))
        return int(before)

    def schema_version(self) -> int:
        return int(
            self._run(lambda cur: cur.execute("SELECT MAX(version) FROM schema_version").fetchone()[0])
        )

    # -- follow-up context

    def put_context(self, key: str, value: str, ttl_s: float) -> None:
        self._run(
            lambda cur: cur.execute(
                "INSERT INTO context (key, value, expires) VALUES (%s, %s, %s) ON CONFLICT (key) "
                "DO UPDATE SET value = excluded.value, expires = excluded.expires",
                (key, value, time.time() + ttl_s),
            )
        )

    def get_context(self, key: str) -> str | None:
        row = self._run(
            lambda cur: cur.execute(
                "SELECT value FROM context WHERE key = %s AND expires > %s", (key, time.time())
            ).fetchone()
        )
        return None if row is None else str(row[0])

    def drop_context(self, key: str) -> None:
        self._run(
            lambda cur: cur.execute("DELETE FROM context WHERE key = %s OR expires <= %s", (key, time.time()))
        )

    # -- claims (the inbound journal)

    def claim(self, stream: str, key: str, body: str, owner: str) -> bool:
        row = self._run(
            lambda cur: cur.execute(
                "INSERT INTO claims (stream, key, body, owner, claimed) VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (stream, key) DO NOTHING RETURNING seq",
                (stream, key, body, owner, time.time()),
            ).fetchone()
        )
        return row is not None

    def claim_many(self, stream: str, items: list[tuple[str, str]], owner: str) -> None:
        if items:
            self._run(
                lambda cur: cur.execute(
                    "INSERT INTO claims (stream, key, body, owner, claimed) SELECT %s, k, b, %s, %s "
                    "FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY AS t(k, b, n) ORDER BY n "
                    "ON CONFLICT (stream, key) DO NOTHING",
                    (stream, owner, time.time(), [k for k, _ in items], [b for _, b in items]),
                )
            )

    def finish(self, stream: str, keys: list[str]) -> None:
        if keys:
            self._run(
                lambda cur: cur.execute(
                    "UPDATE claims SET done = %s, body = '' WHERE stream = %s AND key = ANY(%s)",
                    (time.time(), stream, list(keys)),
                )
            )

    def renew(self, stream: str, keys: list[str], owner: str) -> None:
        if keys:
            self._run(
                lambda cur: cur.execute(
                    "UPDATE claims SET claimed = %s WHERE stream = %s AND key = ANY(%s) AND owner = %s "
                    "AND done IS NULL",
                    (time.time(), stream, list(keys), owner),
                )
            )

    def reclaim(self, stream: str, owner: str, lease_s: float) -> list[tuple[str, str]]:
        now = time.time()

        def take(cur: Any) -> list[tuple[str, str]]:
            rows = cur.execute(
                "SELECT seq, key, body, attempts FROM claims WHERE stream = %s AND done IS NULL "
                "AND claimed <= %s ORDER BY seq FOR UPDATE SKIP LOCKED",
                (stream, now - lease_s),
            ).fetchall()
            gone = [seq for seq, _, _, attempts in rows if attempts >= MAX_ATTEMPTS]
            kept = [r for r in rows if r[3] < MAX_ATTEMPTS]
            cur.execute("UPDATE claims SET done = %s, body = '' WHERE seq = ANY(%s)", (now, gone))
            cur.execute(
                "UPDATE claims SET owner = %s, claimed = %s, attempts = attempts + 1 WHERE seq = ANY(%s)",
                (owner, now, [r[0] for r in kept]),
            )
            return [(str(r[1]), str(r[2])) for r in kept]

        return list(self._run(take))

    def known(self, stream: str, limit: int) -> list[str]:
        rows = self._run(
            lambda cur: cur.execute(
                "SELECT key FROM claims WHERE stream = %s ORDER BY seq DESC LIMIT %s", (stream, limit)
            ).fetchall()
        )
        return [str(r[0]) for r in reversed(rows)]

    def prune(self, stream: str, keep: int, older_than: float) -> None:
        self._run(
            lambda cur: cur.execute(
                "DELETE FROM claims WHERE stream = %s AND (claimed < %s OR (done IS NOT NULL AND seq < "
                "(SELECT MIN(seq) FROM (SELECT seq FROM claims WHERE stream = %s "
                "ORDER BY seq DESC LIMIT %s) AS newest)))",
                (stream, older_than, stream, keep),
            )
        )

    # -- dedupe keys

    def seen(self, key: str, ttl_s: float) -> bool:
        now = time.time()
        row = self._run(
            lambda cur: cur.execute(
                "INSERT INTO dedupe (key, expires) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE "
                "SET expires = excluded.expires WHERE dedupe.expires <= %s RETURNING key",
                (key, now + ttl_s, now),
            ).fetchone()
        )
        return row is None

    # -- leader locks

    def lead(self, name: str) -> PgLease | None:
        """The advisory lock ``name`` on a connection of its own, or None when another session holds it.
        A standby's connection is kept between tries (one connection, not one per try)."""
        conn = self._waiting.pop(name, None)
        try:
            if conn is None or conn.closed:
                conn = psycopg.connect(
                    self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S, **KEEPALIVE
                )
            got = conn.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", (name,)).fetchone()
        except psycopg.Error as err:
            if conn is not None:
                conn.close()
            raise StoreUnavailable(f"{type(err).__name__}: {_first_line(err)}") from err
        if not (got and got[0]):
            self._waiting[name] = conn
            return None
        return PgLease(conn, name)

    # -- change feed

    def watch(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(scope_id)`` for every settings change any replica commits (``"*"`` after a
        lost connection: changes may have been missed), on a daemon thread."""
        threading.Thread(target=self._listen, args=(callback,), name="store-listen", daemon=True).start()

    def _listen(self, callback: Callable[[str], None]) -> None:
        while not self._closed.is_set():
            try:
                with psycopg.connect(
                    self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S, **KEEPALIVE
                ) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    _tell(callback, "*")
                    while not self._closed.is_set():
                        for note in conn.notifies(timeout=1.0):
                            _tell(callback, note.payload)
            except psycopg.Error as err:
                log.warning("settings change feed lost (%s): reconnecting", err)
                self._closed.wait(1.0)

    def close(self) -> None:
        self._closed.set()
        for conn in self._waiting.values():
            conn.close()
        self._waiting.clear()
        self.pool.close()
