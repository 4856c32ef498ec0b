"""Serving: weights by precision, KV cache, GPUs and layout, decode/prefill speed, cost.

Sizes in bytes, speeds in tokens per second, times in seconds, prices per GPU-hour.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from estimator.architecture import embedding_params, routed_expert_params
from estimator.catalog import GpuSpec, ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, GPU_MEMORY_UTILIZATION
from estimator.models import Alternative, Currency, DecodeSpeed, Inference, Precision, PriceBand

BITS_PER_WEIGHT: dict[Precision, float] = {
    Precision.fp32: 32.0,
    Precision.bf16: 16.0,
    Precision.fp16: 16.0,
    Precision.fp8: 8.0,
    Precision.int8: 8.0,
    Precision.int4: 4.25,
    Precision.int3: 3.25,
    Precision.int2: 2.25,
    Precision.q8_0: 8.5,
    Precision.q5_k_m: 5.69,
    Precision.q4_k_m: 4.85,
    Precision.q4_0: 4.5,
    Precision.mxfp4: 4.25,
}
"""Bits per weight of each format.

int4 = GPTQ/AWQ at group size 128: 4 bits + a 16-bit scale per 128 weights (+ packed zero points)
≈ 4.25 bits (Frantar et al. 2022, GPTQ §5; Lin et al. 2023, AWQ); int3 and int2 the same at 3 and 2
bits (GPTQ evaluates 3- and 2-bit at group size 128: 3.25 and 2.25). GGUF (llama.cpp): Q4_0 = blocks of
32 weights with one fp16 scale = 4.5 bits; Q8_0 = 8.5 bits; Q4_K_M ≈ 4.85 and Q5_K_M ≈ 5.69 bits
(llama.cpp PR #1684 'k-quants', bits-per-weight table for 7B). MXFP4 = blocks of 32 FP4 (E2M1) values with
one 8-bit (E8M0) scale = 4.25 bits (OCP Microscaling Formats v1.0 §5; gpt-oss model card §2).
"""

DECODE_BANDWIDTH_EFFICIENCY = 0.7
"""Fraction of peak memory bandwidth a decode step reaches. Stated default: optimized engines reach
60–80 % of HBM bandwidth on the GEMV-bound decode (vLLM and TensorRT-LLM benchmarks; Pope et al. 2022 §4)."""

DECODE_MFU = 0.5
"""MFU of a compute-bound decode step at large batch. Stated default: the same 50 % as prefill
(Pope et al. 2022 reach 33–76 % MFU for large-batch decoding and prefill on TPU v4, §4)."""

PREFILL_MFU = 0.5
"""MFU of prefill (compute-bound GEMMs). Pope et al. 2022 report up to 76 % on TPU v4 at large
batch; 50 % is a stated, conservative default for GPU serving engines."""

PROMPT_SHARE = 0.75
"""When only a total context is given, the prompt is taken as 3/4 of it. Stated default: chat and
RAG traffic is prompt-heavy (e.g. the corpus's "prompts ~2k tokens and replies ~500": 80 %)."""

HOURS_PER_MONTH = 730.0
"""Average hours in a month (8,760 / 12)."""


QUANTIZED_BODY_ONLY = frozenset(
    {Precision.fp8, Precision.int8, Precision.int4, Precision.int3, Precision.int2, Precision.mxfp4}
)
"""Formats that quantize the transformer body but keep the token embedding and the output head in
16-bit: GPTQ/AWQ checkpoints (AutoGPTQ/AutoAWQ skip ``embed_tokens`` and ``lm_head``) and FP8/INT8
W8A8 (llm-compressor recipes ``ignore: ["lm_head"]``; embeddings are a lookup, not a GEMM). GGUF's
bits per weight are whole-file averages and already include its own embedding/output types."""


def bytes_per_param(precision: Precision) -> float:
    return BITS_PER_WEIGHT[precision] / 8.0


def weight_bytes(spec: ModelSpec, params: float, precision: Precision) -> float:
    """Bytes of the weights in ``precision``; embeddings and head stay 16-bit where the format keeps them
    (:data:`QUANTIZED_BODY_ONLY`). Qwen2.5-72B int4: 70.2B × 4.25/8 + 2.5B × 2 ≈ 42.3 GB, the size of
    the published AWQ/GPTQ-Int4 checkpoints (≈ 41–42 GB). MXFP4 on a MoE model covers the routed
    experts only, the rest stays bf16 (gpt-oss ``modules_to_not_convert``): gpt-oss-120b 114.7B × 4.25/8 +
    2.1B × 2 ≈ 65.2 GB, the released checkpoint's size."""
    if precision is Precision.mxfp4 and spec.is_moe:  # gpt-oss: the experts only, the rest in bf16
        experts = min(routed_expert_params(spec), params)
        return experts * bytes_per_param(precision) + (params - experts) * 2.0
    if precision not in QUANTIZED_BODY_ONLY:
        return params * bytes_per_param(precision)
    embed = min(embedding_params(spec), params)
    return (params - embed) * bytes_per_param(precision) + embed * 2.0


def kv_bytes_per_token(spec: ModelSpec, kv_bytes: float = 2.0) -> float:
    """KV cache bytes per token of context, summed over all layers.

    Standard/GQA/MQA: 2 (K and V) · layers · kv_heads · head_dim · bytes (Ainslie et al. 2023, GQA).
    MLA (DeepSeek-V2/V3): layers · (kv_lora_rank + qk_rope_head_dim) · bytes — the cached latent
    and the decoupled RoPE key (DeepSeek-V2 paper, §2.1.2).
    Examples (bf16): Llama-3-8B 2·32·8·128·2 = 131,072; DeepSeek-V3 61·(512+64)·2 = 70,272.
    """
    if spec.kv_lora_rank:
        return spec.layers * (spec.kv_lora_rank + (spec.qk_rope_head_dim or 0)) * kv_bytes
    return 2.0 * spec.layers * spec.kv_heads * spec.head_dim_effective * kv_bytes


def windowed_layers(spec: ModelSpec) -> int:
    """Layers whose KV is capped at the sliding window (all of them unless the catalog says fewer)."""
    if not spec.sliding_window:
        return 0
    return spec.sliding_window_layers or spec.layers


def kv_bytes_per_sequence(spec: ModelSpec, context: int, kv_bytes: float = 2.0) -> float:
    """KV bytes for one sequence of ``context`` tokens; sliding-window layers hold at most the window
    (Mistral 7B: 4,096; Gemma 2: every other layer)."""
    per_layer = kv_bytes_per_token(spec, kv_bytes) / spec.layers
    sw = windowed_layers(spec)
    capped = min(context, spec.sliding_window or context)
    return per_layer * ((spec.layers - sw) * context + sw * capped)


class Runtime(NamedTuple):
    """How a serving engine uses a card's memory.

    vLLM-style server: ``gpu_memory_utilization`` (0.9) of the card, an activation workspace profiled
    with its batch defaults. Local runtime (llama.cpp, Ollama, MLX): all memory but the runtime's
    context (Apple: the Metal working set), a compute buffer for one ``n_ubatch`` of 512 tokens and
    one sequence's logits (llama.cpp ``--ubatch-size`` default 512; ``--parallel`` 1).
    """

    name: str
    local: bool
    utilization: float = GPU_MEMORY_UTILIZATION.value
    """A server's share of the card (vLLM ``gpu_memory_utilization``; the user's when stated)."""


VLLM = Runtime("vLLM", False)
LOCAL = Runtime("llama.cpp", True)
GGUF_FORMATS = frozenset({Precision.q8_0, Precision.q5_k_m, Precision.q4_k_m, Precision.q4_0})
"""Weight formats only local runtimes (llama.cpp and those built on it) load."""
LOCAL_UBATCH_TOKENS = 512
"""llama.cpp's default physical batch (``-ub``/``--ubatch-size`` 512): the tokens one compute step holds."""


def runtime_for(
    gpu: GpuSpec, precision: Precision, utilization: float | None = None, named: str | None = None
) -> Runtime:
    """The local runtime for Apple silicon, GGUF weights or a user who names llama.cpp/Ollama; a
    vLLM-style server otherwise, at the user's ``utilization`` when stated. A server the user names
    (SGLang, transformers) keeps its name; its memory is modelled as vLLM's (a stated approximation)."""
    if gpu.gpu_memory_fraction or precision in GGUF_FORMATS or named == LOCAL.name:
        return LOCAL
    if utilization is None and named in (None, VLLM.name):
        return VLLM
    return Runtime(named or VLLM.name, False, utilization or GPU_MEMORY_UTILIZATION.value)


def usable_bytes_per_gpu(gpu: GpuSpec, runtime: Runtime = VLLM) -> float:
    """Memory a serving engine can use on one card: capacity × 0.9 − 1 GiB CUDA context (vLLM default).

    Unified memory (Apple): the GPU's working set (``gpu_memory_fraction`` of the memory, the cap
    llama.cpp and MLX allocate within) − 1 GiB of runtime buffers; a local runtime on a discrete card
    (llama.cpp has no utilization cap) all of it − 1 GiB.
    """
    if gpu.gpu_memory_fraction or runtime.local:
        return gpu.addressable_bytes - CUDA_CONTEXT_BYTES.value
    return gpu.memory_bytes * runtime.utilization - CUDA_CONTEXT_BYTES.value


BATCHED_TOKENS_LARGE, BATCHED_TOKENS_SMALL = 8192, 2048
"""Tokens in one forward pass (vLLM ``max_num_batched_tokens`` for the OpenAI server): 8,192 on cards
of ≥ 70 GiB, else 2,048 (vllm/engine/arg_utils.py, ``get_batch_defaults``); vLLM names A100 as an
exception, kept in the catalog as ``GpuSpec.vllm_small_batch``."""
MAX_SEQS_LARGE, MAX_SEQS_SMALL = 1024, 256
"""Sequences per step (vLLM ``max_num_seqs``), same split and source."""


def workspace_bytes(spec: ModelSpec, gpu: GpuSpec, tp: int, runtime: Runtime = VLLM) -> float:
    """Activation workspace per GPU that a serving engine keeps besides weights and KV cache.

    vLLM sizes the KV cache after profiling a forward pass of ``max_num_batched_tokens`` tokens and
    the sampler's fp32 logits for ``max_num_seqs`` sequences (vLLM docs, "gpu_memory_utilization").
    Modelled as one layer's live activations — hidden states (≈ 4·h, replicated on every TP rank)
    and the MLP's gate, up and activation outputs (3·f, split over TP; for MoE f × (top-k + shared
    experts)) in 16-bit — plus the logits: T·(4h + 3f/t)·2 + S·V·4 bytes. ChatGLM2-6B on a small
    card: 2,048 tokens → 0.3 GB. A local runtime: T = 512 (llama.cpp's n_ubatch), S = 1.
    """
    large = gpu.memory_gib >= 70 and not gpu.vllm_small_batch
    tokens = BATCHED_TOKENS_LARGE if large else BATCHED_TOKENS_SMALL
    seqs = MAX_SEQS_LARGE if large else MAX_SEQS_SMALL
    if runtime.local:
        tokens, seqs = LOCAL_UBATCH_TOKENS, 1
    ffn = spec.active_ffn_hidden
    return tokens * (4 * spec.hidden + 3 * ffn / tp) * 2.0 + seqs * spec.vocab * 4.0


def room_per_gpu(spec: ModelSpec, gpu: GpuSpec, tp: int, runtime: Runtime = VLLM) -> float:
    """Bytes per GPU for weights and KV cache: usable memory minus the activation workspace."""
    return usable_bytes_per_gpu(gpu, runtime) - workspace_bytes(spec, gpu, tp, runtime)


def tp_options(spec: ModelSpec, gpu: GpuSpec) -> list[int]:
    """Tensor-parallel sizes: powers of two dividing the attention heads, within one node."""
    return [t for t in (1, 2, 4, 8, 16) if t <= gpu.gpus_per_node and spec.heads % t == 0]


def _kv_replication(spec: ModelSpec, tp: int) -> float:
    """Copies of each token's KV cache across a TP group.

    GQA/MHA: with TP above the KV-head count each GPU keeps a copy of its KV head (vLLM replicates).
    MLA (DeepSeek-V2/V3/R1): the latent is not split by heads; DeepSeek-style serving runs attention
    data-parallel across the group (SGLang ``--enable-dp-attention``, vLLM DP attention; DeepSeek-V3
    report §3.4), so each sequence's latent lives on one GPU: no copies.
    """
    if spec.kv_lora_rank:
        return 1.0
    return max(1.0, tp / spec.kv_heads)


def layout_for(
    need_weights: float, need_kv: float, spec: ModelSpec, gpu: GpuSpec, runtime: Runtime = VLLM
) -> tuple[int, int]:
    """(tp, pp) of the fewest GPUs holding the weights plus ``need_kv``.

    TP first, within one node; pipeline stages across nodes only when one node cannot hold it.
    """
    options = tp_options(spec, gpu)
    for t in options:
        if need_weights / t + need_kv * _kv_replication(spec, t) / t <= room_per_gpu(spec, gpu, t, runtime):
            return t, 1
    t = options[-1]
    per_node = room_per_gpu(spec, gpu, t, runtime) * t
    total = need_weights + need_kv * _kv_replication(spec, t)
    return t, max(2, math.ceil(total / per_node))


class Layout(NamedTuple):
    """A serving layout: ``replicas`` copies of the model, each on TP × PP GPUs."""

    tp: int
    pp: int
    replicas: int

    @property
    def gpus(self) -> int:
        return self.tp * self.pp * self.replicas


def sequences_per_replica(
    weights: float, kv_seq: float, spec: ModelSpec, gpu: GpuSpec, tp: int, pp: int, runtime: Runtime = VLLM
) -> int:
    """Sequences of ``kv_seq`` bytes that fit next to one copy of the weights on TP × PP GPUs."""
    room = room_per_gpu(spec, gpu, tp, runtime) * tp * pp - weights
    if room <= 0 or kv_seq <= 0:
        return 0
    return int(room // (kv_seq * _kv_replication(spec, tp)))


def serving_layout(
    weights: float, kv_seq: float, concurrency: int, spec: ModelSpec, gpu: GpuSpec, runtime: Runtime = VLLM
) -> Layout:
    """Fewest GPUs for ``concurrency`` sequences: replicas of the smallest-footprint TP group when one
    node holds the weights (vLLM/SGLang scale out with data-parallel replicas; TP stays inside a node),
    else one pipeline across nodes. Ties go to the larger TP group (faster per sequence)."""
    best: tuple[tuple[int, int], Layout] | None = None
    for t in tp_options(spec, gpu):
        per = sequences_per_replica(weights, kv_seq, spec, gpu, t, 1, runtime)
        if per < 1:
            continue
        layout = Layout(t, 1, math.ceil(concurrency / per))
        key = (layout.gpus, -t)
        if best is None or key < best[0]:
            best = (key, layout)
    if best is not None:
        return best[1]
    tp, pp = layout_for(weights, kv_seq * concurrency, spec, gpu, runtime)
    return Layout(tp, pp, 1)


def layout_on(
    gpus: int, weights: float, kv_seq: float, spec: ModelSpec, gpu: GpuSpec, runtime: Runtime = VLLM
) -> Layout:
    """How to use the user's ``gpus``: the TP group size (replicated over the rest) that holds the most
    sequences — fewer, larger groups waste less memory on copies of the weights; ties go to more
    replicas (more throughput). A pipeline across nodes when no single node holds the weights."""
    best: tuple[tuple[int, int], Layout] | None = None
    for t in tp_options(spec, gpu):
        if t > gpus:
            break
        layout = Layout(t, 1, gpus // t)
        seqs = layout.replicas * sequences_per_replica(weights, kv_seq, spec, gpu, t, 1, runtime)
        if seqs >= 1 and (best is None or (seqs, layout.replicas) > best[0]):
            best = ((seqs, layout.replicas), layout)
    if best is not None:
        return best[1]
    tp, pp = layout_for(weights, kv_seq, spec, gpu, runtime)
    return Layout(tp, pp, max(1, gpus // (tp * pp)))


def max_sequences(
    spec: ModelSpec, gpu: GpuSpec, layout: Layout, weights: float, kv_seq: float, runtime: Runtime = VLLM
) -> int:
    """Sequences of one length whose KV fits next to the weights in every replica of ``layout``."""
    return layout.replicas * sequences_per_replica(weights, kv_seq, spec, gpu, layout.tp, layout.pp, runtime)


def decode_speed(
    spec: ModelSpec,
    params: float,
    active: float,
    gpu: GpuSpec,
    tp: int,
    bpp: float,
    kv_seq: float,
    batch: int,
) -> DecodeSpeed | None:
    """Tokens/s of decoding ``batch`` sequences on a TP group (× any number of pipeline stages).

    A token passes the pipeline stages one after another, so a step's time is that of one TP group
    reading all the weights: (weights read + the batch's KV cache) / (TP × bandwidth × 0.7), or
    2·N_active·batch FLOPs at 50 % of TP × the dense peak — whichever is slower (roofline; Pope et
    al. 2022). MoE reads only the experts the batch touches, ≈ min(1, batch·active/total) of them.
    Aggregate = batch / step (pipeline overlap across micro-batches is not counted: conservative).
    """
    bw = (gpu.memory_bandwidth_gbps or 0) * 1e9 * DECODE_BANDWIDTH_EFFICIENCY * tp
    if bw <= 0:
        return None
    touched = min(1.0, batch * active / params) if active < params else 1.0
    t_mem = (params * bpp * touched + kv_seq * batch) / bw
    t_compute = 2.0 * active * batch / (gpu.peak_flops_16bit * DECODE_MFU * tp)
    step = max(t_mem, t_compute)
    return DecodeSpeed(
        per_sequence=1.0 / step,
        aggregate=batch / step,
        batch=batch,
        bound="memory" if t_mem >= t_compute else "compute",
    )


def prefill_seconds(active: float, prompt_tokens: int, gpu: GpuSpec, gpus: int) -> float:
    """Prefill of one prompt: 2·N_active·tokens / (peak × 50 % × GPUs) — ≈ time to first token."""
    return 2.0 * active * prompt_tokens / (gpu.peak_flops_16bit * PREFILL_MFU * gpus)


def serving_cost(
    gpus: int, speed: DecodeSpeed | None, price: tuple[float, float, Currency] | None
) -> tuple[PriceBand | None, PriceBand | None]:
    """(per million output tokens at full load, per month) for ``gpus`` rented at ``price`` per GPU-hour:
    month = GPUs × 730 h × price; per million = GPUs × price / (aggregate tokens/s × 3600) × 10⁶."""
    if not price:
        return None, None
    low, high, cur = price
    month = PriceBand(low=gpus * HOURS_PER_MONTH * low, high=gpus * HOURS_PER_MONTH * high, currency=cur)
    if not speed:
        return None, month
    tokens_per_hour = speed.aggregate * 3600.0
    per_million = PriceBand(
        low=gpus * low / tokens_per_hour * 1e6, high=gpus * high / tokens_per_hour * 1e6, currency=cur
    )
    return per_million, month


def lighter_weights(
    spec: ModelSpec,
    params: float,
    weights: float,
    kv_seq: float,
    concurrency: int,
    gpu: GpuSpec,
    rt: Runtime,
) -> list[Alternative]:
    """The fewest GPUs for the same load with FP8 and INT4 weights, where they are lighter
    (int8 weighs as much as fp8)."""
    out = []
    for p in (Precision.fp8, Precision.int4):
        w = weight_bytes(spec, params, p)
        if w < weights:
            t, pp_ = layout_for(w, kv_seq, spec, gpu, rt)
            fewest = max(t * pp_, serving_layout(w, kv_seq, concurrency, spec, gpu, rt).gpus)
            out.append(Alternative(change=p.value, min_gpus=fewest))
    return out


def size_inference(
    spec: ModelSpec,
    params: float,
    active: float | None,
    gpu: GpuSpec,
    precision: Precision,
    context_tokens: int,
    concurrency: int,
    gpu_count: int | None = None,
    kv_precision: Precision = Precision.bf16,
    prompt_tokens: int | None = None,
    price: tuple[float, float, Currency] | None = None,
    utilization: float | None = None,
    runtime: str | None = None,
) -> Inference:
    """Weights + KV cache for ``concurrency`` sequences of ``context_tokens``; GPUs, speed, cost.

    All experts of a MoE model are resident (weights use total params); compute uses ``active``.
    ``min_gpus`` holds the weights and one full-context sequence; ``recommended_gpus`` the
    requested concurrency. Speed and cost refer to ``gpu_count`` if given, else the recommendation.
    """
    active = active or params
    weights = weight_bytes(spec, params, precision)
    bpp = weights / params  # average over the model (16-bit embeddings included)
    kv_b = bytes_per_param(kv_precision) if kv_precision in (Precision.fp8, Precision.int8) else 2.0
    kv_tok = kv_bytes_per_token(spec, kv_b)
    kv_seq = kv_bytes_per_sequence(spec, context_tokens, kv_b)
    kv_total = kv_seq * concurrency
    rt = runtime_for(gpu, precision, utilization, runtime)
    tp_min, pp_min = layout_for(weights, kv_seq, spec, gpu, rt)
    min_gpus = tp_min * pp_min
    rec = serving_layout(weights, kv_seq, concurrency, spec, gpu, rt)
    recommended = max(min_gpus, rec.gpus)
    # speed and cost refer to the user's count when it holds the model, else to the recommendation
    use = layout_on(gpu_count, weights, kv_seq, spec, gpu, rt) if gpu_count and gpu_count >= min_gpus else rec
    serving = gpu_count if gpu_count and gpu_count >= min_gpus else rec.gpus
    max_conc = max_sequences(spec, gpu, use, weights, kv_seq, rt)
    table = [
        (c, max_sequences(spec, gpu, use, weights, kv_bytes_per_sequence(spec, c, kv_b), rt))
        for c in (2048, 4096, 8192, 16384, 32768, 131072)
        if c <= max(context_tokens, spec.max_context or context_tokens)
    ]
    prompt = prompt_tokens or int(context_tokens * PROMPT_SHARE)
    batch = max(1, min(concurrency, max_conc))
    per_replica_batch = max(1, math.ceil(batch / use.replicas))
    # llama.cpp splits layers across cards (-sm layer): they take turns, so one card's bandwidth and
    # compute set the pace, whatever the count; a server's TP group reads its shards in parallel
    speed_tp = 1 if rt.local else use.tp
    speed = None
    if max_conc:
        speed = decode_speed(spec, params, active, gpu, speed_tp, bpp, kv_seq, per_replica_batch)
    if speed is not None and use.replicas > 1:
        speed = speed.model_copy(update={"aggregate": speed.aggregate * use.replicas, "batch": batch})
    cost_m, cost_month = serving_cost(serving, speed, price)
    alternatives = lighter_weights(spec, params, weights, kv_seq, concurrency, gpu, rt)
    tp, pp = use.tp, use.pp
    fp8_weights = weight_bytes(spec, params, Precision.fp8)
    fp8_tp, fp8_pp = layout_for(fp8_weights, kv_seq, spec, gpu, rt)
    return Inference(
        alternatives=alternatives,
        weights_bytes=weights,
        bytes_per_param=bpp,
        weight_format=precision.value,
        kv_bytes_per_token=kv_tok,
        kv_bytes_per_sequence=kv_seq,
        kv_bytes_total=kv_total,
        kv_precision="fp8" if kv_b == 1.0 else "bf16",
        context_tokens=context_tokens,
        prompt_tokens=prompt,
        concurrency=concurrency,
        usable_bytes_per_gpu=usable_bytes_per_gpu(gpu, rt),
        workspace_bytes_per_gpu=workspace_bytes(spec, gpu, tp, rt),
        runtime=rt.name,
        min_gpus=min_gpus,
        recommended_gpus=recommended,
        serving_gpus=serving,
        tp=tp,
        pp=pp,
        replicas=use.replicas,
        fp8_min_gpus=fp8_tp * fp8_pp if weights > fp8_weights else None,
        max_concurrency=max_conc,
        concurrency_table=table,
        decode_tokens_per_s=speed,
        prefill_seconds=prefill_seconds(active, prompt, gpu, speed_tp) if max_conc else None,
        cost_per_million_tokens=cost_m,
        cost_per_month=cost_month,
    )
