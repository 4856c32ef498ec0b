"""Replicas (issue 29): the follow-up memory is written to the shared store on a background thread.
An answer used to go out before its memory reached the store, so a follow-up that Feishu pushed to the
other replica at once ("那H100呢" right after the card) could find nothing to follow and be answered as
a question of its own. The seam now waits for the write before the answer goes out
(:meth:`bot.core.conversation.Conversation.shared_written`). Here the store holds the write of the
user's last question for :data:`HOLD_S` (a loaded database), and the follow-up is asked on the other
replica the moment replica A's answer is out."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from bot.chat.adapter import Inbound
from bot.chat.seam import Seam
from bot.core.conversation import Conversation
from bot.store import open_store

HOLD_S = 3.0
"""How long the store takes to write a user's last question (seconds)."""


class SlowLastQuestion:
    """A store that takes :data:`HOLD_S` to write a ``last:`` memory row; everything else as the real one."""

    def __init__(self, store: Any) -> None:
        self._store = store

    def put_context(self, key: str, value: str, ttl_s: float) -> None:
        if key.startswith("last:"):
            threading.Event().wait(HOLD_S)
        self._store.put_context(key, value, ttl_s)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def _ask(seam: Seam, text: str, message_id: str) -> Any:
    return seam.answer(Inbound("feishu", "feishu:oc_1", "feishu:ou_1", text, message_id=message_id))


def test_a_follow_up_on_the_other_replica_right_after_the_answer_continues_it(tmp_path: Path) -> None:
    store = open_store(None, tmp_path / "settings.sqlite3")
    try:
        Seam(Conversation()).answer(Inbound("feishu", "feishu:w", "feishu:w", "7B 1T tokens A100"))  # warm
        slow = SlowLastQuestion(store)
        a = Seam(Conversation(settings_store=store.settings, shared=slow))
        b = Seam(Conversation(settings_store=store.settings, shared=slow))
        first = _ask(a, "70B模型推理要多少A100", "om_1")  # out: the user sees it and follows up at once
        assert first is not None and "70B" in first.text.splitlines()[0]
        follow = _ask(b, "那H100呢", "om_2")
        assert follow is not None
        head = follow.text.splitlines()[0]
        assert "70B" in head and "H100" in head, follow.text[:300]
    finally:
        store.close()
