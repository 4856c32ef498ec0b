"""A follow-up over the web API keeps the tokens stated (session 9 fresh-user trial): an answer's JSON
``request.tokens`` is the tokens trained (data × epochs) beside ``epochs: 3``; taken back as ``prev`` it
was multiplied by the epochs again on every turn (600M → 1.8B → 5.4B). Over the real Starlette app, and
against the chat path (Conversation), which keeps the stated request."""

from __future__ import annotations

import pytest
from web_client import ask_api as _ask
from web_client import client_fixture

from bot.core.conversation import Conversation

client = client_fixture()  # the Starlette app fixture the API tests share (tests/web_client.py)

FIRST = "full fine-tune Qwen3-8B on 4x A100, 200k samples avg 1k tokens, 3 epochs"
FOLLOW_UPS = ("what about 8 of them", "and on H100", "what about 16 of them")


def test_prev_round_trips_keep_the_tokens(client):
    """200k samples × 1k tokens × 3 epochs = 600M tokens trained, on every turn; the GPU-hours of the
    API's answer are the chat's, turn by turn."""
    answer = _ask(client, {"q": FIRST})
    chat = Conversation(ttl_seconds=600, max_entries=10, clock=lambda: 0.0)
    turn = chat.ask(1, 1, FIRST)
    assert answer["request"]["tokens"] == 600e6 and answer["request"]["epochs"] == 3
    for q in FOLLOW_UPS:
        answer = _ask(client, {"q": q, "prev": answer["request"]})
        turn = chat.ask(1, 1, q)
        assert answer["request"]["tokens"] == 600e6, q
        assert turn.answer.report.request.tokens == 600e6, q
        assert answer["report"]["gpu_hours"]["likely"] == pytest.approx(turn.answer.report.gpu_hours.likely)
    assert answer["request"]["gpu_count"] == 16 and answer["request"]["gpu"] == "H100-SXM5-80GB"


def test_stated_tokens_with_epochs_round_trip(client):
    """'100M tokens, 3 epochs': 300M trained, on every turn."""
    answer = _ask(client, {"q": "full fine-tune Qwen3-8B on 4x A100, 100M tokens, 3 epochs"})
    for q in FOLLOW_UPS:
        answer = _ask(client, {"q": q, "prev": answer["request"]})
        assert (answer["request"]["tokens"], answer["request"]["epochs"]) == (300e6, 3), q
