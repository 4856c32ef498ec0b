"""Serving: the answer for one serving setup (:class:`ServingSetup` → :func:`serve`): weights as
checkpoints ship, KV cache, each runtime's own memory, GPUs and layout, decode/prefill speed, cost.

Memory per GPU = the runtime's budget (:func:`usable_bytes_per_gpu`) − what it keeps besides the
weights and the KV cache (:func:`workspace_bytes`); the rest holds the KV cache
(:func:`kv_capacity_tokens`). Each runtime sizes these its own way (:mod:`estimator.runtimes`: vLLM,
SGLang, transformers, llama.cpp). The parts live in their own modules, re-exported here:
:mod:`estimator.weights` (weights and KV bytes), :mod:`estimator.runtimes`,
:mod:`estimator.serving_layout` (GPUs and layout), :mod:`estimator.serving_speed` (speed and cost).

Sizes in bytes, speeds in tokens per second, times in seconds, prices per GPU-hour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from estimator.catalog import GpuSpec, ModelSpec
from estimator.copying import replace
from estimator.defaults import CUDA_CONTEXT_BYTES
from estimator.later import later
from estimator.models import Currency, DecodeSpeed, Inference, Precision
from estimator.runtimes import (
    CUDA_VISIBLE_FRACTION,
    GGUF_FORMATS,
    GIB,
    LOCAL,
    LOCAL_UBATCH_TOKENS,
    NO_LOAD,
    PROMPT_SHARE,
    SGLANG,
    TRANSFORMERS,
    VLLM,
    Load,
    ServingRuntime,
    hf_forward_bytes,
    hf_workspace_bytes,
    largest_matrix,
    runtime_for,
    sglang_fraction,
    sglang_mem_fraction,
    visible_bytes,
    vllm_profile_bytes,
    vllm_utilization,
)
from estimator.runtimes.sglang import SGLANG_DP_ATTENTION_GIB, SGLANG_RESERVED_GIB, SGLANG_RESERVED_LARGE_GIB
from estimator.runtimes.vllm import (
    BATCHED_TOKENS_LARGE,
    BATCHED_TOKENS_SMALL,
    MAX_SEQS_LARGE,
    MAX_SEQS_SMALL,
    MOE_EXPERT_OUTPUT_COPIES,
    SAMPLER_BYTES_PER_ROW_VOCAB,
    V0_CHUNKED_PREFILL_ABOVE,
    V0_CHUNKED_TOKENS,
    V0_MIN_BATCHED_TOKENS,
    VLLM_BLOCK_TOKENS,
    VLLM_NON_TORCH_BYTES,
    VLLM_V0_NON_TORCH_BYTES,
    forward_peak_bytes,
    sampler_peak_bytes,
    v0_batched_tokens,
    vllm_batch_defaults,
)
from estimator.search_keep import kept_runtime
from estimator.serving_layout import (
    MAX_SERVING_PP,
    MOST_SEQUENCES,
    Layout,
    _groups,
    _kv_replication,
    bytes_per_gpu_on,
    group_on,
    kv_capacity_tokens,
    layout_for,
    layout_on,
    lighter_weights,
    max_sequences,
    most_that_fit,
    required_bytes,
    room_per_gpu,
    sequences_per_replica,
    serving_layout,
    tp_options,
    usable_bytes_per_gpu,
    workspace_bytes,
)
from estimator.serving_speed import (
    DECODE_BANDWIDTH_EFFICIENCY,
    DECODE_MFU,
    HOURS_PER_MONTH,
    PREFILL_MFU,
    allreduce_seconds,
    decode_speed,
    prefill_seconds,
    priced_speed,
    serving_cost,
    step_floor_parts,
)
from estimator.weights import (
    BITS_PER_WEIGHT,
    GROUP_SIZE,
    INT8_ROW_SCALE_BITS,
    QUANTIZED_BODY_ONLY,
    bytes_per_param,
    kv_bytes_per_sequence,
    kv_bytes_per_token,
    kv_read_bytes_per_sequence,
    quantized_bits,
    weight_bytes,
    windowed_layers,
)

(with_prefill,) = later("estimator.prefill_load", "with_prefill")  # stated prompts only: not held idle (s41)
exl2_name, exl2_weight_bytes = later("estimator.exl2_weights", "exl2_name", "exl2_weight_bytes")  # EXL2 only
(draft_memory,) = later("estimator.draft_model", "draft_memory")  # a draft model named only (s44)
(kv_pair,) = later("estimator.kv_types", "kv_pair")  # on first call (s48-startup)

CONTEXT_TABLE = (2048, 4096, 8192, 16384, 32768, 131072)
"""Context lengths of the answer's concurrency table (up to the model's or the asked context)."""


@dataclass(frozen=True)
class ServingSetup:
    """One serving question: the model, the card, the weights, the load and what the user stated."""

    spec: ModelSpec
    params: float
    active: float | None
    """Active parameters per token (MoE); None: all of them."""
    gpu: GpuSpec
    precision: Precision
    context_tokens: int
    concurrency: int
    gpu_count: int | None = None
    kv_precision: Precision = Precision.bf16
    prompt_tokens: int | None = None
    price: tuple[float, float, Currency] | None = None
    """(low, high, currency) per GPU-hour."""
    utilization: float | None = None
    """vLLM ``gpu_memory_utilization`` or SGLang ``mem_fraction_static`` as stated."""
    runtime: str | None = None
    """The engine the user named (:class:`estimator.models.Runtime` value), if any."""
    mla_tp_copies: bool = False
    """An MLA model under a TP the user stated without DP attention (:attr:`ServingRuntime.mla_tp_copies`)."""
    kv_v: str | None = None
    """The V cache's type when K's and V's differ (llama.cpp -ctk/-ctv apart): ``kv_precision`` is K's."""
    group: tuple[int, int] | None = None
    """A (TP, PP) the user stated ("--tensor-parallel-size 4"): every copy of the model uses it."""
    most_sequences: bool = False
    """Lay the user's GPUs out to hold the most sequences ("how many at once?"), not replicas of the load."""
    price_at_capacity: bool = False
    """No load stated: priced at the most sequences held (:func:`priced_speed`), not at ``concurrency``."""
    flash_attention: bool | None = None
    """llama.cpp's flash attention as stated (``-fa off``: False); None: its default, on."""
    bits_per_weight: float | None = None
    """EXL2 bits per weight as stated (:mod:`estimator.exl2_weights`): the weights sized at it."""
    prefill_in_decode: bool = False
    """The prompts' prefill slows the decode steps (:mod:`estimator.prefill_load`); False: a target's own."""
    tgi_version: str | None = None
    """TGI's release as stated: its own share of the card (:func:`estimator.tgi_release.release_share`)."""
    dp_said: int = 0
    """DP attention as stated, as its ranks' attention TP (:func:`estimator.serving_group.attention_tp`; 0:
    not stated): the weights each rank keeps whole (:attr:`ServingRuntime.dp_said`, s44, s45)."""
    draft: tuple[ModelSpec, float] | None = None
    """Speculative decoding's draft (spec, params): its weights and KV on the same GPUs (s44)."""
    batched_tokens: int | None = None
    """vLLM's ``max_num_batched_tokens`` as set (:attr:`Vllm.batched_tokens`, s46); None: its default."""

    @property
    def serving_runtime(self) -> ServingRuntime:
        """The runtime whose memory model applies (:func:`estimator.runtimes.runtime_for`)."""
        rt, copies, fa, dp = self.runtime, self.mla_tp_copies, self.flash_attention, self.dp_said
        said = (self.tgi_version, dp, self.batched_tokens)
        return runtime_for(self.gpu, self.precision, self.utilization, rt, copies, fa, *said)


class _Footprint(NamedTuple):
    """Weights and KV cache of a :class:`ServingSetup`, and the load its runtime's workspace sees."""

    active: float
    weights: float
    bpp: float
    kv_b: float
    kv_seq: float
    kv_read: float
    """The target's KV bytes per sequence, the draft's left out: the speed is without speculation."""
    rt: ServingRuntime
    prompt: int
    load: Load
    one: Load


def _footprint(s: ServingSetup) -> _Footprint:
    """Weights (total params; every expert is resident), bytes per weight averaged over the model (16-bit
    embeddings included), KV bytes per value (1 for fp8/int8 KV, else 2) and per sequence, the load."""
    bpw = s.bits_per_weight
    weights = exl2_weight_bytes(s.spec, s.params, bpw) if bpw else weight_bytes(s.spec, s.params, s.precision)
    kv_b = kv_pair(s.kv_precision, s.kv_v)[0]
    draft_w, kv_ratio = draft_memory(s.spec, s.draft) if s.draft else (0.0, 0.0)  # s44: the draft's share
    rt = kept_runtime(s.serving_runtime, s.spec, s.gpu)  # its workspaces asked once, kept across answers
    prompt = s.prompt_tokens or int(s.context_tokens * PROMPT_SHARE)
    batch = s.concurrency if rt.prefills_batch else 1
    load = Load(s.context_tokens, prompt, batch, s.precision)
    read = kv_read_bytes_per_sequence if s.spec.chunked_layers else kv_bytes_per_sequence  # s45: chunk reads
    kv_read = read(s.spec, s.context_tokens, kv_b)  # the target's: what a decode step reads
    stored = kv_ratio or s.spec.chunked_layers  # what is held differs from what is read
    kv_seq = kv_bytes_per_sequence(s.spec, s.context_tokens, kv_b * (1 + kv_ratio)) if stored else kv_read
    return _Footprint(
        active=s.active or (s.params - s.spec.vision.params if s.spec.vision else s.params),  # no VL tower
        weights=weights + draft_w,
        bpp=weights / s.params,
        kv_b=kv_b * (1 + kv_ratio),
        kv_seq=kv_seq,
        kv_read=kv_read,
        rt=rt,
        prompt=prompt,
        load=load,
        one=load._replace(batch=1),
    )


class _Layouts(NamedTuple):
    min_gpus: int
    recommended: int
    use: Layout
    serving: int
    fits_count: bool
    min_without_dp_attention: bool
    min_split: tuple[int, int]


def _layouts(s: ServingSetup, f: _Footprint) -> _Layouts:
    """The fewest GPUs (weights + one full-context sequence), the recommendation (the load), and the
    layout speed and cost refer to: the user's count when it holds the model, else the recommendation."""
    spec, gpu, rt = s.spec, s.gpu, f.rt
    tp_min, pp_min = layout_for(f.weights, f.kv_seq, spec, gpu, rt, f.one)
    plain = None
    if pp_min >= spec.layers > 1 and spec.kv_lora_rank:  # DP attention never holds it (s43 #2)
        from estimator.plain_tp_min import plain_tp_min

        plain = plain_tp_min(s, f)
    tp_min, pp_min = plain or (tp_min, pp_min)
    min_gpus = tp_min * pp_min
    rec = serving_layout(f.weights, f.kv_seq, s.concurrency, spec, gpu, rt, f.load)
    if s.group is not None:  # the user's TP × PP: copies of it, as many as the load (or their GPUs) take
        per = sequences_per_replica(f.weights, f.kv_seq, spec, gpu, *s.group, rt, f.load)
        rec = Layout(*s.group, max(1, math.ceil(s.concurrency / per)) if per >= 1 else 1)
        # it holds one: no more GPUs needed (s46), where vLLM can shard it: the attention heads split over the
        # TP ranks (vllm/config ParallelConfig verify: num_attention_heads % tensor_parallel_size == 0)
        if per >= 1 and s.group[0] * s.group[1] < min_gpus and spec.heads % s.group[0] == 0:
            min_gpus, tp_min, pp_min = s.group[0] * s.group[1], *s.group
    fits_count = bool(s.gpu_count and s.gpu_count >= min_gpus)
    if s.group is not None and s.gpu_count:
        use = Layout(*s.group, max(1, s.gpu_count // (s.group[0] * s.group[1])))
    elif s.gpu_count and fits_count:
        target = MOST_SEQUENCES if s.most_sequences else s.concurrency  # no layout holds it: the most win
        use = layout_on(s.gpu_count, f.weights, f.kv_seq, spec, gpu, rt, f.load, target)
    else:
        use = rec
    serving = s.gpu_count if s.gpu_count and fits_count else rec.gpus
    return _Layouts(
        min_gpus, max(min_gpus, rec.gpus), use, serving, fits_count, plain is not None, (tp_min, pp_min)
    )


def _speed_and_cost(
    s: ServingSetup, f: _Footprint, use: Layout, serving: int, max_conc: int
) -> tuple[DecodeSpeed | None, DecodeSpeed | None, int, tuple]:
    """(decode speed at the load the GPUs run, decode speed at the load the price is at, that load,
    (per million, per month)).
    llama.cpp and transformers split layers across cards: they take turns, so one card's bandwidth and
    compute set the pace, whatever the count; a server's TP group reads its shards in parallel."""
    speed_tp = 1 if f.rt.splits_layers else use.tp
    batch_run = max(1, min(s.concurrency, max_conc))
    answer = s.context_tokens - f.prompt if s.prefill_in_decode and f.rt.paged else 0  # stated prompts (s41)
    prefill = (_prefill(s, f, use, 1)["prefill_seconds"] or 0.0) if answer > 0 else 0.0

    def decode(batch: int) -> DecodeSpeed | None:
        """Decode speed of ``batch`` sequences over all replicas of ``use``."""
        per_replica = max(1, math.ceil(batch / use.replicas))
        one = decode_speed(
            s.spec,
            s.params,
            f.active,
            s.gpu,
            speed_tp,
            f.bpp,
            f.kv_read,
            per_replica,
            s.precision,
            comm=True,
            pp=1 if f.rt.splits_layers else use.pp,
            fixed=step_floor_parts(f.rt.local, s.gpu.unified_memory, speed_tp * use.pp == 1),
        )
        one = with_prefill(one, prefill, answer) if prefill else one  # chunked prefill shares the steps
        if one is not None and use.replicas > 1:
            one = one.model_copy(update={"aggregate": one.aggregate * use.replicas, "batch": batch})
        return one

    speed = decode(batch_run) if max_conc else None
    priced = max_conc if s.price_at_capacity and max_conc > batch_run else batch_run
    at_price = priced_speed(speed, priced, decode)
    return speed, at_price, priced, serving_cost(serving, at_price, s.price)


def serve(s: ServingSetup) -> Inference:
    """Weights + KV cache for ``concurrency`` sequences of ``context_tokens``; GPUs, speed, cost.

    All experts of a MoE model are resident (weights use total params); compute uses ``active``.
    ``min_gpus`` holds the weights and one full-context sequence (vLLM: a ``max_model_len`` of
    ``context_tokens`` fits its KV cache); ``recommended_gpus`` the requested concurrency. Speed and
    cost refer to ``gpu_count`` if given, else the recommendation; ``kv_capacity_tokens`` to the
    user's GPUs when given (whether or not they fit), else to the layout used.
    """
    spec, gpu, f = s.spec, s.gpu, _footprint(s)
    rt, weights, kv_seq, kv_b = f.rt, f.weights, f.kv_seq, f.kv_b
    lay = _layouts(s, f)
    use = lay.use
    longer: dict[Load, int] = {}  # _most_held's count at 32,769 tokens, for this footprint and layout
    max_conc = _most_held(s, f, use, kv_seq, f.load, longer)
    shape = (use.tp, use.pp)
    if s.gpu_count and not lay.fits_count and not s.group:  # the user's GPUs, whether or not they fit
        shape = group_on(s.gpu_count, spec, gpu)
    speed, at_price, priced, (cost_m, cost_month) = _speed_and_cost(s, f, use, lay.serving, max_conc)
    fp8_weights = weight_bytes(spec, s.params, Precision.fp8)
    fp8_tp, fp8_pp = layout_for(fp8_weights, kv_seq, spec, gpu, rt, f.one._replace(precision=Precision.fp8))
    kv_total = kv_seq * s.concurrency
    usable, reserve = rt.usable_bytes(gpu), rt.workspace_bytes(spec, gpu, use.tp, f.load.with_pp(use.pp))
    return Inference(
        alternatives=lighter_weights(spec, s.params, weights, kv_seq, s.concurrency, gpu, rt, f.load),
        weights_bytes=weights,
        bytes_per_param=f.bpp,
        weight_format=exl2_name(s.bits_per_weight) if s.bits_per_weight else str(s.precision),
        kv_bytes_per_token=kv_bytes_per_token(spec, kv_b),
        kv_bytes_per_sequence=kv_seq,
        kv_bytes_total=kv_total,
        kv_precision=kv_pair(s.kv_precision, s.kv_v)[1],
        context_tokens=s.context_tokens,
        prompt_tokens=f.prompt,
        concurrency=s.concurrency,
        usable_bytes_per_gpu=usable,
        workspace_bytes_per_gpu=reserve,
        engine_reserve_exceeds_memory=rt.share_bytes(usable, reserve) <= 0,
        runtime=rt.name,
        kv_capacity_tokens=kv_capacity_tokens(spec, gpu, weights, *shape, rt, f.one, kv_b),
        required_bytes=(need := required_bytes(spec, gpu, use, weights, kv_total, rt, f.load)),
        bytes_per_gpu=bytes_per_gpu_on(spec, gpu, use, shape, weights, kv_total, rt, f.load, need),
        context_bytes_per_gpu=CUDA_CONTEXT_BYTES.value,  # in bytes_per_gpu, outside usable (required_bytes)
        min_gpus=lay.min_gpus,
        min_without_dp_attention=lay.min_without_dp_attention,
        min_split=lay.min_split,
        recommended_gpus=lay.recommended,
        serving_gpus=lay.serving,
        tp=use.tp,
        pp=use.pp,
        replicas=use.replicas,
        fp8_min_gpus=fp8_tp * fp8_pp if weights > fp8_weights else None,
        min_gpus_concurrency=_held_at_min(s, f, lay.min_gpus),
        max_concurrency=max_conc,
        concurrency_table=_concurrency_table(s, f, use, longer),
        decode_tokens_per_s=speed,
        **_prefill(s, f, use, max_conc),
        cost_per_million_tokens=cost_m,
        priced_concurrency=priced if cost_m is not None else None,
        priced_tokens_per_s=at_price.aggregate if cost_m is not None and at_price else None,
        cost_per_month=cost_month,
    )


def _held_at_min(s: ServingSetup, f: _Footprint, min_gpus: int) -> int:
    """Sequences of the context the fewest GPUs that start it hold (one copy on :func:`layout_for`'s TP ×
    PP): what the headline says those GPUs do at the user's load (trial s22 #2: 4 × RTX 4090 hold 19 of
    the 20 asked, not 'only one sequence')."""
    tp, pp = layout_for(f.weights, f.kv_seq, s.spec, s.gpu, f.rt, f.one)
    if tp * pp != min_gpus:
        return 0
    return _most_held(s, f, Layout(tp, pp, 1), f.kv_seq, f.load)  # its own layout: not ``use``'s memo


def _concurrency_table(
    s: ServingSetup, f: _Footprint, use: Layout, longer: dict[Load, int] | None = None
) -> list[tuple[int, int]]:
    """(context, sequences ``use`` holds at that context) for each of :data:`CONTEXT_TABLE` up to the
    larger of the asked and the model's context. Where the workspace grows with the batch
    (transformers), each row is the most that fit with their own batch (:func:`most_that_fit`).
    ``longer``: :func:`_most_held`'s memo for ``f`` and ``use``."""
    spec, longest = s.spec, max(s.context_tokens, s.spec.max_context or s.context_tokens)

    def row(c: int) -> int:
        kv = kv_bytes_per_sequence(spec, c, f.kv_b)

        def held(batch: int) -> int:
            return _most_held(s, f, use, kv, f.load._replace(context=c, batch=batch), longer)

        if not f.rt.prefills_batch:
            return held(f.load.batch)
        return most_that_fit(held(1), held)

    return [(c, row(c)) for c in CONTEXT_TABLE if c <= longest]


def _most_held(
    s: ServingSetup, f: _Footprint, use: Layout, kv: float, load: Load, longer: dict[Load, int] | None = None
) -> int:
    """Sequences of ``load.context`` tokens (``kv`` bytes each) that ``use`` holds, never fewer than it
    holds at a longer context (vLLM V0 only, :attr:`ServingRuntime.profiles_whole_sequence`; V1's
    profile does not depend on the context). vLLM V0 profiles a whole ``max_model_len`` up to 32,768
    tokens and chunks prefill above it (:func:`v0_batched_tokens`): DeepSeek-V3 on 8 × H20 kept 2.6 GB
    per GPU more working memory at 32K than at 64K, and held 4 sequences at 32K but 6 at 64K on the same
    TP 8. A sequence of at most 32K tokens also runs on a server started with chunked prefill for 32,769 (V1,
    the default since v0.8, chunks at any length), so the count is at least what that server holds of
    32,769-token sequences (13 here). ``kv_capacity_tokens`` stays the start-up log at ``max_model_len``
    = the context (whether vLLM starts: vllm-project/vllm#10517). ``longer``: the 32,769-token counts
    by load, kept for one ``f`` and ``use`` (the same for every row of :func:`_concurrency_table`)."""
    held = max_sequences(s.spec, s.gpu, use, f.weights, kv, f.rt, load)
    if f.rt.profiles_whole_sequence and load.context <= V0_CHUNKED_PREFILL_ABOVE:
        at = load._replace(context=V0_CHUNKED_PREFILL_ABOVE + 1)
        found = None if longer is None else longer.get(at)
        if found is None:
            kv_longer = kv_bytes_per_sequence(s.spec, at.context, f.kv_b)
            found = max_sequences(s.spec, s.gpu, use, f.weights, kv_longer, f.rt, at)
            if longer is not None:
                longer[at] = found
        held = max(held, found)
    return held


def _prefill(s: ServingSetup, f: _Footprint, use: Layout, max_conc: int) -> dict[str, float | None]:
    """Time to first token on the layout used (one card's pace when the runtime splits layers) and its
    tensor-parallel all-reduces (s39 fixs #1), as the Inference fields."""
    if not max_conc:
        return {"prefill_seconds": None}
    tp = 1 if f.rt.splits_layers else use.tp
    comm = allreduce_seconds(s.spec, s.gpu, tp, f.prompt) if tp > 1 else 0.0
    seconds = prefill_seconds(f.active, f.prompt, s.gpu, tp, s.spec, s.precision, allreduce=comm)
    return {"prefill_seconds": seconds, "prefill_allreduce_seconds": comm}


def size_inference(
    spec: ModelSpec,
    params: float,
    active: float | None,
    gpu: GpuSpec,
    precision: Precision,
    context_tokens: int,
    concurrency: int,
    gpu_count: int | None = None,
    **stated: object,
) -> Inference:
    """:func:`serve` of the :class:`ServingSetup` these arguments make (``stated``: its other fields by
    name: ``kv_precision``, ``prompt_tokens``, ``price``, ``utilization``, ``runtime``, ``group``,
    ``most_sequences``, ``price_at_capacity``)."""
    setup = ServingSetup(spec, params, active, gpu, precision, context_tokens, concurrency, gpu_count)
    return serve(replace(setup, **stated))


__all__ = [
    "BATCHED_TOKENS_LARGE", "BATCHED_TOKENS_SMALL", "BITS_PER_WEIGHT", "CUDA_VISIBLE_FRACTION",
    "DECODE_BANDWIDTH_EFFICIENCY", "DECODE_MFU", "GGUF_FORMATS", "GIB", "GROUP_SIZE", "HOURS_PER_MONTH",
    "INT8_ROW_SCALE_BITS", "LOCAL", "LOCAL_UBATCH_TOKENS", "MAX_SEQS_LARGE", "MAX_SEQS_SMALL",
    "MAX_SERVING_PP", "MOE_EXPERT_OUTPUT_COPIES", "MOST_SEQUENCES", "NO_LOAD", "PREFILL_MFU",
    "PROMPT_SHARE", "QUANTIZED_BODY_ONLY", "SAMPLER_BYTES_PER_ROW_VOCAB", "SGLANG",
    "SGLANG_DP_ATTENTION_GIB", "SGLANG_RESERVED_GIB", "SGLANG_RESERVED_LARGE_GIB", "TRANSFORMERS",
    "V0_CHUNKED_PREFILL_ABOVE", "V0_CHUNKED_TOKENS", "V0_MIN_BATCHED_TOKENS", "VLLM", "VLLM_BLOCK_TOKENS",
    "VLLM_NON_TORCH_BYTES", "VLLM_V0_NON_TORCH_BYTES", "Layout", "Load", "ServingRuntime",
    "ServingSetup", "_groups", "_kv_replication", "bytes_per_param", "decode_speed", "forward_peak_bytes",
    "group_on", "hf_forward_bytes", "hf_workspace_bytes", "kv_bytes_per_sequence", "kv_bytes_per_token",
    "kv_capacity_tokens", "largest_matrix", "layout_for", "layout_on", "lighter_weights", "max_sequences",
    "prefill_seconds", "priced_speed", "quantized_bits", "required_bytes", "room_per_gpu", "runtime_for",
    "sampler_peak_bytes", "sequences_per_replica", "serve", "serving_cost", "serving_layout",
    "sglang_fraction", "sglang_mem_fraction", "size_inference", "tp_options", "usable_bytes_per_gpu",
    "v0_batched_tokens", "visible_bytes", "vllm_batch_defaults", "vllm_profile_bytes", "vllm_utilization",
    "weight_bytes", "windowed_layers", "workspace_bytes",
]  # fmt: skip
