"""Llama 4's chunked local attention, sized as the stated runtime allocates it (issue 24 item 4, s45).

Llama 4 Scout and Maverick attend within ``attention_chunk_size`` (8,192) tokens on 36 of their 48 layers
(the RoPE layers of ``no_rope_layers``; :attr:`estimator.catalog.ModelSpec.chunked_layers`). Whether the
engine keeps only one chunk of KV on those layers is its own choice, so the catalog does not call them a
window: :func:`as_allocated` turns them into one (``sliding_window`` = the chunk on ``chunked_layers``
layers, :func:`estimator.weights.kv_bytes_per_sequence`) where the runtime does so, and leaves every layer
at the whole context where it does not. Scout at 1M tokens, bf16 KV: 4 KiB a token a layer, 197 GB on
48 full layers, 50.4 GB with 36 layers at one chunk (12 × 1M + 36 × 8,192 tokens).

Sources, per runtime:

- vLLM: ``ChunkedLocalAttentionSpec.max_memory_usage_bytes`` (vllm/v1/kv_cache_interface.py) holds
  ``min(attention_chunk_size + max_num_batched_tokens, max_model_len)`` tokens a request, but only with
  the hybrid KV cache manager, which vllm/config/vllm.py disables for chunked local attention unless
  ``VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE`` is set ("latency regression … Disabling it, by
  default"; then every layer gets a full-attention spec). The variable came in off (vllm#21761,
  2025-07-28); vllm.envs documents it False in v0.10.1.1, v0.11.0, v0.11.1 and v0.12.0 and True in
  v0.16.0 (vllm#29627 turned it on; vllm#46553, which would have turned it off again, was closed
  unmerged in July 2026). Which of v0.13–v0.15 first shipped True is not pinned here: a stated release
  before :data:`VLLM_CHUNKED_DEFAULT_ON` is sized at full KV (the upper bound), and the note says so.
- SGLang: only ``--hybrid-kvcache-ratio r`` (server_args.py, ``nargs='?'``, ``const=0.5``, default None;
  sgl-project/sglang#6563) splits the pool: the local layers' pool is ``(1 − r) + r × chunk ÷
  context_length`` of the global one ("0.0 = pure uniform … 1.0 = pure hybrid: swa_size / full_size =
  local_attention_size / context_length"), so a chunked layer holds ``(1 − r) × context_length + r ×
  chunk`` tokens of a full-length sequence's KV. Without it every layer holds the whole context.
- llama.cpp: ``LLAMA_SWA_TYPE_CHUNKED`` layers go to the SWA half of ``llama_kv_cache_iswa``
  (src/llama-kv-cache-iswa.cpp), sized ``n_swa × n_seq_max + n_ubatch`` cells, not the context, unless
  ``--swa-full`` (common.h ``swa_full = false``): one chunk a sequence.
- transformers, TGI, lmdeploy, Ollama and the rest: sized with every layer at the whole context (no
  source read here shows a per-chunk pool for them: the upper bound).
"""

from __future__ import annotations

from estimator.catalog import ModelSpec
from estimator.ledger import Ledger
from estimator.lmdeploy_release import release_tuple
from estimator.models import SizingRequest

VLLM_CHUNKED_DEFAULT_ON = (0, 16, 0)
"""The first vLLM release documented with ``VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE`` True by
default (docs.vllm.ai v0.16.0 ``vllm.envs``; v0.12.0 documents False)."""
ENV_VAR = "VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE"
PER_CHUNK_RUNTIMES = frozenset({None, "vLLM", "SGLang", "llama.cpp"})
"""The runtimes that can keep one chunk of KV on a chunked layer (None: the default, vLLM)."""


def chunk_window(req: SizingRequest, spec: ModelSpec) -> tuple[int | None, str, str]:
    """(tokens a chunked layer keeps, or None for the whole context; the note code; what decided it, as
    the user wrote it or the runtime's name). The note codes: ``chunked_kv_assumed`` (no runtime setting
    stated: vLLM's current default), ``chunked_kv_stated`` (the stated runtime/flag/release keeps one
    chunk), ``chunked_kv_full`` (it keeps the whole context on every layer)."""
    chunk = spec.attention_chunk_size or 0
    runtime = str(req.runtime) if req.runtime else None
    if runtime not in PER_CHUNK_RUNTIMES:
        return None, "chunked_kv_full", runtime or ""
    if runtime == "SGLang":
        ratio = req.hybrid_kvcache_ratio
        if ratio is None:
            return None, "chunked_kv_full", "SGLang"
        context = req.max_model_len or spec.max_context or chunk
        window = round((1 - ratio) * context + ratio * chunk)
        said = f"SGLang --hybrid-kvcache-ratio {ratio:g}"
        return (window, "chunked_kv_stated", said) if window < context else (None, "chunked_kv_full", said)
    if runtime == "llama.cpp":
        return chunk, "chunked_kv_stated", "llama.cpp"
    if req.chunked_hybrid_kv is not None:
        said = f"{ENV_VAR}={int(req.chunked_hybrid_kv)}"
        on = req.chunked_hybrid_kv
        return (chunk, "chunked_kv_stated", said) if on else (None, "chunked_kv_full", said)
    if runtime == "vLLM" and req.vllm_version:
        said = f"vLLM {req.vllm_version}"
        on = release_tuple(req.vllm_version) >= VLLM_CHUNKED_DEFAULT_ON
        return (chunk, "chunked_kv_stated", said) if on else (None, "chunked_kv_full", said)
    return chunk, "chunked_kv_assumed", "vLLM"


def as_allocated(req: SizingRequest, spec: ModelSpec, ledger: Ledger) -> ModelSpec:
    """``spec`` with its chunked layers as the runtime keeps them (:func:`chunk_window`): a window of that
    many tokens on :attr:`~estimator.catalog.ModelSpec.chunked_layers` layers, or ``spec`` unchanged
    (every layer at the whole context). Noted with the chunk, the layers and what decided it. A model
    without chunked attention, or one that already has a sliding window, is returned as it is."""
    if not spec.attention_chunk_size or not spec.chunked_layers or spec.sliding_window:
        return spec
    window, code, said = chunk_window(req, spec)
    ledger.note(
        code,
        model=spec.name,
        chunk=spec.attention_chunk_size,
        chunked=spec.chunked_layers,
        layers=spec.layers,
        window=window or 0,
        said=said,
        env=ENV_VAR,
    )
    if window is None:
        return spec
    return spec.model_copy(update={"sliding_window": window, "sliding_window_layers": spec.chunked_layers})


def quiet_within_chunk(ledger: Ledger, spec: ModelSpec, context_tokens: int | None) -> None:
    """Drop the chunk notes of :func:`as_allocated` when the context sized (tokens) is within one chunk:
    every layer then holds the whole context whatever the runtime, so the note would answer nothing asked
    (a default 4,096-token chat context on Scout)."""
    if context_tokens and spec.attention_chunk_size and context_tokens <= spec.attention_chunk_size:
        ledger.notes = [n for n in ledger.notes if not n.code.startswith("chunked_kv")]
