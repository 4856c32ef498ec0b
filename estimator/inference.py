"""Serving: weights by precision, KV cache, GPUs that fit, decode speed (first level).

All sizes in bytes, speeds in tokens per second.
"""

from __future__ import annotations

import math

from estimator.catalog import GpuSpec, ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, GPU_MEMORY_UTILIZATION
from estimator.models import Inference, Precision

BYTES_PER_PARAM: dict[Precision, float] = {
    Precision.fp32: 4.0,
    Precision.bf16: 2.0,
    Precision.fp16: 2.0,
    Precision.fp8: 1.0,
    Precision.int8: 1.0,
    Precision.int4: 4.25 / 8.0,
}
"""Weight bytes per parameter. int4 = GPTQ/AWQ at group size 128: 4 bits + a 16-bit scale per 128
weights (+ zero point) ≈ 4.25 bits (Frantar et al. 2022, GPTQ; Lin et al. 2023, AWQ)."""

DECODE_BANDWIDTH_EFFICIENCY = 0.7
"""Fraction of peak memory bandwidth a decode step achieves (vLLM/TensorRT-LLM reach 60–80 %
of HBM bandwidth on large GEMV-bound steps; stated default)."""


def kv_bytes_per_token(spec: ModelSpec, kv_bytes: float = 2.0) -> float:
    """KV cache bytes per token.

    Standard/GQA/MQA: 2 (K and V) · layers · kv_heads · head_dim · bytes (Pope et al. 2022;
    Ainslie et al. 2023, GQA). MLA (DeepSeek-V2/V3): layers · (kv_lora_rank + qk_rope_head_dim) ·
    bytes — the compressed latent and the decoupled RoPE key (DeepSeek-V2 paper §2.1).
    Example: Llama-3-8B = 2·32·8·128·2 = 131,072 B (128 KiB).
    """
    if spec.kv_lora_rank:
        return spec.layers * (spec.kv_lora_rank + (spec.qk_rope_head_dim or 0)) * kv_bytes
    return 2.0 * spec.layers * spec.kv_heads * spec.head_dim_effective * kv_bytes


def usable_bytes_per_gpu(gpu: GpuSpec) -> float:
    """Memory a serving engine can use on one card: capacity × 0.9 − CUDA context."""
    return gpu.memory_bytes * GPU_MEMORY_UTILIZATION.value - CUDA_CONTEXT_BYTES.value


def tp_options(spec: ModelSpec, gpu: GpuSpec) -> list[int]:
    """Tensor-parallel sizes: powers of two dividing the attention heads, within one node."""
    out, t = [], 1
    while t <= gpu.gpus_per_node:
        if spec.heads % t == 0:
            out.append(t)
        t *= 2
    return out


def gpus_to_fit(need_bytes: float, spec: ModelSpec, gpu: GpuSpec) -> int:
    """Fewest GPUs whose usable memory holds ``need_bytes``: a TP size within a node, else whole
    nodes (pipeline parallel across nodes)."""
    usable = usable_bytes_per_gpu(gpu)
    for t in tp_options(spec, gpu):
        if need_bytes <= usable * t:
            return t
    node = max(tp_options(spec, gpu))
    nodes = math.ceil(need_bytes / (usable * node))
    return nodes * node


def size_inference(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    precision: Precision,
    context_tokens: int,
    concurrency: int,
    gpu_count: int | None = None,
) -> Inference:
    """Weights + KV cache for ``concurrency`` sequences of ``context_tokens``; GPUs that fit.

    ``min_gpus`` holds the weights plus one full-context sequence; ``recommended_gpus`` holds the
    requested concurrency. All experts of a MoE model are resident (weights use total params).
    Decode speed: memory-bandwidth bound, per step reading the weights shard and the KV of the
    batch (Pope et al. 2022, *Efficiently Scaling Transformer Inference*, §2).
    """
    bpp = BYTES_PER_PARAM[precision]
    weights = params * bpp
    kv_tok = kv_bytes_per_token(spec)
    kv_seq = kv_tok * context_tokens
    kv_total = kv_seq * concurrency
    min_gpus = gpus_to_fit(weights + kv_seq, spec, gpu)
    recommended = max(min_gpus, gpus_to_fit(weights + kv_total, spec, gpu))
    serving_gpus = gpu_count or recommended
    room = usable_bytes_per_gpu(gpu) * serving_gpus - weights
    max_conc = max(0, int(room // kv_seq)) if kv_seq > 0 else None
    tp = min(serving_gpus, max(tp_options(spec, gpu)))
    bw = (gpu.memory_bandwidth_gbps or 0) * 1e9 * DECODE_BANDWIDTH_EFFICIENCY
    per_seq = agg = None
    if bw > 0:
        batch = max(1, min(concurrency, max_conc or 1))
        # one decode step: every GPU reads its weight shard and its share of the batch's KV
        step_s = (weights / serving_gpus + kv_tok * (context_tokens / 2) * batch / serving_gpus) / bw
        per_seq = 1.0 / step_s
        agg = per_seq * batch
    return Inference(
        weights_bytes=weights, bytes_per_param=bpp, kv_bytes_per_token=kv_tok, kv_bytes_total=kv_total,
        context_tokens=context_tokens, concurrency=concurrency, min_gpus=min_gpus,
        recommended_gpus=recommended, tp=tp, max_concurrency=max_conc,
        decode_tokens_per_s_per_sequence=per_seq, decode_tokens_per_s_aggregate=agg,
    )
