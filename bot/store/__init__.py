"""The store (:mod:`bot.store.base`): SQLite by default, PostgreSQL with ``SIZING_BOT_DATABASE_URL``."""

from __future__ import annotations

from pathlib import Path

from bot.store.base import SCHEMA_VERSION, Lease, Store, StoreUnavailable


def is_postgres(url: str | None) -> bool:
    return bool(url) and str(url).split(":", 1)[0].lower() in ("postgresql", "postgres")


def open_store(database_url: str | None = None, path: str | Path | None = None) -> Store:
    """PostgreSQL at ``database_url`` when it is a ``postgresql://`` URL, else the SQLite file ``path``
    (None: :func:`bot.settings.store.default_db_path`). Raises :class:`StoreUnavailable`."""
    if database_url and is_postgres(database_url):
        from urllib.parse import urlsplit

        from bot.chat.secrets import REDACTOR
        from bot.store.postgres import PgStore

        password = urlsplit(database_url).password
        if password:
            REDACTOR.add(password)  # never in a log line or an error message

        return PgStore(database_url)
    if database_url:
        raise StoreUnavailable("SIZING_BOT_DATABASE_URL must start with postgresql:// (or be unset: SQLite)")
    from bot.store.sqlite import SqliteStore

    return SqliteStore(path)


__all__ = ["SCHEMA_VERSION", "Lease", "Store", "StoreUnavailable", "is_postgres", "open_store"]
