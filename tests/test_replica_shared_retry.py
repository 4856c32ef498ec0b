"""Replicas (issue 29): one failed write to the shared store used to put the follow-up memory in a
cool-down in which every write was skipped and lost for good: a reply taken later by another replica
found no turn behind the answer it replied to, and was answered as a follow-up of the user's last
question instead. A write that fails, or falls in the cool-down, is now sent again when it ends."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from bot.chat.shown import SharedShownMessages, Shown
from bot.core import shared
from bot.store import open_store


class FailsOnce:
    """The real store, whose first ``put_context`` fails (a connection reset); else as the real one."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.failed = 0

    def put_context(self, key: str, value: str, ttl_s: float) -> None:
        if not self.failed:
            self.failed += 1
            raise OSError("connection reset by peer")
        self._store.put_context(key, value, ttl_s)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def test_writes_after_one_failed_store_call_reach_the_store_when_the_cool_down_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared, "COOL_DOWN_S", 0.2)
    store = open_store(None, tmp_path / "settings.sqlite3")
    try:
        a = SharedShownMessages(FailsOnce(store))  # replica A: what its sent answers show
        a.remember("telegram:7", "40", Shown("T70Binfer"))  # fails: the store is cooling down
        a.remember("telegram:7", "41", Shown("T7Btrain"))  # in the cool-down
        a._shared.flush()
        deadline = time.monotonic() + 5
        while store.get_context("shown:telegram:7|41") is None and time.monotonic() < deadline:
            time.sleep(0.02)
        b = SharedShownMessages(store)  # replica B, after the takeover
        assert b.get("telegram:7", "40") == Shown("T70Binfer")
        assert b.get("telegram:7", "41") == Shown("T7Btrain")
    finally:
        store.close()


class Flaky:
    """The real store while ``down`` is False; every context call raises while it is True."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.down = False
        self.reads = 0

    def get_context(self, key: str) -> str | None:
        self.reads += 1
        if self.down:
            raise OSError("connection refused")
        return self._store.get_context(key)

    def put_context(self, key: str, value: str, ttl_s: float) -> None:
        if self.down:
            raise OSError("connection refused")
        self._store.put_context(key, value, ttl_s)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def test_a_read_in_the_cool_down_asks_the_store_and_ends_the_cool_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24/25 follow-up: a miss in the cool-down used to return None without asking the store, so
    a reply to an answer another replica sent was taken as a new question for the whole cool-down. Now
    the miss probes the store: while it is down, None (and the cool-down starts again); once it
    answers, the other replica's row, the cool-down is over and the writes kept in it are sent."""
    monkeypatch.setattr(shared, "COOL_DOWN_S", 60.0)  # far longer than the test: no timer ends it
    monkeypatch.setattr(shared, "PROBE_EVERY_S", 0.0)  # every miss may probe (the rate: test below)
    store = open_store(None, tmp_path / "settings.sqlite3")
    try:
        flaky = Flaky(store)
        a = SharedShownMessages(flaky)  # replica A
        flaky.down = True
        assert a.get("telegram:7", "40") is None  # the store fails: the cool-down starts
        assert a._shared._down_until > time.monotonic()
        a.remember("telegram:7", "42", Shown("T13Blora"))  # kept for later (the store is cooling down)
        a._shared.flush()
        assert store.get_context("shown:telegram:7|42") is None
        reads = flaky.reads
        assert a.get("telegram:7", "40") is None  # still down: the probe fails
        assert flaky.reads == reads + 1
        flaky.down = False
        b = SharedShownMessages(store)  # replica B answers
        b.remember("telegram:7", "40", Shown("T70Binfer"))
        b._shared.flush()
        assert a.get("telegram:7", "40") == Shown("T70Binfer")  # in the cool-down, from the store
        assert a._shared._down_until == 0.0
        deadline = time.monotonic() + 5
        while store.get_context("shown:telegram:7|42") is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert SharedShownMessages(store).get("telegram:7", "42") == Shown("T13Blora")  # sent at once
    finally:
        store.close()


class SlowDown:
    """A store that is down and slow: every context call waits ``delay_s`` (a connection timeout),
    then raises; the calls are counted."""

    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s
        self.reads = 0

    def get_context(self, key: str) -> str | None:
        self.reads += 1
        time.sleep(self.delay_s)
        raise OSError("connection timed out")

    def put_context(self, key: str, value: str, ttl_s: float) -> None:
        time.sleep(self.delay_s)
        raise OSError("connection timed out")

    def drop_context(self, key: str) -> None:
        self.put_context(key, "", 0.0)


def test_misses_in_the_cool_down_ask_a_dead_store_at_most_once_per_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Design review s10, item 3: every miss in the cool-down used to call the dead store (each probe's
    failure started the cool-down again), paying its timeout on the request path for as long as it
    stayed down. Now 20 misses in one window cost at most one store call after the one that failed."""
    monkeypatch.setattr(shared, "COOL_DOWN_S", 60.0)  # the default PROBE_EVERY_S (5 s) outlasts the test
    dead = SlowDown(0.05)
    a = SharedShownMessages(dead)
    assert a.get("telegram:7", "1") is None  # the store fails: the cool-down starts
    assert dead.reads == 1
    for n in range(20):
        assert a.get("telegram:7", str(100 + n)) is None
    assert dead.reads <= 2  # the one probe of this window, not one call per miss


def test_a_cool_down_begun_by_a_failed_write_lets_one_miss_probe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same when a write started the cool-down: the first miss probes once, the others wait."""
    monkeypatch.setattr(shared, "COOL_DOWN_S", 60.0)  # the default PROBE_EVERY_S (5 s) outlasts the test
    dead = SlowDown(0.0)
    a = SharedShownMessages(dead)
    a.remember("telegram:7", "40", Shown("T70Binfer"))
    a._shared.flush()
    assert a._shared._down_until > time.monotonic()
    for n in range(20):
        assert a.get("telegram:7", str(100 + n)) is None
    assert dead.reads == 1
