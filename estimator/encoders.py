"""Embedding and reranker models served (session 38 embed; docs/design.md §3.4, "Encoders served").

An embedding or rerank request is **one forward pass** over its tokens: no decode, no KV cache (nothing
is kept between requests), so a server is compute bound like a chat model's prefill:

- FLOPs a request = 2·N·s (the weight matmuls, Kaplan et al. 2020 §2.1: C_forward ≈ 2N per token) + the
  attention over the s tokens: Kaplan's 2·L·n_ctx·d_attn per token counts Q·Kᵀ and the weighted sum of
  values as much again (PaLM, Chowdhery et al. 2022 App. B: 12·L·H·Q·T a trained token = 3 passes × 4), so
  4·L·s²·d_attn for an encoder's full (bidirectional) attention, half that for a causal one;
- QPS a card = peak × MFU / FLOPs a request; a stated QPS gives ceil(QPS / that) cards;
- memory a card = weights (N × bytes) + one batch's activations (max batch tokens × the live tensors of
  one layer: a forward pass keeps no layer's activations for a backward) + the CUDA context.

A reranker scores a (query, passage) pair in one pass: its tokens are the pair's (query + passage).
The catalog (``data/encoders.json``) holds each model's shape from its config.json on the Hub. Pure and
deterministic: SI units in and out."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

MAX_BATCH_TOKENS = 16_384
"""Tokens in one batch: text-embeddings-inference's ``--max-batch-tokens`` default (16384; its router
batches requests up to it and its warm-up runs a batch of that size at start-up, so the memory is taken
before the first request). sentence-transformers' ``encode`` batches 32 texts (``batch_size=32``)."""
CUDA_CONTEXT_BYTES = 1.0 * 2**30
"""The CUDA context and the runtime's own buffers a card, ≈ 1 GiB (docs/design.md §3.3 runtime overhead)."""
DEFAULT_TOKENS = 512
"""Tokens a request (a reranker: a query + passage pair) when none is said: the input limit of the
BERT-sized embedders (bge-large, e5-large: max_position_embeddings 512) and a typical retrieval chunk."""


@dataclass(frozen=True, slots=True)
class Encoder:
    """One catalog entry (``data/encoders.json``): ``kind`` 'embedder' or 'reranker'; the shape from its
    config.json (``layers`` num_hidden_layers, ``hidden`` hidden_size, ``heads`` num_attention_heads,
    ``head_dim``, ``intermediate`` intermediate_size, ``vocab`` vocab_size); ``params`` its total."""

    id: str
    repo: str
    kind: str
    arch: str
    attention: str
    params: float
    layers: int
    hidden: int
    heads: int
    head_dim: int
    intermediate: int
    vocab: int
    max_position_embeddings: int
    aliases: tuple[str, ...]
    source: str

    @property
    def attention_width(self) -> int:
        """d_attn = heads × head size (Qwen3-0.6B: 16 × 128 = 2048, wider than its hidden 1024)."""
        return self.heads * self.head_dim


@lru_cache(maxsize=1)
def catalog() -> tuple[Encoder, ...]:
    """The embedding and reranker entries, validated on load (each a positive shape and a source)."""
    raw = json.loads((Path(__file__).parent / "data" / "encoders.json").read_text(encoding="utf-8"))
    out = []
    for e in raw["models"]:
        enc = Encoder(**{**e, "params": float(e["params"]), "aliases": tuple(e["aliases"])})
        if min(enc.params, enc.layers, enc.hidden, enc.heads, enc.head_dim, enc.intermediate) <= 0:
            raise ValueError(f"encoder {enc.id}: a non-positive shape")
        if enc.kind not in ("embedder", "reranker") or not enc.source.startswith("https://"):
            raise ValueError(f"encoder {enc.id}: kind or source missing")
        out.append(enc)
    return tuple(out)


def find(text: str) -> Encoder | None:
    """The catalog entry whose name (an alias, lower case) ``text`` holds, the longest name first
    ('bge-reranker-v2-m3' before 'bge-m3'); None when none."""
    text = text.lower()
    best: tuple[int, Encoder] | None = None
    for enc in catalog():
        for alias in enc.aliases:
            if alias in text and (best is None or len(alias) > best[0]):
                best = (len(alias), enc)
    return best[1] if best else None


def request_flops(params: float, tokens: int, enc: Encoder | None = None) -> tuple[float, float]:
    """(weight matmuls, attention) FLOPs of one request of ``tokens`` tokens (module doc): 2·N·s and
    4·L·s²·d_attn (bidirectional) or 2·L·s²·d_attn (causal); no attention term without a shape."""
    linear = 2.0 * params * tokens
    if enc is None:
        return linear, 0.0
    share = 4.0 if enc.attention == "bidirectional" else 2.0
    return linear, share * enc.layers * tokens * tokens * enc.attention_width


def qps_per_card(flops_per_request: float, peak_flops: float, mfu: float) -> float:
    """Requests a second one card serves: peak × MFU / FLOPs a request."""
    return peak_flops * mfu / flops_per_request


def cards_for(qps: float, per_card: float) -> int:
    """Cards for a stated QPS: ceil(QPS / QPS a card), at least one."""
    return max(1, math.ceil(qps / per_card - 1e-9))


def activation_bytes(enc: Encoder | None, hidden: int, batch_tokens: int, bytes_per: float) -> float:
    """One batch's peak activations: batch tokens × bytes × one layer's live tensors a token — the
    residual stream and its normalized copy (2·h), Q, K, V (3·d_attn) and the FFN's intermediate and its
    activation (2·i) (derived; a forward pass frees each layer's tensors before the next; fused attention
    keeps no s² score matrix). Without a shape: h from ``hidden`` and i = 4·h."""
    if enc is not None:
        live = 2 * enc.hidden + 3 * enc.attention_width + 2 * enc.intermediate
    else:
        live = 2 * hidden + 3 * hidden + 8 * hidden
    return float(batch_tokens) * bytes_per * live


def memory_bytes(params: float, bytes_per: float, activations: float) -> tuple[float, float, float, float]:
    """(weights, activations, CUDA context, total) bytes a card holding one copy of the model."""
    weights = params * bytes_per
    return weights, activations, CUDA_CONTEXT_BYTES, weights + activations + CUDA_CONTEXT_BYTES
