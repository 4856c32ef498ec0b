"""Conversation state: follow-ups per chat and user, answer variants for buttons, chat settings.

A ``Conversation`` turns a message into a ``Turn`` (an Answer plus the merged request that
produced it), remembering the last request per (chat, user) for a while so that "那H100呢？",
"换成QLoRA", "用64张卡要多久", "what about 30 days?" re-answer with one thing changed.
Pure Python, no Telegram: the adapter maps Telegram ids to these calls.

Follow-up or fresh question (:func:`classify`), in this order:

1. No previous request (none, expired, or only unanswerable messages so far) → fresh.
2. The message is out of scope, sets nothing, or asks an inverse "how big a model" question
   ("预算100万能训多大的模型", "how large a model …") or says "new question" → fresh.
3. It sets a model or parameter count (``model``/``params_total``/``params_active``) AND tokens,
   samples or an explicit stage word (预训练/微调/推理/serve/fine-tune …) → fresh: a whole new
   question — unless it also carries a follow-up cue and keeps the previous stage
   ("那70B推理呢" after a serving question is a follow-up).
4. It sets only "change" fields (everything but the model: gpu, gpu_count, deadline_days, method,
   precision, mfu, price_per_gpu_hour, currency, seq_len, concurrency, tokens, budget, stage …) →
   follow-up.
5. It sets a model/size and carries a follow-up cue (那…呢, …呢, 换成, 改成, 如果…, what about,
   how about, instead, what if, "with …", switch to) → follow-up ("那70B呢？", "70B instead?").
6. Otherwise → fresh.

A follow-up merges only the fields the message set (:func:`merge`):

* model, params_total, params_active are replaced together (a new model drops the old one's name);
* tokens replace samples × length and vice versa;
* a new GPU keeps the GPU count (say the count again to change it) but drops a per-GPU-hour price the
  user gave for the old GPU family; a new currency drops the old price and budget;
* stage: an explicit stage word sets it; a method change (LoRA/QLoRA/full) keeps a fine-tune or
  continued-pretrain stage and otherwise makes it a fine-tune; leaving QLoRA drops its int4;
  switching between training and serving drops the other side's fields (tokens, method, deadline
  ↔ concurrency, context, quantized weights).

A reply to one of the bot's answers (``reply_to_turn``) follows up on that turn's request.

Language of the reply: the chat's settings when they fix one; else the message's language when it
has words of one (any CJK → zh; English words → en); else (only names and numbers, "H100?") the
previous turn's language, the user's Telegram language, then the parser's guess.

Settings and pre-sales prices fill the request just before estimating (the remembered request
holds only what the user said): currency, price per GPU-hour for the request's GPU family, MFU,
deadline. The user's own words win over chat settings, which win over the pre-sales file.
"""

from __future__ import annotations

import logging
import math
import re
import secrets
import string
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, Field, ValidationError

from bot.core.pipeline import (
    ESTIMATOR_ERROR,
    MAX_COMPARISONS,
    MAX_INPUT_CHARS,
    Answer,
    compare,
    is_answerable,
    on_gpu,
    safe_estimate,
    with_language_defaults,
)
from bot.parse import lexicon as lx
from bot.parse.parser import Lang, ParseResult, normalize, parse
from bot.settings.presales import PresalesConfig, resolve_gpu_family
from bot.settings.store import ChatSettings
from estimator import catalog, defaults
from estimator.models import Assumption, Method, Precision, SizingReport, SizingRequest, Stage

log = logging.getLogger(__name__)


class Turn(BaseModel):
    """One answered message. ``id`` is short (≤ 12 chars) so buttons can carry it in callback_data."""

    id: str
    answer: Answer
    request: SizingRequest = Field(
        description="merged request before the estimator's defaults: what the user said over the "
        "conversation (chat settings and pre-sales prices are not in it; see `sources`)"
    )
    followup: bool = Field(False, description="True when this re-answered a previous request with a change")
    changed: list[str] = Field(default_factory=list, description="request fields the follow-up changed")
    sources: dict[str, str] = Field(
        default_factory=dict,
        description="fields filled before estimating and from where: 'settings', 'presales', 'language'",
    )
    chat_id: int | None = None
    user_id: int | None = None


# ---------------------------------------------------------------------------------------------
# Follow-up rules

MODEL_FIELDS = frozenset({"model", "params_total", "params_active"})
CHANGE_FIELDS = frozenset(SizingRequest.model_fields) - MODEL_FIELDS
"""Fields a follow-up may change on its own ("那H100呢", "用64张", "int4呢", "数据换成2T呢")."""

_CUE_RE = re.compile(
    r"^\s*(?:那|那么|那如果|如果|要是|假如|换|改|再)"
    r"|呢\s*[?？!！。.]*\s*$"
    r"|换成|改成|换为|改为|换用|改用|换到|改到|按.{0,12}算"
    r"|^\s*(?:and\s+|but\s+|ok\s*,?\s*|okay\s*,?\s*)?(?:what|how)\s+about\b"
    r"|^\s*(?:and\s+|but\s+)?(?:with|using|on|at|for)\b"
    r"|^\s*(?:and\s+|but\s+)?what\s+if\b|\binstead\b|\b(?:switch|change)\s+(?:it\s+)?to\b"
)
"""Words that mark a follow-up on normalized (lower-case) text."""

_FRESH_RE = re.compile(
    r"多大的?模型|多少参数的模型|新问题|另一个问题|换个问题"
    r"|\bhow\s+(?:big|large)\s+(?:a\s+|of\s+a\s+)?model|\bwhat\s+size\s+(?:of\s+)?model"
    r"|\blargest\s+model|\bbiggest\s+model|\bnew\s+question\b"
)
"""Inverse questions and explicit resets: always a new question."""

_LORA_WORDS_RE = re.compile(r"\bq?lora\b|4[\s\-]?bit\s+lora", re.ASCII)


def explicit_stage(text: str) -> Stage | None:
    """A stage named by a stage word (预训练, 微调, 推理, fine-tune, serve …), not inferred from other
    values. LoRA/QLoRA words are left to the method rule, and weak hints (训, 显存, 上下文, int4) ignored."""
    s = _LORA_WORDS_RE.sub(" ", normalize(text))
    if lx.CONTINUED_RE.search(s):
        return Stage.continued_pretrain
    if lx.FINETUNE_RE.search(s):
        return Stage.finetune
    if lx.PRETRAIN_RE.search(s):
        return Stage.pretrain
    if lx.INFERENCE_RE.search(s):
        return Stage.inference
    return None


def has_followup_cue(text: str) -> bool:
    return bool(_CUE_RE.search(normalize(text)))


@dataclass(frozen=True, slots=True)
class Decision:
    followup: bool
    reason: str


def classify(prev: SizingRequest | None, parsed: ParseResult, text: str) -> Decision:
    """Follow-up of ``prev`` or a fresh question (rules in the module docstring)."""
    if prev is None:
        return Decision(False, "no previous request")
    norm = normalize(text)
    stage_word = explicit_stage(text)
    given = set(parsed.found)
    if stage_word is None:
        given.discard("stage")  # inferred by the parser from tokens, MFU, int4 …: not a change
    if parsed.out_of_scope or not given:
        return Decision(False, "nothing to change")
    if _FRESH_RE.search(norm):
        return Decision(False, "inverse or new question")
    cue = bool(_CUE_RE.search(norm))
    if given & MODEL_FIELDS:
        whole = bool(given & {"tokens", "num_samples"}) or stage_word is not None
        same_stage = stage_word is None or stage_word == prev.stage
        if whole and not (cue and same_stage):
            return Decision(False, "a whole new question")
        if cue:
            return Decision(True, "new model with a follow-up cue")
        return Decision(False, "names a model without a follow-up cue")
    return Decision(True, "changes only " + ", ".join(sorted(given)))


_TRAINING_ONLY = (
    "tokens",
    "num_samples",
    "tokens_per_sample",
    "epochs",
    "method",
    "algorithm",
    "batch_size",
    "deadline_days",
)
_SERVING_ONLY = ("concurrency", "prompt_tokens", "kv_precision")
_QUANTIZED = {
    Precision.int8,
    Precision.int4,
    Precision.q8_0,
    Precision.q5_k_m,
    Precision.q4_k_m,
    Precision.q4_0,
}
_TUNING_STAGES = (Stage.finetune, Stage.continued_pretrain)


_SIZE_IN_ID_RE = re.compile(r"(?<![\dx.])\d+(?:\.\d+)?B\b")


def sibling_model(model_id: str, params_total: float) -> str | None:
    """The catalog model of the same series with another size ("Llama-3-8B", 70e9 → "Llama-3-70B")."""
    matches = list(_SIZE_IN_ID_RE.finditer(model_id))
    if len(matches) != 1:
        return None
    m = matches[0]
    candidate = f"{model_id[: m.start()]}{params_total / 1e9:g}B{model_id[m.end() :]}"
    return candidate if candidate in catalog.models() else None


def _family(gpu_id: str | None) -> str | None:
    """The family of a catalog id, or of a derived one ('Apple-M2-Ultra-64GB': a memory configuration
    the estimator made from 'Apple-M2-Ultra-192GB')."""
    if not gpu_id:
        return None
    spec = catalog.gpus().get(gpu_id)
    if spec is None:
        stem = gpu_id.rsplit("-", 1)[0]
        spec = next((g for g in catalog.gpus().values() if g.id.rsplit("-", 1)[0] == stem), None)
    return spec.family if spec else None


def merge(
    prev: SizingRequest, new: dict[str, Any], stage: Stage | None = None
) -> tuple[SizingRequest, list[str]]:
    """``prev`` with the fields in ``new`` changed (and the fields they invalidate dropped).

    ``stage`` is an explicitly named stage (None: keep, unless the method change implies one).
    Returns the merged request and the names of the fields whose value changed.
    """
    new = {k: v for k, v in new.items() if k != "stage"}
    upd: dict[str, Any] = prev.model_dump()

    def drop(*names: str) -> None:
        for n in names:
            if n not in new:
                upd[n] = None

    if new.keys() & MODEL_FIELDS:
        for n in MODEL_FIELDS:
            upd[n] = new.get(n)
        if "model" not in new and prev.model and new.get("params_total"):
            sibling = sibling_model(prev.model, new["params_total"])  # Llama-3-8B, "70B" → Llama-3-70B
            if sibling is not None:
                spec = catalog.model(sibling)
                upd["model"] = sibling
                if spec.params_active and "params_active" not in new:
                    upd["params_active"] = spec.params_active
    if "tokens" in new:
        drop("num_samples", "tokens_per_sample")
    elif new.keys() & {"num_samples", "tokens_per_sample"}:
        drop("tokens")
    if "gpu" in new and _family(new["gpu"]) != _family(prev.gpu):
        drop("price_per_gpu_hour")  # the user's price was for the old GPU
    if "currency" in new and new["currency"] != prev.currency and prev.currency is not None:
        drop("price_per_gpu_hour", "budget")  # amounts in the old currency
    method = new.get("method", prev.method)
    if (
        "method" in new
        and prev.method == Method.qlora
        and method != Method.qlora
        and prev.precision == Precision.int4
    ):
        drop("precision")  # QLoRA's NF4 base goes with QLoRA
    for n, v in new.items():
        if n not in MODEL_FIELDS:
            upd[n] = v

    new_stage = stage or prev.stage
    if ("method" in new or "algorithm" in new) and new_stage not in _TUNING_STAGES:
        new_stage = Stage.finetune
    if prev.stage is not None and new_stage != prev.stage:
        if new_stage == Stage.inference:
            drop(*_TRAINING_ONLY)
        elif prev.stage == Stage.inference:
            drop(*_SERVING_ONLY)
            if upd.get("precision") in _QUANTIZED and method != Method.qlora:
                drop("precision")
        if new_stage == Stage.pretrain:
            drop("method", "algorithm")
    upd["stage"] = new_stage
    merged = SizingRequest.model_validate(upd)
    changed = [n for n in SizingRequest.model_fields if getattr(merged, n) != getattr(prev, n)]
    return merged, changed


# ---------------------------------------------------------------------------------------------
# Language of a message

_CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_DIGIT_TOKEN_RE = re.compile(r"[A-Za-z]*\d[\w.\-]*")
_WORD_RE = re.compile(r"[A-Za-z]{2,}")
_NEUTRAL = {
    "gpu",
    "gpus",
    "token",
    "tokens",
    "mfu",
    "tp",
    "pp",
    "dp",
    "ep",
    "zero",
    "bf",
    "fp",
    "int",
    "nf",
    "sft",
    "dpo",
    "ppo",
    "grpo",
    "rlhf",
    "lora",
    "qlora",
    "moe",
    "gguf",
    "awq",
    "gptq",
    "vllm",
    "kv",
    "vs",
    "ok",
    "okay",
    "rtx",
    "nvidia",
    "amd",
    "ascend",
    "tpu",
    "sxm",
    "pcie",
    "nvl",
    "hgx",
    "dgx",
    "usd",
    "cny",
    "rmb",
    "ctx",
    "bs",
    "qps",
    "tflops",
    "flops",
    "pf",
}


@cache
def _neutral_words() -> frozenset[str]:
    words = set(_NEUTRAL)
    for m in catalog.models().values():
        for name in (m.id, m.name, m.family, *m.aliases):
            words.update(w.lower() for w in _WORD_RE.findall(name))
    for g in catalog.gpus().values():
        for name in (g.id, g.name, g.family, *g.aliases):
            words.update(w.lower() for w in _WORD_RE.findall(name))
    words.update(lx.MODEL_FAMILIES)
    return frozenset(words)


def message_lang(text: str) -> Lang | None:
    """'zh' with any CJK, 'en' with English words, None with only names and numbers ("H100?", "70B")."""
    if _CJK_RE.search(text):
        return "zh"
    rest = _DIGIT_TOKEN_RE.sub(" ", text)
    neutral = _neutral_words()
    return "en" if any(w.lower() not in neutral for w in _WORD_RE.findall(rest)) else None


def _lang_code(code: str | None) -> Lang | None:
    if not code:
        return None
    return "zh" if code.lower().startswith("zh") else "en"


# ---------------------------------------------------------------------------------------------
# Bounded, expiring memory

K = TypeVar("K")
V = TypeVar("V")


class _TTLCache(Generic[K, V]):
    """LRU map whose entries expire after ``ttl`` seconds without access. Not thread-safe by itself."""

    def __init__(self, ttl: float, max_entries: int, clock: Callable[[], float]) -> None:
        self.ttl = ttl
        self.max_entries = max(1, int(max_entries))
        self._clock = clock
        self._d: OrderedDict[K, tuple[V, float]] = OrderedDict()

    def _purge(self, now: float) -> None:
        while self._d:
            key, (_, at) = next(iter(self._d.items()))
            if now - at <= self.ttl:
                break
            del self._d[key]

    def get(self, key: K) -> V | None:
        now = self._clock()
        item = self._d.get(key)
        if item is None:
            return None
        if now - item[1] > self.ttl:
            del self._d[key]
            return None
        self._d[key] = (item[0], now)
        self._d.move_to_end(key)
        return item[0]

    def put(self, key: K, value: V) -> None:
        now = self._clock()
        self._purge(now)
        self._d[key] = (value, now)
        self._d.move_to_end(key)
        while len(self._d) > self.max_entries:
            self._d.popitem(last=False)

    def pop(self, key: K) -> None:
        self._d.pop(key, None)

    def __contains__(self, key: object) -> bool:
        return key in self._d

    def __len__(self) -> int:
        self._purge(self._clock())
        return len(self._d)


@dataclass(slots=True)
class _Memory:
    """A user's last answered request in a chat."""

    request: SizingRequest
    lang: Lang
    turn_id: str


@dataclass(slots=True)
class _TurnRecord:
    """What is needed to rebuild a Turn (answers are recomputed: ~1 ms, and far smaller to keep)."""

    id: str
    chat_id: int
    user_id: int
    parsed: ParseResult
    request: SizingRequest
    lang: Lang
    lang_fixed: bool
    followup: bool
    changed: list[str] = field(default_factory=list)


_ID_ALPHABET = string.digits + string.ascii_letters
TURN_ID_LEN = 8  # 62**8 ≈ 2e14: random, so buttons from before a restart cannot hit a new turn


# ---------------------------------------------------------------------------------------------
# GPU alternatives for the 'switch GPU' buttons

_RELATED: dict[str, tuple[str, ...]] = {
    "A100": ("H100", "H800", "A800"),
    "A800": ("H800", "A100", "H20"),
    "H100": ("H200", "H800", "A100"),
    "H800": ("H100", "H20", "A800"),
    "H20": ("H800", "A800", "Ascend 910B"),
    "H200": ("H100", "B200", "MI300X"),
    "B200": ("H200", "GB200", "H100"),
    "GB200": ("B200", "H200", "H100"),
    "RTX 4090": ("RTX 3090", "L40S", "A100"),
    "RTX 3090": ("RTX 4090", "RTX A6000", "A100"),
    "RTX 3060": ("RTX 3090", "RTX 4090", "T4"),
    "RTX A6000": ("L40S", "RTX 4090", "A100"),
    "L40S": ("RTX 4090", "A100", "L20"),
    "L20": ("L40S", "H20", "A800"),
    "L4": ("A10", "T4", "RTX 4090"),
    "A10": ("L4", "RTX 4090", "A100"),
    "A10G": ("A10", "L4", "RTX 4090"),
    "T4": ("L4", "A10", "RTX 4090"),
    "V100": ("A100", "RTX 3090", "T4"),
    "Ascend 910B": ("A800", "H20", "H800"),
    "Ascend 910": ("Ascend 910B", "V100", "A100"),
    "MI300X": ("H200", "H100", "MI250X"),
    "MI250X": ("MI300X", "A100", "H100"),
    "M1 Ultra": ("M2 Ultra", "M3 Ultra", "M4 Max"),
    "M2 Ultra": ("M3 Ultra", "M4 Max", "RTX 4090"),
    "M3 Ultra": ("M2 Ultra", "M4 Max", "H100"),
    "M2 Max": ("M4 Max", "M2 Ultra", "RTX 4090"),
    "M3 Max": ("M4 Max", "M2 Ultra", "RTX 4090"),
    "M4 Max": ("M3 Ultra", "M2 Ultra", "RTX 4090"),
}
"""Hand-picked alternatives per family: upgrades and same-memory-class peers first."""


def _turn_gpu(turn: Turn) -> str:
    report = turn.answer.report
    return (
        (report.request.gpu if report and report.request.gpu else None)
        or turn.request.gpu
        or defaults.DEFAULT_GPU
    )


@cache  # the catalog is fixed for the life of the process
def _relevance(current: str) -> tuple[str, ...]:
    """All other families, closest first: memory class (log2 distance), then 16-bit peak."""
    cur = catalog.default_gpu_for_family(current) or catalog.gpu(defaults.DEFAULT_GPU)
    out = []
    for fam in sorted({g.family for g in catalog.gpus().values()} - {current}):
        g = catalog.default_gpu_for_family(fam)
        if g is None:
            continue
        mem = round(abs(math.log2(g.memory_gib / cur.memory_gib)))
        peak = abs(math.log(max(g.peak_flops_16bit, 1.0) / max(cur.peak_flops_16bit, 1.0)))
        out.append((mem, peak, fam))
    return tuple(fam for *_, fam in sorted(out))


def alternative_gpus(turn: Turn, n: int = 3, *, preferred: Iterable[str] = ()) -> list[str]:
    """Catalog GPU ids to offer on 'switch GPU' buttons: ``preferred`` families first (pre-sales),
    then hand-picked alternatives to the turn's GPU, then the closest by memory and speed."""
    current = _family(_turn_gpu(turn)) or "A100"
    out: list[str] = []
    for fam in (*preferred, *_RELATED.get(current, ()), *_relevance(current)):
        family = resolve_gpu_family(fam)
        spec = catalog.default_gpu_for_family(family) if family and family != current else None
        if spec is not None and spec.id not in out:
            out.append(spec.id)
        if len(out) >= n:
            break
    return out


# ---------------------------------------------------------------------------------------------
# The conversation


SOURCE_LABELS = {
    "settings": "this chat's /settings",
    "presales": "the provider's price list ({provider})",
    "language": "the conversation's language",
}


def with_source_assumptions(
    report: SizingReport, effective: SizingRequest, sources: dict[str, str], presales: Any = None
) -> SizingReport:
    """Values filled from chat settings, the pre-sales file or the language are assumptions too:
    add them to the ledger (design §3.6) so a quote never shows them as the user's own words."""
    if not sources:
        return report
    provider = getattr(presales, "provider", "") or "pre-sales"
    added = [
        Assumption(
            field=field,
            value=_ledger_value(getattr(effective, field, None)),
            source=SOURCE_LABELS.get(origin, origin).format(provider=provider),
        )
        for field, origin in sources.items()
    ]
    return report.model_copy(update={"assumptions": [*added, *report.assumptions]})


def _ledger_value(value: Any) -> float | int | str | bool | None:
    return value.value if hasattr(value, "value") else value


class Conversation:
    """Follow-up memory (bounded, expiring) and settings-aware answering.

    ttl_seconds: a user's last request expires after this much silence.
    max_entries: bound on remembered requests and on remembered turns (least recently used dropped first).
    settings_store: a :class:`bot.settings_store.SettingsStore` (settings looked up by chat id, which is
        the user id in private chats), or None.
    presales: a :class:`bot.presales.PresalesConfig`, or None.
    clock: seconds, monotonic (``time.monotonic`` by default; inject a fake in tests).
    turn_ttl_seconds: how long turns stay usable for buttons and replies (default: ``ttl_seconds``).
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
    ) -> None:
        self.ttl_seconds = ttl_seconds
        self.max_entries = max_entries
        self.settings_store = settings_store
        self.presales = presales
        self._clock = clock or time.monotonic
        self._lock = threading.Lock()
        self._memory: _TTLCache[tuple[int, int], _Memory] = _TTLCache(ttl_seconds, max_entries, self._clock)
        self._turns: _TTLCache[str, _TurnRecord] = _TTLCache(
            ttl_seconds if turn_ttl_seconds is None else turn_ttl_seconds, max_entries, self._clock
        )

    # -- public API

    def ask(
        self,
        chat_id: int,
        user_id: int,
        text: str,
        *,
        user_lang: str | None = None,
        reply_to_turn: str | None = None,
    ) -> Turn:
        """Answer ``text`` in context: a follow-up of the user's last request (or of ``reply_to_turn``,
        when the message replies to one of the bot's answers), or a fresh question."""
        text = text if isinstance(text, str) else ""
        parsed = parse(text[:MAX_INPUT_CHARS])
        if len(text) > MAX_INPUT_CHARS and not parsed.truncated:
            parsed = parsed.model_copy(update={"truncated": True})
        with self._lock:
            base: _Memory | None = None
            if reply_to_turn:
                rec = self._turns.get(reply_to_turn)
                if rec is not None:
                    base = _Memory(rec.request, rec.lang, rec.id)
            if base is None:
                base = self._memory.get((chat_id, user_id))
        decision = classify(base.request if base else None, parsed, text)
        changed: list[str] = []
        if decision.followup and base is not None:
            new = {f: getattr(parsed.request, f) for f in parsed.found if f != "stage"}
            request, changed = merge(base.request, new, explicit_stage(text))
        else:
            request = parsed.request
        settings = self._settings(chat_id)
        # the chat's settings override this when the answer is built (see _build)
        lang = message_lang(text) or (base.lang if base else None) or _lang_code(user_lang) or parsed.lang
        rec = _TurnRecord(
            id="",
            chat_id=chat_id,
            user_id=user_id,
            parsed=parsed,
            request=request,
            lang=lang,
            lang_fixed=False,
            followup=decision.followup,
            changed=changed,
        )
        turn = self._build(rec, settings)
        self._remember(rec, turn)
        return turn

    def variant(
        self, turn_id: str, *, lang: Lang | None = None, by_user: int | None = None, **change: Any
    ) -> Turn | None:
        """Re-answer a remembered turn with fields changed (e.g. gpu="H100-SXM5-80GB", method="qlora",
        lang="en"), for buttons. None when the turn has expired. ``gpu`` may be a catalog id or a family
        ("H100"). ``by_user``: who pressed — the follow-up memory updated is theirs, not the asker's
        (in a group anyone may press). Raises ValueError for an unknown field or value."""
        with self._lock:
            rec = self._turns.get(turn_id)
        if rec is None:
            return None
        new = self._clean_change(change)
        stage = new.pop("stage", None)
        if new.get("method") == Method.qlora and "precision" not in new:
            new["precision"] = Precision.int4  # as the parser does for "QLoRA"
        request, changed = merge(rec.request, new, stage) if (new or stage) else (rec.request, [])
        if lang is not None and lang != rec.lang:
            changed.append("lang")
        out = _TurnRecord(
            id="",
            chat_id=rec.chat_id,
            user_id=rec.user_id if by_user is None else by_user,
            parsed=rec.parsed,
            request=request,
            lang=lang or rec.lang,
            lang_fixed=lang is not None or rec.lang_fixed,
            followup=True,
            changed=changed,
        )
        turn = self._build(out, self._settings(rec.chat_id))
        self._remember(out, turn)
        return turn

    def turn(self, turn_id: str) -> Turn | None:
        """A remembered turn, or None when expired (its answer recomputed with the current settings)."""
        with self._lock:
            rec = self._turns.get(turn_id)
        return None if rec is None else self._build(rec, self._settings(rec.chat_id))

    def alternative_gpus(self, turn: Turn | str, n: int = 3) -> list[str]:
        """GPU ids for 'switch GPU' buttons: the pre-sales preferred (else offered) GPUs first."""
        t = self.turn(turn) if isinstance(turn, str) else turn
        if t is None:
            return []
        p = self.presales
        preferred = (p.preferred or [g.family for g in p.gpu]) if p else []
        return alternative_gpus(t, n, preferred=preferred)

    def forget(self, chat_id: int, user_id: int) -> None:
        """Drop a user's follow-up memory in a chat (e.g. on /start)."""
        with self._lock:
            self._memory.pop((chat_id, user_id))

    def last_turn_id(self, chat_id: int, user_id: int) -> str | None:
        """The id of the turn a follow-up from this user would continue, if any."""
        with self._lock:
            mem = self._memory.get((chat_id, user_id))
        return mem.turn_id if mem else None

    # -- internals

    def _settings(self, chat_id: int) -> ChatSettings:
        if self.settings_store is None:
            return ChatSettings()
        try:
            return self.settings_store.get(chat_id)
        except Exception:  # a broken store must not stop answers
            log.exception("settings lookup failed for chat %s", chat_id)
            return ChatSettings()

    def effective_request(
        self, request: SizingRequest, lang: Lang, settings: ChatSettings | None = None
    ) -> tuple[SizingRequest, dict[str, str]]:
        """The request the estimator gets: the user's words, then chat settings, then pre-sales, then the
        language's currency. Returns it and {field: 'settings' | 'presales' | 'language'}."""
        s = settings or ChatSettings()
        p = self.presales
        upd: dict[str, Any] = {}
        sources: dict[str, str] = {}
        currency = request.currency
        if currency is None:
            if s.currency is not None:
                currency, sources["currency"] = s.currency, "settings"
            elif p is not None:
                currency, sources["currency"] = p.currency, "presales"
            else:
                currency, sources["currency"] = with_language_defaults(request, lang).currency, "language"
            upd["currency"] = currency
        if request.price_per_gpu_hour is None:
            family = _family(request.gpu or defaults.DEFAULT_GPU)
            if family is not None:
                price = s.price_for(family, currency)
                if price is not None:
                    upd["price_per_gpu_hour"], sources["price_per_gpu_hour"] = price, "settings"
                elif p is not None and (price := p.price(family, currency)) is not None:
                    upd["price_per_gpu_hour"], sources["price_per_gpu_hour"] = price, "presales"
        if request.mfu is None and s.mfu is not None:
            upd["mfu"], sources["mfu"] = s.mfu, "settings"
        if request.deadline_days is None and s.deadline_days is not None:
            upd["deadline_days"], sources["deadline_days"] = s.deadline_days, "settings"
        return request.model_copy(update=upd), sources

    def _build(self, rec: _TurnRecord, settings: ChatSettings) -> Turn:
        lang: Lang = rec.lang if rec.lang_fixed else (settings.lang or rec.lang)
        parsed = rec.parsed.model_copy(update={"request": rec.request})
        sources: dict[str, str] = {}
        report = None
        comparisons: list[SizingReport] = []
        if is_answerable(rec.request) and (rec.followup or not parsed.out_of_scope):
            effective, sources = self.effective_request(rec.request, lang, settings)
            report = safe_estimate(effective)
            if report is None:
                parsed = parsed.model_copy(update={"notes": [*parsed.notes, ESTIMATOR_ERROR]})
            else:
                report = with_source_assumptions(report, effective, sources, self.presales)
                comparisons = compare(
                    [
                        self.effective_request(on_gpu(rec.request, gpu), lang, settings)[0]
                        for gpu in parsed.gpu_alternatives[:MAX_COMPARISONS]
                    ]
                )
        return Turn(
            id=rec.id or "-",
            answer=Answer(parsed=parsed, report=report, lang=lang, comparisons=comparisons),
            request=rec.request,
            followup=rec.followup,
            changed=rec.changed,
            sources=sources,
            chat_id=rec.chat_id,
            user_id=rec.user_id,
        )

    def _new_id(self) -> str:
        while True:
            tid = "".join(secrets.choice(_ID_ALPHABET) for _ in range(TURN_ID_LEN))
            if tid not in self._turns:
                return tid

    def _remember(self, rec: _TurnRecord, turn: Turn) -> None:
        with self._lock:
            rec.id = self._new_id()
            turn.id = rec.id
            self._turns.put(rec.id, rec)
            if turn.answer.understood:
                self._memory.put((rec.chat_id, rec.user_id), _Memory(rec.request, rec.lang, rec.id))

    @staticmethod
    def _clean_change(change: dict[str, Any]) -> dict[str, Any]:
        unknown = set(change) - set(SizingRequest.model_fields)
        if unknown:
            raise ValueError(f"unknown request field(s): {', '.join(sorted(unknown))}")
        out = dict(change)
        gpu = out.get("gpu")
        if gpu is not None and gpu not in catalog.gpus():
            family = resolve_gpu_family(str(gpu))
            spec = catalog.default_gpu_for_family(family) if family else None
            if spec is None:
                raise ValueError(f"unknown GPU {gpu!r}")
            out["gpu"] = spec.id
        try:
            checked = SizingRequest.model_validate(out)
        except ValidationError as e:
            raise ValueError(str(e)) from None
        return {k: getattr(checked, k) for k in out}
