"""Serving: weights as checkpoints ship, KV cache, each runtime's own memory, GPUs and layout,
decode/prefill speed, cost.

Memory per GPU = the runtime's budget (:func:`usable_bytes_per_gpu`) − what it keeps besides the
weights and the KV cache (:func:`workspace_bytes`); the rest holds the KV cache
(:func:`kv_capacity_tokens`). Each runtime sizes these its own way:

- **vLLM** pre-allocates its KV cache at start-up: ``gpu_memory_utilization`` × the memory CUDA
  reports, less the weights and the non-KV peak of a profiling run (activations of
  ``max_num_batched_tokens``, the sampler's logits for ``max_num_seqs`` rows, non-torch memory); a
  ``max_model_len`` above the cache is refused at start-up.
- **SGLang** gives ``mem_fraction_static`` of the memory free at start-up to weights + KV pool.
- **transformers** (``generate``) allocates nothing up front: weights + the KV of the batch + one
  forward pass's activations + the dequantization buffers of quantized kernels.
- **llama.cpp** (and Ollama, MLX) uses all memory but its context, with a compute buffer of one
  ``n_ubatch``.

Sizes in bytes, speeds in tokens per second, times in seconds, prices per GPU-hour.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

from estimator import attention
from estimator.architecture import embedding_params, routed_expert_params
from estimator.catalog import GpuSpec, ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, GPU_MEMORY_UTILIZATION
from estimator.models import Alternative, Currency, DecodeSpeed, Inference, Precision, PriceBand

GIB = 2**30

GROUP_SIZE = 128
"""Weights per quantization group of GPTQ/AWQ checkpoints: ``group_size`` 128, the default of
AutoGPTQ's ``BaseQuantizeConfig`` and AutoAWQ's ``q_group_size``, used by the published Qwen, Llama
and Mistral GPTQ/AWQ releases."""

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
    Precision.mxfp4: 4.25,
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
bits-per-weight table for 7B): whole-file averages. MXFP4 = blocks of 32 FP4 (E2M1) values with one
8-bit (E8M0) scale = 4.25 bits (OCP Microscaling Formats v1.0 §5; gpt-oss model card §2).
"""

INT8_ROW_SCALE_BITS = 32.0
"""int8 checkpoints keep one fp32 scale per output row: compressed-tensors ``INT8_W8A8`` (weights
int8 per channel, symmetric; activations quantized per token at run time, nothing stored) and
bitsandbytes LLM.int8 (``Int8Params``: int8 ``CB`` + fp32 ``SCB`` per row). Per weight: 32/in bits
(in = input features, ≈ the hidden size)."""

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
16-bit: GPTQ/AWQ checkpoints (AutoGPTQ/AutoAWQ quantize only the ``nn.Linear`` layers of the decoder
blocks; the Qwen maintainers: "只对线性层做了量化", QwenLM/Qwen#775), bitsandbytes
(transformers ``get_keys_to_not_convert`` skips the output embedding) and FP8/INT8 W8A8
(llm-compressor recipes ``ignore: ["lm_head"]``; embeddings are a lookup, not a GEMM). Norms and
biases stay 16-bit too (< 0.01 % of the weights). GGUF's bits per weight are whole-file averages and
already include its own embedding/output types."""


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
    checkpoint's size."""
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


# ---------------------------------------------------------------------------------------------
# Runtimes: each engine's budget and what it keeps besides weights and KV cache

CUDA_VISIBLE_FRACTION = 0.99
"""Share of a discrete card's memory that CUDA reports as its total (``cudaMemGetInfo``, the
``total_gpu_memory`` vLLM and SGLang size from): the driver keeps the rest. vLLM start-up logs print
79.22 GiB for an 80 GB H100 (vllm-project/vllm PR #10511, PR #12126) and 23.58 GiB for a 24 GB RTX
3090 (vllm-project/vllm#10517); PyTorch reports 79.25 GiB for an 80 GB A100
(levihsu/OOTDiffusion#235): 0.990, 0.983, 0.991 of the nominal capacity."""


def visible_bytes(gpu: GpuSpec) -> float:
    """Memory CUDA reports as the card's total (:data:`CUDA_VISIBLE_FRACTION`); unified memory: the
    GPU's working set (Metal's recommended maximum)."""
    if gpu.gpu_memory_fraction:
        return gpu.addressable_bytes
    return gpu.memory_bytes * CUDA_VISIBLE_FRACTION


class Runtime(NamedTuple):
    """A serving engine and the share of each card it is given.

    ``local``: llama.cpp and the runtimes built on it (Ollama, LM Studio) and MLX — all memory but
    their context, a compute buffer for one ``n_ubatch`` of 512 tokens and one sequence's logits
    (llama.cpp ``--ubatch-size`` default 512; ``--parallel`` 1).
    """

    name: str
    local: bool
    utilization: float | None = None
    """vLLM ``gpu_memory_utilization`` or SGLang ``mem_fraction_static`` as the user stated it; None:
    the engine's default (vLLM 0.9; SGLang by card, :func:`sglang_mem_fraction`)."""

    @property
    def splits_layers(self) -> bool:
        """Several cards take turns on the layers (llama.cpp ``-sm layer``, transformers
        ``device_map="auto"``) instead of splitting each layer's tensors (vLLM/SGLang tensor parallelism)."""
        return self.local or self.name == TRANSFORMERS_NAME


VLLM_NAME, SGLANG_NAME, TRANSFORMERS_NAME, LLAMA_CPP_NAME = "vLLM", "SGLang", "transformers", "llama.cpp"
VLLM = Runtime(VLLM_NAME, False)
SGLANG = Runtime(SGLANG_NAME, False)
TRANSFORMERS = Runtime(TRANSFORMERS_NAME, False)
LOCAL = Runtime(LLAMA_CPP_NAME, True)
GGUF_FORMATS = frozenset({Precision.q8_0, Precision.q5_k_m, Precision.q4_k_m, Precision.q4_0})
"""Weight formats only local runtimes (llama.cpp and those built on it) load."""
LOCAL_UBATCH_TOKENS = 512
"""llama.cpp's default physical batch (``-ub``/``--ubatch-size`` 512): the tokens one compute step holds."""


def runtime_for(
    gpu: GpuSpec, precision: Precision, utilization: float | None = None, named: str | None = None
) -> Runtime:
    """The runtime whose memory model applies: llama.cpp for Apple silicon, GGUF weights or when the
    user names it (or Ollama); the server the user names (SGLang, transformers); vLLM otherwise, the
    default for data-centre cards. A stated ``utilization`` is vLLM's ``gpu_memory_utilization`` or
    SGLang's ``mem_fraction_static``."""
    if gpu.gpu_memory_fraction or precision in GGUF_FORMATS or named == LLAMA_CPP_NAME:
        return LOCAL
    if named == TRANSFORMERS_NAME:
        return TRANSFORMERS
    if named == SGLANG_NAME:
        return Runtime(SGLANG_NAME, False, utilization)
    return Runtime(VLLM_NAME, False, utilization)


def vllm_utilization(runtime: Runtime) -> float:
    """vLLM's ``gpu_memory_utilization``: the user's, else 0.9 (:data:`GPU_MEMORY_UTILIZATION`)."""
    return runtime.utilization or GPU_MEMORY_UTILIZATION.value


# -- vLLM

VLLM_BLOCK_TOKENS = 16
"""Tokens per KV-cache block (vLLM ``block_size`` default 16; the cache is whole blocks:
``num_blocks = available // page_size // num_layers``, vllm/v1/core/kv_cache_utils.py)."""

BATCHED_TOKENS_LARGE, BATCHED_TOKENS_SMALL = 8192, 2048
"""Tokens in one forward pass (vLLM V1 ``max_num_batched_tokens`` for the OpenAI server): 8,192 on cards
of ≥ 70 GiB, else 2,048 (vllm/engine/arg_utils.py, ``get_batch_defaults``, v0.8.5 and v0.10.1.1); vLLM
names A100 as an exception, kept in the catalog as ``GpuSpec.vllm_small_batch``."""
MAX_SEQS_LARGE, MAX_SEQS_SMALL = 1024, 256
"""Sequences per step (vLLM V1 ``max_num_seqs``), same split and source."""

V0_MIN_BATCHED_TOKENS = 2048
"""vLLM V0 (the default engine before v0.8, kept to v0.10): without chunked prefill,
``max_num_batched_tokens = max(max_model_len, 2048)`` (vllm/config.py ``SchedulerConfig``, v0.6.3)."""
V0_CHUNKED_PREFILL_ABOVE = 32_768
"""V0 turns chunked prefill on by itself only when ``max_model_len`` > 32,768 (vllm/engine/arg_utils.py,
v0.6.3 #941-964); its chunk is then 512 tokens (:data:`V0_CHUNKED_TOKENS`)."""
V0_CHUNKED_TOKENS = 512
"""``max_num_batched_tokens`` of V0 with chunked prefill (vllm/config.py, v0.6.3)."""

SAMPLER_BYTES_PER_ROW_VOCAB = 28
"""Peak bytes per sampled row × vocabulary entry of vLLM's profiling sampler pass (top-k = vocab − 1,
top-p < 1 force the sort-based path, vllm/v1/sample/ops/topk_topp_sampler.py ``apply_top_k_top_p``,
v0.8.5 and v0.10.1.1): bf16 logits 2 + fp32 copy 4 + sorted values 4 + int64 indices 8 + top-k mask 1
+ probabilities 4 + top-p mask 1 + scattered output 4 = 28."""

VLLM_NON_TORCH_BYTES = 0.16 * GIB
"""Memory vLLM's profiler counts outside PyTorch (NCCL, cuBLAS workspaces) at start-up, V1 and V0
after the profiler rewrite (PR #10511): "non_torch_memory takes 0.16GiB" (logs in vllm-project/vllm
PR #12126 and kubernetes-sigs/gateway-api-inference-extension PR #550; 0.20 GiB with TP in PR #14447)."""
VLLM_V0_NON_TORCH_BYTES = 0.35 * GIB
"""The same in V0 before the rewrite: "non_torch_memory=0.35GiB" (vllm-project/vllm#10517, RTX 3090)."""

MOE_EXPERT_OUTPUT_COPIES = 2
"""Bytes per token × top-k × hidden of the fused MoE kernel's per-expert outputs (vLLM
``fused_experts``: ``intermediate_cache3`` of shape [tokens, top_k, hidden] in 16-bit, before the
weighted sum)."""


def forward_peak_bytes(spec: ModelSpec, tokens: int, tp: int) -> float:
    """Live activations of one forward pass over ``tokens`` tokens (inference, no autograd): one
    layer's hidden states (≈ 4·h: residual, normed input, attention and MLP outputs; replicated on
    every TP rank) and its MLP's gate, up and activation outputs (3·f, split over TP; MoE: f × (top-k
    + shared experts), plus the fused kernel's per-expert outputs, :data:`MOE_EXPERT_OUTPUT_COPIES`),
    in 16-bit: T·(8h + 6f/t) bytes. Check: Llama-3.1-8B at 29,000 tokens → 3.21 GiB; vLLM logs an
    activation peak of 2.99 GiB (17.98 − 14.99, vllm-project/vllm#10517)."""
    per_token = 8.0 * spec.hidden + 6.0 * spec.active_ffn_hidden / tp
    if spec.is_moe:
        per_token += MOE_EXPERT_OUTPUT_COPIES * (spec.experts_top_k or 1) * spec.hidden
    return tokens * per_token


def sampler_peak_bytes(spec: ModelSpec, rows: int) -> float:
    """vLLM's profiling sampler pass over ``rows`` sequences:
    :data:`SAMPLER_BYTES_PER_ROW_VOCAB` × rows × V."""
    return SAMPLER_BYTES_PER_ROW_VOCAB * rows * spec.vocab


def vllm_batch_defaults(gpu: GpuSpec) -> tuple[int, int]:
    """(max_num_batched_tokens, max_num_seqs) of the vLLM V1 OpenAI server on ``gpu``."""
    large = gpu.memory_gib >= 70 and not gpu.vllm_small_batch
    return (BATCHED_TOKENS_LARGE, MAX_SEQS_LARGE) if large else (BATCHED_TOKENS_SMALL, MAX_SEQS_SMALL)


def v0_batched_tokens(max_model_len: int) -> int:
    """V0's ``max_num_batched_tokens``: the whole ``max_model_len`` (at least 2,048) without chunked
    prefill, 512 with it (on by itself above 32,768 tokens)."""
    if max_model_len > V0_CHUNKED_PREFILL_ABOVE:
        return V0_CHUNKED_TOKENS
    return max(max_model_len, V0_MIN_BATCHED_TOKENS)


def vllm_profile_bytes(spec: ModelSpec, gpu: GpuSpec, tp: int, max_model_len: int | None = None) -> float:
    """What vLLM keeps per GPU besides weights and KV cache, as its start-up profiling run measures it:
    the larger of its two engines, so the verdict holds on either.

    - V1 (default since v0.8): the peak of one forward pass of ``max_num_batched_tokens`` and of the
      sampler over ``max_num_seqs`` rows (vllm/v1/worker/gpu_model_runner.py ``profile_run``:
      ``_dummy_run`` then ``_dummy_sampler_run``), plus non-torch memory
      (:data:`VLLM_NON_TORCH_BYTES`). Llama-3.1-70B W8A8 on an H100: the sampler's 28 × 1,024 ×
      128,256 = 3.43 GiB.
    - V0: a forward pass of ``max(max_model_len, 2048)`` tokens unless chunked prefill is on
      (:func:`v0_batched_tokens`), 256 sequences, :data:`VLLM_V0_NON_TORCH_BYTES`. Llama-3.1-8B at
      ``max_model_len`` 29,000: 3.21 GiB of activations — vLLM refused to start on an RTX 3090
      (23,648 tokens of cache, vllm-project/vllm#10517).

    The CUDA context and CUDA-graph pools are outside ``gpu_memory_utilization`` (V1:
    ``init_snapshot`` is taken after the context, graphs are captured after the cache is allocated;
    vllm/v1/worker/gpu_worker.py, v0.10.1.1)."""
    tokens, seqs = vllm_batch_defaults(gpu)
    v1 = max(forward_peak_bytes(spec, tokens, tp), sampler_peak_bytes(spec, seqs)) + VLLM_NON_TORCH_BYTES
    v0_tokens = v0_batched_tokens(max_model_len or V0_MIN_BATCHED_TOKENS)
    v0 = max(forward_peak_bytes(spec, v0_tokens, tp), sampler_peak_bytes(spec, MAX_SEQS_SMALL))
    return max(v1, v0 + VLLM_V0_NON_TORCH_BYTES)


# -- SGLang

SGLANG_RESERVED_GIB: tuple[tuple[float, float, float], ...] = (
    (20, 2.8, 0.1),
    (35, 2.8, 0.1),
    (90, 9.5, 0.5),
    (100, 12.0, 0.5),
    (160, 12.0, 0.5),
)
"""SGLang's default ``mem_fraction_static`` = (capacity − reserved) / capacity, with reserved =
base + per_gpu × (TP × PP) GiB by card capacity (below 20, 35, 90, 100, 160 GiB), 32 GiB above
(sglang/srt/server_args.py ``_handle_mem_fraction_static``, v0.5.2: "T4, 4080 … A10, L40, 4090 …
H100, A100 … H20 … H200 … B200, MI300"); + 4 GiB with data-parallel attention. The reserve covers
activations (chunked prefill) and CUDA-graph buffers."""
SGLANG_RESERVED_LARGE_GIB = 32.0
SGLANG_DP_ATTENTION_GIB = 4.0


def sglang_mem_fraction(gpu: GpuSpec, gpus_per_replica: int, dp_attention: bool = False) -> float:
    """SGLang's default ``mem_fraction_static`` on ``gpu`` for a TP × PP group
    (:data:`SGLANG_RESERVED_GIB`)."""
    capacity_gib = visible_bytes(gpu) / GIB
    reserved = SGLANG_RESERVED_LARGE_GIB
    for below, base, per_gpu in SGLANG_RESERVED_GIB:
        if capacity_gib < below:
            reserved = base + per_gpu * gpus_per_replica
            break
    reserved += SGLANG_DP_ATTENTION_GIB if dp_attention else 0.0
    return round((capacity_gib - reserved) / capacity_gib, 3)


def sglang_fraction(runtime: Runtime, gpu: GpuSpec, tp: int, spec: ModelSpec | None = None) -> float:
    """The ``mem_fraction_static`` in use: the user's, else SGLang's default for the group."""
    if runtime.utilization:
        return runtime.utilization
    dp_attention = bool(spec is not None and spec.kv_lora_rank and tp > 1)
    return sglang_mem_fraction(gpu, tp, dp_attention)


# -- transformers


def largest_matrix(spec: ModelSpec) -> float:
    """Weights in the largest projection of a decoder layer (an MLP matrix h × f; a MoE layer: one
    expert's, or the dense layers'; or q/o h × heads·head_dim)."""
    ffn = max(spec.ffn_hidden if spec.dense_mlp_layers else 0, spec.expert_ffn_hidden if spec.is_moe else 0)
    return float(spec.hidden * max(ffn, spec.heads * spec.head_dim_effective))


def hf_forward_bytes(spec: ModelSpec, tokens: int) -> float:
    """One forward pass of Hugging Face modeling code over ``tokens`` (``generate``'s prefill), one
    layer at a time: hidden states ≈ 4·h (residual, normed input, attention and MLP outputs) and the
    MLP's gate, up, activation and product (4·f; ``LlamaMLP``: ``down_proj(act_fn(gate_proj(x)) *
    up_proj(x))``), 16-bit: T·(8h + 8f) bytes. SDPA/FlashAttention keep no s² scores."""
    return tokens * (8.0 * spec.hidden + 8.0 * spec.active_ffn_hidden)


def hf_workspace_bytes(
    spec: ModelSpec, precision: Precision | None, prompt_tokens: int, batch: int, context: int
) -> float:
    """What ``generate`` holds besides weights and KV cache: the prefill's activations
    (:func:`hf_forward_bytes` of batch × prompt tokens), the last position's logits in 16-bit and
    fp32 (6·V per sequence; transformers ≥ 4.45 computes the head for the last position only,
    ``num_logits_to_keep``/``logits_to_keep``), ``DynamicCache``'s growth (``torch.cat`` makes a new
    layer's cache while the old one is alive: one layer's KV of the batch) and, for quantized weights,
    one matrix dequantized to fp16 (AutoGPTQ/AutoAWQ and bitsandbytes 4-bit dequantize the whole weight
    for prompt-sized inputs: :func:`largest_matrix` × 2 bytes)."""
    prefill = hf_forward_bytes(spec, prompt_tokens * batch)
    logits = 6.0 * spec.vocab * batch
    cat = kv_bytes_per_sequence(spec, context) / spec.layers * batch
    dequant = 2.0 * largest_matrix(spec) if precision in QUANTIZED_BODY_ONLY else 0.0
    return prefill + logits + cat + dequant


# -- every runtime


def usable_bytes_per_gpu(gpu: GpuSpec, runtime: Runtime = VLLM) -> float:
    """The runtime's budget per card, before its own workspace (:func:`workspace_bytes`):

    - vLLM: ``gpu_memory_utilization`` × the memory CUDA reports (:func:`visible_bytes`); the CUDA
      context and CUDA graphs sit outside it (:func:`vllm_profile_bytes`). It must be free at start-up
      (V1 ``init_device`` raises otherwise), so on small cards the budget is at most the memory less
      the CUDA context (:data:`estimator.defaults.CUDA_CONTEXT_BYTES`).
    - SGLang: the memory free at start-up (visible − CUDA context), of which ``mem_fraction_static``
      goes to weights and the KV pool (sglang/srt/model_executor/model_runner.py ``profile_max_num_token``:
      ``rest_memory = available_gpu_memory − total_gpu_memory · (1 − mem_fraction_static)``, with
      ``total_gpu_memory`` the free memory before the weights load).
    - transformers: all of the visible memory less the CUDA context (no pre-allocation, no cap).
    - llama.cpp: all memory (unified: the GPU working set) less 1 GiB of context and buffers.
    """
    if gpu.gpu_memory_fraction or runtime.local:
        return gpu.addressable_bytes - CUDA_CONTEXT_BYTES.value
    free_at_start = visible_bytes(gpu) - CUDA_CONTEXT_BYTES.value
    if runtime.name in (SGLANG_NAME, TRANSFORMERS_NAME):
        return free_at_start
    return min(visible_bytes(gpu) * vllm_utilization(runtime), free_at_start)


class Load(NamedTuple):
    """What the workspace of a runtime depends on besides the model and the card."""

    context: int | None = None
    """Tokens per sequence: vLLM's ``max_model_len`` (its V0 profile runs a whole one)."""
    prompt_tokens: int | None = None
    """Prompt tokens per sequence (transformers' prefill); None: :data:`PROMPT_SHARE` of the context."""
    batch: int = 1
    """Sequences in one ``generate`` call (transformers)."""
    precision: Precision | None = None
    """Weight format (transformers dequantizes quantized matrices)."""


NO_LOAD = Load()
"""No load stated: vLLM's V0 profile at its 2,048-token minimum, one prompt of the default share."""


def workspace_bytes(
    spec: ModelSpec, gpu: GpuSpec, tp: int, runtime: Runtime = VLLM, load: Load = NO_LOAD
) -> float:
    """What the runtime keeps on each GPU besides weights and KV cache:

    - vLLM: its profiling run's peak (:func:`vllm_profile_bytes`, at ``max_model_len`` = the context);
    - SGLang: the share outside ``mem_fraction_static`` (1 − f) × free memory, left for activations
      and CUDA graphs (:func:`sglang_fraction`);
    - transformers: :func:`hf_workspace_bytes` for the batch's prompts;
    - llama.cpp: its compute buffer for one ``n_ubatch`` of 512 tokens (one layer's hidden states and
      MLP outputs, T·(4h + 3f/t)·2) and one sequence's fp32 logits (V·4).
    """
    ffn = spec.active_ffn_hidden
    if runtime.local or gpu.gpu_memory_fraction:
        return LOCAL_UBATCH_TOKENS * (4 * spec.hidden + 3 * ffn / tp) * 2.0 + spec.vocab * 4.0
    if runtime.name == SGLANG_NAME:
        return (1.0 - sglang_fraction(runtime, gpu, tp, spec)) * usable_bytes_per_gpu(gpu, runtime)
    if runtime.name == TRANSFORMERS_NAME:
        context = load.context or V0_MIN_BATCHED_TOKENS
        prompt = load.prompt_tokens or int(context * PROMPT_SHARE)
        return hf_workspace_bytes(spec, load.precision, prompt, load.batch, context)
    return vllm_profile_bytes(spec, gpu, tp, load.context)


def room_per_gpu(
    spec: ModelSpec, gpu: GpuSpec, tp: int, runtime: Runtime = VLLM, load: Load = NO_LOAD
) -> float:
    """Bytes per GPU for weights and KV cache: the runtime's budget less its workspace."""
    return usable_bytes_per_gpu(gpu, runtime) - workspace_bytes(spec, gpu, tp, runtime, load)


def tp_options(spec: ModelSpec, gpu: GpuSpec) -> list[int]:
    """Tensor-parallel sizes: powers of two dividing the attention heads, within one node."""
    return [t for t in (1, 2, 4, 8, 16) if t <= gpu.gpus_per_node and spec.heads % t == 0]


def _kv_replication(spec: ModelSpec, tp: int, runtime: Runtime = VLLM) -> float:
    """Copies of each token's KV cache across a TP group.

    GQA/MHA: with TP above the KV-head count each GPU keeps a copy of its KV head (vLLM replicates).
    MLA (DeepSeek-V2/V3/R1): the latent is not split by heads; DeepSeek-style serving runs attention
    data-parallel across the group (SGLang ``--enable-dp-attention``, vLLM DP attention; DeepSeek-V3
    report §3.4), so each sequence's latent lives on one GPU: no copies. Runtimes that split the
    layers over the cards (llama.cpp, transformers) keep each layer's KV once.
    """
    if spec.kv_lora_rank or runtime.splits_layers:
        return 1.0
    return max(1.0, tp / spec.kv_heads)


def kv_capacity_tokens(
    spec: ModelSpec,
    gpu: GpuSpec,
    weights: float,
    tp: int,
    pp: int = 1,
    runtime: Runtime = VLLM,
    load: Load = NO_LOAD,
    kv_bytes: float = 2.0,
) -> int:
    """Tokens of KV cache one copy of the model (TP × PP GPUs) holds: the room the weights leave
    (:func:`room_per_gpu`) over the bytes per token (:func:`kv_bytes_per_token`, × the TP copies of
    :func:`_kv_replication`). vLLM allocates whole blocks of 16 tokens and logs this at start-up ("GPU
    KV cache size: N tokens"; V0: "# GPU blocks: N" × 16); SGLang logs "KV Cache is allocated.
    #tokens". 0 when the weights leave no room."""
    room = room_per_gpu(spec, gpu, tp, runtime, load) * tp * pp - weights
    per_token = kv_bytes_per_token(spec, kv_bytes) * _kv_replication(spec, tp, runtime)
    if room <= 0 or per_token <= 0:
        return 0
    tokens = int(room // per_token)
    if runtime.name == VLLM_NAME:
        tokens = tokens // VLLM_BLOCK_TOKENS * VLLM_BLOCK_TOKENS
    return tokens


def layout_for(
    need_weights: float,
    need_kv: float,
    spec: ModelSpec,
    gpu: GpuSpec,
    runtime: Runtime = VLLM,
    load: Load = NO_LOAD,
) -> tuple[int, int]:
    """(tp, pp) of the fewest GPUs holding the weights plus ``need_kv``.

    TP first, within one node; pipeline stages across nodes only when one node cannot hold it.
    """
    options = tp_options(spec, gpu)
    for t in options:
        repl = _kv_replication(spec, t, runtime)
        if need_weights / t + need_kv * repl / t <= room_per_gpu(spec, gpu, t, runtime, load):
            return t, 1
    t = options[-1]
    per_node = room_per_gpu(spec, gpu, t, runtime, load) * t
    total = need_weights + need_kv * _kv_replication(spec, t, runtime)
    return t, max(2, math.ceil(total / per_node)) if per_node > 0 else 2


class Layout(NamedTuple):
    """A serving layout: ``replicas`` copies of the model, each on TP × PP GPUs."""

    tp: int
    pp: int
    replicas: int

    @property
    def gpus(self) -> int:
        return self.tp * self.pp * self.replicas


def sequences_per_replica(
    weights: float,
    kv_seq: float,
    spec: ModelSpec,
    gpu: GpuSpec,
    tp: int,
    pp: int,
    runtime: Runtime = VLLM,
    load: Load = NO_LOAD,
) -> int:
    """Sequences of ``kv_seq`` bytes that fit next to one copy of the weights on TP × PP GPUs."""
    room = room_per_gpu(spec, gpu, tp, runtime, load) * tp * pp - weights
    if room <= 0 or kv_seq <= 0:
        return 0
    return int(room // (kv_seq * _kv_replication(spec, tp, runtime)))


def serving_layout(
    weights: float,
    kv_seq: float,
    concurrency: int,
    spec: ModelSpec,
    gpu: GpuSpec,
    runtime: Runtime = VLLM,
    load: Load = NO_LOAD,
) -> Layout:
    """Fewest GPUs for ``concurrency`` sequences: replicas of the smallest-footprint TP group when one
    node holds the weights (vLLM/SGLang scale out with data-parallel replicas; TP stays inside a node),
    else one pipeline across nodes. Ties go to the larger TP group (faster per sequence)."""
    best: tuple[tuple[int, int, int], Layout] | None = None
    for t, pp in _groups(spec, gpu):
        per = sequences_per_replica(weights, kv_seq, spec, gpu, t, pp, runtime, load)
        if per < 1:
            continue
        layout = Layout(t, pp, math.ceil(concurrency / per))
        key = (layout.gpus, pp, -t)  # fewest GPUs; then no pipeline; then the larger TP group
        if best is None or key < best[0]:
            best = (key, layout)
    if best is not None:
        return best[1]
    tp, pp = layout_for(weights, kv_seq * concurrency, spec, gpu, runtime, load)
    return Layout(tp, pp, 1)


MAX_SERVING_PP = 4
"""Pipeline stages considered for one serving copy (whole nodes each): DeepSeek-V3/R1 in BF16 or at
long context is served as TP 8 × PP 2–4 across nodes (vLLM docs, "Distributed inference and serving":
"tensor parallel size … the number of GPUs in each node, and pipeline parallel size … the number of
nodes"); more stages only add latency."""


def _groups(spec: ModelSpec, gpu: GpuSpec, gpus: int | None = None) -> list[tuple[int, int]]:
    """(tp, pp) groups for one serving copy: every TP size within a node, then the full node's TP with
    2 … :data:`MAX_SERVING_PP` pipeline stages across nodes — a single copy over several nodes holds
    more KV cache than replicas that each repeat the weights. Only groups within ``gpus`` if given."""
    options = tp_options(spec, gpu)
    groups = [(t, 1) for t in options]
    if options[-1] == gpu.gpus_per_node:
        groups += [(options[-1], pp) for pp in range(2, MAX_SERVING_PP + 1)]
    return [(t, pp) for t, pp in groups if gpus is None or t * pp <= gpus]


MOST_SEQUENCES = 10**12
"""A load no layout holds: :func:`layout_on` then picks the layout holding the most sequences."""


def layout_on(
    gpus: int,
    weights: float,
    kv_seq: float,
    spec: ModelSpec,
    gpu: GpuSpec,
    runtime: Runtime = VLLM,
    load: Load = NO_LOAD,
    concurrency: int = 1,
) -> Layout:
    """How to use the user's ``gpus``. Among the layouts that hold ``concurrency`` sequences: no pipeline
    first, then the most replicas (throughput), then the most sequences. When none holds it: the layout
    holding the most sequences — fewer, larger groups (a pipeline across nodes included) waste less
    memory on copies of the weights. A pipeline across nodes when no group holds the weights."""
    best: tuple[tuple, Layout] | None = None
    for t, pp in _groups(spec, gpu, gpus):
        layout = Layout(t, pp, gpus // (t * pp))
        seqs = layout.replicas * sequences_per_replica(weights, kv_seq, spec, gpu, t, pp, runtime, load)
        if seqs < 1:
            continue
        holds = seqs >= concurrency
        key = (holds, -pp, layout.replicas, seqs) if holds else (holds, seqs, layout.replicas)
        if best is None or key > best[0]:
            best = (key, layout)
    if best is not None:
        return best[1]
    tp, pp = layout_for(weights, kv_seq, spec, gpu, runtime, load)
    return Layout(tp, pp, max(1, gpus // (tp * pp)))


def group_on(gpus: int, spec: ModelSpec, gpu: GpuSpec) -> tuple[int, int]:
    """(tp, pp) one copy of the model would use on exactly ``gpus`` cards, whether or not it fits: the
    largest TP group within them (a whole node's TP with pipeline stages across whole nodes)."""
    options = [t for t in tp_options(spec, gpu) if t <= gpus] or [1]
    t = options[-1]
    pp = gpus // t if gpus > gpu.gpus_per_node and t == max(tp_options(spec, gpu)) else 1
    return t, max(1, pp)


def max_sequences(
    spec: ModelSpec,
    gpu: GpuSpec,
    layout: Layout,
    weights: float,
    kv_seq: float,
    runtime: Runtime = VLLM,
    load: Load = NO_LOAD,
) -> int:
    """Sequences of one length whose KV fits next to the weights in every replica of ``layout``."""
    per = sequences_per_replica(weights, kv_seq, spec, gpu, layout.tp, layout.pp, runtime, load)
    return layout.replicas * per


def required_bytes(
    spec: ModelSpec,
    gpu: GpuSpec,
    layout: Layout,
    weights: float,
    kv_total: float,
    runtime: Runtime = VLLM,
    load: Load = NO_LOAD,
) -> float:
    """Memory the stated load needs on all GPUs of ``layout``, as ``nvidia-smi`` would show it without
    pre-allocation: a copy of the weights per replica, the KV cache of the load (× the TP copies of
    :func:`_kv_replication`), and on every GPU the runtime's workspace (:func:`workspace_bytes`) and
    the CUDA context (:data:`estimator.defaults.CUDA_CONTEXT_BYTES`); SGLang's workspace counted as
    the activations of vLLM's profile (:func:`vllm_profile_bytes`), not its reserve. vLLM and SGLang
    reserve more (their whole KV pool) at start-up."""
    if runtime.name == SGLANG_NAME:  # its reserve is a share, not a need: the activations it runs
        workspace = vllm_profile_bytes(spec, gpu, layout.tp)
    else:
        workspace = workspace_bytes(spec, gpu, layout.tp, runtime, load)
    per_gpu = workspace + CUDA_CONTEXT_BYTES.value
    return (
        weights * layout.replicas
        + kv_total * _kv_replication(spec, layout.tp, runtime)
        + per_gpu * layout.gpus
    )


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


def prefill_seconds(
    active: float, prompt_tokens: int, gpu: GpuSpec, gpus: int, spec: ModelSpec | None = None
) -> float:
    """Prefill of one prompt ≈ time to first token: (2·N_active + the causal attention of one forward
    pass per token at this prompt length, :func:`estimator.attention.flops_per_token` with one pass)
    × tokens / (peak × 50 % × GPUs). The attention term matters at long prompts: at 96K tokens it is
    several times the weight matmuls of a 37B-active MoE (Kaplan et al. 2020 Table 1, forward row)."""
    per_token = 2.0 * active
    if spec is not None:
        per_token += attention.flops_per_token(attention.shape_of(spec), prompt_tokens, passes=1.0)
    return per_token * prompt_tokens / (gpu.peak_flops_16bit * PREFILL_MFU * gpus)


def priced_speed(
    speed: DecodeSpeed | None, priced: int, decode: Callable[[int], DecodeSpeed | None]
) -> DecodeSpeed | None:
    """The decode speed the price per million tokens is computed at: ``speed`` when it is already at
    ``priced`` sequences, else ``decode(priced)`` — the GPUs at the load they hold. A GPU is rented by the
    hour whatever its load, so the price per token falls as the batch grows (decode reads the weights
    once per step for the whole batch: Pope et al. 2022); quoting it at a light assumed load overstates
    it several times."""
    if speed is None or speed.batch == priced:
        return speed
    return decode(priced)


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
    load: Load = NO_LOAD,
) -> list[Alternative]:
    """The fewest GPUs for the same load with FP8 and INT4 weights, where they are lighter
    (int8 weighs as much as fp8)."""
    out = []
    for p in (Precision.fp8, Precision.int4):
        w = weight_bytes(spec, params, p)
        if w < weights:
            lighter = load._replace(precision=p)
            t, pp_ = layout_for(w, kv_seq, spec, gpu, rt, lighter._replace(batch=1))
            fewest = max(t * pp_, serving_layout(w, kv_seq, concurrency, spec, gpu, rt, lighter).gpus)
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
    group: tuple[int, int] | None = None,
    most_sequences: bool = False,
    price_at_capacity: bool = False,
) -> Inference:
    """Weights + KV cache for ``concurrency`` sequences of ``context_tokens``; GPUs, speed, cost.
    ``group``: a (TP, PP) the user stated ("--tensor-parallel-size 4"): every copy of the model uses it.
    ``most_sequences``: the user's GPUs are laid out to hold the most sequences ("how many at once?"),
    not the most replicas that hold ``concurrency``.
    ``price_at_capacity``: no load was stated, so the price per million tokens is at the most sequences
    the GPUs hold (:func:`priced_speed`), not at the ``concurrency`` assumed for the speed figures.

    All experts of a MoE model are resident (weights use total params); compute uses ``active``.
    ``min_gpus`` holds the weights and one full-context sequence (vLLM: a ``max_model_len`` of
    ``context_tokens`` fits its KV cache); ``recommended_gpus`` the requested concurrency. Speed and
    cost refer to ``gpu_count`` if given, else the recommendation; ``kv_capacity_tokens`` to the
    user's GPUs when given (whether or not they fit), else to the layout used.
    """
    active = active or params
    weights = weight_bytes(spec, params, precision)
    bpp = weights / params  # average over the model (16-bit embeddings included)
    kv_b = bytes_per_param(kv_precision) if kv_precision in (Precision.fp8, Precision.int8) else 2.0
    kv_tok = kv_bytes_per_token(spec, kv_b)
    kv_seq = kv_bytes_per_sequence(spec, context_tokens, kv_b)
    kv_total = kv_seq * concurrency
    rt = runtime_for(gpu, precision, utilization, runtime)
    prompt = prompt_tokens or int(context_tokens * PROMPT_SHARE)
    batch = concurrency if rt.name == TRANSFORMERS_NAME else 1  # generate() prefills the batch at once
    load = Load(context_tokens, prompt, batch, precision)
    one = load._replace(batch=1)
    tp_min, pp_min = layout_for(weights, kv_seq, spec, gpu, rt, one)
    min_gpus = tp_min * pp_min
    rec = serving_layout(weights, kv_seq, concurrency, spec, gpu, rt, load)
    if group is not None:  # the user's TP × PP: copies of it, as many as the load (or their GPUs) take
        per = sequences_per_replica(weights, kv_seq, spec, gpu, *group, rt, load)
        rec = Layout(*group, max(1, math.ceil(concurrency / per)) if per >= 1 else 1)
    recommended = max(min_gpus, rec.gpus)
    # speed and cost refer to the user's count when it holds the model, else to the recommendation
    fits_count = bool(gpu_count and gpu_count >= min_gpus)
    if group is not None and gpu_count:
        use = Layout(*group, max(1, gpu_count // (group[0] * group[1])))
    elif gpu_count and fits_count:
        target = MOST_SEQUENCES if most_sequences else concurrency  # no layout holds it: the most win
        use = layout_on(gpu_count, weights, kv_seq, spec, gpu, rt, load, target)
    else:
        use = rec
    serving = gpu_count if gpu_count and fits_count else rec.gpus
    max_conc = max_sequences(spec, gpu, use, weights, kv_seq, rt, load)
    table = [
        (
            c,
            max_sequences(
                spec, gpu, use, weights, kv_bytes_per_sequence(spec, c, kv_b), rt, load._replace(context=c)
            ),
        )
        for c in (2048, 4096, 8192, 16384, 32768, 131072)
        if c <= max(context_tokens, spec.max_context or context_tokens)
    ]
    shape = (use.tp, use.pp) if fits_count or not gpu_count or group else group_on(gpu_count, spec, gpu)
    capacity = kv_capacity_tokens(spec, gpu, weights, *shape, rt, one, kv_b)
    batch_run = max(1, min(concurrency, max_conc))
    # llama.cpp and transformers split layers across cards: they take turns, so one card's bandwidth
    # and compute set the pace, whatever the count; a server's TP group reads its shards in parallel
    speed_tp = 1 if rt.splits_layers else use.tp
    speed = None

    def decode(batch: int) -> DecodeSpeed | None:
        """Decode speed of ``batch`` sequences over all replicas of ``use``."""
        per_replica = max(1, math.ceil(batch / use.replicas))
        one = decode_speed(spec, params, active, gpu, speed_tp, bpp, kv_seq, per_replica)
        if one is not None and use.replicas > 1:
            one = one.model_copy(update={"aggregate": one.aggregate * use.replicas, "batch": batch})
        return one

    if max_conc:
        speed = decode(batch_run)
    priced = max_conc if price_at_capacity and max_conc > batch_run else batch_run
    cost_m, cost_month = serving_cost(serving, priced_speed(speed, priced, decode), price)
    alternatives = lighter_weights(spec, params, weights, kv_seq, concurrency, gpu, rt, load)
    tp, pp = use.tp, use.pp
    fp8_weights = weight_bytes(spec, params, Precision.fp8)
    fp8_tp, fp8_pp = layout_for(fp8_weights, kv_seq, spec, gpu, rt, one._replace(precision=Precision.fp8))
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
        workspace_bytes_per_gpu=workspace_bytes(spec, gpu, tp, rt, load),
        runtime=rt.name,
        kv_capacity_tokens=capacity,
        required_bytes=required_bytes(spec, gpu, use, weights, kv_total, rt, load),
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
        prefill_seconds=prefill_seconds(active, prompt, gpu, speed_tp, spec) if max_conc else None,
        cost_per_million_tokens=cost_m,
        priced_concurrency=priced if cost_m is not None else None,
        cost_per_month=cost_month,
    )
