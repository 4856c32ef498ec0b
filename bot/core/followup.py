"""Follow-up or fresh question (:func:`classify`), and how a follow-up changes the previous
request (:func:`merge`). Rules, in this order:

1. No previous request (none, expired, or only unanswerable messages so far) → fresh.
2. It sets nothing but asks for launch recipes ("给我DeepSpeed配置", "vllm 启动命令") → follow-up: the
   previous answer again, with its recipes.
3. The message is out of scope, sets nothing, or asks an inverse "how big a model" question
   ("预算100万能训多大的模型", "how large a model …") or says "new question" → fresh.
4. It sets a model or parameter count (``model``/``params_total``/``params_active``) AND tokens,
   samples or an explicit stage word (预训练/微调/推理/serve/fine-tune …) → fresh: a whole new
   question — unless it also carries a follow-up cue and keeps the previous stage
   ("那70B推理呢" after a serving question is a follow-up).
5. It sets only "change" fields (everything but the model: gpu, gpu_count, deadline_days, method,
   precision, mfu, price_per_gpu_hour, currency, seq_len, concurrency, tokens, budget, stage …) →
   follow-up.
6. It sets a model/size and carries a follow-up cue (那…呢, …呢, 换成, 改成, 如果…, what about,
   how about, instead, what if, "with …", switch to) → follow-up ("那70B呢？", "70B instead?").
7. Otherwise → fresh.

A follow-up merges only the fields the message set (:func:`merge`):

* model, params_total, params_active and architecture (a config.json's) are replaced together (a new
  model drops the old one's name and config; a follow-up without one keeps the config's architecture);
* tokens replace samples × length and vice versa;
* a new GPU keeps the GPU count (say the count again to change it) but drops a per-GPU-hour price the
  user gave for the old GPU family; a new currency drops the old price and budget;
* stage: an explicit stage word sets it; a method change (LoRA/QLoRA/full) keeps a fine-tune or
  continued-pretrain stage and otherwise makes it a fine-tune; leaving QLoRA drops its int4;
  switching the stage (training ↔ serving, pre-training → fine-tuning, also by a method change)
  keeps the model, the GPU type and its price, and resets the old job's settings (data size, GPU
  count, sequence length or context, load, deadline, budget, layout, measured speed; quantized
  serving weights), unless the message says them again; the reply says what was kept and what not;
* a method change drops the settings of the old method (LoRA rank and targets, freeze layers,
  prefix length) and a method comparison; a new measured throughput or MFU replaces the others.

A reply to one of the bot's answers (``reply_to_turn``) follows up on that turn's request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.parse import ParseResult, normalize
from bot.parse.words import explicit_stage as stage_word
from estimator import catalog
from estimator.models import METHOD_FIELDS, Method, Precision, SizingRequest, Stage
from estimator.runtime_scope import left_behind

MODEL_FIELDS = frozenset(
    {"model", "params_total", "params_active", "architecture", "release", "release_context"}
)  # s47: its window
CHANGE_FIELDS = frozenset(SizingRequest.model_fields) - MODEL_FIELDS
"""Fields a follow-up may change on its own ("那H100呢", "用64张", "int4呢", "数据换成2T呢")."""


def explicit_stage(text: str) -> Stage | None:
    """A stage named by a stage word (预训练, 微调, 推理, fine-tune, serve …), not inferred from other
    values. LoRA/QLoRA words are left to the method rule, and weak hints (训, 显存, 上下文, int4) ignored.
    A parsed message carries it (``ParseResult.stage_word``): this is for a text not parsed."""
    stage = stage_word(normalize(text))
    return Stage(stage) if stage else None


@dataclass(frozen=True, slots=True)
class Decision:
    followup: bool
    reason: str


def classify(prev: SizingRequest | None, parsed: ParseResult, text: str = "") -> Decision:
    """Follow-up of ``prev`` or a fresh question (rules in the module docstring), from the parse alone
    (its cues, :mod:`bot.parse.cues`); ``text`` is not read (kept for callers)."""
    if prev is None:
        return Decision(False, "no previous request")
    stage_word = parsed.stage_word
    given = set(parsed.found)
    if stage_word is None:
        given.discard("stage")  # inferred by the parser from tokens, MFU, int4 …: not a change
    if not given and parsed.recipe_tools is not None and not parsed.out_of_scope:
        return Decision(True, "asks for the previous answer's launch recipes")
    from bot.core.followup_cost import asks_previous

    if not given and asks_previous(parsed, prev):  # "what's the monthly bill?", 'only 8 hours a day' (s18)
        return Decision(True, "asks the previous answer's cost or daily schedule")
    if not given and parsed.bare_length and not parsed.out_of_scope:  # '那32k呢', 'at 128K?' (s24 #2)
        return Decision(True, "a length alone: the previous question's context")
    if not given and prev.requests_per_hour and prev.model and _rate_of_encoder(parsed, prev.model):
        return Decision(True, "a request rate alone: the encoder served before's QPS")  # s38 embfix
    if parsed.out_of_scope or not given:
        return Decision(False, "nothing to change")
    if parsed.reset_cue:
        return Decision(False, "inverse or new question")
    cue = parsed.followup_cue
    if given & MODEL_FIELDS:
        whole = bool(given & {"tokens", "num_samples"}) or stage_word is not None
        same_stage = stage_word is None or stage_word == prev.stage
        if whole and not cue:
            return Decision(False, "a whole new question")
        if cue and not same_stage:  # "那QLoRA微调70B呢？" after a serving answer on H100: a new job
            return Decision(True, "new model and stage with a follow-up cue")
        if cue:
            return Decision(True, "new model with a follow-up cue")
        return Decision(False, "names a model without a follow-up cue")
    return Decision(True, "changes only " + ", ".join(sorted(given)))


def _rate_of_encoder(parsed: ParseResult, model: str) -> bool:
    """'如果每秒 500 个请求呢' after an encoder served ('bge-m3 部署 200 QPS'): a request rate alone, its QPS
    (bot.core.embedding_serve reads it); asked only once the previous request holds a model and a rate."""
    if not any(why == "qps_needs_output" for _, why in parsed.unused_numbers):
        return False
    from estimator.encoders import find

    return find(model) is not None


KEPT_ON_STAGE_SWITCH = MODEL_FIELDS | {
    "stage", "method", "algorithm", "precision", "gpu", "gpu_memory_gib", "currency", "price_per_gpu_hour",
    "count_asked",
}  # fmt: skip
"""What a stage switch ("🚀 Serve it", "🎯 微调", "what about LoRA?" on a pre-training answer) keeps:
the model, the GPU type and its price, and whether the count is the question ('what about on 4090s?'
then 'and serve it for 50 users': how many 4090s, not one personal card; trial s21 #14). Everything
else belongs to the old stage's job (its data size, GPU count, sequence length, load, deadline, budget,
parallel layout, measured speed) and is sized afresh for the new stage unless the message says it
again; the reply names both (:func:`stage_switch`)."""
SHOWN_KEPT = ("model", "params_total", "gpu", "price_per_gpu_hour")
"""Kept values a stage-switch reply names (the model by name, else by size)."""
_METHOD_SETTINGS = METHOD_FIELDS  # declared on each SizingRequest field (estimator.request)
"""Settings that go with some methods only: leaving the method drops them."""
_MEASURED = ("achieved_tflops_per_gpu", "tokens_per_second_per_gpu", "mfu")
"""One way to say how fast training runs: a new one replaces the others."""
_QUANTIZED = {
    Precision.int8,
    Precision.int4,
    Precision.q8_0,
    Precision.q5_k_m,
    Precision.q4_k_m,
    Precision.q4_0,
    Precision.q6_k,
    Precision.q3_k_l,
    Precision.q3_k_m,
    Precision.q3_k_s,
    Precision.q2_k,
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


OWN_LENGTH_OFF = frozenset(
    {"max_model_len", "seq_len", "prompt_tokens", "max_completion_length", "tokens_per_request", "gpu_count"}
)
"""A follow-up's length or GPU count: vLLM is no longer taken at the model's own length (the reading of the
message before, bot.parse.field_steps.vllm_default_length), the user's length or layout is sized."""


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
        drop("num_samples", "tokens_per_sample", "samples_are_pairs")
    elif new.keys() & {"num_samples", "tokens_per_sample"}:
        drop("tokens")
    if "gpu" in new and new["gpu"] != prev.gpu:
        drop("rig_bandwidth_gbps")  # a rig's bandwidth was its cards' (review s20 #1): the new card's own
        if "gpu_count" not in new and _count_sized(prev, new["gpu"]):  # s37 fixb #2: the count, sized
            upd["count_asked"] = True  # again on the new card, never one personal card no one stated
    if "runtime" in new and new["runtime"] != prev.runtime:
        drop(*left_behind(prev, new["runtime"]))  # '-ctk q8_0', '-ngl 20' are llama.cpp's, not vLLM's (s21)
    if "gpu" in new and catalog.family_of(new["gpu"]) != catalog.family_of(prev.gpu):
        drop("price_per_gpu_hour")  # the user's price was for the old GPU
        if "gpu_memory_gib" not in new:
            drop("gpu_memory_gib")  # "2张4090 48G" → "那H100呢": an H100's own memory, not 48G
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
    if "method" in new:
        drop("methods")  # one method chosen from a comparison
        for name, methods in _METHOD_SETTINGS.items():
            if method not in methods:
                drop(name)
    if new.keys() & set(_MEASURED):
        drop(*_MEASURED)
    if new.keys() & OWN_LENGTH_OFF:  # s45: vLLM's own length was read of the message before, not this one
        drop("max_model_len_default")
    for n, v in new.items():
        if n not in MODEL_FIELDS:
            upd[n] = v

    new_stage = stage or prev.stage
    if ("method" in new or "algorithm" in new) and new_stage not in _TUNING_STAGES:
        new_stage = Stage.finetune
    if prev.stage is not None and new_stage != prev.stage:
        drop(*(set(SizingRequest.model_fields) - KEPT_ON_STAGE_SWITCH))  # a new job: sized afresh
        if prev.stage == Stage.inference and upd.get("precision") in _QUANTIZED and method != Method.qlora:
            drop("precision")
        if new_stage in (Stage.pretrain, Stage.inference):
            drop("method", "algorithm")
    upd["stage"] = new_stage
    merged = SizingRequest.model_validate(upd)
    changed = [n for n in SizingRequest.model_fields if getattr(merged, n) != getattr(prev, n)]
    return merged, changed


def _count_sized(prev: SizingRequest, gpu: str | None) -> bool:
    """Whether the earlier answer sized the GPU count (none stated, on no personal card: a personal card
    named alone is the one card the user owns, estimator.resolve.personal_count) and the new ``gpu`` is a
    personal card, which the count-asked flag keeps from being read as that one card."""
    if prev.gpu_count is not None or prev.gpu_count_max is not None or gpu is None:
        return False
    cards = catalog.gpus()
    new, old = cards.get(gpu), cards.get(prev.gpu) if prev.gpu else None
    return new is not None and new.personal and (old is None or not old.personal)


def stage_switch(prev: SizingRequest | None, merged: SizingRequest) -> tuple[dict[str, Any], dict[str, Any]]:
    """When a follow-up or a button switched the stage: (kept, reset) — the previous request's values
    the new answer keeps (model, GPU, price) and those it did not carry over (the old stage's job);
    ({}, {}) when the stage stayed."""
    if prev is None or prev.stage is None or merged.stage == prev.stage:
        return {}, {}
    kept = {n: getattr(prev, n) for n in SHOWN_KEPT if getattr(prev, n) is not None}
    kept = {n: v for n, v in kept.items() if getattr(merged, n) == v}
    if "model" in kept:
        kept.pop("params_total", None)
    reset = {
        n: getattr(prev, n)
        for n in SizingRequest.model_fields
        if n not in KEPT_ON_STAGE_SWITCH and getattr(prev, n) is not None and getattr(merged, n) is None
        and n not in ("concurrency_asked", "duration_asked", "count_asked")
    }  # fmt: skip
    return kept, reset


def with_count_asked(parsed: ParseResult, new: dict[str, Any]) -> dict[str, Any]:
    """The follow-up's fields ``new`` when it asks the count ('how many do I need?', '要几张卡？') and
    states none: ``count_asked``, and no GPU count (the previous one is not kept: the count is sized
    afresh for the job as changed). A card in the plural ('what about A100s?') asks nothing: unchanged.
    Reads the parse's ``count_cue`` (core reads no text after the parse: tests/test_core_one_pass)."""
    if new.get("gpu_count") or not parsed.count_cue:
        return new
    return {**new, "count_asked": True, "gpu_count": None, "gpu_count_max": None}


def followup_fields(parsed: ParseResult, prev: SizingRequest) -> tuple[ParseResult, dict[str, Any]]:
    """The follow-up's parse with a machine count read by the earlier turn's machines
    (:func:`bot.core.followup_machines.machines_followup`), and the fields it changes
    (:func:`with_count_asked`): a length alone is the context (:func:`bot.core.context_followup.as_context`),
    and the previous 'how many concurrent' is dropped when it asks something else."""
    from bot.core.followup_cost import with_previous_schedule
    from bot.core.followup_machines import machines_followup

    parsed = with_previous_schedule(machines_followup(parsed, prev), prev)  # 'only 8 hours a day' (s18)
    from bot.core.context_followup import as_context

    parsed, new = as_context(
        parsed, prev, {f: getattr(parsed.request, f) for f in parsed.found if f != "stage"}
    )
    from bot.core.context_followup import without_old_question

    return parsed, with_count_asked(parsed, without_old_question(parsed, prev, new))


def lost_followup(parsed: ParseResult, text: str = "") -> bool:
    """The message reads as a follow-up ("那H100呢", "what about LoRA?", "换成QLoRA"): a follow-up cue and
    something to change, but nothing to size on its own (no model, data, budget). With no previous
    request it changes a question the chat no longer has. From the parse alone; ``text`` is not read."""
    req = parsed.request
    sized = (
        req.model,
        req.params_total,
        req.architecture,
        req.tokens,
        req.num_samples,
        req.budget,
        req.hours,
        parsed.unknown_model,  # "用 Bloom 做 LoRA 微调": a model named (without a size) is a new question
        parsed.ignored_numbers or None,  # a size stated, rejected ('1000T 参数', '1e30 token'; s41 #16)
    )
    given = set(parsed.found) - {"stage"} or ({"stage"} if parsed.stage_word else set())
    given |= {"seq_len"} if parsed.bare_length else set()  # '那32k呢' with nothing before it
    cue = parsed.followup_cue or parsed.change_cue
    if given:  # all(v is None for v in sized) as a loop: no generator frame a value (s40-speed)
        for v in sized:
            if v is not None:
                return False
    return bool(given) and cue
