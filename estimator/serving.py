"""Serving verdicts and the serving branch of :func:`estimator.sizing.estimate`.

Weights and KV cache come from :mod:`estimator.inference`; this module chooses the precision a
local machine would run, the default load, states every assumption, and judges the user's GPUs
(or total memory): yes / borderline / no with a reason."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from estimator import defaults
from estimator.catalog import GpuSpec, ModelSpec
from estimator.copying import replace
from estimator.inference import ServingSetup, serve
from estimator.later import LATE, later
from estimator.ledger import Ledger, beyond_window, price_range
from estimator.models import Currency, Inference, Precision, Runtime, SizingRequest
from estimator.reasons import Why
from estimator.runtimes import GGUF_FORMATS, Load, ServingRuntime, Vllm, runtime_for, runtime_named
from estimator.runtimes.others import (
    FOUR_BIT_RELEASES,
    OLLAMA_SLOTS_SOURCE,
    gguf_fallback,
    ollama_default_precision,
    ollama_slots,
)
from estimator.runtimes.vllm import encoder_profile_params
from estimator.serving_launch import (
    Launch,
    engine_limit,
    launched_verdict,
    note_int8_kv,
    note_unsupported_gpu,
    takes_model_length,
)
from estimator.serving_layout import group_on, kv_capacity_tokens
from estimator.serving_speed import FITTED, SUSTAINED_TFLOPS_16BIT
from estimator.verdicts import requested_count
from estimator.weights import BITS_PER_WEIGHT

at_stated_share, refused_to_start, runtime_edges, serving_need, serving_verdict = later(
    "estimator.serving_verdict", "at_stated_share", "refused_to_start", "runtime_edges", "serving_need",
    "serving_verdict",
)  # fmt: skip  # serving answers only: a training ``ask`` imports none of it (s42-speed)
(active_sequences,) = later("estimator.active_users", "active_sequences")  # on first call (s48-startup)
(one_byte_kv,) = later("estimator.kv_types", "one_byte_kv")  # on first call (s48-startup)
(with_load_cost,) = later("estimator.load_cost", "with_load_cost")  # on first call (s48-startup)
attention_tp, dp_engine_ranks, stated_group = later(
    "estimator.serving_group", "attention_tp", "dp_engine_ranks", "stated_group"
)  # on first call: a plain `ask` never calls it (s48-startup)

LOCAL_FORMATS = (Precision.q8_0, Precision.q4_k_m)
"""Weight formats tried, in order, when 16-bit weights don't fit on a local machine (consumer card or
Apple silicon) and the user named no precision: local runtimes run quantized GGUF/MLX weights —
Ollama's default tags are Q4_K_M; Q8_0 is near-lossless (llama.cpp k-quants PR #1684 perplexity table)."""


@dataclass
class ServingResult:
    """What the serving branch adds to the report, and the request fields it filled."""

    inference: Inference
    feasible: str | None
    feasible_reason: str | None
    precision: Precision
    context: int
    concurrency: int
    currency: Currency | None
    setup: ServingSetup | None = None  # what was sized, before ``precision``: re-laid by estimator.batch_work

    def filled(self) -> dict[str, object]:
        values = {"precision": self.precision, "seq_len": self.context, "concurrency": self.concurrency,
                  "currency": self.currency}  # fmt: skip
        return {k: v for k, v in values.items() if v is not None}

    def report_fields(self) -> dict[str, object]:
        return {
            "inference": self.inference,
            "feasible": self.feasible,
            "feasible_reason": self.feasible_reason,
        }


BATCHING_LOAD = 4
"""A stated load above this many sequences on a consumer card sizes a batching server (vLLM: paged KV cache,
continuous batching) unless llama.cpp or Ollama is named: its slots share one context (trial s37 #4)."""


def _local_format(
    req: SizingRequest, spec: ModelSpec, gpu: GpuSpec, inf: Inference, size: Callable[[Precision], Inference]
) -> tuple[Precision, Inference] | None:
    """On a local machine (consumer card, Apple silicon) with no precision named, where the released
    weights don't fit the user's count within its usable share: the first smaller format of
    :data:`LOCAL_FORMATS` that fits well; when they don't fit at all, else the first that fits tightly."""
    count = requested_count(req)
    if req.precision is not None or not gpu.personal or count is None:
        return None
    if req.runtime is None and (req.concurrency or 0) > BATCHING_LOAD:
        return None  # '3090 并发20': many sequences at once are a batching server's (vLLM), not llama.cpp's
    if req.runtime is not None and not runtime_named(req.runtime.value).local:
        return None  # a named server (vLLM, SGLang, transformers) loads the released weights
    if req.runtime is Runtime.ollama and spec.release_precision in FOUR_BIT_RELEASES:
        return None  # Ollama's library ships these as released (gpt-oss: MXFP4 only; trial s25 #14)
    released, why = serving_verdict(req, inf, gpu, spec)
    if released == "yes" or why == "tight":  # within the usable share: the released weights first (s24 #6)
        return None
    tight: tuple[Precision, Inference] | None = None
    for fmt in LOCAL_FORMATS:
        if (
            BITS_PER_WEIGHT[fmt] / 8.0 >= inf.bytes_per_param
            or int(BITS_PER_WEIGHT[fmt]) == req.excluded_bits
        ):
            continue  # not smaller than what was sized (DeepSeek's FP8 vs Q8_0), or a width said not used
        candidate = size(fmt)
        verdict, reason = serving_verdict(req, candidate, gpu, spec)
        if verdict == "yes":
            return fmt, candidate
        if verdict == "borderline" and reason != "fp8_only" and tight is None:
            tight = (fmt, candidate)  # fits only tightly: keep looking for one that fits well
    return (tight or gguf_fallback(req, inf, size, count)) if released == "no" else None  # s19: GGUF, Q4_K_M


def _default_concurrency(personal: bool, context: int, users: int | None = None) -> defaults.Default:
    if users:  # the people a service is for: the share of them active at once (trial s21 #3)
        return defaults.Default(active_sequences(users), Why.users_active_share)
    if personal:
        return defaults.SERVE_CONCURRENCY_PERSONAL
    if context > defaults.LONG_CONTEXT_TOKENS:  # "10M context": one such sequence, not a team's 16
        return defaults.SERVE_CONCURRENCY_LONG_CONTEXT
    return defaults.SERVE_CONCURRENCY


def runs_fp8_weight_only(gpu: GpuSpec) -> bool:
    """An NVIDIA Ampere card: no FP8 tensor cores, but vLLM runs FP8 checkpoints there weight-only
    (W8A16: FP8 Marlin kernels need compute capability 8.0+, vLLM docs "FP8 W8A8": "Ampere … weight-only
    FP8 … Marlin"). Other cards without FP8 (Ascend 910/910B, AMD MI200, TPU v4/v5e, Volta, Turing,
    Pascal) cannot load FP8 weights: vLLM's ROCm FP8 needs MI300 (gfx942), and DeepSeek-V3 is converted
    to BF16 (or INT8 W8A8) for Ascend (vLLM-Ascend / MindIE model guides)."""
    return gpu.vendor == "NVIDIA" and gpu.generation == "Ampere"


def serving_precision(req: SizingRequest, spec: ModelSpec, gpu: GpuSpec, ledger: Ledger) -> Precision:
    """The weights' precision: the user's, else as released (design §3.1) — except FP8 releases on a
    card without FP8 that cannot run them weight-only (:func:`runs_fp8_weight_only`): bf16, stated.
    FP8 asked on such a card is said not to run there (``fp8_weights_unsupported``) and sized in bf16.
    FP8 weights on a card without FP8 tensor cores that runs them weight-only (Ampere) are timed at its
    16-bit peak (:func:`estimator.serving_speed.compute_peak`), and the reply says so
    (``fp8_serving_16bit``)."""
    no_fp8 = not gpu.has_fp8 and not gpu.generic
    if req.precision is None and spec.release_precision == "fp8" and no_fp8 and not runs_fp8_weight_only(gpu):
        bf16 = Precision(ledger.assume("precision", "bf16", Why.release_fp8_as_bf16, gpu=gpu.name))
        return _fp16_without_bf16(bf16, gpu, ledger)
    if req.precision is Precision.fp8 and no_fp8 and not runs_fp8_weight_only(gpu):  # said, then bf16
        ledger.note("fp8_weights_unsupported", gpu=gpu.name)
        return _fp16_without_bf16(Precision.bf16, gpu, ledger)
    if (
        req.precision is None
        and req.runtime is Runtime.ollama
        and spec.release_precision not in FOUR_BIT_RELEASES
    ):
        return ollama_default_precision(ledger)
    if (
        req.precision is None
        and req.cpu_moe_layers
        and spec.is_moe
        and spec.release_precision not in FOUR_BIT_RELEASES
    ):
        # experts in host memory (KTransformers, llama.cpp -ot/--n-cpu-moe): GGUF, Q4_K_M (s38 fixs #4)
        return Precision(ledger.assume("precision", Precision.q4_k_m.value, Why.host_experts_q4))
    if req.bits_per_weight and req.precision is None:  # EXL2 bpw: sized at it (estimator.exl2_weights)
        return Precision.bf16  # its activations' format; the weights' own width is the bpw stated
    precision = req.precision or Precision(
        ledger.assume("precision", spec.release_precision, Why.release_precision)
    )
    if precision is Precision.fp8 and no_fp8:
        ledger.note("fp8_serving_16bit", gpu=gpu.name)
    return _fp16_without_bf16(precision, gpu, ledger)


def _fp16_without_bf16(precision: Precision, gpu: GpuSpec, ledger: Ledger) -> Precision:
    """bf16 weights (stated or released) on a card without bf16 (:attr:`GpuSpec.has_bf16`: V100, T4):
    fp16, as vLLM runs them there — the same 2 bytes per weight, said in the ledger."""
    if precision is Precision.bf16 and not gpu.has_bf16:
        return Precision(ledger.replace("precision", "fp16", Why.fp16_no_bf16, gpu=gpu.name))
    return precision


def size_serving(
    req: SizingRequest, spec: ModelSpec, params: float, active: float | None, gpu: GpuSpec, ledger: Ledger
) -> ServingResult:
    """Serving branch: weights + KV cache → GPUs, concurrency, speed and cost, and the verdict."""
    precision = serving_precision(req, spec, gpu, ledger)
    context = _serve_context(req, spec, ledger)
    price = None if gpu.generic else price_range(req, gpu, ledger)
    named = req.runtime.value if req.runtime else None
    tensor_parallel = named is not None and not runtime_named(named).splits_layers  # vLLM, SGLang
    server = tensor_parallel and (req.gpu_count or 1) > 1

    def personal(weights: Precision) -> bool:  # GeForce/Mac or GGUF; not a vLLM/SGLang server's cards
        return (gpu.personal and not server) or runtime_for(gpu, weights, named=named).local

    most: list[int] = []  # "how many at once" on the user's GPUs: the sequences they hold, once known

    def conc_for(weights: Precision) -> int:  # stated, else the most held when asked, else 1 or a team's 16
        return req.concurrency or (
            most[0] if most else int(_default_concurrency(personal(weights), context, req.users).value)
        )

    stated = stated_group(req, assumed_count="gpu_count" in [a.field for a in ledger.assumptions])

    def size(weights: Precision, searched=False, count: int | None = None, share=0.0, at=0) -> Inference:
        """In ``weights`` on the stated (else chosen) TP × PP, ``count`` GPUs; ``at``: priced at the load."""
        at_capacity = not (at or req.concurrency or req.target_tokens_per_s or req.users or personal(weights))
        group, gpus = None if searched else stated, count or base.gpu_count
        kv = base.kv_precision if req.kv_precision or ggml or weights not in GGUF_FORMATS else Precision.fp16
        setup = replace(base, precision=weights, concurrency=conc_for(weights), group=group, gpu_count=gpus)
        setup = replace(setup, utilization=share) if share else setup  # raised from the user's (s32 #1)
        return serve(replace(setup, price_at_capacity=at_capacity, kv_precision=kv))  # GGUF: f16 KV (s28 L3)

    ggml = runtime_for(gpu, precision, named=named).local  # llama.cpp / Ollama: an f16 cache by default
    from estimator.serving_base import base_setup  # serving answers only (a training ask imports none)

    base = base_setup(req, (spec, params, active), gpu, precision, context, named, price, ggml)
    inf, too_small = size(precision), False
    if stated is not None:  # the user's TP × PP: say what a layout chosen freely would need
        inf, stated = _stated_layout(inf, stated, partial(size, precision, True), ledger, _quiet(req, base))
        too_small = stated is None
    fp8_first = tensor_parallel and LATE.fits_only_in_fp8(req, inf, gpu, personal(precision))  # s28 H2
    fp8 = None  # one data-centre GPU too: the headline's FP8 on their count, not bf16 on more (s33 fixc #1)
    if (req.concurrency_asked or fp8_first) and requested_count(req):
        inf, precision, fp8 = _capacity_on_count(req, spec, gpu, named, (precision, inf), most, size, ledger)
    elif req.target_tokens_per_s and not req.concurrency:  # "5,000 tokens/s": the load that decodes it
        inf = LATE.concurrency_for_target(req.target_tokens_per_s, most, lambda: size(precision), inf)
        inf = LATE.reach_target(req, inf, replace(base, precision=precision), ledger)
        inf = LATE.rate_concurrency(req, inf, replace(base, precision=precision), most, ledger)  # s43
    elif tensor_parallel and (fp8 := LATE.fp8_at_load(req, gpu, (precision, inf), size, ledger)) is not None:
        inf, precision = fp8, Precision.fp8  # their stated load in FP8 on their count (s42 trial #5)
    if (local := _local_format(req, spec, gpu, inf, size)) is not None:
        precision, inf = local
        ledger.replace("precision", precision.value, Why.local_format)
    conc, said = conc_for(precision), (req.tgi_version, attention_tp(req))  # s44: TGI's release, DP said
    said = (*said, base.batched_tokens)  # s46: vLLM's prefill chunk as set
    runtime = runtime_for(gpu, precision, base.utilization, named, base.mla_tp_copies, None, *said)
    inf = _without_time(inf, gpu, ledger) if gpu.generic else inf  # a card known by its memory only
    _load_assumptions(req, most, personal(precision), context, ledger)
    _memory_assumptions(req, spec, gpu, inf, runtime, ledger)
    LATE.note_draft(base, ledger) if base.draft else None  # s44: the draft's share, said
    launched = Launch(too_small, requested_count(req), runtime, precision)
    verdict = launched_verdict(serving_verdict(req, inf, gpu, spec), launched, spec, gpu, inf, ledger)
    resize = partial(size, precision)  # "how many fit": counted again at a raised share (s33 #1)
    unloaded = not (req.concurrency or req.users or req.target_tokens_per_s)  # no load stated (s33 fixc #1)
    held = (most or unloaded) and (req.concurrency_asked or unloaded) and requested_count(req)
    held = held and partial(LATE.held_at_share, most, resize, runtime, req, ledger)
    inf, (feasible, reason) = at_stated_share(req, (inf, verdict), (gpu, runtime), held or resize, ledger)
    if fp8 is not None and (feasible == "yes" or (reason == "tight" and not req.concurrency_asked)):  # s28 H2
        feasible, reason = "borderline", "fp8_only"
    _total_memory_note(req, inf, gpu, feasible, ledger)
    if feasible == "yes" and local is not None and precision is Precision.q4_k_m:
        feasible, reason = "borderline", "local_4bit_excluded" if req.excluded_bits == 8 else "local_4bit"
    if feasible == "yes" or req.lmdeploy_version:  # s33: llama.cpp -fa; s34: vLLM's graphs; s42: lmdeploy
        feasible, reason = runtime_edges(req, inf, (spec, gpu, runtime), (feasible, reason), ledger)
    _serving_notes(req, spec, gpu, inf, conc := most[0] if held and most else conc, reason, runtime, ledger)
    LATE.check_serving_budget(req, inf := with_load_cost(LATE.on_schedule(req, inf, ledger)), price, ledger)
    return ServingResult(inf, feasible, reason, precision, context, conc, price[2] if price else None, base)


def _without_time(inf: Inference, gpu: GpuSpec, ledger: Ledger) -> Inference:
    """A card known by its memory only: no speed or cost figures (noted)."""
    ledger.note("generic_gpu_no_time", gpu=gpu.name)
    return inf.model_copy(update={"decode_tokens_per_s": None, "prefill_seconds": None})


def _capacity_on_count(
    req: SizingRequest, spec: ModelSpec, gpu: GpuSpec, named: str | None, sized: tuple[Precision, Inference],
    most: list[int], size: Callable[..., Inference], ledger: Ledger,
) -> tuple[Inference, Precision, Inference | None]:  # fmt: skip
    """ "How many at once on my GPUs": the most sequences the user's count holds in ``sized``'s weights;
    when 16-bit weights do not fit that count and FP8 does (trial s21 #4,
    :func:`estimator.serving_capacity.fp8_on_count`), the most in FP8 on it, the precision replaced in
    ``ledger``. Returns (answer, precision, the FP8 answer or None)."""
    precision, inf = sized
    rt = runtime_for(gpu, precision, named=named, mla_tp_copies=LATE.mla_tp_copies(req, spec))
    inf = LATE.at_capacity(most, lambda: size(precision), inf, rt, req.max_num_seqs)
    fp8 = LATE.fp8_on_count(req, gpu, precision, inf, size, ledger)
    if fp8 is None:  # the most that still decode at a usable speed, when asked (s41 trial #2)
        return LATE.at_speed_floor(req, most, partial(size, precision, at=True), inf, ledger), precision, None
    most.clear()
    rt = runtime_for(gpu, Precision.fp8, named=named, mla_tp_copies=LATE.mla_tp_copies(req, spec))
    inf = LATE.at_capacity(most, lambda: size(Precision.fp8), fp8, rt, req.max_num_seqs)
    ledger.replace("precision", Precision.fp8.value, Why.fp8_on_count)
    return (
        LATE.at_speed_floor(req, most, partial(size, Precision.fp8, at=True), inf, ledger),
        Precision.fp8,
        fp8,
    )


def _total_memory_note(
    req: SizingRequest, inf: Inference, gpu: GpuSpec, feasible: str, ledger: Ledger
) -> None:
    """'我有 160G 显存': the verdict on a total memory given without a GPU count, with what the load needs."""
    if req.total_memory_gib and requested_count(req) is None:
        cards = max(1, math.ceil(req.total_memory_gib / gpu.memory_gib))
        ledger.note(
            f"total_memory_{feasible}",
            total_gib=req.total_memory_gib,
            need_bytes=serving_need(req, inf, cards),
        )


def _stated_layout(
    inf: Inference, group: tuple[int, int], sized: Callable[..., Inference], ledger: Ledger, asked: bool
) -> tuple[Inference, tuple[int, int] | None]:
    """``inf`` on the user's TP × PP, or ``free = sized()`` when one copy cannot hold a sequence; noting
    the free layout's fewer GPUs and TP × PP (``sized(count)``) unless the load is ``asked`` (s19b #3)."""
    free = sized()
    if inf.max_concurrency == 0 and free.max_concurrency > 0:  # one copy of TP × PP cannot hold it
        ledger.note("stated_layout_too_small", tp=group[0], pp=group[1], free_tp=free.tp, free_pp=free.pp)
        return free, None
    if free.recommended_gpus < inf.recommended_gpus and not asked:
        at = free if free.recommended_gpus == free.serving_gpus else sized(free.recommended_gpus)
        ledger.note(
            "stated_layout_needs_more", tp=group[0], pp=group[1], gpus=inf.recommended_gpus,
            free_gpus=free.recommended_gpus, free_tp=at.tp, free_pp=at.pp, load=inf.concurrency,
        )  # fmt: skip
    return inf, group


def _quiet(req: SizingRequest, base: ServingSetup) -> bool:
    """No load to lay out on a stated TP × PP: the most sequences asked, or 'will it start?' with no load
    said — the start-up check only (s38 fixs #2); or vLLM's DP ranks with EP, whose group is not the TP
    the user typed (estimator.serving_group.vllm_ep_group, s45): 'your TP 16' would name a flag never set."""
    unloaded = not (req.concurrency or req.users or req.target_tokens_per_s)
    return base.most_sequences or (bool(req.start_asked) and unloaded) or dp_engine_ranks(req)


def _named_default_context(req: SizingRequest) -> int | None:
    """The named runtime's own default context (Ollama's ``num_ctx``), which caps every sequence."""
    return runtime_named(req.runtime.value).default_context if req.runtime is not None else None


def _serve_context(req: SizingRequest, spec: ModelSpec, ledger: Ledger) -> int:
    """Tokens per sequence: the user's, else the engine's ``max_model_len`` they set (a sequence may grow
    to it: max_num_seqs × max_model_len is the KV cache the worst case needs), else the model's serving
    context (reasoning models), else the default (:data:`estimator.defaults.SERVE_CONTEXT`). A stated
    length beyond the model's ``max_position_embeddings`` is noted (vLLM refuses such a max_model_len
    unless ``VLLM_ALLOW_LONG_MAX_MODEL_LEN=1``: vllm/config.py ``_get_and_verify_max_len``)."""
    if req.seq_len:
        context = req.seq_len
    elif req.max_model_len:  # the engine's limit: each sequence may grow to it
        context = req.max_model_len
    elif (engine := _named_default_context(req)) is not None:
        context = int(ledger.assume("context", engine, Why.runtime_default_context))
    elif spec.serve_context:
        context = int(ledger.assume("context", spec.serve_context, Why.reasoning_context))
    else:  # the default, at most the model's own window (Falcon-7B's 2,048: s49 leftovers #2)
        context = int(ledger.assume("context", *defaults.serve_context(spec)))
    tokens, stated = max(context, req.max_model_len or 0), bool(req.seq_len or req.max_model_len)
    runtime = req.runtime or (Runtime.vllm if req.max_model_len else None)
    beyond_window(spec, tokens, ledger, stated, runtime, req.release)  # the typed release's window (s38)
    return context


def _load_assumptions(
    req: SizingRequest, most: list[int], personal: bool, context: int, ledger: Ledger
) -> None:
    """The ledger line of the concurrency when the user stated none: the most their GPUs hold when
    that was asked (or, with no load, only FP8 fits them: s28 H2), else one user on a personal
    machine, else a team's 16."""
    if most:  # asked, a tokens/s target, or no load and only FP8 fits the stated GPUs (s28 H2)
        target = None if req.concurrency_asked else req.target_tokens_per_s
        held = Why.concurrency_asked if req.concurrency_asked else Why.most_held
        volume = req.requests_per_day or req.requests_per_hour  # the target from a request volume (s35)
        why = (Why.volume_concurrency if volume else Why.throughput_target) if target else held
        if not (req.qps and any(a.field == "concurrency" for a in ledger.assumptions)):  # rate_load's (s43)
            ledger.assume("concurrency", most[0], why, **({"target_tokens_per_s": target} if target else {}))
    elif not req.concurrency:
        default_conc = _default_concurrency(personal, context, req.users)
        why = Why.ollama_num_parallel if req.runtime == Runtime.ollama and default_conc.value == 1 else None
        ledger.assume(
            "concurrency",
            default_conc.value,
            why or default_conc.why,
            citation=OLLAMA_SLOTS_SOURCE if why else None,
            **({"users": req.users} if req.users else {}),
        )
    if req.runtime == Runtime.ollama:  # its OLLAMA_NUM_PARALLEL slots (s40 fixs #2)
        ollama_slots(req, most[0] if most else req.concurrency or 1, context, ledger)


def _memory_assumptions(
    req: SizingRequest, spec: ModelSpec, gpu: GpuSpec, inf: Inference, runtime: ServingRuntime, ledger: Ledger
) -> None:
    """The ledger lines of the memory model: totals as sold, the runtime's share, workspace, MLA layout."""
    fork = runtime.fork_params  # a fork (Aphrodite) named in its lines (s38-fixs2 #3)
    if req.total_memory_gib:
        ledger.assume("total_memory_gib", req.total_memory_gib, Why.total_memory_as_sold)
    if gpu.gpu_memory_fraction:  # unified memory: the GPU's default working set is the cap
        ledger.assume("gpu_memory_utilization", gpu.gpu_memory_fraction, Why(gpu.unified_share_why))
    elif (share := runtime.utilization_assumed(gpu, inf.tp, spec, inf.pp)) is not None:
        ledger.assume("gpu_memory_utilization", share.value, share.why, **fork)
    # bytes per GPU (the renderer formats); a fork (Aphrodite) named in both lines (s38-fixs2 #3)
    why, params = runtime.workspace_why, fork
    if spec.vision is not None and type(runtime) is Vllm and not runtime.engine_v0:  # its encoder's run (s47)
        why, params = encoder_profile_params(spec, gpu, inf.tp, runtime.batched_tokens) or (why, fork)
    ledger.assume("workspace_bytes", inf.workspace_bytes_per_gpu, why, **params)
    LATE.indexer_assumption(spec, ledger)  # DeepSeek-V3.2's indexer key cache, in the KV per token
    if spec.kv_lora_rank and inf.tp > 1 and not runtime.splits_layers:  # llama.cpp: no TP (s38 fixs #5)
        ledger.assume("kv_layout", *LATE.mla_layout(req, spec))  # estimator.mla_layout
        LATE.note_assumed_dp_attention(req, spec, inf, ledger)
    elif runtime.dp_said and inf.tp > 1:  # GQA under DP attention: the weights kept whole, said (s45)
        LATE.note_replicated(spec, inf, ledger, int(runtime.dp_said))
    if runtime.memory_key == "--mem-fraction-static" and not runtime.utilization and inf.min_gpus > 1:
        LATE.note_raised_fraction(req, spec, inf, ledger)  # SGLang's default misses the count (s40 #8)
    _prefill_assumption(gpu, inf, ledger)


def _prefill_assumption(gpu: GpuSpec, inf: Inference, ledger: Ledger) -> None:
    """The MFU the time to first token used (s39 fixs #1): its matmuls' time at the peaks ÷ the time — the
    fitted prefill MFU (capped on a power-limited card at its sustained matmul rate,
    :func:`estimator.serving_speed.power_capped_mfu`) × (1 − the share of the time in tensor-parallel
    all-reduces, :func:`estimator.serving_speed.prefill_seconds`). Llama-3-70B, 4,096 tokens on 8 × H100:
    0.675 × 112.4 / (112.4 + 61.3) ms = 0.437, all-reduces 35 %; one GPU 0.675, one L4 0.491."""
    sustained = SUSTAINED_TFLOPS_16BIT.get(gpu.id)
    if not inf.prefill_seconds or (not inf.prefill_allreduce_seconds and sustained is None):
        return  # one GPU at the fitted MFU: the default, no line (the render-call pins)
    share, mfu = inf.prefill_allreduce_seconds / inf.prefill_seconds, FITTED.prefill_mfu
    why, params = (
        (Why.prefill_tp, {"tp": inf.tp, "mfu_allreduce_share": share}) if share else (Why.prefill_fitted, {})
    )
    if sustained is not None and sustained[0] * 1e12 < mfu * gpu.peak_flops_16bit:
        mfu = sustained[0] * 1e12 / gpu.peak_flops_16bit
        params |= {"sustained_tflops": sustained[0], "peak_tflops": gpu.peak_flops_16bit / 1e12}
        ledger.assume(
            "prefill_mfu",
            mfu * (1 - share),
            why,
            also=(Why.prefill_power_capped,),
            citation=sustained[1],
            mfu_fitted=FITTED.prefill_mfu,
            **params,
        )
        return
    ledger.assume("prefill_mfu", mfu * (1 - share), why, mfu_fitted=FITTED.prefill_mfu, **params)


def _serving_notes(
    req: SizingRequest,
    spec: ModelSpec,
    gpu: GpuSpec,
    inf: Inference,
    conc: int,
    reason: str | None,
    runtime: ServingRuntime,
    ledger: Ledger,
) -> None:
    """Warnings: vLLM refusing to start, too few GPUs or too much load, TP over PCIe, pipeline stages."""
    LATE.note_short_of_target(req.target_tokens_per_s, inf, ledger, bool(req.prompt_tokens))  # a load too
    LATE.note_prefill_load(LATE.prefill_in_decode(req), runtime.paged, inf, ledger)  # chunked prefill (s41)
    LATE.stated_speed_check(req, inf, ledger)  # each sequence at the speed per user stated? (s41 review #2)
    count = requested_count(req)
    limit = engine_limit(req, inf, spec)  # vLLM checks one whole max_model_len
    if refused_to_start(req, inf, runtime, spec):
        ledger.note("vllm_refuses", kv_tokens=inf.kv_capacity_tokens, max_model_len=limit)
        if takes_model_length(req) and limit > inf.context_tokens:
            ledger.note("max_model_len_from_model", max_model_len=limit, kv_tokens=inf.kv_capacity_tokens)
        assert count is not None
        at_max = _capacity_at_max_utilization(spec, gpu, inf, count)
        if at_max >= limit and (runtime.utilization or 0) < defaults.MAX_GPU_MEMORY_UTILIZATION:
            utilization = defaults.MAX_GPU_MEMORY_UTILIZATION
            ledger.note("vllm_starts_at_max_utilization", kv_tokens=at_max, utilization=utilization)
    note_unsupported_gpu(req, runtime, gpu, ledger)
    note_int8_kv(req, runtime, ledger)
    never = inf.pp > 1 and inf.pp >= spec.layers and inf.max_concurrency < 1  # no count holds a sequence
    if req.gpu_count and req.gpu_count < inf.min_gpus:
        if reason != "full_memory" and not never:  # the verdict already says how it fits, or that none does
            ledger.note("does_not_fit_requested", gpu_count=req.gpu_count, min_gpus=inf.min_gpus)
    elif req.gpu_count and inf.max_concurrency < conc:
        code = "concurrency_limited" if req.concurrency else "concurrency_limited_assumed"
        fp8 = {"kv_fp8": True} if one_byte_kv(inf.kv_precision) else {}  # already the advice (fp8 or int8)
        fp8 = {"gguf_kv": True} if runtime.kv_type_flags and not fp8 else fp8  # -ctk/-ctv (s39 fixm #3)
        ledger.note(code, max_concurrency=inf.max_concurrency, concurrency=conc, **fp8)
    LATE.layout_notes(req, gpu, inf, runtime, never, ledger)  # TP over PCIe, pipeline stages, TP across nodes


def _capacity_at_max_utilization(spec: ModelSpec, gpu: GpuSpec, inf: Inference, count: int) -> int:
    """vLLM's KV cache on the user's ``count`` GPUs at ``gpu_memory_utilization`` 0.95
    (:data:`estimator.defaults.MAX_GPU_MEMORY_UTILIZATION`)."""
    tp, pp = group_on(count, spec, gpu)
    rt = Vllm(defaults.MAX_GPU_MEMORY_UTILIZATION)
    load = Load(inf.context_tokens, inf.prompt_tokens)
    kv_bytes = 1.0 if one_byte_kv(inf.kv_precision) else 2.0
    return kv_capacity_tokens(spec, gpu, inf.weights_bytes, tp, pp, rt, load, kv_bytes)
