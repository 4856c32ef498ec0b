"""Bits per weight of a llama.cpp K-quant mix (Q4_K_M) laid out tensor by tensor, as
``llama-quantize`` picks each tensor's type (llama.cpp src/llama-quant.cpp ``llama_tensor_get_type``):

- every tensor at the mix's base type (Q4_K: 4.5 bits per weight — super-blocks of 256 weights, 144
  bytes; Q5_K: 5.5 bits, 176 bytes; ggml-common.h ``block_q4_K`` / ``block_q5_K``);
- ``output.weight`` (or the tied ``token_embd.weight``) at Q6_K (6.5625 bits, 210 bytes a block);
- ``attn_v`` and ``ffn_down`` at Q6_K in the layers ``use_more_bits(i, n)`` picks
  (i < n/8 or i ≥ 7n/8 or (i − n/8) % 3 == 2: about half of them);
- a tensor whose row (``ne[0]``, its input features) is not a multiple of QK_K = 256 cannot hold
  K-quant blocks and falls back: Q4_K → Q5_0 (5.5 bits), Q5_K → Q5_1 (6.0), Q6_K → Q8_0 (8.5)
  (the ``convert_incompatible_tensor`` switch). Qwen2.5-72B's FFN width 29,568 = 115.5 × 256: its
  ``ffn_down`` rows fall back, so the file is ≈ 5.2 bits per weight, not the 4.85 of a 7B.

Checked against published GGUF files: Llama-3.1-8B-Instruct-Q4_K_M 4.92 GB (this: 4.91 GB);
Qwen2.5-72B-Instruct-Q4_K_M 47.4 GB (this: 47.4 GB). Norms and biases (F32, < 0.01 %) and the 70B
attn_v upgrade to Q5_K (< 0.1 %) are left out. Dense models only: a MoE's expert tensors have rules
of their own (None: the caller keeps the whole-file average).
"""

from __future__ import annotations

from estimator.catalog import ModelSpec
from estimator.models import Precision

QK_K = 256
"""Weights per K-quant super-block (ggml-common.h ``QK_K``)."""
BITS = {"q4_K": 4.5, "q5_K": 5.5, "q6_K": 6.5625, "q5_0": 5.5, "q5_1": 6.0, "q8_0": 8.5}
"""Bits per weight of each ggml type: block bytes × 8 / block weights (ggml-common.h)."""
FALLBACK = {"q4_K": "q5_0", "q5_K": "q5_1", "q6_K": "q8_0"}
"""The type a K-quant tensor with rows not a multiple of :data:`QK_K` gets (llama-quant.cpp)."""
MIX_BASE = {Precision.q4_k_m: "q4_K"}
"""The mixes laid out: Q4_K_M (Q5_K_M keeps its whole-file average: the catalog reads Q5_K_S as it, and the _S
mixes give no layer Q6_K)."""


def use_more_bits(i: int, n: int) -> bool:
    """llama-quant.cpp ``use_more_bits``: the layers given Q6_K in attn_v and ffn_down."""
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2


def _bits(kind: str, row: int) -> float:
    return BITS[FALLBACK[kind]] if row % QK_K else BITS[kind]


def mix_bits(spec: ModelSpec, precision: Precision) -> float | None:
    """Average bits per weight of ``spec`` in the K-quant mix ``precision`` (module doc); None for
    another format or a MoE model."""
    base = MIX_BASE.get(precision)
    if base is None or spec.experts:
        return None
    h, f, layers = spec.hidden, spec.ffn_hidden, spec.layers
    q_out = spec.heads * (spec.head_dim or h // spec.heads)
    kv = spec.kv_heads * (spec.head_dim or h // spec.heads)
    gated = spec.ffn_type in ("swiglu", "geglu")
    more = sum(use_more_bits(i, layers) for i in range(layers))
    bits = layers * (h * q_out + h * kv + q_out * h) * _bits(base, h)  # attn_q, attn_k, attn_output
    bits += h * kv * (more * _bits("q6_K", h) + (layers - more) * _bits(base, h))  # attn_v
    bits += layers * (2 if gated else 1) * h * f * _bits(base, h)  # ffn_gate, ffn_up
    bits += h * f * (more * _bits("q6_K", f) + (layers - more) * _bits(base, f))  # ffn_down
    embed = spec.vocab * h
    bits += embed * _bits("q6_K", h) + (0 if spec.tied_embeddings else embed * _bits(base, h))
    weights = layers * (2 * h * q_out + 2 * h * kv + (3 if gated else 2) * h * f) + embed * (
        1 if spec.tied_embeddings else 2
    )
    return bits / weights
