"""Text → typed SizingRequest (Chinese and English): the steps in order, and the assembly.

The parse runs in fixed steps on one normalized string (docs/design.md §4):

1. normalize (:mod:`bot.parse.normalize`);
2. names: models (:mod:`bot.parse.models`), precisions and parallelism settings (``TP=8``), GPUs
   (:mod:`bot.parse.gpus`), each masked in the text so its digits are not read as numbers, while
   "8卡H20" / "64x H100" still see where the GPU was;
3. numbers (:mod:`bot.parse.numbers`), each given a role (:mod:`bot.parse.roles`). Bare sizes
   ("70B", "2T") fill params first, then tokens. "模型有130亿token，数据是2万亿参数" (words on both
   sides disagree) is a unit swap: the smaller number is the model;
4. stage, method, algorithm from keywords (:mod:`bot.parse.words`); everything assembled into a
   SizingRequest field by field, dropping values a field would reject (non-positive, NaN,
   absurd). Never raises.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from bot.parse import lexicon as lx
from bot.parse.gpus import GpuMention, extract_gpus, extract_unknown_gpu, unified
from bot.parse.lang import detect_lang
from bot.parse.models import ModelMention, extract_models
from bot.parse.normalize import mask, prepare
from bot.parse.numbers import NumberToken, scan_numbers
from bot.parse.regex import rc
from bot.parse.result import ParseResult
from bot.parse.roles import L_ON, Role, classify, seq_value
from bot.parse.settings import extract_settings
from bot.parse.words import (
    ARTICLE_GPU_RE,
    ASKS_CONCURRENCY_RE,
    ASKS_COST_RE,
    ASKS_DURATION_RE,
    ASKS_LARGEST_RE,
    ASKS_SPEED_RE,
    ASKS_TTFT_RE,
    BARE_CONTEXT_LEFT_RE,
    BARE_CONTEXT_RIGHT_RE,
    CNY_WORD_RE,
    DUAL_CARD_RE,
    MEM_CARD_RE,
    OFFLOAD_RE,
    PARALLEL_RE,
    PREFERENCE_DATA_RE,
    RENT_RE,
    SINGLE_CARD_RE,
    UNIT_AFTER_RE,
    USD_WORD_RE,
    method_from_words,
    serving_a_tuned_model,
    stage_from_words,
    within_a_period_days,
)
from bot.settings.chat import (
    CONCURRENCY_BOUNDS,
    DEADLINE_DAYS_BOUNDS,
    GPU_COUNT_BOUNDS,
    MFU_BOUNDS,
    PRICE_BOUNDS,
    within,
)
from estimator import catalog
from estimator.models import SizingRequest

ABSURD_NUMBER = 1e18
"""No model, dataset, cluster or budget in this domain is larger (the biggest token counts are ~1e14)."""

_CAPS: dict[str, float] = {
    "params_total": 1e16,
    "params_active": 1e16,
    "tokens": 1e18,
    "epochs": 1e4,
    "num_samples": 1e12,
    "tokens_per_sample": 1e7,
    "gpu_count": 1e7,
    "deadline_days": 36500,
    "budget": 1e13,
    "price_per_gpu_hour": 1e5,
    "seq_len": 1e8,
    "batch_size": 1e6,
    "concurrency": 1e9,
    "mfu": 1.0,
    "global_batch": 1e7,
}
_INT_FIELDS = {"gpu_count", "seq_len", "batch_size", "concurrency", "global_batch"}

_ROLE_BOUNDS = {
    "mfu": MFU_BOUNDS,
    "days": DEADLINE_DAYS_BOUNDS,
    "price": PRICE_BOUNDS,
    "count": GPU_COUNT_BOUNDS,
    "concurrency": CONCURRENCY_BOUNDS,
}
"""Roles whose values must lie in the bounds every input path shares (bot.settings.chat)."""

_MAG = r"(?:\s?(?:bn|mn|billion|trillion|million|[kmbt])(?![a-z]))?"
NON_FINITE_RE = rc(
    r"(?<![a-z0-9_.,])(?P<digits>\d+(?:\.\d+)?e\+?\d{3,})"
    + _MAG
    + r"|∞"
    + _MAG
    + r"|(?<![a-z])(?P<word>nan|inf(?:inity)?)(?:\s?[kmbt](?![a-z])|(?=\s*(?:tokens?|params?|parameters?|"
    r"gpus?|cards?|days?|hours?|%|天|张|卡|个|亿|万)))"
)
"""Numbers no float holds: an exponent past 1.8e308 ('1e309B', '10^400' after normalizing), '∞',
and 'NaN' / 'inf' where a number goes ('NaN B', 'inf tokens')."""


def _clean(name: str, value: Any) -> Any:
    """The value if the SizingRequest field would accept it and it is not absurd, else None."""
    if name not in _CAPS:
        return value
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    if not math.isfinite(v) or v <= 0 or v > _CAPS[name]:
        return None
    if name in _INT_FIELDS:
        iv = round(v)
        return iv if iv >= 1 else None
    return v


def _build_request(fields: dict[str, Any]) -> tuple[SizingRequest, list[str]]:
    clean = {k: _clean(k, v) for k, v in fields.items() if v is not None}
    clean = {k: v for k, v in clean.items() if v is not None}
    try:
        return SizingRequest(**clean), sorted(clean)
    except ValidationError:
        ok: dict[str, Any] = {}
        for k, v in clean.items():
            try:
                SizingRequest(**{k: v})
            except ValidationError:
                continue
            ok[k] = v
        return SizingRequest(**ok), sorted(ok)


def parse(text: str) -> ParseResult:
    """Parse one message. Never raises: on any internal error the result is simply empty."""
    raw = text if isinstance(text, str) else ""
    try:
        return _Parse(raw).run()
    except Exception:
        return ParseResult(request=SizingRequest(), lang=detect_lang(raw), notes=["parse_error"])


@dataclass
class _Parse:
    """One parse in progress: the text as it is masked step by step, and what each step found."""

    raw: str
    s: str = ""
    f: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    roles: list[Role] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    nonpositive: list[str] = field(default_factory=list)
    unusable: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    used: set[int] = field(default_factory=set)

    def first(self, name: str) -> Role | None:
        role = next((r for r in self.roles if r.role == name), None)
        if role is not None:
            self.used.add(id(role))
        return role

    def unused(self) -> list[tuple[str, str]]:
        """Numbers the answer does not use, as typed, with why: no word said what they are
        ('unread'), or a second value for a field that takes one ('repeated')."""
        out = [(raw, "unread") for raw in self.unread]
        used_roles = {r.role for r in self.roles if id(r) in self.used}
        for r in self.roles:
            if id(r) not in self.used:
                out.append((r.tok.raw.strip(), "repeated" if r.role in used_roles else "unread"))
        return out

    def value(self, name: str) -> float | None:
        role = self.first(name)
        return role.value if role else None

    def run(self) -> ParseResult:
        self.s, truncated = prepare(self.raw)
        s0 = self.s
        dual = bool(DUAL_CARD_RE.search(s0))  # before GPU names are masked: "双4090"
        algorithm = next((name for name, pat in lx.ALGORITHM_RES if pat.search(s0)), None)
        preference = algorithm in ("dpo", "ppo", "grpo")
        stage = stage_from_words(s0)
        if stage == "finetune" and serving_a_tuned_model(s0):  # "serve a QLoRA-tuned Llama-3-8B"
            stage = "inference"
        if algorithm is not None and stage in (None, "pretrain", "inference"):
            stage = "finetune"
        stated = extract_settings(self.s, training=stage not in (None, "inference"))
        self.s = stated.s
        self.notes += stated.notes
        methods = stated.methods
        if len(methods) == 1 and methods[0] in ("freeze", "ptuning"):
            stage = "finetune"
        method = methods[0] if len(methods) > 1 or methods[:1] in (["freeze"], ["ptuning"]) else None
        method = method or method_from_words(s0, stage, preference)
        if stage == "inference" and len(methods) < 2:  # a tuned model served: its method is not a job
            method = None
        if len(methods) > 1:
            stage = "finetune" if stage in (None, "inference", "pretrain") else stage
        self.f = {"stage": stage, "method": method, "algorithm": algorithm, **stated.fields}
        if len(methods) > 1:
            self.f["methods"] = methods

        models, precision = self._names()
        precision = stated.fields.get("precision") or precision
        gpus = self._gpus()
        self._numbers()
        model_mention, unknown = self._model_and_params(models)
        data_bytes = self._data_and_context(stage)
        gpu_memory, count_max = self._gpu_fields(gpus, dual)
        self._money_and_serving(stage)
        if precision is None and method == "qlora":
            precision = "int4"
        self.f["precision"] = precision
        self.f["gpu_count_max"] = count_max
        # "8块24G显存的卡": size the job on a card of that memory; "M2 Ultra 64GB": that configuration
        if not gpus or (gpu_memory and unified(gpus[0].gpu_id)):
            self.f["gpu_memory_gib"] = gpu_memory
        if OFFLOAD_RE.search(self.s):
            self.f["offload"] = True

        unknown_gpu = _as_typed(self.raw, self._unknown_gpu) if not gpus and self._unknown_gpu else None
        if unknown_gpu:  # named as typed: the estimator keeps the name (and the memory, when given)
            self.f["gpu"] = unknown_gpu
        per_node = next((r for r in self.roles if r.role == "per_node"), None)
        if per_node is not None and per_node.value == 8:  # "8卡机器": the 8-GPU nodes every plan assumes
            self.first("per_node")
        f = self.f
        if (
            f.get("deadline_days")
            and not f.get("hours")
            and (ASKS_COST_RE.search(self.s) or RENT_RE.search(self.s))
            and not any(f.get(k) for k in ("tokens", "num_samples", "budget"))
            and not ((f.get("model") or f.get("params_total")) and f.get("stage") != "inference")
        ):  # "8张H100跑一周多少钱", "rent 8 H100 for 7 days, cost?": a rental period, not a deadline; with a
            # model to train ("租8张H100一周能训多少token，7B模型") the period stays the job's deadline
            f["hours"], f["deadline_days"] = f["deadline_days"] * 24, None
            self.notes.append("period_as_rental")
        sized = ("model", "params_total", "tokens", "num_samples", "budget", "hours", "deadline_days")
        sized += ("concurrency",)
        nothing_else = not any(f.get(k) for k in sized) and f.get("stage") in (None, "pretrain")
        if gpus and ASKS_COST_RE.search(self.s) and nothing_else:
            f["hours"] = 1.0  # "H100一小时多少钱", "H100 price per GPU-hour": one GPU-hour's price
            self.notes.append("price_lookup")
        hours_role = self.first("gpu_hours")
        if hours_role is not None and self.f.get("hours") is None:  # "1万卡时" = GPU-hours on the count
            self.f["hours"] = hours_role.value / (self.f.get("gpu_count") or 1)
        if ASKS_DURATION_RE.search(self.s) and not any(f.get(k) for k in ("tokens", "num_samples", "hours")):
            f["duration_asked"] = True  # "7B用8张H100训多久" with no data size (pre-training: 20·N assumed)
        if ASKS_CONCURRENCY_RE.search(self.s) and not f.get("concurrency"):  # "最多支持多少并发"
            f["concurrency_asked"] = True
        request, found = _build_request(self.f)
        unknown_model = unknown if unknown is not None and model_mention is None else None
        return ParseResult(
            request=request,
            lang=detect_lang(self.raw),
            found=found,
            gpu_alternatives=_alternatives(gpus),
            unknown_gpu=unknown_gpu,
            gpu_suggestions=self._gpu_suggestions if not gpus else [],
            unknown_model=_as_typed(self.raw, unknown_model.text) if unknown_model else None,
            model_typed=_as_typed(self.raw, model_mention.text) if model_mention else None,
            model_substitution=model_mention.substitution if model_mention else None,
            model_suggestions=unknown_model.suggestions if unknown_model else [],
            truncated=truncated,
            out_of_scope=bool(lx.OUT_OF_SCOPE_RE.search(s0)),
            preference=preference,
            asks_cost=bool(ASKS_COST_RE.search(self.s)),
            asks_concurrency=bool(request.concurrency_asked),
            asks_largest=bool(ASKS_LARGEST_RE.search(s0)),
            asks_ttft=bool(ASKS_TTFT_RE.search(s0)),
            asks_speed=bool(ASKS_SPEED_RE.search(s0)),
            gpu_memory_gib=gpu_memory,
            gpu_count_max=count_max,
            data_bytes=data_bytes,
            recipe_tools=recipe_tools(s0),
            notes=self.notes,
            ignored_numbers=self.ignored,
            nonpositive_numbers=self.nonpositive,
            unusable_numbers=self.unusable,
            unused_numbers=self.unused(),
        )

    # -- step 2: names, masked so their digits are not read as numbers

    def _names(self) -> tuple[list[ModelMention], str | None]:
        self.s, models = extract_models(self.s)
        precision: str | None = None
        for m in lx.PRECISION_RE.finditer(self.s):
            p = m.group("p").replace(" ", "").replace("-", "")
            precision = precision or lx.PRECISION_MAP.get(p, {"4bit": "int4", "8bit": "int8"}.get(p))
            self.s = mask(self.s, m.start(), m.end(), " ")
        for m in PARALLEL_RE.finditer(self.s):
            self.s = mask(self.s, m.start(), m.end(), " ")
        for m in lx.GLOBAL_BATCH_RE.finditer(self.s):  # before numbers: not a micro-batch
            self.f["global_batch"] = int(m.group("n").replace(",", "")) * (1000 if m.group("k") else 1)
            self.s = mask(self.s, m.start(), m.end(), " ")
        return models, precision

    def _gpus(self) -> list[GpuMention]:
        self.s, gpus = extract_gpus(self.s)
        self.s, self._unknown_gpu, self._gpu_suggestions = extract_unknown_gpu(self.s)
        return gpus

    # -- step 3: numbers and their roles

    def _numbers(self) -> None:
        """Roles for every number. Absurd magnitudes (1e40 tokens, 10^30 params) are set aside and
        reported, so they neither become a field nor steal a neighbour's role; zero or negative
        quantities ("0 GPUs", "-8张A100") likewise, and so are values outside the shared bounds ("MFU
        1e-20", "in 0.0000001 days") or not finite numbers at all ("NaN B", "∞B", "1e309B")."""
        for m in NON_FINITE_RE.finditer(self.s):
            if m["digits"] and math.isfinite(float(m["digits"])):
                continue  # a large but finite exponent: the absurd-magnitude rule below decides
            self.unusable.append(" ".join(m.group().split()))
            self._drop(m.start(), m.end())
        for tok in scan_numbers(self.s):
            if not (math.isfinite(tok.value) and abs(tok.value) <= ABSURD_NUMBER):
                self.ignored.append(tok.raw.strip())
                self._drop(tok.start, tok.end)
        toks = scan_numbers(self.s)
        consumed: set[int] = set()
        for i, tok in enumerate(toks):
            if tok.start in consumed:
                continue
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            role = classify(tok, self.s, nxt)
            if role is None and self._bare_context(tok):
                role = Role("seq", seq_value(tok), tok)
            if role is None:
                if not _article(tok) and not FORMULA_AFTER_RE.match(self.s, tok.end):
                    self.unread.append(tok.raw.strip())
                continue
            if role.role == "count_nodes" and role.extra:
                consumed.add(int(role.extra))
                role.role = "count"
                role.extra = None
            elif role.extra and role.extra.startswith("range:") and nxt is not None:
                consumed.add(nxt.start)
            self.roles.append(role)
        unusable = [r for r in self.roles if r.value <= 0]  # every quantity here is positive
        self.nonpositive = [r.tok.raw.strip() for r in unusable]
        outside = [
            r
            for r in self.roles
            if r.value > 0 and r.role in _ROLE_BOUNDS and not within(_ROLE_BOUNDS[r.role], r.value)
        ]
        self.unusable += [r.tok.raw.strip() for r in outside]
        self.roles = [r for r in self.roles if r not in unusable and r not in outside]

    def _drop(self, start: int, end: int) -> None:
        """Mask an ignored number with its unit word, so "1e40 tokens 7B" keeps 7B a model size."""
        unit = UNIT_AFTER_RE.match(self.s, end)
        self.s = mask(self.s, start, unit.end() if unit else end, " ")

    # -- step 4: fields

    def _model_and_params(
        self, models: list[ModelMention]
    ) -> tuple[ModelMention | None, ModelMention | None]:
        """Model, total and active parameters, and tokens (a bare '70B' / '2T' fills what is left)."""
        f = self.f
        model_mention = next((mm for mm in models if mm.model_id), None)
        unknown = next((mm for mm in models if mm.model_id is None), None)
        params: float | None = None
        active: float | None = None
        params_from_model = False
        if model_mention is not None and model_mention.model_id:
            spec = catalog.model(model_mention.model_id)
            f["model"] = spec.id
            if model_mention.size:
                params, active = model_mention.size, model_mention.active
                if active is None and spec.params_active and abs(spec.params_total - params) / params < 0.1:
                    active = spec.params_active
            else:
                params, active = spec.params_total, spec.params_active
            params_from_model = True
        elif unknown is not None:
            params, active = unknown.size, unknown.active
            params_from_model = params is not None

        explicit_params, explicit_tokens = self.first("params"), self.first("tokens")
        total_role = self.first("total")
        if total_role is not None:
            params = total_role.value
        if self.first("active") is not None:
            active = self.value("active")
        tokens = explicit_tokens.value if explicit_tokens else None
        if not params_from_model and total_role is None and explicit_params is not None:
            params = explicit_params.value
            swap = explicit_params.conflict or (explicit_tokens is not None and explicit_tokens.conflict)
            if swap and tokens is not None and params > tokens:
                params, tokens = tokens, params
                self.notes.append("unit_swap")
        for bare in (r for r in self.roles if r.role == "bare"):
            self.used.add(id(bare))
            is_t = bare.extra == "T" or bare.value >= 1e12
            if is_t and tokens is None and (params is not None or bare.value >= 1e12):
                tokens = bare.value
            elif not is_t and params is None:
                params = bare.value
            elif tokens is None and L_ON.search(self.s[max(0, bare.tok.start - 12) : bare.tok.start]):
                tokens = bare.value
        f["params_total"] = params
        if active is not None and params is not None and active < params:
            f["params_active"] = active
        f["tokens"] = tokens
        self._explicit_tokens = explicit_tokens is not None
        return model_mention, unknown

    def _bare_context(self, tok: NumberToken) -> bool:
        """'llama 3.1 70b fp8 at 8k' in a serving question: a bare thousands count after 'at', '@' or
        'with' is the context (a serving question has no other use for it)."""
        return (
            self.f.get("stage") == "inference"
            and tok.mag == "k"
            and 1_000 <= tok.value <= 10_000_000
            and bool(BARE_CONTEXT_LEFT_RE.search(self.s[max(0, tok.start - 8) : tok.start]))
            # nothing after it names another quantity ("at 2k requests per day", "@ 10k daily users")
            and bool(BARE_CONTEXT_RIGHT_RE.match(self.s, tok.end))
        )

    def _data_and_context(self, stage: str | None) -> float | None:
        """Training data (samples × tokens per sample, epochs) and the sequence or serving context.
        Returns the data size in bytes when given as text ("20GB 纯文本")."""
        f = self.f
        samples, tps = self.first("samples"), self.first("tps")
        f["num_samples"] = samples.value if samples else None
        f["tokens_per_sample"] = tps.value if tps else None
        pairs = samples is not None and samples.extra == "pairs"
        if pairs:  # "20k preference pairs": the estimator counts a DPO pair's two sequences, and says so
            f["samples_are_pairs"] = True
            f["algorithm"] = f.get("algorithm") or ("dpo" if PREFERENCE_DATA_RE.search(self.s) else None)
            f["stage"] = f.get("stage") or "finetune"
        if tps is not None and tps.extra == "chars":
            # Chinese characters ≈ tokens for Qwen/GLM-style tokenizers (≈1–1.5 chars per token);
            # the count stays per-sample only, total tokens are left to the dialogue to confirm.
            self.notes.append("chars_as_tokens")
        by_tokens = tps is not None and tps.extra == "tokens"
        if f["tokens"] is None and samples is not None and by_tokens and not pairs:
            f["tokens"] = samples.value * tps.value
        f["epochs"] = self.value("epochs")
        # Serving context: "prompts ~2k tokens and replies ~500" → 2,500 tokens per sequence.
        seq, prompt, reply = self.first("seq"), self.first("prompt"), self.first("reply")
        if seq is not None:
            f["seq_len"] = seq.value
        elif prompt is not None and (stage == "inference" or reply is not None):
            f["seq_len"] = prompt.value + (reply.value if reply else 0)
        if stage == "inference" and f["tokens"] is not None and self._explicit_tokens:
            f["tokens"] = None  # serving has no training tokens
        if f["stage"] is None and f["tokens"] is not None:
            f["stage"] = "pretrain"  # training tokens without a stage word: pre-training (docs/design.md §4)
        return self.value("data_bytes")

    def _gpu_fields(self, gpus: list[GpuMention], dual: bool) -> tuple[float | None, int | None]:
        """GPU, count (or a range, or a total memory), and the memory per card when stated."""
        f = self.f
        if gpus:
            f["gpu"] = gpus[0].gpu_id
        stated_memory = self.value("gpu_mem")  # read either way: the mention's memory is the same number
        gpu_memory = next((g.memory_gib for g in gpus if g.memory_gib), None) or stated_memory
        count, total_mem = self.first("count"), self.first("total_mem")
        if total_mem is not None and count is None:
            f["total_memory_gib"] = total_mem.value
        count_max: int | None = None
        if count is not None:
            f["gpu_count"] = count.value
            if count.extra and count.extra.startswith("range:"):
                count_max = round(float(count.extra.split(":", 1)[1]))
                self.notes.append("gpu_count_range_min")
            elif count.extra == "nodes×8":
                self.notes.append("nodes_assumed_8_gpus")
        elif SINGLE_CARD_RE.search(self.s) or ARTICLE_GPU_RE.search(self.s) or MEM_CARD_RE.search(self.s):
            f["gpu_count"] = 1
        elif dual:
            f["gpu_count"] = 2
        elif gpus and unified(gpus[0].gpu_id):
            f["gpu_count"] = 1  # "M2 Ultra 能跑 70B 吗": one Mac is one device
        return gpu_memory, count_max

    def _money_and_serving(self, stage: str | None) -> None:
        """Deadline, budget, price and currency, MFU, micro-batch and concurrency."""
        f = self.f
        # "48小时内": the settings step; "within a month": one unit with no numeral
        f["deadline_days"] = self.value("days") or f.get("deadline_days") or within_a_period_days(self.s)
        budget, price = self.first("budget"), self.first("price")
        f["budget"] = budget.value if budget else None
        f["price_per_gpu_hour"] = price.value if price else None
        currency = (budget.extra if budget else None) or (price.extra if price else None)
        if currency is None:
            cny, usd = CNY_WORD_RE.search(self.s), USD_WORD_RE.search(self.s)
            if cny and (not usd or cny.start() < usd.start()):
                currency = "CNY"
            elif usd:
                currency = "USD"
        f["currency"] = currency
        f["mfu"] = self.value("mfu")
        f["batch_size"] = self.value("batch")
        f["concurrency"] = self.value("concurrency")
        if f["concurrency"] is None and stage == "inference" and f["batch_size"] is not None:
            f["concurrency"] = f["batch_size"]  # serving: max batch = concurrent sequences


FORMULA_AFTER_RE = re.compile(r"[a-z]")
"""A number glued to letters that are no unit ('6ND', '2N', 'A100' already masked): part of a formula
or a name, not a quantity left unused."""


def _as_typed(raw: str, name: str) -> str:
    """A name found in the normalized text, as the user typed it ('MTT S4000', not 'mtt s4000')."""
    pattern = r"[\s\-_]*".join(re.escape(part) for part in re.split(r"[\s\-_]+", name) if part)
    m = re.search(pattern, raw, re.IGNORECASE) if pattern else None
    return m.group(0).strip() if m else name


def _article(tok: NumberToken) -> bool:
    """'一' / '零' / 'one' / 'a single' without a unit: an article or a phrase ('从零', '一跑就', 'one
    instance'), not a quantity the user wants used."""
    lone = tok.kind == "cn" and tok.mag is None and tok.raw.strip() in ("一", "零", "两")
    return tok.kind == "word" or lone


def recipe_tools(s: str) -> list[str] | None:
    """The launch recipes a normalized text asks for: the tools named next to a recipe word, [] for a
    recipe word alone, None when it asks for none (:data:`bot.parse.lexicon.RECIPE_TOOL_RES`)."""
    tools = [tool for tool, pattern in lx.RECIPE_TOOL_RES if pattern.search(s)]
    if tools and lx.RECIPE_WORD_RE.search(s):
        return tools
    return [] if lx.RECIPE_ALONE_RE.search(s) else None


def _alternatives(gpus: list[GpuMention]) -> list[str]:
    """The other GPUs named ("A100 vs H100"), each once."""
    out: list[str] = []
    for g in gpus[1:]:
        if g.gpu_id != gpus[0].gpu_id and g.gpu_id not in out:
            out.append(g.gpu_id)
    return out
