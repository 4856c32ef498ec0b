"""Issue 17, failure 4: kill -9 in the middle of a burst loses no update.

The real ``sizing-bot run`` (a child process) polls the fake Bot API on loopback. 300 questions from
60 users are queued at once; once 40 answers have arrived the process is killed with SIGKILL -- by
then it has fetched (and acknowledged to the server) far more updates than it has handled (replies
go out at Telegram's 30 messages/s, PTB's AIORateLimiter, as in production). A new
process on the same files must answer every question, replaying the journal
(:mod:`bot.telegram.journal`); an update handled but not yet marked when the process died may be
answered twice, and those duplicates are counted and bounded by the updates in flight.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_bot_api import FakeBotAPI
from tg_harness import checked_fake_api

from bot.telegram.processor import WORKERS

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "123456:FAKE-TOKEN-abc"
USERS = 60
SIZES = (1, 2, 3, 5, 7)
"""Each user asks about these model sizes, one question each: the answer's headline names it."""
KILL_AFTER = 40
DUPLICATE_BOUND = WORKERS + 36
"""Handled but unmarked at the kill: at most the updates in flight plus one batch of marks."""

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


@pytest.fixture
def api() -> Iterator[FakeBotAPI]:
    with checked_fake_api(TOKEN) as fake:
        yield fake


def start_bot(api: FakeBotAPI, home: Path, log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "SIZING_BOT_"))}
    env = {k: v for k, v in env.items() if "proxy" not in k.lower()}
    env.update(
        PYTHONPATH=str(ROOT),
        HOME=str(home),
        NO_PROXY="*",
        TELEGRAM_BOT_TOKEN=api.token,
        TELEGRAM_BASE_URL=api.base_url,
        TELEGRAM_BASE_FILE_URL=api.base_file_url,
        SIZING_BOT_DB=str(home / "settings.sqlite3"),
        SIZING_BOT_USER_RATE="off",
        SIZING_BOT_CHAT_RATE="off",
        LOG_LEVEL="WARNING",
    )
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "bot", "run"], cwd=home, env=env, stdout=out, stderr=subprocess.STDOUT
        )


def wait(condition: object, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


_HEADLINE = re.compile(r"^(?:<b>)?(\d+)B pre-training")


def answered(api: FakeBotAPI) -> Counter[tuple[int, int]]:
    """(chat id, model size in B) → answers."""
    found: Counter[tuple[int, int]] = Counter()
    for call in api.calls_to("sendMessage"):
        match = _HEADLINE.match(call.params.get("text") or "")
        if match:
            found[(int(call.params["chat_id"]), int(match[1]))] += 1
    return found


def test_sigkill_mid_burst_then_restart_answers_every_question(api: FakeBotAPI, tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    users = [api.user(f"U{n}", "en") for n in range(USERS)]
    chats = [api.private_chat(user) for user in users]
    questions = [(chat["id"], size) for size in SIZES for chat in chats]
    first = start_bot(api, tmp_path, log)
    try:
        wait(lambda: api.calls_to("getUpdates"), 30, "the bot to poll")
        for size in SIZES:
            for user, chat in zip(users, chats, strict=True):
                api.send_text(f"/size {size}B 1T tokens A100", chat=chat, user=user)
        wait(lambda: len(api.calls_to("sendMessage")) >= KILL_AFTER, 60, f"{KILL_AFTER} answers")
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert first.returncode == -signal.SIGKILL
    before_restart = answered(api)
    acknowledged_unhandled = len(questions) - api.pending_updates - len(before_restart)
    assert acknowledged_unhandled > 0, "the kill came too late to test anything"

    second = start_bot(api, tmp_path, log)
    try:

        def all_answered() -> bool:
            counts = answered(api)
            return all(counts[q] for q in questions)

        wait(all_answered, 120, "every question answered")
        time.sleep(0.5)  # a late duplicate would show now
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(20)
    counts = answered(api)
    duplicates = sum(counts[q] - 1 for q in questions)
    text = log.read_text(errors="replace")
    print(
        f"answered before the kill {len(before_restart)}, acknowledged but unhandled "
        f"{acknowledged_unhandled}, duplicates {duplicates}"
    )
    assert all(counts[q] >= 1 for q in questions)
    assert duplicates <= DUPLICATE_BOUND
    assert "replaying" in text and second.returncode == 0
    assert "Traceback" not in text
