"""Issue 29, item 3: two real ``sizing-bot run`` processes on one throwaway PostgreSQL, polling the
fake Bot API. One polls (the leader lock), the other waits as the standby; a settings change made
elsewhere is seen at once; ``kill -9`` of the active one mid-burst: the standby takes over, replays
what the dead one had claimed but not finished, and a follow-up to a question the dead one answered
is understood."""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_bot_api import FakeBotAPI
from replica_run import answered, start_replica, stop, wait
from tg_harness import checked_fake_api

from bot.store import open_store
from bot.telegram.processor import WORKERS

TOKEN = "123456:FAKE-TOKEN-abc"
USERS = 20
SIZES = (1, 2, 3, 5, 7)
KILL_AFTER = 20
DUPLICATE_BOUND = WORKERS + 36
"""As for one process (tests/test_reliability_kill.py): the updates in flight plus one batch of marks."""

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


@pytest.fixture
def api() -> Iterator[FakeBotAPI]:
    with checked_fake_api(TOKEN) as fake:
        yield fake


def _cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _last_text(api: FakeBotAPI, chat_id: int) -> str:
    texts = [
        c.params.get("text") or "" for c in api.calls_to("sendMessage") if c.params["chat_id"] == chat_id
    ]
    return texts[-1] if texts else ""


def test_active_standby_failover_settings_and_follow_ups(
    api: FakeBotAPI, tmp_path: Path, postgres_server: str
) -> None:
    from pg_server import fresh_database

    url = fresh_database(postgres_server, "replicas_run")
    log_a, log_b = tmp_path / "a.log", tmp_path / "b.log"
    a = start_replica(api, tmp_path / "a", log_a, url)
    b = None
    try:
        wait(lambda: api.calls_to("getUpdates"), 60, "replica A to poll")
        b = start_replica(api, tmp_path / "b", log_b, url)
        wait(lambda: "standby" in log_b.read_text(errors="replace"), 60, "replica B to wait as the standby")

        # a settings change made on another replica (here: straight through the store) is seen at once
        asker = api.user("Li", "zh")
        chat = api.private_chat(asker)
        api.send_text("全参微调Qwen2.5-14B要几张A100 80G？", chat=chat, user=asker)
        wait(lambda: _last_text(api, chat["id"]), 30, "the first answer")
        assert _cjk(_last_text(api, chat["id"]).splitlines()[0])
        other = open_store(url)
        other.settings.update(f"telegram:{chat['id']}", lang="en")
        other.close()
        time.sleep(0.3)
        sent = len(api.calls_to("sendMessage"))
        api.send_text("全参微调Qwen2.5-14B要几张A100 80G？", chat=chat, user=asker)
        wait(lambda: len(api.calls_to("sendMessage")) > sent, 30, "the answer after the settings change")
        assert not _cjk(_last_text(api, chat["id"]).splitlines()[0]), _last_text(api, chat["id"])

        # a question answered by A, followed up after A is gone
        follower = api.user("Wang", "zh")
        fchat = api.private_chat(follower)
        api.send_text("全参微调Qwen2.5-14B要几张A100 80G？", chat=fchat, user=follower)
        wait(lambda: _last_text(api, fchat["id"]), 30, "the follower's first answer")

        # a reply, after the takeover, to an answer A sent before a newer question
        replier = api.user("Zhao", "zh")
        rchat = api.private_chat(replier)
        api.send_text("部署70B推理需要几张A100", chat=rchat, user=replier)
        wait(lambda: api.bot_messages(rchat["id"]), 30, "the replier's first answer")
        first_answer = api.bot_messages(rchat["id"])[0]
        api.send_text("7B模型1万亿token要多少A100", chat=rchat, user=replier)
        wait(lambda: len(api.bot_messages(rchat["id"])) == 2, 30, "the replier's second answer")

        users = [api.user(f"U{n}", "en") for n in range(USERS)]
        chats = [api.private_chat(u) for u in users]
        questions = [(c["id"], size) for size in SIZES for c in chats]
        for size in SIZES:
            for user, c in zip(users, chats, strict=True):
                api.send_text(f"/size {size}B 1T tokens A100", chat=c, user=user)
        wait(lambda: sum(answered(api).values()) >= KILL_AFTER, 60, f"{KILL_AFTER} answers")
        a.send_signal(signal.SIGKILL)
        a.wait(10)
        killed_at, before = time.monotonic(), sum(answered(api).values())
        takeover = wait(lambda: sum(answered(api).values()) > before, 30, "the standby to answer")
        wait(lambda: all(answered(api)[q] for q in questions), 120, "every question answered")
        assert "replaying" in log_b.read_text(errors="replace")

        sent = len(api.calls_to("sendMessage"))
        api.send_text("换成QLoRA", chat=fchat, user=follower)
        wait(lambda: len(api.calls_to("sendMessage")) > sent, 30, "the follow-up's answer")
        follow_up = _last_text(api, fchat["id"])
        assert "QLoRA" in follow_up and "Qwen2.5-14B" in follow_up, follow_up

        api.send_text("那H100呢", chat=rchat, user=replier, reply_to=first_answer)
        wait(lambda: len(api.bot_messages(rchat["id"])) == 3, 30, "the answer to the reply")
        replied = api.bot_messages(rchat["id"])[-1]["text"].splitlines()[0]
        assert replied.startswith("70B") and "H100" in replied and "推理" in replied, replied
        time.sleep(0.5)  # a late duplicate would show now
    finally:
        stop(a)
        rc_b = stop(b) if b is not None else None
    counts = answered(api)
    duplicates = sum(counts[q] - 1 for q in questions)
    print(f"takeover {takeover:.2f} s after the kill; duplicates {duplicates}; killed at {killed_at:.0f}")
    assert all(counts[q] >= 1 for q in questions)
    assert duplicates <= DUPLICATE_BOUND
    assert takeover < 10
    assert rc_b == 0
    text = log_a.read_text(errors="replace") + log_b.read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]


def test_an_unreachable_database_is_one_line_and_exit_2(tmp_path: Path) -> None:
    import subprocess

    from pg_server import free_port
    from replica_run import ROOT

    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "PYTHONPATH": str(ROOT),
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "SIZING_BOT_DATABASE_URL": f"postgresql://sizing:s3cret-pw@127.0.0.1:{free_port()}/sizing",
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("SIZING_BOT_DATABASE_URL: cannot connect to PostgreSQL"), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert "s3cret-pw" not in done.stderr


def test_a_leader_that_loses_its_lock_connection_stops_and_the_standby_answers(
    api: FakeBotAPI, tmp_path: Path, postgres_server: str
) -> None:
    import psycopg
    from pg_server import fresh_database

    url = fresh_database(postgres_server, "replicas_lost_lock")
    log_a, log_b = tmp_path / "a.log", tmp_path / "b.log"
    a = start_replica(api, tmp_path / "a", log_a, url)
    b = None
    try:
        wait(lambda: api.calls_to("getUpdates"), 60, "replica A to poll")
        b = start_replica(api, tmp_path / "b", log_b, url)
        wait(lambda: "standby" in log_b.read_text(errors="replace"), 60, "replica B to wait as the standby")
        with psycopg.connect(url, autocommit=True) as conn:  # the network drops A's lock connection
            killed = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted"
            ).fetchall()
        assert killed == [(True,)]
        assert a.wait(30) == 0  # stopped itself, gracefully
        assert "leader lock lost" in log_a.read_text(errors="replace")
        user = api.user("Ada", "en")
        chat = api.private_chat(user)
        api.send_text("/size 7B 1T tokens A100", chat=chat, user=user)
        wait(lambda: answered(api)[(chat["id"], 7)], 30, "replica B to answer")
    finally:
        stop(a)
        if b is not None:
            stop(b)
    assert "Traceback" not in log_b.read_text(errors="replace")
