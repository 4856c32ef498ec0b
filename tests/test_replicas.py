"""Issue 29: two replicas on one PostgreSQL. In-process first (two Conversations on one store), then
two real ``sizing-bot run`` processes against the fake Bot API (tests/fake_bot_api.py)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.chat.shown import SharedShownMessages, Shown
from bot.core.conversation import Conversation
from bot.store import Store, open_store

_names = itertools.count()


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = open_store(None, tmp_path / "settings.sqlite3")
    else:
        from pg_server import fresh_database

        s = open_store(fresh_database(request.getfixturevalue("postgres_server"), f"conv{next(_names)}"))
    yield s
    s.close()


def test_a_follow_up_on_one_replica_continues_the_others_question(store: Store) -> None:
    a = Conversation(settings_store=store.settings, shared=store)
    b = Conversation(settings_store=store.settings, shared=store)
    first = a.ask("telegram:-100", "telegram:7", "全参微调Qwen2.5-14B要几张A100 80G？")
    a._memory.flush()  # type: ignore[attr-defined]
    a._turns.flush()  # type: ignore[attr-defined]
    assert first.answer.understood
    follow = b.ask("telegram:-100", "telegram:7", "换成QLoRA")
    assert follow.followup
    assert follow.request.model == first.request.model == "Qwen2.5-14B"
    assert follow.request.method is not None and follow.request.method.value == "qlora"
    assert follow.request.gpu == first.request.gpu
    # a button pressed under replica A's answer, handled by replica B
    variant = b.variant(first.id, gpu="H100")
    assert variant is not None and variant.request.gpu is not None and variant.request.gpu.startswith("H100")
    assert variant.request.model == "Qwen2.5-14B"
    # another user in the same chat has no follow-up memory
    assert not b.ask("telegram:-100", "telegram:8", "换成QLoRA").answer.understood


def test_a_reply_to_the_other_replicas_message_finds_its_turn(store: Store) -> None:
    a, b = SharedShownMessages(store), SharedShownMessages(store)
    a.remember("telegram:-100", 55, Shown("AbCd1234", details=False))
    a._shared.flush()
    assert b.get("telegram:-100", 55) == Shown("AbCd1234", details=False)
    assert b.get("telegram:-100", 56) is None


def test_without_a_shared_store_two_conversations_know_nothing_of_each_other() -> None:
    a, b = Conversation(), Conversation()
    a.ask("telegram:1", "telegram:1", "全参微调Qwen2.5-14B要几张A100 80G？")
    assert not b.ask("telegram:1", "telegram:1", "换成QLoRA").followup


def test_a_stage_switch_turn_reads_back_the_same_on_another_replica(store: Store) -> None:
    a = Conversation(settings_store=store.settings, shared=store)
    b = Conversation(settings_store=store.settings, shared=store)
    a.ask("feishu:oc_1", "feishu:ou_1", "llama3 70b serve vllm 8xH100 32k context")
    switched = a.ask("feishu:oc_1", "feishu:ou_1", "那QLoRA微调呢")
    assert switched.answer.kept and switched.answer.reset
    a._turns.flush()  # type: ignore[attr-defined]
    again = b.turn(switched.id)
    assert again is not None
    assert again.answer.kept == switched.answer.kept
    assert again.answer.reset == switched.answer.reset
    assert again.request == switched.request
    assert again.question == switched.question
