"""Step 2b: the settings a practitioner states in words, read before numbers get roles.

ZeRO stage and FSDP sharding, LoRA rank and targets, pure bf16, activation recompute, measured throughput
(TFLOPS or tokens/s per GPU), a known duration, vLLM's memory share, the serving runtime, several fine-tuning
methods, freeze-tuning and P-tuning v2. Each match is masked so its digits are not read again ("ZeRO-3" is not
3 GPUs). Every field is kept as typed; the estimator decides what it changes (docs/design.md §8).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.later_names import card_hours, offered_ram, other_stage_rate, past_run_duration, rollout_share
from bot.later_names import rate_why as rate_not_target
from bot.parse import fixed_patterns as fp
from bot.parse import recompute_words as rw
from bot.parse.attention_impl import attention_setting, resolve_flash_off
from bot.parse.cluster_rate import CLUSTER_RATE, second_first_rate
from bot.parse.colocate_words import COLOCATE_RE, colocate_setting
from bot.parse.engine_keys import engine_on, engines_turned_off, keyed_engine
from bot.parse.gpu_layers import flash_switch, stated_host_memory
from bot.parse.method_words import FREEZE_LAYERS_RE, METHOD_WORDS, PREFIX_RE, RUNTIMES
from bot.parse.normalize import mask
from bot.parse.numbers import parse_number
from bot.parse.prose_forms import (
    engine_settings,
    host_memory,
    hyperparameters,
    kl_coefficient,
    lora_alpha,
    rollout_parallel,
    serving_targets,
)
from bot.parse.prose_vocab import read_vocabulary
from bot.parse.rate_forms import serving_rates
from bot.parse.regex import rc
from bot.parse.settings_patterns import (
    ALL_LINEAR_RE,
    COMMENTED_RE,
    DEADLINE_AFTER,
    DEADLINE_BEFORE,
    FSDP_RE,
    FSDP_STAGES,
    GPU_HOUR_AFTER,
    HOURS_RE,
    MEASURED_WORDS,
    NO_QUANT_RE,
    OPTIMIZER_RE,
    PER_GPU_BEFORE,
    PP_RE,
    PURE_BF16_RE,
    QUANT_BIT_RE,
    RANK_RE,
    RESHARD_RE,
    TARGET_RE,
    TFLOPS_RE,
    TP_RE,
    UTIL_RE,
    ZERO_RE,
)
from bot.parse.settings_scan import other_degrees, reader, run_readers
from bot.parse.side_phrases import side_phrases
from bot.parse.structure import other_run_at
from bot.parse.throughput_words import (
    ASKED_RE,
    LATER_WANTED_RE,
    PER_CARD_SECOND_RE,
    asked_yes_no,
    per_card_rate,
    rate_asked,
    tokens_per_minute,
    tokens_per_second_first,
)
from bot.parse.time_forms import spend_rate
from bot.parse.tool_keys import negated_keys
from bot.parse.tps_forms import TPS_RE, per_gpu
from bot.parse.tried_settings import bare_stage, settings_text
from bot.parse.unknown_tools import unknown_tools
from bot.parse.written_settings import read_written_settings


@dataclass
class Settings:
    """What :func:`extract_settings` found: request fields, and the text with the matches masked."""

    s: str
    fields: dict[str, Any] = field(default_factory=dict)
    methods: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unused: list[tuple[str, str]] = field(default_factory=list)
    accumulation: int | None = None
    tool_cue: str | None = None
    read: list[float] = field(default_factory=list)
    """Numbers a reader read into no number field ('-ngl 99': no offload): never left behind as unread."""


def _masked(s: str, m: re.Match[str]) -> str:
    return mask(s, m.start(), m.end(), " ")


BOUND_WORDS = ("超过", "大于", "高于", "above", "over ", "more than", "greater than")
"""The bound words of :mod:`bot.parse.failed_bound`, tested here without a regex or an import."""


def extract_settings(s: str, training: bool, raw: str = "") -> Settings:
    """The practitioner settings named in the normalized text ``s`` (``training``: tokens/s are a training
    throughput, 'transformers' no serving runtime; ``raw``: as typed, for :mod:`bot.parse.unknown_tools`)."""
    context = s  # the whole message: makes 'flash attention off' eager? (attention_impl.resolve_flash_off)
    s, negated = negated_keys(s)  # 'without gradient_checkpointing', '没开 --adam_offload': off (tool_keys)
    s, off, named = settings_text(s, training)  # 'no deepspeed': ZeRO-0; 'tried bs 8, now 2': 2
    vocab = read_vocabulary(s, training)
    out = Settings(
        vocab.s, {**off, **negated, **vocab.fields}, notes=vocab.notes, unused=named + vocab.unused
    )
    out.unused += unknown_tools(raw, s, training)  # s15: named beside a known tool ('EasyR1' running verl)
    out.accumulation, out.read = vocab.accumulation, vocab.read
    t = out.s  # attention_impl.CUES, spelled out: no generator frame on the common path (speed pins)
    if training and ("flash" in t or "eager" in t or "attn_impl" in t or "sdp_attention" in t):  # s42 eager
        out.s, attention, named = attention_setting(out.s)
        out.fields.update(attention)
        out.unused += named
    if out.fields.get("attention_implementation") == "flash_off":  # words: eager only where eager runs
        resolve_flash_off(out.fields, out.unused, context)
    if "flash" in s or "-fa" in s or ("fa" in s and ("开" in s or "启" in s)):  # '-fa', '开了 FA' (s33)
        flash_switch(out, training)
    out.tool_cue = vocab.tool_cue
    _zero(out)
    out.s, rollout = rollout_parallel(out.s, training) if training else (out.s, [])  # rollout engine's TP
    if rollout and rollout[0] > 0:  # the rollout engine's TP, checked to hold the model (estimator.rollout)
        out.fields["rollout_tp"] = rollout[0]
    out.unused += [(f"rollout_tensor_parallel_size: {n}", "repeated") for n in rollout[1:] if n != rollout[0]]
    out.s, alpha = lora_alpha(out.s) if "alpha" in out.s else (out.s, [])  # 'lora_alpha 32': named
    out.unused += alpha
    out.s, hyper = hyperparameters(out.s)  # '学习率 2e-5', 'temperature 1.0': named, not unread
    out.unused += kl_coefficient(hyper, out.fields) if hyper else hyper  # GRPO beta 0.04: the KL coef
    out.s, targets = (out.s, []) if training else serving_targets(out.s, training)  # 'TTFT under 500 ms'
    out.unused += targets
    if "图" in out.s or "image" in out.s or "分辨率" in out.s or "resolution" in out.s:
        from bot.parse.image_data import read_images  # s40 fixt #1/#2: per sample; s44: per served request

        out.s = read_images(out.s, out.fields, training)
    out.s = offered_ram(out.s) if "够" in out.s or "enough" in out.s else out.s  # '内存多大？80G 够吗' (s44)
    out.s, host = host_memory(out.s)  # '机器内存 1T': the CPU side's memory, never tokens nor a card's
    offload = training and OFFLOAD_WORD_RE.search(out.s) is not None  # compared with what offload needs (s16)
    out.unused += host if training and not offload else stated_host_memory(out.fields, host)  # its RAM
    out.s, rate = spend_rate(out.s)  # '$300 per 24 hours': a spending rate, no budget nor price
    out.unused += rate
    out.s, side = side_phrases(out.s, training, raw)  # '95 s/it', '4 parallel slots' … (trial s12)
    out.unused += side
    if any(map(out.s.__contains__, BOUND_WORDS)):  # s45: '--gpu-memory-utilization 超过 0.82 就崩'
        from bot.parse.failed_bound import failed_bounds  # on first use: a failing bound observed

        out.s, failed = failed_bounds(out.s)
        out.unused += failed
    out.s, caps, engine = engine_settings(out.s, training)  # '--max-num-seqs 256' in prose
    out.fields.update(caps)
    out.unused += engine
    if (
        training and "每秒" in out.s and (c := PER_CARD_SECOND_RE.search(out.s))
    ):  # s42: '每张卡每秒 3000 token'
        out.s = per_card_rate(out.s, c)  # as '3000 tok/s 每卡', which _throughput reads per GPU
    elif training and "每秒" in out.s:  # s42 zhleft #2: '8 张 A100，每秒 3000 token': the cluster's rate
        out.s = second_first_rate(out.s)  # as '3000 tok/s', which _throughput reads as the cluster's
    run_readers(out, training)  # _parallel, _lora … _methods: those whose key words the text has
    read_written_settings(out, training)
    return out


@reader()
def _parallel(out: Settings) -> None:
    """A stated TP / PP degree (kept by the plan search; a serving layout uses it as given)."""
    for name, pattern in (("tp", TP_RE), ("pp", PP_RE)):
        m = pattern.search(out.s)
        if m:
            out.fields[name] = int(m.group("n") or m.group("m"))
            out.s, others = other_degrees(out.s, pattern, name, out.fields[name])  # 'TP4 … TP1': two layouts
            out.unused += others


def _zero(out: Settings) -> None:
    m = ZERO_RE.search(out.s) or bare_stage(out.s)  # round 23 zh: 'stage3' in a DeepSpeed message
    if m:
        out.fields["zero_stage"] = int(next(g for g in m.groups() if g))
        out.s = _masked(out.s, m)
        _other_zero_stages(out, m.end())
        return
    m = FSDP_RE.search(out.s)
    if m:
        mode = (m.group("mode") or m.group("bare") or "full").lstrip()
        key = next((k for k in ("hybrid", "full", "shard", "no") if mode.startswith(k)), "full")
        reshard = RESHARD_RE.search(out.s)
        if reshard:  # FSDP2's reshard_after_forward sets the stage (bot.parse.inline_keys); another named
            stated = m.group("mode") or m.group("bare")
            if stated and FSDP_STAGES[key] != (3 if reshard.group("v") == "true" else 2):
                out.unused.append((f"fsdp: {' '.join(stated.split())}", "sharding_conflict"))
                out.s = _masked(out.s, m)
            return
        out.fields["zero_stage"] = FSDP_STAGES[key]
        out.s = _masked(out.s, m)


ZERO_ALSO_RE = rc(
    r"^\s*(?:/|or|and|和|或|或者|还是)\s*(?:(?:zero|stage)[\s\-_]?)?(?P<n>[0-3])(?![0-9a-z.])"
    r"(?=\s*(?:$|[,.;:!?)）]|都|也|均|全|试|没|不|还|爆|oom|both|each|all|tried|were|are|fail|with|用|开"
    r"|(?:on|for|in|at)\s))"
)
"""A second stage right after the first ('zero 2/3', 'ZeRO-2 or 3', 'zero2 和 3', 'stage2 和 stage3';
round 36: before a place or a purpose, 'ZeRO stage 2 or 3 on 8 A100')."""


OFFLOAD_WORD_RE = rc(r"offload|卸载")
"""CPU offload in a training question: the host RAM stated is then compared with what it needs."""

ONLINE_RL_RE = rc(r"(?<![a-z])(?:grpo|ppo|rloo|dapo|gspo|rlhf|rollout)(?![a-z])")
"""Colocate mode in online RL: the rollouts generated by vLLM on the training GPUs (TRL GRPOConfig
``vllm_mode="colocate"``; ms-swift ``--vllm_mode colocate``; verl's hybrid engine, whose default
``rollout.name`` is vllm): vLLM named, as when written."""


def _other_zero_stages(out: Settings, end: int) -> None:
    """Each other ZeRO stage of the message ('OOMs at zero2 and zero3', 'zero 2/3'): the first is sized,
    the others named as another setup (never dropped silently)."""
    sized, named = out.fields["zero_stage"], []
    also = ZERO_ALSO_RE.match(out.s[end:])
    if also:
        named.append(int(also.group("n")))
        out.s = mask(out.s, end, end + also.end(), " ")
    for m in list(ZERO_RE.finditer(out.s)):
        named.append(int(next(g for g in m.group("n", "m", "d", "e", "f") if g)))
        out.s = _masked(out.s, m)
    for stage in dict.fromkeys(named):
        if stage != sized:
            out.unused.append((f"zero_stage: {stage}", "other_setup"))


@reader()
def _lora(out: Settings) -> None:
    m = RANK_RE.search(out.s)
    if m:
        out.fields["lora_rank"] = int(m.group("r") or m.group("r2") or m.group("r3") or m.group("r4"))
        out.s = _masked(out.s, m)
    found = TARGET_RE.findall(out.s)  # its one group, each name; embed_tokens, lm_head: beside a projection
    targets = list(dict.fromkeys(found)) if set(found) - {"embed_tokens", "lm_head"} else []
    if targets:
        out.fields["lora_targets"] = targets
        out.s = TARGET_RE.sub(lambda m: " " * len(m.group(0)), out.s)
    m = ALL_LINEAR_RE.search(out.s)
    if m:
        out.fields["lora_targets"] = ["all-linear"]
        out.s = _masked(out.s, m)
    m = FREEZE_LAYERS_RE.search(out.s)
    if m:
        out.fields["freeze_layers"] = int(m.group("n") or m.group("m"))
        out.s = _masked(out.s, m)
    m = PREFIX_RE.search(out.s)
    if m:
        out.fields["prefix_tokens"] = int(m.group("n"))
        out.s = _masked(out.s, m)


@reader(COMMENTED_RE, NO_QUANT_RE)
def _precision_words(out: Settings) -> None:
    """'pure bf16', an 8-bit optimizer, the QLoRA bit widths others skip (2, 3; quantization_bit)."""
    m = OPTIMIZER_RE.search(out.s)
    if m:
        out.fields["optimizer"] = "paged_adamw_8bit" if m.group("paged") else "adamw_8bit"
        out.s = _masked(out.s, m)
    m = PURE_BF16_RE.search(out.s)
    if m:
        out.fields["pure_bf16"] = True
        out.s = _masked(out.s, m)
    m = QUANT_BIT_RE.search(out.s)
    near = out.s[max(0, m.start() - 40) : m.end() + 40] if m else ""
    if m and (COMMENTED_RE.search(near) or NO_QUANT_RE.search(out.s)):
        out.notes.append("quantization_off")
        out.s = _masked(out.s, m)
    elif m:
        bits = int(m.group("b") or m.group("c") or m.group("q"))  # r27: ChatGLM's model.quantize(4)
        out.fields["precision"] = {8: "int8", 4: "int4", 3: "int3", 2: "int2"}[bits]
        out.s = _masked(out.s, m)


@reader()
def _recompute(out: Settings) -> None:
    for pattern, mode in (
        (rw.NO_FULL_RECOMPUTE_RE, "selective"),
        (rw.NO_RECOMPUTE_RE, "none"),
        (rw.SELECTIVE_RE, "selective"),
        (rw.FULL_RECOMPUTE_RE, "full"),
    ):
        m = pattern.search(out.s)
        if m:
            if mode == "full" and rw.ZH_NEGATION_BEFORE_RE.search(out.s[max(0, m.start() - 6) : m.start()]):
                mode = "none"  # '不需要开重计算': the word after a negation (session 12 review 2)
            out.fields["recompute"] = mode
            out.s = _masked(out.s, m)
            return


def _rate(text: str) -> float | None:
    value = parse_number(text.replace(" ", ""))
    return value if value and value > 0 else None


def _this_sentence(near: str) -> str:
    """The end of ``near`` after its last sentence end: a measuring word said before it is of another
    sentence ('实测 900 tokens/s。要 5000 tokens/s')."""
    return near[max(near.rfind(c) for c in "。！？!?;；\n") + 1 :].rsplit(". ", 1)[-1]


@reader(MEASURED_WORDS, PER_GPU_BEFORE, ASKED_RE, training=True, always_unless_training=True)
def _throughput(out: Settings, training: bool) -> None:
    """'we get 20 TFLOPS per GPU', '实测每卡 150 TFLOPS', '3,000 tokens/s per GPU'. A TFLOPS figure
    without 'per GPU' or a measuring verb is a datasheet number, not the user's throughput."""
    m = TFLOPS_RE.search(out.s)
    if m:
        near = out.s[max(0, m.start() - 40) : m.start()]
        if m.group("per") or MEASURED_WORDS.search(near) or PER_GPU_BEFORE.search(near):
            value = _rate(m.group("v"))
            if value is not None:
                out.fields["achieved_tflops_per_gpu"] = value
                out.s = _masked(out.s, m)
    m, seen = TPS_RE.search(out.s), 0
    while seen < 3:  # a rate named as no target: the next one may be ('get 900 tok/s. How many for 5000?')
        if m is None or not (why := rate_not_target(out.s, m)) or per_gpu(m) or training:
            break
        _not_target(out, m, why, _rate(m.group("v")))
        out.s, seen = _masked(out.s, m), seen + (why == "observed")  # a speed measured, not a user's
        m = TPS_RE.search(out.s)
    if m:
        near = out.s[max(0, m.start() - 24) : m.start()]
        value = _rate(m.group("v"))
        if value is not None and training and other_stage_rate(out.s, m):  # an SFT rate, RL asked (s12 A10)
            out.unused.append((m.group(0).strip(), "other_setup"))
            out.s = _masked(out.s, m)
        elif value is not None and (per_gpu(m) or PER_GPU_BEFORE.search(near)):
            out.fields["tokens_per_second_per_gpu"] = value
            out.s = _masked(out.s, m)
            while (m := TPS_RE.search(out.s)) and per_gpu(m):  # a second run's rate (r15 zh: 6000, then 6325)
                out.unused.append((m.group(0).strip(), "observed"))
                out.s = _masked(out.s, m)
        elif value is not None and training and not ASKED_RE.search(_this_sentence(near)):  # the cluster's
            out.unused.append((m.group(0).strip(), CLUSTER_RATE))  # per GPU once its count is known (s42)
            out.notes.append(CLUSTER_RATE)
            out.s = _masked(out.s, m)
        elif value is not None and training:  # a rate asked for: no setting of the estimate
            out.notes.append("throughput_not_per_gpu")
        elif value is not None and (why := rate_not_target(out.s, m)):  # 'each user 20 tok/s', 'got 9 tok/s'
            _not_target(out, m, why, value)
            out.s = _masked(out.s, m)
        elif value is not None:  # the target asked for (r29: how to), or a speed reported (s34 review)
            _asked_or_seen(out, m, value, near, seen)
    if not training:
        _serving_targets(out)


def _asked_or_seen(out: Settings, m: re.Match[str], value: float, near: str, seen: int) -> None:
    """The serving rate ``m`` (``value`` tokens/s, ``near``: the words before it) as the target asked for,
    or a speed reported (:func:`bot.parse.throughput_words.rate_asked`). After a speed reported (``seen``:
    how many rates before it were named as no target), the next rate is the target when words ask for it
    (:data:`bot.parse.throughput_words.LATER_WANTED_RE`), else observed too (s43 issue 24: '能到 2000
    tok/s，要 10000 tok/s 需要几张' left the 10000 unread; '… and 2,400 tok/s with fp8' was the target)."""
    for i in range(seen, seen + 3):
        said = _this_sentence(near)
        if i and not (LATER_WANTED_RE.search(said) or ASKED_RE.search(said)):  # '… and 2,400 tok/s with fp8'
            out.unused.append((m.group(0).strip(), "observed"))
        else:
            asked = asked_yes_no(out.s, m.start(), m.end())  # r35: 'Can one 3060 reach 100 tokens/s?'
            rate_asked(out.fields, out.unused, m.group(0).strip(), value, said, asked)
        out.s = _masked(out.s, m)
        if "target_tokens_per_s" in out.fields or (m := TPS_RE.search(out.s)) is None or per_gpu(m):
            return
        if (got := _rate(m.group("v"))) is None or rate_not_target(out.s, m):
            return
        value, near = got, out.s[max(0, m.start() - 24) : m.start()]


def _not_target(out: Settings, m: re.Match[str], why: str, value: float | None) -> None:
    """A tokens/s rate ``m`` that is no serving target (``why``): the first speed per user
    ('per_user_speed': '30 tokens/s per user') is ``tokens_per_s_per_sequence`` (s41 review #2); a measured
    one, or a second per-user one, is named as not used."""
    if why == "per_user_speed" and value and "tokens_per_s_per_sequence" not in out.fields:
        out.fields["tokens_per_s_per_sequence"] = value
    else:
        out.unused.append((m.group(0).strip(), why))


def _serving_targets(out: Settings) -> None:
    """'1M tokens per minute', '每秒5000 token' → a tokens/s target (a rate per user is named instead);
    'qps 20' named: it needs the output per request."""
    per_second = tokens_per_second_first(out.s)
    if per_second is not None:
        m = per_second[1]
        if why := rate_not_target(out.s, m):  # '每个用户每秒 20 token', '单卡每秒 35 个 token' (measured)
            _not_target(out, m, why, per_second[0])
        else:
            out.fields.setdefault("target_tokens_per_s", per_second[0])
        out.s = _masked(out.s, m)
    per_minute = tokens_per_minute(out.s)
    if per_minute is not None:
        out.fields.setdefault("target_tokens_per_s", per_minute[0])
        out.s = _masked(out.s, per_minute[1])
    out.s = serving_rates(out.s, out.unused)  # 'qps 20' (the peak's, today's named: trial s18 #1)


@reader(GPU_HOUR_AFTER, DEADLINE_BEFORE, DEADLINE_AFTER, inline_after=True)
def _hours(out: Settings) -> None:
    """'6 hours on one H100', '跑了36小时' → a known duration; '48小时内' → a deadline (in days)."""
    for m in HOURS_RE.finditer(out.s):
        if GPU_HOUR_AFTER.match(out.s[m.end() :]) or re.search(r"(?:gpu|卡)[\s\-·]*$", out.s[: m.start()]):
            continue  # "GPU-hours", "卡时": the number rules read those
        value = parse_number(m.group("v"))
        if not value or value <= 0 or card_hours(out.s, m.start(), m.group("v")):  # s46 N6: '4090 hours'
            continue
        before, after = out.s[max(0, m.start() - 12) : m.start()], out.s[m.end() : m.end() + 14]
        why = "observed" if past_run_duration(out.s, m) else other_run_at(out.s, m.start())
        if why:  # '跑了 30 个小时 … 要多久' (s12 A2), 'colleague did it on 1 A100 in 5 hours' (s12 B7)
            out.unused.append((m.group("v").strip(), why))
        elif DEADLINE_BEFORE.search(before) or DEADLINE_AFTER.match(after):
            out.fields["deadline_days"] = value / 24
        else:
            out.fields["hours"] = value
        out.s = _masked(out.s, m)
        return


@reader(ONLINE_RL_RE, training=True)
def _serving(out: Settings, training: bool) -> None:
    whole, m = out.s, UTIL_RE.search(out.s)
    if training and COLOCATE_RE.search(whole) and ONLINE_RL_RE.search(whole):
        fields, named = colocate_setting(whole)  # TRL's: vLLM's share of each card; verl's: named (s16)
        out.fields.update(fields)
        out.unused += named
    if m:
        raw = m.group("v").replace(" ", "")
        value = float(raw.rstrip("%")) / 100 if raw.endswith("%") else float(raw)
        rollout = training and rollout_share(whole, m.start())  # s15: any share in an online RL job
        if 0 < value <= 1:
            out.fields["rollout_gpu_memory_utilization" if rollout else "gpu_memory_utilization"] = value
        else:  # 'gpu_memory_utilization 1.5': named with its bounds, never silently the default
            out.unused.append((f"gpu_memory_utilization: {raw}", "utilization_bounds"))
        out.s = _masked(out.s, m)
    off = engines_turned_off(out.s)  # 'use_vllm false', 'vllm 关掉', '--use_lmdeploy false' (s13)
    for w in [w for _, w in off] if training else []:  # named as written, then masked
        out.unused, out.s = [*out.unused, (w, "rollout_as_vllm")], out.s.replace(w, " " * len(w))
    for pattern, runtime in RUNTIMES:  # in a training question: named as a serving setting, not used
        if training and runtime == "transformers":
            continue  # the transformers Trainer is no serving runtime
        if engine_on(pattern, runtime, out.s, off) if off else pattern.search(out.s):  # s38: no frame
            out.fields["runtime"] = runtime  # an engine turned off is not it (engine_on)
            return
    if training and m and (engine := keyed_engine(whole, m.start())):
        out.fields["runtime"] = engine  # round 7: 'vllm_gpu_memory_utilization=0.5' names vLLM
    elif training and COLOCATE_RE.search(out.s) and ONLINE_RL_RE.search(out.s):
        out.fields["runtime"] = "vLLM"  # the rollout engine colocate mode names


@reader(inline_after=True)
def _methods(out: Settings) -> None:
    """Every fine-tuning method named, in the order written; two or more are a comparison."""
    found: list[tuple[int, str]] = []
    for pattern, method in METHOD_WORDS:
        m = pattern.search(out.s)
        if m and not fp.NEGATION_BEFORE.search(out.s[max(0, m.start() - 12) : m.start()]):
            found.append((m.start(), method))
    out.methods = [method for _, method in sorted(found)]


LORA_VARIANT_RE = rc(
    r"(?<![a-z0-9])(?:-{0,2}use[_\-](?P<flag>dora|rslora)(?:\s*[=:]?\s*(?:true|1))?"
    r"|(?P<w>dora|adalora|rslora|lora\+|pissa|loha|lokr))(?![a-z0-9])"
)
"""LoRA variants (peft ``use_dora`` / ``use_rslora``, ``AdaLoraConfig``, ``LoHaConfig``, ``LoKrConfig``,
LoRA+ and PiSSA change the learning rate or the init): low-rank adapters on a frozen base,
sized as LoRA and named (``lora_variant``). DoRA adds a magnitude vector per adapted matrix (Liu et al. 2024,
arXiv:2402.09353) and keeps more activations; AdaLoRA prunes the rank. s17: these were sized as full
fine-tuning."""
_VARIANT_SPELLING = {
    "dora": "DoRA",
    "adalora": "AdaLoRA",
    "rslora": "rsLoRA",
    "pissa": "PiSSA",
    "vera": "VeRA",
}


@reader(training=True)
def _lora_variant(out: Settings, training: bool) -> None:
    m = LORA_VARIANT_RE.search(out.s) if training else None
    if m is None:
        return
    word = (m.group("flag") or m.group("w") or "").replace(" ", "").replace("-", "")
    out.fields.setdefault("method", "qlora" if "qlora" in out.s else "lora")
    out.unused.append(
        (f"method: {_VARIANT_SPELLING.get(word, word.upper().replace('LORA', 'LoRA'))}", "lora_variant")
    )
