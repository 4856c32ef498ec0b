"""Issue 30, item 7: one journal, one owner. A second real ``sizing-bot run`` on the same settings
database and journal, started while the first is running, refuses to start with one line and a
non-zero exit: it never replays the first one's in-flight updates. Once the first has stopped (even by
kill -9: the kernel releases the lock), a new one starts. Loopback only (the fake Bot API)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_bot_api import FakeBotAPI
from test_reliability_kill import start_bot, wait
from tg_harness import checked_fake_api

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="fcntl.flock and SIGKILL")

TOKEN = "123456:FAKE-TOKEN-abc"


@pytest.fixture
def api() -> Iterator[FakeBotAPI]:
    with checked_fake_api(TOKEN) as fake:
        yield fake


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait(10)


def test_a_second_run_on_the_same_journal_refuses_to_start(api: FakeBotAPI, tmp_path: Path) -> None:
    first_log, second_log, third_log = (tmp_path / f"{n}.log" for n in ("first", "second", "third"))
    user = api.user("Ada", "en")
    chat = api.private_chat(user)
    first = start_bot(api, tmp_path, first_log)
    try:
        wait(lambda: api.calls_to("getUpdates"), 30, "the first bot to poll")
        for size in (1, 2, 3):
            api.send_text(f"/size {size}B 1T tokens A100", chat=chat, user=user)
        second = start_bot(api, tmp_path, second_log)
        try:
            code = second.wait(30)
        finally:
            _stop(second)
        said = second_log.read_text(encoding="utf-8").strip()
        assert code != 0
        assert said.count("\n") == 0, said  # one line, no traceback
        assert "already running" in said and "settings-updates.sqlite3" in said
        assert "Traceback" not in said
        wait(lambda: len(api.calls_to("sendMessage")) >= 3, 60, "the first bot's three answers")
        assert first.poll() is None  # the first one was not disturbed
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    finally:
        _stop(first)
    time.sleep(0.2)
    assert len(api.calls_to("sendMessage")) == 3  # nothing answered twice
    third = start_bot(api, tmp_path, third_log)  # the lock died with the first process
    try:
        api.send_text("/size 7B 1T tokens A100", chat=chat, user=user)
        wait(lambda: len(api.calls_to("sendMessage")) >= 4, 60, "an answer after the restart")
        assert third.poll() is None
    finally:
        third.send_signal(signal.SIGINT)
        try:
            third.wait(20)
        finally:
            _stop(third)
