"""transformers (``generate``): allocates nothing up front — weights + the KV of the batch + one forward
pass's activations + the dequantization buffers of quantized kernels. Sizes in bytes."""

from __future__ import annotations

from dataclasses import dataclass

from estimator.catalog import GpuSpec, ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, Default
from estimator.models import Precision
from estimator.reasons import Why
from estimator.runtimes.base import PROMPT_SHARE, Load, ServingRuntime, visible_bytes
from estimator.runtimes.vllm import V0_MIN_BATCHED_TOKENS
from estimator.weights import QUANTIZED_BODY_ONLY, kv_bytes_per_sequence


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


@dataclass(frozen=True)
class Transformers(ServingRuntime):
    """Hugging Face ``generate``: all visible memory less the CUDA context, no cap; layers split over
    the cards (``device_map="auto"``)."""

    name = "transformers"
    words = r"(?<!sentence-)(?<!sentence_)(?<!sentence )\btransformers\b"  # never sentence-transformers
    context_key = "max_length"
    memory_key = "device_map"
    splits_layers = True
    prefills_batch = True
    workspace_why = Why.transformers_workspace

    def _usable(self, gpu: GpuSpec) -> float:
        """All of the visible memory less the CUDA context (no pre-allocation, no cap)."""
        return visible_bytes(gpu) - CUDA_CONTEXT_BYTES.value

    def _workspace(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load) -> float:
        """:func:`hf_workspace_bytes` for the batch's prompts (:data:`PROMPT_SHARE` of the context, which
        is vLLM's 2,048-token minimum when none is given)."""
        context = load.context or V0_MIN_BATCHED_TOKENS
        prompt = load.prompt_tokens or int(context * PROMPT_SHARE)
        return hf_workspace_bytes(spec, load.precision, prompt, load.batch, context)

    def utilization_assumed(self, gpu: GpuSpec, tp: int, spec: ModelSpec, pp: int = 1) -> Default | None:
        return Default(1.0, Why.transformers_no_cap)
