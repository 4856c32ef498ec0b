"""Issue 23 item 1: chat and user ids are opaque strings scoped by platform, everywhere."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.chat.ids import scope_key, scoped
from bot.chat.shown import Shown, ShownMessages
from bot.core.conversation import Conversation
from bot.settings.chat import ChatSettings
from bot.settings.store import SettingsStore

OLD_SCHEMA = (
    "CREATE TABLE chat_settings "
    "(scope_id INTEGER PRIMARY KEY, settings TEXT NOT NULL, updated_at REAL NOT NULL)"
)


def _old_database(path: Path, rows: list[tuple[int, str]]) -> None:
    """A settings file as every release before string ids wrote it."""
    with sqlite3.connect(path) as conn:
        conn.execute(OLD_SCHEMA)
        conn.executemany("INSERT INTO chat_settings VALUES (?, ?, 1.0)", rows)
    conn.close()


def _rows(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT scope_id, typeof(scope_id), settings FROM chat_settings ORDER BY 1"
        ).fetchall()
        [(kind,)] = conn.execute(
            "SELECT type FROM pragma_table_info('chat_settings') WHERE name = 'scope_id'"
        )
    conn.close()
    return [(*r, kind) for r in rows]


def test_scope_keys() -> None:
    assert scope_key(123) == "telegram:123" and scope_key(-1001) == "telegram:-1001"
    assert scope_key("feishu:oc_abc") == "feishu:oc_abc" == scoped("feishu", "oc_abc")
    for bad in ("123", "", "feishu:", "feishu:a b", ":x", True, 1.5, None, "x:" + "a" * 300):
        with pytest.raises(ValueError):
            scope_key(bad)  # type: ignore[arg-type]


def test_the_store_keeps_a_feishu_chat_apart_from_a_telegram_one(tmp_path: Path) -> None:
    with SettingsStore(tmp_path / "s.db") as store:
        store.update("feishu:oc_abc", lang="en", currency="USD")
        store.update("telegram:7", lang="zh")
        assert store.get("feishu:oc_abc") == ChatSettings(lang="en", currency="USD")
        assert store.get(7) == ChatSettings(lang="zh")  # an int is a Telegram id
        assert store.get("feishu:oc_abd") == ChatSettings()
        assert store.migrate("feishu:oc_abc", "feishu:oc_new")
        assert store.get("feishu:oc_new").currency == "USD" and store.get("feishu:oc_abc") == ChatSettings()
        with pytest.raises(ValueError):
            store.get("oc_abc")  # not scoped: never guessed
    assert [r[0] for r in _rows(tmp_path / "s.db")] == ["feishu:oc_new", "telegram:7"]


def test_an_old_integer_keyed_database_is_migrated_once_on_open(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    _old_database(db, [(42, '{"lang":"en"}'), (-1001234, '{"currency":"USD","deadline_days":60}')])
    with SettingsStore(db) as store:
        assert store.get("telegram:42") == ChatSettings(lang="en")
        assert store.get(-1001234) == ChatSettings(currency="USD", deadline_days=60)
        store.update("feishu:oc_x", lang="zh")
    after = _rows(db)
    assert after == [
        ("feishu:oc_x", "text", '{"lang":"zh"}', "TEXT"),
        ("telegram:-1001234", "text", '{"currency":"USD","deadline_days":60}', "TEXT"),
        ("telegram:42", "text", '{"lang":"en"}', "TEXT"),
    ]
    with SettingsStore(db) as store:  # a second open changes nothing (no 'telegram:telegram:42')
        assert store.get(42) == ChatSettings(lang="en")
    assert _rows(db) == after


def test_a_row_an_older_process_writes_after_the_migration_is_renamed_on_open(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    SettingsStore(db).close()
    with sqlite3.connect(db) as conn:  # an old replica, still running, saves chat 5 as an integer
        conn.execute('INSERT INTO chat_settings VALUES (5, \'{"lang":"en"}\', 0)')
    conn.close()
    with SettingsStore(db) as store:
        assert store.get("telegram:5") == ChatSettings(lang="en")
    assert [r[0] for r in _rows(db)] == ["telegram:5"]


def test_conversation_memory_is_keyed_by_scoped_strings() -> None:
    conv = Conversation()
    first = conv.ask("feishu:oc_chat", "feishu:ou_user", "7B模型1万亿token要多少A100")
    assert (first.chat_id, first.user_id) == ("feishu:oc_chat", "feishu:ou_user")
    assert conv.last_turn_id("feishu:oc_chat", "feishu:ou_user") == first.id
    assert conv.last_turn_id("feishu:oc_chat", "feishu:ou_other") is None
    follow = conv.ask("feishu:oc_chat", "feishu:ou_user", "那H100呢")
    assert follow.answer.followup and follow.request.gpu == "H100-SXM5-80GB"
    telegram = conv.ask(5, 5, "7B模型1万亿token要多少A100")
    assert (telegram.chat_id, telegram.user_id) == ("telegram:5", "telegram:5")
    pressed = conv.variant(first.id, by_user="feishu:ou_other", gpu="H100")
    assert pressed is not None and pressed.user_id == "feishu:ou_other"
    assert conv.last_turn_id("feishu:oc_chat", "feishu:ou_other") == pressed.id


def test_shown_messages_are_keyed_by_scoped_strings() -> None:
    shown = ShownMessages(max_entries=2)
    shown.remember("feishu:oc_chat", "om_1", Shown("t1"))
    shown.remember(5, 10, Shown("t2", details=False))
    assert shown.get("feishu:oc_chat", "om_1") == Shown("t1")
    assert shown.get("telegram:5", "10") == Shown("t2", details=False) == shown.get(5, 10)
    assert shown.get("feishu:oc_other", "om_1") is None
