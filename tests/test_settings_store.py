"""SettingsStore: SQLite persistence, atomic updates, group → supergroup migration, crash safety."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings.store import ChatSettings, SettingsStore, default_db_path
from estimator.models import Currency


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "state" / "settings.sqlite3"


def test_defaults_for_an_unknown_scope(db: Path) -> None:
    with SettingsStore(db) as store:
        assert store.get(123) == ChatSettings()
    assert db.exists()  # parent directories created


def test_settings_survive_a_restart(db: Path) -> None:
    store = SettingsStore(db)
    saved = ChatSettings(lang="en", currency="USD", prices={"H100": 2.5}, mfu=0.35, deadline_days=20)
    store.set(-100123, saved)
    store.close()
    with SettingsStore(db) as reopened:
        s = reopened.get(-100123)
    assert s == saved
    assert (s.lang, s.currency, s.prices, s.mfu, s.deadline_days) == ("en", "USD", {"H100": 2.5}, 0.35, 20)


def test_wal_mode(db: Path) -> None:
    with SettingsStore(db):
        pass
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_update_changes_only_the_given_fields(db: Path) -> None:
    with SettingsStore(db) as store:
        store.update(1, lang="zh")
        new = store.update(1, mfu=0.45)
        assert new == store.get(1) and (new.lang, new.mfu) == ("zh", 0.45)
        store.update(1, lang=None, mfu=None)
        assert store.get(1) == ChatSettings()


def test_invalid_update_raises_and_writes_nothing(db: Path) -> None:
    with SettingsStore(db) as store:
        store.update(1, mfu=0.4)
        for bad in ({"mfu": 1.5}, {"mfu": 0}, {"lang": "fr"}, {"currency": "EUR"}, {"deadline_days": -3}):
            with pytest.raises(ValidationError):
                store.update(1, **bad)
        assert store.get(1).mfu == 0.4


def test_prices_are_catalog_families_with_a_currency() -> None:
    s = ChatSettings(currency="CNY", prices={"a100": 12, "4090": 2, "H100-SXM5-80GB": 25})
    assert s.prices == {"A100": 12.0, "RTX 4090": 2.0, "H100": 25.0}
    assert s.price_for("A100", Currency.CNY) == 12 and s.price_for("A100", Currency.USD) is None
    with pytest.raises(ValidationError, match="prices need a currency"):
        ChatSettings(prices={"A100": 12})
    with pytest.raises(ValidationError, match="unknown GPU 'H300'"):
        ChatSettings(currency="CNY", prices={"H300": 12})
    with pytest.raises(ValidationError, match="positive"):
        ChatSettings(currency="CNY", prices={"A100": -1})


def test_migrate_group_to_supergroup_keeps_settings(db: Path) -> None:
    with SettingsStore(db) as store:
        store.update(-123, lang="en", mfu=0.3)
        assert store.migrate(-123, -100123)
        assert store.get(-100123).lang == "en" and store.get(-100123).mfu == 0.3
        assert store.get(-123) == ChatSettings()
        assert not store.migrate(-123, -100123)  # nothing left to move


def test_migrate_keeps_newer_settings_of_the_new_id(db: Path) -> None:
    with SettingsStore(db) as store:
        store.update(-1, lang="en")
        store.update(-1001, lang="zh")
        store.migrate(-1, -1001)
        assert store.get(-1001).lang == "zh" and store.get(-1) == ChatSettings()


def test_unreadable_row_gives_defaults(db: Path) -> None:
    with SettingsStore(db) as store:
        store.update(1, lang="en")
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE chat_settings SET settings = '{not json' WHERE scope_id = 'telegram:1'")
    conn.close()
    with SettingsStore(db) as store:
        assert store.get(1) == ChatSettings()


def test_default_path_from_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "x" / "s.db"))
    assert default_db_path() == tmp_path / "x" / "s.db"
    with SettingsStore() as store:
        store.update(1, lang="zh")
    assert (tmp_path / "x" / "s.db").exists()
    monkeypatch.delenv("SIZING_BOT_DB")
    assert default_db_path() == Path.home() / ".local/state/sizing-bot/settings.sqlite3"


def test_threads_share_one_store(db: Path) -> None:
    with SettingsStore(db) as store:

        def work(scope: int) -> None:
            for i in range(1, 21):
                store.update(scope, mfu=i / 100)
                store.get(scope)

        threads = [threading.Thread(target=work, args=(s,)) for s in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(store.get(s).mfu == 0.2 for s in range(8))


_WRITER = textwrap.dedent(
    """
    import sys
    from bot.settings.store import SettingsStore
    store = SettingsStore(sys.argv[1])
    i = 1
    while True:
        # values inside bot.settings.chat' bounds: deadline 1-3600 days, MFU 1-90 %
        store.update(42, mfu=(i % 90 + 1) / 100, deadline_days=i % 3600 + 1)
        if i == 20:
            print("ready", flush=True)
        i += 1
    """
)


def test_killed_writer_leaves_old_or_new_value(db: Path) -> None:
    """A writer killed with SIGKILL mid-loop: the DB opens, is intact, and holds one written value."""
    with SettingsStore(db) as store:
        store.update(42, mfu=0.5, deadline_days=0.5)  # never written by the writer (not whole)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(db)], stdout=subprocess.PIPE, env=env)
    try:
        assert proc.stdout.readline().strip() == b"ready"
        time.sleep(0.2)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=5)
    assert proc.returncode == -signal.SIGKILL
    with SettingsStore(db) as store:
        s = store.get(42)
        assert store._conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    days = round(s.deadline_days)
    assert s.deadline_days == days  # one complete write of the writer, never a mix
    assert s.mfu == pytest.approx(((days - 1) % 90 + 1) / 100)
