"""Attention FLOPs of a model at a context length: the term 6·N·D leaves out (pure; no I/O).

C = 6·N·D counts the weight matmuls only; the attention scores (QKᵀ and softmax·V) add FLOPs per token
that grow with the context (Kaplan et al. 2020 §2.1, Table 1). At 2–8K tokens they are a few per cent
to ~15 % of a 7B model's compute and are absorbed by the calibrated MFU; at 32K they add ~60 % (the
causal count used here) to ~120 % (PaLM's full-matrix count). Formulas in :mod:`estimator.compute`.
"""

from __future__ import annotations

from dataclasses import dataclass

from estimator import compute
from estimator.catalog import ModelSpec


@dataclass(frozen=True)
class AttentionShape:
    """What the attention FLOPs depend on: layers, query heads, per-head q·k and v dims, a sliding
    window (and how many layers use it), Llama 4's attention chunk (and its chunked layers). MLA
    (DeepSeek-V2/V3) has d_qk = nope + rope, d_v its own."""

    layers: int
    heads: int
    qk_head_dim: int
    v_head_dim: int
    sliding_window: int | None = None
    sliding_window_layers: int = 0
    chunk: int | None = None
    chunked_layers: int = 0


def shape_of(spec: ModelSpec) -> AttentionShape:
    """The attention shape of a catalog (or generic) model. Llama 4's chunked layers attend within their
    ``attention_chunk_size`` whatever KV the runtime keeps (``chunk_kv_window`` is storage only; s45
    review B2)."""
    d = spec.head_dim_effective
    if spec.kv_lora_rank:  # MLA: per-head q/k = nope + rope (DeepSeek-V2 §2.1.3), v = v_head_dim
        qk = (spec.qk_nope_head_dim or d) + (spec.qk_rope_head_dim or 0)
        v = spec.v_head_dim or d
    else:
        qk = v = d
    window_layers = (spec.sliding_window_layers or spec.layers) if spec.sliding_window else 0
    chunked = 0 if spec.sliding_window or not spec.attention_chunk_size else spec.chunked_layers or 0
    return AttentionShape(
        spec.layers, spec.heads, qk, v, spec.sliding_window, window_layers, spec.attention_chunk_size, chunked
    )


def flops_per_token(
    shape: AttentionShape, seq_len: int, passes: float = compute.ATTENTION_TRAINING_PASSES
) -> float:
    """Causal attention FLOPs per trained token at ``seq_len`` (:func:`compute.attention_flops_per_token`),
    with sliding-window layers attending to at most their window and chunked layers within their chunk
    (:func:`compute.chunked_keys_per_query`)."""
    full = shape.layers - shape.sliding_window_layers - shape.chunked_layers
    per = 0.0
    for layers, window in ((full, None), (shape.sliding_window_layers, shape.sliding_window)):
        if layers:
            keys = compute.attention_keys_per_query(seq_len, window)
            per += compute.attention_flops_per_token(
                layers, shape.heads, shape.qk_head_dim, shape.v_head_dim, keys, passes
            )
    if shape.chunked_layers and shape.chunk:
        keys = compute.chunked_keys_per_query(seq_len, shape.chunk)
        per += compute.attention_flops_per_token(
            shape.chunked_layers, shape.heads, shape.qk_head_dim, shape.v_head_dim, keys, passes
        )
    return per


def passes_for(k: float, adapters: bool, backward_passes: int = 1) -> float:
    """Forward-pass equivalents of the attention matmuls for a method with C = k·N·D: k/2, plus one per
    backward pass for adapters (LoRA/QLoRA, P-tuning) — their frozen weights skip the weight gradients
    (k counts 2 per parameter for the backward instead of 4) but attention, having no weights, still
    runs its full backward. Full training: 6 → 3 (Kaplan et al. 2020 §2.1), DPO 8 → 4; LoRA 4 → 3; PPO
    (two trained models) with adapters 14 → 9."""
    return k / 2.0 + (backward_passes if adapters else 0)


def time_factor(
    shape: AttentionShape,
    n_active: float,
    seq_len: int,
    k: float = 6.0,
    passes: float = compute.ATTENTION_TRAINING_PASSES,
) -> float:
    """The k·N·D time's multiplier at ``seq_len``: :func:`compute.long_context_factor` of the
    attention / (k·N) ratios at ``seq_len`` and at :data:`compute.CALIBRATION_SEQ_LEN` (1.0 up to 8K)."""
    if seq_len <= compute.CALIBRATION_SEQ_LEN:
        return 1.0
    kn = k * n_active
    return compute.long_context_factor(
        flops_per_token(shape, seq_len, passes) / kn,
        flops_per_token(shape, compute.CALIBRATION_SEQ_LEN, passes) / kn,
    )
