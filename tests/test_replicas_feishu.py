"""Issue 29: two real ``sizing-bot run`` processes on Feishu / Lark and one throwaway PostgreSQL. The
fake Feishu pushes each event to one of the connected clients at random (as Feishu does): a re-pushed
event is answered once whichever replica receives it, and a follow-up is understood by either."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fake_feishu import FakeFeishu
from feishu_run import card_of, card_words, cards, running_bot, wait


@pytest.fixture
def fake():
    with FakeFeishu() as server:
        yield server


def test_two_replicas_answer_once_and_share_follow_ups(fake, tmp_path: Path, postgres_server: str) -> None:
    from pg_server import fresh_database

    env = {"SIZING_BOT_DATABASE_URL": fresh_database(postgres_server, "feishu_replicas")}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with running_bot(fake, tmp_path / "a", extra_env=env), running_bot(fake, tmp_path / "b", extra_env=env):
        wait(lambda: fake.connections >= 2, 30, "both replicas connected")
        event = fake.message_event("70B模型推理要多少A100")
        asked = event["event"]["message"]["message_id"]
        fake.push(event, times=6)  # re-pushes land on either replica
        wait(lambda: len(fake.acks) >= 6, 60, "acks")
        wait(lambda: cards(fake), 60, "first card")
        time.sleep(1.0)
        assert len([m for m in fake.http.sent() if m["parent_id"] == asked]) == 1
        for n, gpu in enumerate(("H100", "H200", "L40S", "H20", "A800", "4090"), start=2):
            fake.push(fake.message_event(f"那{gpu}呢"))
            wait(lambda n=n: len(cards(fake)) == n, 15, f"card {n}")
            words = card_words(card_of(cards(fake)[-1]))
            assert "70B" in words and gpu in words, words[:400]
        replicas = {conn for _, conn in fake.pushes}
        assert len(replicas) >= 2, fake.pushes  # pushed to both replicas (connection numbers)


def test_a_reply_to_a_card_of_a_stopped_replica_follows_that_cards_question(
    fake, tmp_path: Path, postgres_server: str
) -> None:
    from pg_server import fresh_database

    env = {"SIZING_BOT_DATABASE_URL": fresh_database(postgres_server, "feishu_reply")}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with running_bot(fake, tmp_path / "a", extra_env=env):
        fake.push(fake.message_event("70B模型推理要多少A100"))
        first = wait(lambda: cards(fake), 60, "first card")[0]["message_id"]
        fake.push(fake.message_event("7B模型1万亿token要多少A100"))  # the user's newer question
        wait(lambda: len(cards(fake)) == 2, 60, "second card")
    with running_bot(fake, tmp_path / "b", extra_env=env):  # replica A is gone
        fake.push(fake.message_event("那H100呢", parent_id=first))
        wait(lambda: len(cards(fake)) == 3, 20, "the reply's card")
    title = card_of(cards(fake)[-1])["header"]["title"]["content"]
    assert title.startswith("70B") and "H100" in title and "推理" in title, title
