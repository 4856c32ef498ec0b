"""Conversation state: follow-ups per chat and user, answer variants for buttons. STUB (interface).

A ``Conversation`` turns a message into a ``Turn`` (an Answer plus the merged request that
produced it), remembering the last request per (chat, user) for a while so that "那H100呢？",
"换成QLoRA", "用64张卡要多久", "what about 30 days?" re-answer with one thing changed.
Pure Python, no Telegram: the adapter maps Telegram ids to these calls.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from bot.answer import Answer, answer
from bot.parse import Lang
from estimator.models import SizingRequest


class Turn(BaseModel):
    """One answered message. ``id`` is short (≤ 12 chars) so buttons can carry it in callback_data."""

    id: str
    answer: Answer
    request: SizingRequest = Field(description="merged request before the estimator's defaults")
    followup: bool = Field(False, description="True when this re-answered a previous request with a change")


class Conversation:
    """Follow-up memory (bounded, expiring) and settings-aware answering.

    ttl_seconds: a user's last request expires after this much silence.
    max_entries: bound on remembered requests and turns (least recently used dropped first).
    settings_store / presales: optional (see bot.settings_store and bot.presales).
    """

    def __init__(self, *, ttl_seconds: float = 1800, max_entries: int = 10_000, settings_store: Any = None,
                 presales: Any = None, clock: Any = None) -> None:
        self.ttl_seconds = ttl_seconds
        self.max_entries = max_entries

    def ask(self, chat_id: int, user_id: int, text: str, *, user_lang: str | None = None,
            reply_to_turn: str | None = None) -> Turn:
        """Answer ``text`` in context: a follow-up of the user's last request (or of ``reply_to_turn``,
        when the message replies to one of the bot's answers), or a fresh question."""
        a = answer(text)
        return Turn(id="0", answer=a, request=a.parsed.request)

    def variant(self, turn_id: str, *, lang: Lang | None = None, **change: Any) -> Turn | None:
        """Re-answer a remembered turn with fields changed (e.g. gpu="H100-SXM5-80GB", method="qlora",
        lang="en"), for buttons. None when the turn has expired."""
        return None

    def turn(self, turn_id: str) -> Turn | None:
        """A remembered turn, or None when expired."""
        return None
