"""Conversation state: follow-ups per chat and user, answer variants for buttons, chat settings.

A ``Conversation`` remembers, for a while, the last request per (chat, user) and every answered
turn, and calls the one pipeline (:mod:`bot.core.pipeline`) with that context, so that "那H100呢？",
"换成QLoRA", "用64张卡要多久", "what about 30 days?" re-answer with one thing changed
(rules in :mod:`bot.core.followup`). A reply to one of the bot's answers (``reply_to_turn``) follows
up on that turn's request. Pure Python, no Telegram: chat and user ids are opaque strings scoped by
platform (``telegram:123``, ``feishu:oc_ab``; :mod:`bot.chat.ids`; an ``int`` is a Telegram id).

Language of the reply (:func:`bot.parse.lang.reply_lang`): a 🌐 button's choice, the chat's settings,
the message's words, the previous turn's language, the user's Telegram language, the parser's guess.
"""

from __future__ import annotations

import logging
import secrets
import string
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from bot.chat.ids import scope_key
from bot.core.actions import Action, answer_actions
from bot.core.compact import Packed, pack, unpack
from bot.core.followup import merge, stage_switch
from bot.core.pipeline import Answer, Context, answer, answer_request
from bot.core.script import reply_script
from bot.core.suggest import suggested_gpus
from bot.core.ttl import TTLCache
from bot.parse import ParseResult
from bot.parse.counts_tried import COUNTS_FAILED
from bot.parse.lang import Lang, reply_lang
from bot.settings.chat import ChatSettings
from estimator import catalog
from estimator.models import Method, Precision, SizingRequest

if TYPE_CHECKING:
    from bot.core.configfile import ConfigInfo
    from bot.settings.presales import PresalesConfig  # annotations only: read only with an offer

log = logging.getLogger(__name__)


@dataclass(slots=True, kw_only=True, eq=False)
class Turn:
    """One answered message. ``id`` is short (≤ 12 chars) so buttons can carry it in callback_data.
    A plain dataclass, as :class:`~bot.core.answer.Answer` (made here from values already validated)."""

    id: str
    answer: Answer
    chat_id: str | None = None
    """scoped chat id (``telegram:123``)"""
    user_id: str | None = None
    question: str = ""
    """The message the turn answered (a button's variant keeps its question's); quotes print it."""

    @property
    def request(self) -> SizingRequest:
        """What the user said over the conversation (settings and pre-sales prices are not in it)."""
        return self.answer.said

    @property
    def followup(self) -> bool:
        return self.answer.followup

    @property
    def changed(self) -> list[str]:
        return self.answer.changed

    @property
    def sources(self) -> dict[str, str]:
        return self.answer.sources


@dataclass(slots=True)
class _Memory:
    """A user's last answered request in a chat (packed: :mod:`bot.core.compact`)."""

    request: Packed
    lang: Lang
    turn_id: str
    script: str = "Hans"
    """the conversation's script for a Chinese reply (bot.core.script, s38)"""


@dataclass(slots=True)
class _TurnRecord:
    """What is needed to rebuild a Turn (answers are recomputed: ~1 ms, and far smaller to keep).
    Remembered packed (:meth:`Conversation._stored`: ``parsed`` and ``request`` as
    :class:`~bot.core.compact.Packed`, ``request`` None when it is ``parsed.request``), used unpacked."""

    id: str
    chat_id: str
    user_id: str
    parsed: ParseResult | Packed
    request: SizingRequest | Packed | None
    lang: Lang
    """the conversation's language for this turn, before the chat's settings"""
    fixed_lang: Lang | None
    """a language chosen with a 🌐 button (beats the chat's settings)"""
    followup: bool
    changed: list[str] = field(default_factory=list)
    kept: dict[str, Any] = field(default_factory=dict)
    """a stage switch: the previous request's values kept (bot.core.followup.stage_switch)"""
    reset: dict[str, Any] = field(default_factory=dict)
    """a stage switch: the previous request's values not carried over"""
    text: str = ""
    """the message this turn answered (variants keep the original's)"""
    script: str = "Hans"
    """the conversation's script for this turn, before the chat's settings ('Hant': Traditional, s38)"""


MAX_QUESTION_CHARS = 1000
"""A turn keeps at most this much of its message (for the quote; Telegram messages are ≤ 4,096)."""

_ID_ALPHABET = string.digits + string.ascii_letters
TURN_ID_LEN = 8  # 62**8 ≈ 2e14: random, so buttons from before a restart cannot hit a new turn


class Conversation:
    """Follow-up memory (bounded, expiring) and settings-aware answering.

    ttl_seconds: a user's last request expires after this much silence.
    max_entries: bound on remembered requests and on remembered turns (least recently used dropped first).
    settings_store: a :class:`bot.settings.store.SettingsStore` (settings looked up by chat id, which is
        the user id in private chats), or None.
    presales: a :class:`bot.settings.presales.PresalesConfig`, or None.
    clock: seconds, monotonic (``time.monotonic`` by default; inject a fake in tests).
    turn_ttl_seconds: how long turns stay usable for buttons and replies (default: ``ttl_seconds``).
    shared: a :class:`bot.store.base.Store` whose context table the memory is kept in too, so that
        replicas on one database understand each other's follow-ups (:mod:`bot.core.shared`); None:
        this process's memory only.
    """

    def __init__(
        self,
        *,
        ttl_seconds: float = 1800,
        max_entries: int = 10_000,
        settings_store: Any = None,
        presales: PresalesConfig | None = None,
        clock: Callable[[], float] | None = None,
        turn_ttl_seconds: float | None = None,
        shared: Any = None,
    ) -> None:
        self.ttl_seconds = ttl_seconds
        self.max_entries = max_entries
        self.settings_store = settings_store
        self.presales = presales
        self._clock = clock or time.monotonic
        self._lock = threading.Lock()
        self._memory: TTLCache[tuple[str, str], _Memory] = TTLCache(ttl_seconds, max_entries, self._clock)
        self._turns: TTLCache[str, _TurnRecord] = TTLCache(
            ttl_seconds if turn_ttl_seconds is None else turn_ttl_seconds, max_entries, self._clock
        )
        if shared is not None:
            self._share(shared)

    def _share(self, store: Any) -> None:
        """Keep the memory in ``store`` too (see ``shared`` above)."""
        from bot.core import shared_codec as codec
        from bot.core.shared import SharedTTLCache

        self._memory = SharedTTLCache(
            self._memory.ttl, self.max_entries, self._clock, store=store, prefix="last:",
            name=lambda key: f"{key[0]}|{key[1]}", encode=codec.encode_memory, decode=codec.decode_memory,
        )  # fmt: skip
        self._turns = SharedTTLCache(
            self._turns.ttl, self.max_entries, self._clock, store=store, prefix="turn:",
            name=str, encode=codec.encode_turn, decode=codec.decode_turn,
        )  # fmt: skip

    def shared_written(self) -> None:
        """Block until the memory written so far (last requests, turns) is in the shared store; at
        once without one. Called before an answer goes out: the store is written on a background
        thread, and a follow-up another replica takes must find the question it follows."""
        for cache in (self._memory, self._turns):
            flush = getattr(cache, "flush", None)
            if flush is not None:
                flush()

    # -- public API

    def ask(
        self,
        chat_id: str | int,
        user_id: str | int,
        text: str,
        *,
        user_lang: str | None = None,
        reply_to_turn: str | None = None,
        config: ConfigInfo | None = None,
    ) -> Turn:
        """Answer ``text`` in context: a follow-up of the user's last request (or of ``reply_to_turn``,
        when the message replies to one of the bot's answers), or a fresh question. ``config``: a
        config.json sent with the message (a document); its architecture stays in the remembered
        request, so follow-ups ("serve it on 2 H100", "QLoRA it") size the same model."""
        text = text if isinstance(text, str) else ""
        chat_id, user_id = scope_key(chat_id), scope_key(user_id)
        with self._lock:
            base: _Memory | None = None
            if reply_to_turn:
                rec = self._turns.get(reply_to_turn)
                if rec is not None:
                    base = _Memory(rec.request or _field(rec.parsed, "request"), rec.lang, rec.id, rec.script)
            if base is None:
                base = self._memory.get((chat_id, user_id))
        if base is not None and len(text) <= 40 and _names_language(text):  # 'English please' (s39 fixc)
            from bot.core.language_asked import asked_language

            asked = asked_language(text)
            again = self.variant(base.turn_id, lang=asked, by_user=user_id) if asked else None  # type: ignore[arg-type]
            if again is not None:
                return again
        context = Context(
            previous=unpack(base.request) if base else None,
            previous_lang=base.lang if base else None,
            previous_script=base.script if base else None,
            client_lang=user_lang,
            previous_failed=base is not None and self._failed(base.turn_id),
        )
        result = answer(text, context, self.settings(chat_id), self.presales, config=config)
        own_lang = result.parsed.reply_lang(previous=context.previous_lang, client=user_lang)
        question = " ".join(text.split())
        if result.followup and base is not None:  # "那H100呢？" quotes as the question it changes
            with self._lock:
                earlier = self._turns.get(base.turn_id)
            if earlier is not None and earlier.text:
                question = f"{earlier.text} → {question}"
        rec = _TurnRecord(
            id="",
            chat_id=chat_id,
            user_id=user_id,
            parsed=result.parsed,
            request=result.said,
            lang=own_lang,
            fixed_lang=None,
            followup=result.followup,
            changed=result.changed,
            kept=result.kept,
            reset=result.reset,
            text=question[:MAX_QUESTION_CHARS],
            script=reply_script(text, own_lang, previous=context.previous_script),
        )
        return self._remember(rec, result)

    def _failed(self, turn_id: str) -> bool:
        """Whether the remembered turn ``turn_id`` said its GPU counts ran out of memory (its parse's
        note :data:`bot.parse.counts_tried.COUNTS_FAILED`)."""
        with self._lock:
            rec = self._turns.get(turn_id)
        if rec is None:
            return False
        notes = (
            rec.parsed.notes if isinstance(rec.parsed, ParseResult) else dict(rec.parsed.items).get("notes")
        )
        return COUNTS_FAILED in (notes or ())

    def variant(
        self, turn_id: str, *, lang: Lang | None = None, by_user: str | int | None = None, **change: Any
    ) -> Turn | None:
        """Re-answer a remembered turn with fields changed (e.g. gpu="H100-SXM5-80GB", method="qlora",
        lang="en"), for buttons. None when the turn has expired. ``gpu`` may be a catalog id or a family
        ("H100"). ``by_user``: who pressed — the follow-up memory updated is theirs, not the asker's
        (in a group anyone may press). Raises ValueError for an unknown field or value."""
        with self._lock:
            rec = self._turns.get(turn_id)
        if rec is None:
            return None
        rec = self._live(rec)
        new = self._clean_change(change)
        stage = new.pop("stage", None)
        if new.get("method") == Method.qlora and "precision" not in new:
            new["precision"] = Precision.int4  # as the parser does for "QLoRA"
        request, changed = merge(rec.request, new, stage) if (new or stage) else (rec.request, [])
        kept, reset = stage_switch(rec.request, request)
        if lang is not None and lang != rec.lang:
            changed.append("lang")
        out = _TurnRecord(
            id="",
            chat_id=rec.chat_id,
            user_id=rec.user_id if by_user is None else scope_key(by_user),
            parsed=rec.parsed,
            request=request,
            lang=lang or rec.lang,
            fixed_lang=lang or rec.fixed_lang,
            followup=True,
            changed=changed,
            kept=kept if new or stage else rec.kept,  # a 🌐 button keeps the turn's own note
            reset=reset if new or stage else rec.reset,
            text=rec.text,
            script=rec.script,
        )
        return self._remember(out, self._rebuild(out))

    def turn(self, turn_id: str) -> Turn | None:
        """A remembered turn, or None when expired (its answer recomputed with the current settings)."""
        with self._lock:
            rec = self._turns.get(turn_id)
        if rec is None:
            return None
        rec = self._live(rec)
        return Turn(
            id=rec.id, answer=self._rebuild(rec), chat_id=rec.chat_id, user_id=rec.user_id, question=rec.text
        )

    def turn_lang(self, turn_id: str) -> str | None:
        """The language a remembered turn answers in (the one it was fixed to, else its own), or None
        when it expired; cheap (no answer rebuilt): for a button's instant acknowledgement."""
        with self._lock:
            rec = self._turns.get(turn_id)
        return None if rec is None else rec.fixed_lang or rec.lang

    def alternative_gpus(self, turn: Turn | str, n: int = 3) -> list[str]:
        """GPU ids for 'switch GPU' buttons: the offered GPUs in a pre-sales deployment (preferred
        first), else the catalog's related and closest cards."""
        t = self.turn(turn) if isinstance(turn, str) else turn
        if t is None:
            return []
        families = self.presales.families() if self.presales is not None else []
        return suggested_gpus(t.answer.report, t.request, families, n)

    def actions(self, turn: Turn, *, details: bool = True, lang: str | None = None) -> list[list[Action]]:
        """The actions (buttons) under a turn's answer, rows of :class:`bot.core.actions.Action`: GPU
        suggestions (:meth:`alternative_gpus`), method/stage switches, details, chart, recipes, the
        other language, and the 🧾 quote when the answer carries a pre-sales offer."""
        gpus = self.alternative_gpus(turn, 3) if turn.answer.understood else []
        quote = turn.answer.report is not None and turn.answer.offer is not None  # bot.quote.can_quote
        return answer_actions(turn.answer, lang, details=details, gpus=gpus, quote=quote)

    def forget(self, chat_id: str | int, user_id: str | int) -> None:
        """Drop a user's follow-up memory in a chat (e.g. on /start)."""
        with self._lock:
            self._memory.pop((scope_key(chat_id), scope_key(user_id)))

    def last_turn_id(self, chat_id: str | int, user_id: str | int) -> str | None:
        """The id of the turn a follow-up from this user would continue, if any."""
        with self._lock:
            mem = self._memory.get((scope_key(chat_id), scope_key(user_id)))
        return mem.turn_id if mem else None

    def script_of(self, chat_id: str | int, user_id: str | int) -> str:
        """The script the bot's own words take in this chat for this user (/help; s38 fixm #4): the chat's
        /settings, else the conversation's (a user who wrote Traditional), else Simplified."""
        chosen = self.settings(chat_id).script
        if chosen:
            return chosen
        with self._lock:
            mem = self._memory.get((scope_key(chat_id), scope_key(user_id)))
        return mem.script if mem else "Hans"

    def settings(self, chat_id: str | int) -> ChatSettings:
        """The chat's settings (defaults when there is no store or it fails: answers never stop)."""
        if self.settings_store is None:
            return ChatSettings()
        try:
            return self.settings_store.get(scope_key(chat_id))
        except Exception:
            log.exception("settings lookup failed for chat %s", chat_id)
            return ChatSettings()

    # -- internals

    def _rebuild(self, rec: _TurnRecord) -> Answer:
        settings = self.settings(rec.chat_id)
        lang = reply_lang(fixed=rec.fixed_lang, chosen=settings.lang, previous=rec.lang)
        rebuilt = answer_request(
            rec.request,
            rec.parsed,
            lang,
            settings,
            self.presales,
            followup=rec.followup,
            changed=rec.changed,
            switch=(rec.kept, rec.reset),
        )
        rebuilt.script = reply_script("", lang, chosen=settings.script, previous=rec.script)  # kept (s38)
        return rebuilt

    def _new_id(self) -> str:
        while True:
            tid = "".join(secrets.choice(_ID_ALPHABET) for _ in range(TURN_ID_LEN))
            if tid not in self._turns:
                return tid

    @staticmethod
    def _stored(rec: _TurnRecord) -> _TurnRecord:
        """``rec`` as remembered: its parse result and request packed (~7.1 → ~1.8 kB a turn)."""
        parsed = rec.parsed
        assert isinstance(parsed, ParseResult) and isinstance(rec.request, SizingRequest)
        request = None if rec.request is parsed.request else pack(rec.request)
        return replace(rec, parsed=pack(parsed), request=request)

    @staticmethod
    def _live(rec: _TurnRecord) -> _TurnRecord:
        """A remembered record unpacked (equal to the one :meth:`_stored` was given)."""
        assert isinstance(rec.parsed, Packed)
        parsed = unpack(rec.parsed)
        request = parsed.request if rec.request is None else unpack(rec.request)
        return replace(rec, parsed=parsed, request=request)

    def _remember(self, rec: _TurnRecord, result: Answer) -> Turn:
        stored = self._stored(rec)
        with self._lock:
            rec.id = stored.id = self._new_id()
            self._turns.put(rec.id, stored)
            if result.understood or (result.embedding is not None and result.said.model is not None):  # s38
                remembered = stored.request or _field(stored.parsed, "request")
                memory = _Memory(remembered, rec.lang, rec.id, rec.script)
                self._memory.put((rec.chat_id, rec.user_id), memory)
        return Turn(id=rec.id, answer=result, chat_id=rec.chat_id, user_id=rec.user_id, question=rec.text)

    @staticmethod
    def _clean_change(change: dict[str, Any]) -> dict[str, Any]:
        unknown = set(change) - set(SizingRequest.model_fields)
        if unknown:
            raise ValueError(f"unknown request field(s): {', '.join(sorted(unknown))}")
        out = dict(change)
        gpu = out.get("gpu")
        if gpu is not None and gpu not in catalog.gpus():
            family = catalog.family_of(str(gpu))
            spec = catalog.default_gpu_for_family(family) if family else None
            if spec is None:
                raise ValueError(f"unknown GPU {gpu!r}")
            out["gpu"] = spec.id
        try:
            checked = SizingRequest.model_validate(out)
        except ValidationError as e:
            raise ValueError(str(e)) from None
        return {k: getattr(checked, k) for k in out}


def _names_language(text: str) -> bool:
    """The gate of :func:`bot.core.language_asked.asked_language`: a message naming English or Chinese."""
    low = text.lower()
    return "english" in low or "chinese" in low or "英" in text or "中文" in text or "汉语" in text


def _field(packed: Any, name: str) -> Packed:
    """The packed value of the model field ``name`` of ``packed`` (a nested model's :class:`Packed`)."""
    return dict(packed.items)[name]
