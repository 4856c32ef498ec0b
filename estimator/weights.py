"""Weights as checkpoints ship and the KV cache: bytes per weight of each format, bytes of a model's
weights, KV bytes per token and per sequence (pure; sizes in bytes).

Split from :mod:`estimator.inference` (which re-exports these names).
"""

from __future__ import annotations

from estimator.architecture import embedding_params, routed_expert_params
from estimator.catalog import ModelSpec
from estimator.models import Precision

GROUP_SIZE = 128
"""Weights per quantization group of GPTQ/AWQ checkpoints: ``group_size`` 128, the default of
AutoGPTQ's ``BaseQuantizeConfig`` and AutoAWQ's ``q_group_size``, used by the published Qwen, Llama
and Mistral GPTQ/AWQ releases."""

QUANTIZE_TABLE_PARAMS = 8_030_261_248
"""Parameters of Meta-Llama-3-8B (its safetensors index / model card: 8.03B), the model llama.cpp's quantize
table sizes each GGUF type on."""
QUANTIZE_TABLE_GIB = {
    Precision.q6_k: 6.14,
    Precision.q3_k_l: 4.03,
    Precision.q3_k_m: 3.74,
    Precision.q3_k_s: 3.41,
    Precision.q2_k: 2.96,
}
"""File size (GiB) of Llama-3-8B in each K-quant mix, llama.cpp tools/quantize/quantize.cpp ``QUANT_OPTIONS``
('Q3_K_M: 3.74G, +0.6569 ppl @ Llama-3-8B'; its Q8_0 7.96G is 8.52 bits a weight, Q8_0's 8.5: G is GiB).
Whole-file averages: the output and embedding tensors' own types are inside them."""


def _table_bits(gib: float) -> float:
    """Bits per weight of a whole GGUF file of :data:`QUANTIZE_TABLE_PARAMS` weights ``gib`` GiB large."""
    return gib * 2**30 * 8 / QUANTIZE_TABLE_PARAMS


BITS_PER_WEIGHT: dict[Precision, float] = {
    Precision.fp32: 32.0,
    Precision.bf16: 16.0,
    Precision.fp16: 16.0,
    Precision.fp8: 8.0,
    Precision.int8: 8.0,
    Precision.int4: 4.0 + (16 + 4) / GROUP_SIZE,
    Precision.int3: 3.0 + (16 + 3) / GROUP_SIZE,
    Precision.int2: 2.0 + (16 + 2) / GROUP_SIZE,
    Precision.q8_0: 8.5,
    Precision.q5_k_m: 5.69,
    Precision.q4_k_m: 4.85,
    Precision.q4_0: 4.5,
    **{fmt: _table_bits(gib) for fmt, gib in QUANTIZE_TABLE_GIB.items()},
    Precision.mxfp4: 4.25,
    Precision.nvfp4: 4.5,
}
"""Bits per weight of the quantized body in each format (:func:`quantized_bits` adds per-row scales).

int4/int3/int2 = GPTQ/AWQ at group size 128: b bits per weight + per group of 128 input rows one
fp16 scale and one b-bit zero point (AutoGPTQ ``QuantLinear``: ``qweight`` int32 [in·b/32, out],
``qzeros`` int32 [in/128, out·b/32], ``scales`` fp16 [in/128, out]; AutoAWQ GEMM the same without
``g_idx``) = b + (16 + b)/128: 4.156 bits for int4. Checked against published checkpoints with the
16-bit embeddings and head (:data:`QUANTIZED_BODY_ONLY`): Llama-3.1-8B-Instruct AWQ 5.73 GB,
Qwen2.5-7B-Instruct-GPTQ-Int4 5.58 GB (Hub file sizes). GPTQ's ``g_idx`` (one int32 per input row,
32/out bits) is left out (< 0.01 bit). fp8: 8 bits, one fp32 scale per tensor (compressed-tensors
``FP8``) or per 128×128 block (DeepSeek-V3): < 0.01 % more. int8: 8 bits + one scale per output row
(:func:`quantized_bits`). GGUF (llama.cpp): Q4_0 = blocks of 32 weights with one fp16 scale = 4.5
bits; Q8_0 = 8.5 bits; Q4_K_M ≈ 4.85 and Q5_K_M ≈ 5.69 bits (llama.cpp PR #1684 'k-quants',
bits-per-weight table for 7B): whole-file averages; Q6_K 6.57, Q3_K_L 4.31, Q3_K_M 4.00, Q3_K_S 3.65 and
Q2_K 3.17 bits from llama.cpp's quantize table (:data:`QUANTIZE_TABLE_GIB`, s47). MXFP4 = blocks of 32
FP4 (E2M1) values with one 8-bit (E8M0) scale = 4.25 bits (OCP Microscaling Formats v1.0 §5; gpt-oss
model card §2). NVFP4 = blocks of 16 FP4 (E2M1) values with one FP8 (E4M3) scale = 4.5 bits, plus one
FP32 scale per tensor (< 0.001 bit; NVIDIA blog "Introducing NVFP4 for efficient and accurate
low-precision inference", 2025; TensorRT Model Optimizer ``NVFP4_DEFAULT_CFG``, block size 16).
"""

INT8_ROW_SCALE_BITS = 32.0
"""int8 checkpoints keep one fp32 scale per output row: compressed-tensors ``INT8_W8A8`` (weights
int8 per channel, symmetric; activations quantized per token at run time, nothing stored) and
bitsandbytes LLM.int8 (``Int8Params``: int8 ``CB`` + fp32 ``SCB`` per row). Per weight: 32/in bits
(in = input features, ≈ the hidden size)."""


QUANTIZED_BODY_ONLY = frozenset(
    {
        Precision.fp8,
        Precision.int8,
        Precision.int4,
        Precision.int3,
        Precision.int2,
        Precision.mxfp4,
        Precision.nvfp4,
    }
)
"""Formats that quantize the transformer body but keep the token embedding and the output head in
16-bit: GPTQ/AWQ checkpoints (AutoGPTQ/AutoAWQ quantize only the ``nn.Linear`` layers of the decoder
blocks; the Qwen maintainers: "只对线性层做了量化", QwenLM/Qwen#775), bitsandbytes
(transformers ``get_keys_to_not_convert`` skips the output embedding) and FP8/INT8 W8A8
(llm-compressor recipes ``ignore: ["lm_head"]``; embeddings are a lookup, not a GEMM); NVFP4
checkpoints of TensorRT Model Optimizer leave ``lm_head`` out too (its default ``*lm_head*``
exclusion). Norms and biases stay 16-bit too (< 0.01 % of the weights). GGUF's bits per weight are
whole-file averages and already include its own embedding/output types."""


def bytes_per_param(precision: Precision) -> float:
    return BITS_PER_WEIGHT[precision] / 8.0


def quantized_bits(precision: Precision, spec: ModelSpec) -> float:
    """Bits per weight of the body in ``precision``: :data:`BITS_PER_WEIGHT`, plus, for int8, one fp32
    scale per output row over ``hidden`` input features (:data:`INT8_ROW_SCALE_BITS`)."""
    bits = BITS_PER_WEIGHT[precision]
    if precision == Precision.int8:
        bits += INT8_ROW_SCALE_BITS / spec.hidden
    return bits


def weight_bytes(spec: ModelSpec, params: float, precision: Precision) -> float:
    """Bytes of the weights as the checkpoint ships: embeddings and head stay 16-bit where the format
    keeps them (:data:`QUANTIZED_BODY_ONLY`), the body at :func:`quantized_bits`. Llama-3.1-70B
    W8A8: 68.5B × (8 + 32/8,192)/8 + 2.1B × 2 = 72.7 GB (vLLM logs 67.72 GiB = 72.71 GB); Qwen2.5-72B
    int4: 70.2B × 4.156/8 + 2.5B × 2 ≈ 41.5 GB (the published AWQ/GPTQ-Int4 checkpoints: ≈ 41–42 GB).
    MXFP4 on a MoE model covers the routed experts only, the rest stays bf16 (gpt-oss
    ``modules_to_not_convert``): gpt-oss-120b 114.7B × 4.25/8 + 2.1B × 2 ≈ 65.2 GB, the released
    checkpoint's size. GGUF Q4_K_M of a dense model: the tensor-by-tensor mix llama-quantize
    writes (:func:`estimator.gguf_mix.mix_bits`: Qwen2.5-72B 72.7B × 5.21/8 = 47.4 GB, its published file)."""
    if precision is Precision.q4_k_m:  # gguf_mix.MIX_BASE's one mix, imported on first use (idle memory)
        from estimator.gguf_mix import mix_bits

        if (mix := mix_bits(spec, precision)) is not None:
            return params * mix / 8.0
    if precision is Precision.mxfp4 and spec.is_moe:  # gpt-oss: the experts only, the rest in bf16
        experts = min(routed_expert_params(spec), params)
        return experts * bytes_per_param(precision) + (params - experts) * 2.0
    if precision not in QUANTIZED_BODY_ONLY:
        return params * bytes_per_param(precision)
    embed = min(embedding_params(spec), params)
    return (params - embed) * quantized_bits(precision, spec) / 8.0 + embed * 2.0


def kv_bytes_per_token(spec: ModelSpec, kv_bytes: float = 2.0) -> float:
    """KV cache bytes per token of context, summed over all layers.

    Standard/GQA/MQA: 2 (K and V) · layers · kv_heads · head_dim · bytes (Ainslie et al. 2023, GQA).
    MLA (DeepSeek-V2/V3): layers · (kv_lora_rank + qk_rope_head_dim) · bytes — the cached latent
    and the decoupled RoPE key (DeepSeek-V2 paper, §2.1.2); DeepSeek-V3.2 adds its indexer's fp8 key
    cache (:func:`indexer_bytes_per_token`).
    Examples (bf16): Llama-3-8B 2·32·8·128·2 = 131,072; DeepSeek-V3 61·(512+64)·2 = 70,272. A hybrid model
    counts its softmax-attention layers only (:func:`kv_layers`): MiniMax-M1 2·10·8·128·2 = 40,960.
    """
    if spec.kv_lora_rank:
        latent = spec.layers * (spec.kv_lora_rank + (spec.qk_rope_head_dim or 0)) * kv_bytes
        return latent + indexer_bytes_per_token(spec)
    return 2.0 * kv_layers(spec) * spec.kv_heads * spec.head_dim_effective * kv_bytes


def kv_layers(spec: ModelSpec) -> int:
    """Layers that keep a growing KV cache: all but a hybrid model's ``state_layers`` (linear attention,
    Mamba: a fixed-size state per sequence, :func:`estimator.state_layers.state_bytes_per_sequence`)."""
    return spec.layers - (spec.state_layers or 0)


INDEXER_SCALE_BLOCK = 128
"""Indexer key values per fp32 scale: DeepSeek-V3.2-Exp ``inference/model.py`` ``Indexer`` keeps
``k_cache`` in fp8 ([…, index_head_dim]) and ``k_scale_cache`` in fp32 ([…, index_head_dim // block_size],
block_size 128); vLLM's indexer cache the same (``index_head_dim + index_head_dim // 128 * 4`` bytes,
vllm/model_executor/models/deepseek_v2.py)."""


def indexer_bytes_per_token(spec: ModelSpec) -> float:
    """DeepSeek Sparse Attention's lightning-indexer key cache, bytes per token over all layers: its own
    fp8 key of ``index_head_dim`` values and one fp32 scale per :data:`INDEXER_SCALE_BLOCK` of them, per
    layer, whatever the KV cache's type (DeepSeek-V3.2: 61 × (128 + 4) = 8,052 B, ≈ 11 % of the 70,272 B
    bf16 latent). 0 for models without an indexer (no ``index_head_dim`` in their config)."""
    if not spec.index_head_dim:
        return 0.0
    scales = max(1, spec.index_head_dim // INDEXER_SCALE_BLOCK)
    return spec.layers * (spec.index_head_dim + 4.0 * scales)


def windowed_layers(spec: ModelSpec) -> int:
    """Layers whose KV is capped at the sliding window (all of them unless the catalog says fewer)."""
    if not spec.sliding_window:
        return 0
    return spec.sliding_window_layers or spec.layers - (spec.state_layers or 0)  # kv_layers, inline


def kv_window(spec: ModelSpec) -> tuple[int, int | None]:
    """(layers whose stored KV is capped, the cap in tokens): the sliding window's layers
    (:func:`windowed_layers`), else Llama 4's chunked layers at what the runtime keeps there
    (``chunk_kv_window``, :func:`estimator.chunked_kv.as_allocated`); (0, None) when every layer holds the
    whole context."""
    if spec.sliding_window:
        return windowed_layers(spec), spec.sliding_window
    if spec.chunk_kv_window and spec.chunked_layers:
        return spec.chunked_layers, spec.chunk_kv_window
    return 0, None


def kv_bytes_per_sequence(spec: ModelSpec, context: int, kv_bytes: float = 2.0) -> float:
    """KV bytes held for one sequence of ``context`` tokens; sliding-window layers hold at most the window
    (Mistral 7B: 4,096; Gemma 2: every other layer), Llama 4's chunked layers what the runtime keeps
    (:func:`kv_window`); a hybrid model's state layers hold a fixed state."""
    sw, window = kv_window(spec) if spec.sliding_window or spec.chunk_kv_window else (0, None)
    return _kv_bytes(spec, context, kv_bytes, sw, window)


def kv_read_bytes_per_sequence(spec: ModelSpec, context: int, kv_bytes: float = 2.0) -> float:
    """KV bytes a decode step reads for one sequence of ``context`` tokens: as
    :func:`kv_bytes_per_sequence`, but Llama 4's chunked layers read at most their chunk
    (``attention_chunk_size``) on every runtime — a query attends within its chunk whatever KV the engine
    stores (the upper bound: a token late in a chunk reads all of it; s45 review B2)."""
    if spec.sliding_window or not (spec.attention_chunk_size and spec.chunked_layers):
        return kv_bytes_per_sequence(spec, context, kv_bytes)
    return _kv_bytes(spec, context, kv_bytes, spec.chunked_layers, spec.attention_chunk_size)


def _kv_bytes(spec: ModelSpec, context: int, kv_bytes: float, capped_layers: int, cap: int | None) -> float:
    """KV bytes of one sequence with ``capped_layers`` layers at min(context, ``cap``) tokens."""
    layers = spec.layers - (spec.state_layers or 0)  # kv_layers: a hybrid's state layers hold no KV
    per_layer = kv_bytes_per_token(spec, kv_bytes) / max(1, layers)
    capped = min(context, cap or context)
    kv = per_layer * ((layers - capped_layers) * context + capped_layers * capped)
    if spec.state_layers:  # a hybrid model: its KV layers' cache + the fixed states (estimator.state_layers)
        from estimator.state_layers import state_bytes_per_sequence

        kv += state_bytes_per_sequence(spec)
    return kv
