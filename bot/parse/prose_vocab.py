"""Step 2a: config vocabulary written in prose (issue 24 items 2 and 4), read before numbers get roles.

People describe a job in the words of the tool they run: "cutoff 512", "cutoff_len 2048",
"max_source_length 64 + max_target_length 128", "grad accum 8", "per_device_train_batch_size 4",
"每卡 batch 2", "lora_r 32", "lora_target all", "--tensor-parallel-size left out so it is 1", "model
parallel size 2", "ngl 99", "--kv-cache-dtype fp8_e5m2", "vllm_maxlen 8000". The key names are those
the pasted-config reader uses (:mod:`bot.parse.configs.training`, whose sources are the flag tables in
``bot/recipes/flags/``). Meaning words are read here too: "without offloading", llama.cpp's "fully
offloaded to the GPU" (all layers on the GPU: no CPU offload), "responses up to 32k tokens" and "8
samples per prompt" (RL sequence and sampling settings, not data), an FP8 KV cache, FP4 weights; each
match is masked so its digits are not read again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.later_names import LATE, earlier_in_brackets, read_transformers, script_reads, spread_shared_value
from bot.parse.gpu_layers import (
    HOST_HINT_RE,
    cpu_experts,
    host_side,
    llama_cpp_switches,
    read_gpu_layers,
    stated_gpu_layers,
)
from bot.parse.kv_cache_types import GATE_RE as KV_TYPE_GATE
from bot.parse.kv_cache_types import read_kv_cache_types
from bot.parse.normalize import mask
from bot.parse.numbers import parse_number
from bot.parse.precision_words import BPW_RE
from bot.parse.regex import rc
from bot.parse.rl_batch import rollout_batch_read
from bot.parse.stack_words import (
    LAUNCHERS_NAMED,
    inferred_tool,
    launcher_named,
    named_tools,
    tool_written,
    training_tool,
)
from bot.parse.structure import OBSERVED, TRIED, role_at, segments
from bot.parse.vocab_patterns import (
    ACCUM_RE,
    ALL_LAYERS_ON_GPU,
    BARE_RANK_RE,
    BATCH_BESIDE_MICRO_RE,
    DATE_CUTOFF_RE,
    DEFAULT_MAX_LEN_RE,
    FP4_RE,
    KV_FP8_RE,
    LORA_WORD_RE,
    MICRO_RE,
    MODEL_PARALLEL_RE,
    NGL_RE,
    NO_OFFLOAD_RE,
    PPO_MICRO_RE,
    PPO_MINI_RE,
    QUANT_CACHE_RE,
    RANK_RE,
    ROLLOUT_BATCH_RE,
    SEQ_RE,
    SOURCE_RE,
    SWIFT_MAX_LENGTH_RE,
    SWIFT_RL_RE,
    TARGET_ALL_RE,
    TARGET_RE,
    TP_DEFAULT_RE,
    VLLM_MAXLEN_RE,
)
from estimator.models import SizingRequest
from estimator.request import setting
from estimator.training_tools import TRAINING_TOOL_LIMITS

_OFFLOAD_KEY = r"(?:param|grad|optimizer|optim|model)?[_\s\-]*offload(?:[_\s\-]*(?:param|optimizer|model)s?)?"
_OFFLOAD_KEY += r"(?:[_\s\-]*device)?\s*(?:=|:|设为|设成|是)?\s*"
OFFLOAD_KEY_OFF_RE = rc(_OFFLOAD_KEY + r"(?:false|none|0)(?![a-z0-9])")
OFFLOAD_KEY_ON_RE = rc(_OFFLOAD_KEY + r"(?:true|cpu|nvme|1)(?![a-z0-9])")
"""Offload keys with their value (verl FSDP ``param_offload=False``, DeepSpeed ``offload_optimizer
device: none`` / ``cpu``): no offload only when none of them is on."""
CPU_EXPERTS_RE = rc(
    r"-{0,2}(?:n[_\-]?)?cpu[_\-]moe\b(?:\s*=?\s*\d{1,3}(?![\d.]))?|(?:-ot|--override[_\-]tensor)\s+[^,;]{0,30}?exps[^\s,;]*=\s*cpu"
    r"|\bktransformers\b"
    r"|(?:experts?|专家|moe\s*(?:层|layers?))\s*(?:层|权重|weights)?\s*(?:全部|全都|都|全)?\s*(?:(?:are|were)\s+)?(?:all\s+)?"
    r"(?:offload(?:ed)?\s*)?(?:on|to|in|into|放|放在|放到|卸载到|留在)\s*(?:the\s+)?(?:系统|主机)?\s*(?:cpu|内存|ram|(?:system|host)\s+(?:ram|memory))"
)
"""MoE experts in CPU memory: llama.cpp ``--cpu-moe`` / ``--n-cpu-moe N`` / ``-ot "exps=CPU"`` (its
tools/server README), KTransformers (its README: experts on the CPU, attention on the GPU), or said in
words ('experts on the CPU', '专家放内存'; s49 round 45: 'MoE 层全部卸载到系统内存', 'MoE layers offloaded to
system RAM'): CPU offload of part of the weights."""
KV_IN_HOST_RE = rc(
    r"(?<![a-z0-9])(?:-{1,2}no[_\-]kv[_\-]offload|-{0,2}nkvo)(?![a-z0-9])"
    r"|kv\s*cache\s+(?:kept\s+|held\s+|stays?\s+)?(?:off\s+the\s+gpus?|(?:in|on)\s+(?:the\s+)?(?:cpu|ram|system\s+memory))"
    r"|kv\s*cache\s*(?:全|都|全部|全都)?\s*(?:放|放在|留在|在)\s*(?:cpu|内存)"
)
"""The KV cache in CPU memory in words ('KV cache kept off the GPU', 'kv cache 放内存', r15 zh '全放内存')."""
GENERATIONS_RE = rc(
    r"(?P<n>\d{1,3})\s*(?:samples?|generations?|completions?|responses?|rollouts?)\s*(?:per|each|/|for\s+each)\s*"
    r"(?:prompt|question|query)|num[_\s\-]*gen(?:eration)?s?\s*(?:=|:)?\s*(?P<m>\d{1,3})"
    r"|n[_\s\-]*samples[_\s\-]*per[_\s\-]*prompt\s*(?:=|:)?\s*(?P<p>\d{1,3})"
    r"|每(?:个)?\s*(?:prompt|问题|提示)\s*(?:采样|生成|rollouts?|samples?|generat\w*)?\s*(?P<c>\d{1,3})\s*(?:个|条|次)?"
    r"|(?P<r>\d{1,3})\s*rollouts\b|rollout\.n\s*=\s*(?P<o>\d{1,3})"
)
"""Samples per prompt (TRL num_generations, verl rollout.n, OpenRLHF --n_samples_per_prompt; s29: 'num_gen 8',
as people shorten it in both languages): sampling, not data (``num_generations``)."""


_HINTS = {
    "lengths": rc(r"len|cutoff|序列|截断长度|default|默认|max_new_tokens|num_ctx|ctx|max[_\-]total|截止"),
    "batches": rc(r"accum|累积|累计|batch|bs|每卡|微批|lora|target"),
    "layers": rc(
        r"tensor|parallel|并行|ngl|layers|offload|卸载|gpu|moe|ktransformers|exps|专家|expert" r"|层|kv|mp.s"
    ),
    "precisions": rc(
        r"kv|fp4|--quantiz|torchao|cache|bpw|policy|-ct[kv]|type_[kv]|\d\.\d+\s*-?\s*(?:bit|比特)|bits?\s*/|per\s*weight"
        r"|k and v|k/v|k & v|k和v|k 和 v"  # s46: 'f16 K and V' (bot.parse.kv_cache_types); literals: a
        # cue search of 'and' alone passed the step's hint for most English questions
    ),
    "rl": rc(
        r"respons|complet|generat|output|rollout|sample|回复|生成|输出|prompt|问题|提示|group|采样|组大小|num[_\s\-]*gen"
    ),
}
"""A word every pattern of a step needs: a message without it skips the step (speed: most messages
name none of these settings)."""


@dataclass
class Vocab:
    """What :func:`read_vocabulary` found."""

    s: str
    fields: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    unused: list[tuple[str, str]] = field(default_factory=list)
    accumulation: int | None = None
    tool_cue: str | None = None
    """The words a training tool was inferred from (:func:`bot.parse.stack_words.inferred_tool`)."""
    read: list[float] = field(default_factory=list)
    """Numbers read into no number field ('-ngl 99' → no offload): accounted for (bot.parse.left_behind)."""


def _n(m: re.Match[str], *groups: str) -> int | None:
    raw = next((m.group(g) for g in groups if m.group(g)), None)
    raw = raw.replace(",", "").replace(" ", "") if raw else None
    value = parse_number(raw) if raw else None
    if value and raw and raw.endswith("k"):
        value = value / 1000 * 1024  # "32k" tokens is 32,768 (as the context rule reads it)
    return round(value) if value and value > 0 else None


def read_vocabulary(s: str, training: bool) -> Vocab:
    """The config keys and meaning words written in prose in the normalized text ``s``."""
    s = spread_shared_value(s) if "_" in s or "-" in s else s  # 'a 和 b 都是 1': each key gets the value
    tool = training_tool(s) if training else None
    tools_named = named_tools(s, tool)
    out = Vocab(s, unused=tools_named + launcher_named(s))
    if tool:
        out.fields["training_tool"] = tool
        if (
            tool == "Megatron-LM"
            and "zero" in s
            and ZERO_SHARDS_RE.search(s)
            and not tool_written(s, "DeepSpeed")
        ):
            out.unused.append(("training_tool: DeepSpeed", "tool_inferred"))  # s42: ZeRO-3 beside Megatron-LM
    elif (
        training and not set(tools_named) - LAUNCHERS_NAMED and (inferred := inferred_tool(s))
    ):  # "per_device_train_batch_size 1": HF Trainer, said so; accelerate launches a trainer (round 12)
        name, out.tool_cue = inferred
        if name in TRAINING_TOOL_LIMITS:
            out.fields["training_tool"] = name
        elif not tool_written(s, name):  # DeepSpeed, verl: named, the settings themselves sized
            out.unused.append((f"training_tool: {name}", "tool_inferred"))
    if training and ("torch" in s or "finetune_hf" in s or "deepspeed" in s):  # s32, s33, s34 (script_reads)
        script_reads(out, s)
    if _HINTS["lengths"].search(s):
        _lengths(out, training)
    if _HINTS["batches"].search(s):
        _batches(out)
    if _HINTS["layers"].search(s):
        _parallel_and_layers(out)
    elif HOST_HINT_RE.search(s):  # 'an RTX 4090 with 64GB DDR5 RAM' beside Ollama: the host's (s19 trial)
        host_side(out)
    if training and ("transformers" in s or "experts_impl" in s):  # s41 fixtrain #5: v5's grouped experts
        read_transformers(out)
    if _HINTS["precisions"].search(s):
        _precisions(out)
    if _HINTS["rl"].search(s):
        _rl(out, training)
    _outside_declared_bounds(out)
    return out


def _outside_declared_bounds(out: Vocab) -> None:
    """A value beyond the range a user may state (:func:`estimator.request.setting`'s ``stated``, as
    /settings and pasted configs check it) is named as a bad value, not sized nor dropped in silence
    ("micro batch 100000000" was dropped without a word: a second fresh-user trial)."""
    for name, value in list(out.fields.items()):
        stated = setting(name).get("stated") if name in SizingRequest.model_fields else None
        if stated and isinstance(value, int | float) and not stated[0] <= value <= stated[1]:
            del out.fields[name]
            out.unused.append((f"{name}: {value}", "bad_value"))


def _take(out: Vocab, pattern: Any, *groups: str) -> int | None:
    m = pattern.search(out.s)
    if not m:
        return None
    out.s = mask(out.s, m.start(), m.end(), " ")
    return _n(m, *groups) if groups else 1


def _take_seq(out: Vocab) -> int | None:
    """The sequence key's value: the first, unless another is said in an earlier setup's or an observed
    clause ('cutoff_len 8192 … 之前 cutoff_len 2048 的时候显存是 35G', trial A5): then the first said
    outside such clauses, and the earlier one is named ``other_setup``."""
    found = list(SEQ_RE.finditer(out.s))
    segs = segments(out.s) if len(found) > 1 else []
    aside = [role_at(segs, m.start()) in (TRIED, OBSERVED) for m in found] if segs else []
    bracket = [earlier_in_brackets(out.s, m.start(), m.end()) for m in found] if segs else []
    if any(bracket) and not all(bracket):  # '8192 (was max_seq_length 2048 before)' (s13 review 12)
        aside = bracket
    if not any(aside) or all(aside):
        return _take(out, SEQ_RE, "n")
    chosen = found[aside.index(False)]
    for m, other in zip(found, aside, strict=True):
        out.s = mask(out.s, m.start(), m.end(), " ")
        if other and _n(m, "n") != _n(chosen, "n"):
            out.unused.append((" ".join(m.group(0).split()), "other_setup"))
    return _n(chosen, "n")


def _lengths(out: Vocab, training: bool) -> None:
    for date in list(DATE_CUTOFF_RE.finditer(out.s)):  # 'knowledge cutoff 2023': a date, no cutoff_len
        out.s = mask(out.s, date.start(), date.end(), " ")
        out.unused.append((f"knowledge cutoff: {' '.join(date.group('n').split())}", "not_sized"))
    if "kv cache" in out.s:  # s35: vLLM's KV-cache error, pasted (bot.parse.configs.limits.kv_error)
        out.s = LATE.kv_error(out.s, training, out.fields, out.unused)
    if not training:  # a serving engine's limit (bot.parse.configs.limits); a second one is named
        for limit in [*LATE.LIMIT_RE.finditer(out.s), *LATE.LIMIT_AFTER_RE.finditer(out.s)]:
            if LATE.CTX_SIZE_RE.search(limit.group(0)):  # llama.cpp's -c of all slots: bot.parse.inline_flags
                continue
            if value := LATE.limit_value(limit.group("n")):
                if "max_model_len" in out.fields and value != out.fields["max_model_len"]:
                    out.unused.append((f"max_model_len: {value}", "repeated"))
                out.fields.setdefault("max_model_len", value)
                out.s = mask(out.s, limit.start(), limit.end(), " ")
    prompt_bound = SWIFT_RL_RE.search(out.s) and SWIFT_MAX_LENGTH_RE.search(out.s)
    seq = None if prompt_bound else _take_seq(out) or _take(out, DEFAULT_MAX_LEN_RE, "n", "m")
    source, target = (
        _take(out, SWIFT_MAX_LENGTH_RE if prompt_bound else SOURCE_RE, "n"),
        _take(out, TARGET_RE, "n"),
    )
    if prompt_bound and source and not target:  # the completion: ms-swift's default, assumed in the estimator
        out.fields["prompt_tokens"] = source
        source = None
    if seq and (source or target):  # a max length sets the sequence: the parts are named, never dropped
        if source:
            out.unused.append((f"max_prompt_length: {source}", "no_field"))
        if target and not training:
            out.unused.append((f"max_completion_length: {target}", "no_field"))
    elif source or target:
        tgi = "tgi" in out.s or "text-generation-" in out.s  # TGI's max input: the longest prompt (s35-fixa)
        seq = (source or 0) + (target or 0) if training or target or not tgi else None
        out.notes += ["prompt_plus_completion"] if seq else []  # TEI's (embeddings): the whole input
        if source and not training:  # served: the prompt is prefilled, the rest decoded
            out.fields["prompt_tokens"] = source
    maxlen = VLLM_MAXLEN_RE.search(out.s)
    if maxlen:
        value = _n(maxlen, "n")
        out.s = mask(out.s, maxlen.start(), maxlen.end(), " ")
        if value and not training:
            out.fields.setdefault("max_model_len", value)
        elif value:  # the context of its rollout / inference engine, not the training sequence
            out.unused.append((f"{LATE.typed_key(maxlen[0])}: {value}", "no_field"))
    if seq:
        out.fields["seq_len"] = seq
    if target and training:  # decoded in the rollouts (estimator.rollout)
        out.fields["max_completion_length"] = target


def _batches(out: Vocab) -> None:
    accum = _take(out, ACCUM_RE, "n")
    if accum:
        out.accumulation = accum
    for rollout in list(ROLLOUT_BATCH_RE.finditer(out.s)):  # OpenRLHF's generation batches: named
        out.s = mask(out.s, rollout.start(), rollout.end(), " ")
        key = rollout.group(0)[: rollout.start("n") - rollout.start()].strip(" -=:")
        if key[:7].lower() == "rollout" and _n(rollout, "n"):  # prompts a rollout (estimator.rollout_batch)
            rollout_batch_read(out.fields, out.unused, out.s, key, _n(rollout, "n") or 0)
        else:
            out.unused.append((f"{key}: {_n(rollout, 'n')}", "no_field"))
    mini = _take(out, PPO_MINI_RE, "n")
    if mini:  # prompts per update, not per GPU: named, never read as a micro-batch
        out.unused.append((f"ppo_mini_batch_size: {mini}", "no_field"))
    micro = _take(out, PPO_MICRO_RE, "n") or _take(out, MICRO_RE, "n")
    if micro:
        out.fields["batch_size"] = micro
        if (other := _take(out, MICRO_RE, "n")) and other != micro:  # s17: a second value, named
            out.unused.append((f"batch_size: {other}", "repeated"))
        total = _take(out, BATCH_BESIDE_MICRO_RE, "n")
        if total and total != micro:  # alpaca-lora's batch_size beside micro_batch_size: the global batch
            out.fields["global_batch"] = total
    rank = _take(out, RANK_RE, "n") or (_take(out, BARE_RANK_RE, "n") if LORA_WORD_RE.search(out.s) else None)
    if rank:
        out.fields["lora_rank"] = rank
    if _take(out, TARGET_ALL_RE):
        out.fields["lora_targets"] = ["all-linear"]


def _parallel_and_layers(out: Vocab) -> None:
    if _take(out, TP_DEFAULT_RE):
        out.fields["tp"] = 1
        out.notes.append("tp_default_1")
    tp = _take(out, MODEL_PARALLEL_RE, "n")
    if tp:
        out.fields.setdefault("tp", tp)
    m = NGL_RE.search(out.s)
    if m:
        out.s = mask(out.s, m.start(), m.end(), " ")
        out.fields["runtime"] = "llama.cpp"
        out.read.append(float(m.group("n")))  # the layers on the GPU: read, never 'unread'
        stated_gpu_layers(out.fields, int(m.group("n")), bool(m.group("neg")))  # estimator.layer_offload
        if int(m.group("n")) >= ALL_LAYERS_ON_GPU or m.group("neg"):
            out.fields["offload"] = False
        else:  # some layers stay in CPU memory: partial offload, which the sizing does not split
            out.fields["offload"] = True
            out.notes.append("partial_gpu_layers")
    if "gpu_layers" not in out.fields:
        read_gpu_layers(out)  # Ollama num_gpu, LM Studio, '40 层放显卡' (bot.parse.gpu_layers)
    if no_offload := NO_OFFLOAD_RE.search(out.s):
        out.s = mask(out.s, no_offload.start(), no_offload.end(), " ")
        out.fields["offload"] = False
        from bot.parse.offload_aside import offloads_aside  # only where no offload was said (s45)

        out.unused += offloads_aside(out.s, out.s[: no_offload.start()].rstrip())
    elif m := CPU_EXPERTS_RE.search(out.s):  # MoE experts kept in CPU memory: a partial offload, as -ngl 20
        out.fields["offload"] = True
        cpu_experts(out.fields, m)
        if "moe" in m.group(0) or "exps" in m.group(0):  # the flag and its count: read, not left unread
            out.s = mask(out.s, m.start(), m.end(), " ")
        out.notes.append("partial_gpu_layers")
    if not OFFLOAD_KEY_ON_RE.search(out.s) and _take(out, OFFLOAD_KEY_OFF_RE):
        out.fields["offload"] = False
    if LATE.PARAM_OFFLOAD_RE.search(out.s):  # the weights' own: named, an upper bound (s17, s26)
        out.unused.append(("offload_param: CPU", "param_offload"))
    host_side(out)  # '内存 64G', 'DDR5-6000', 'quad-channel DDR4-3200' beside a layer split: the host's
    llama_cpp_switches(out)  # -nkvo: the KV cache in CPU memory; -fa off: no flash attention
    if "kv_offload" not in out.fields and _take(out, KV_IN_HOST_RE):  # said in words (round 9)
        out.fields["kv_offload"] = False


ZERO_SHARDS_RE = rc(r"(?<![a-z0-9])zero[\s\-_]*(?:stage[\s\-_]*)?(?:[23](?![\d.])|[\-\s]*infinity)")
"""ZeRO-2, ZeRO-3 or ZeRO-Infinity: DeepSpeed's sharding (Rajbhandari et al. 2020, 2021). Megatron-LM has
none of them by that name (its ``--use-distributed-optimizer`` shards the optimizer states only, ZeRO-1's
share), so said with Megatron-LM they are DeepSpeed's Megatron ('Megatron-LM-v1.1.5-ZeRO3' of
DeepSpeedExamples, deepspeedai/Megatron-DeepSpeed): DeepSpeed named as read from its settings (s42, issue 24:
en20-031's 'ZeRO-3 Infinity … the Megatron-LM-v1.1.5-ZeRO3 example' named no DeepSpeed)."""
FP8_KIND_RE = rc(r"(e[45]m[23])")
"""The kind of an FP8 format as written ('fp8_e5m2' → 'e5m2'; vLLM's ``CacheDType``: fp8, fp8_e4m3,
fp8_e5m2), named beside the FP8 KV cache it is sized as."""


def _precisions(out: Vocab) -> None:
    kind = KV_FP8_RE.search(out.s)
    if kind and _take(out, KV_FP8_RE):
        out.fields["kv_precision"] = "fp8"
        if "m2" in (said := kind.group(0)) or "m3" in said:  # s42: 'fp8_e5m2' named as typed, sized as fp8
            typed = FP8_KIND_RE.search(said)
            out.unused.append((f"kv_precision: fp8_{typed.group(1) if typed else 'e5m2'}", "fp8_kind"))
    for cache in list(QUANT_CACHE_RE.finditer(out.s)):  # ExLlamaV2 / llama.cpp quantized KV cache ('Q4,
        out.s = mask(out.s, cache.start(), cache.end(), " ")  # Q8 or unquantized cache'): no KV format for it
        named = (f"kv_precision: {cache.group('q') or cache.group('r')}", "no_field")
        if named not in out.unused:
            out.unused.append(named)
    if KV_TYPE_GATE.search(out.s):  # a tool's KV-cache key or '4-bit KV cache' (round 13)
        read_kv_cache_types(out)
    for bpw in list(BPW_RE.finditer(out.s)):  # ExLlamaV2's bits per weight (-b): the first sized (s32)
        out.s = mask(out.s, bpw.start(), bpw.end(), " ")
        if out.fields.setdefault("bits_per_weight", float(bpw.group("b"))) != float(bpw.group("b")):
            out.unused.append((f"precision: {bpw.group('b')}bpw", "repeated"))  # '8.0bpw and 6.0bpw'
    quant = LATE.quant_flag(out.s)  # '--quantize eetq' (bot.parse.configs.limits)
    if quant and quant[1]:
        out.fields["precision"] = quant[1]
    elif quant:
        out.unused.append((f"--quantize: {quant[0]}", "no_field"))
    m = FP4_RE.search(out.s)
    if m:
        out.s = mask(out.s, m.start(), m.end(), " ")
        if m.group("p") in ("mxfp4", "nvfp4"):
            out.fields["precision"] = m.group("p")
        else:  # plain "FP4" names no format (MXFP4 or NVFP4): named, never read as either
            out.unused.append((f"precision: {m.group('p')}", "no_field"))


def _rl(out: Vocab, training: bool) -> None:
    for quant in list(LATE.QUANT_GROUP_RE.finditer(out.s)):  # GPTQ's 'group size 128': no GRPO group
        out.s = mask(out.s, *LATE.group_span(quant), " ")  # the format word beside it stays (s34-gen)
        out.unused.append((f"quantization group_size: {quant.group('q') or quant.group('a')}", "no_field"))
    gens = GENERATIONS_RE.search(out.s) or (LATE.RL_GENERATIONS_RE.search(out.s) if training else None)
    tail = LATE.COMPLETION_RE.search(out.s, gens.start()) if gens else None  # '8 rollouts, up to 1024 tokens'
    if gens:
        out.s = mask(out.s, gens.start(), gens.end(), " ")
        groups = ("n", "m", "p", "c", "r", "o", *LATE.RL_GENERATION_GROUPS)
        n = _n(gens, *(g for g in groups if g in gens.re.groupindex))
        if n and training:  # prompts × n sequences generated and trained (estimator.rollout)
            out.fields["num_generations"] = n
        elif n:
            out.unused.append((f"num_generations: {n}", "no_field"))
    if not training:
        return
    m = LATE.COMPLETION_RE.search(out.s) or LATE.COMPLETION_AFTER_RE.search(
        out.s
    )  # '1024 max completion tokens'
    m = m or (tail if tail and gens and tail.start() < gens.end() <= tail.start("n") else None)  # gens' word
    if m:
        value = _n(m, "n")
        out.s = mask(out.s, m.start(), m.end(), " ")
        if value:  # one sequence is the prompt and its completion
            out.fields["seq_len"] = out.fields.get("seq_len", 0) + value
            out.fields["max_completion_length"] = value
            out.notes.append("completion_in_seq")
