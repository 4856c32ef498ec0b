"""Llama 4's chunked local attention, sized as the stated runtime allocates it (issue 24 item 4, s45).

Llama 4 Scout and Maverick attend within ``attention_chunk_size`` (8,192) tokens on 36 of their 48 layers
(the RoPE layers of ``no_rope_layers``; :attr:`estimator.catalog.ModelSpec.chunked_layers`). Whether the
engine keeps only one chunk of KV on those layers is its own choice, so the catalog does not call them a
window: :func:`as_allocated` gives the tokens the runtime keeps there (``ModelSpec.chunk_kv_window``,
read by the KV-memory paths only: :func:`estimator.weights.kv_bytes_per_sequence`,
:func:`estimator.serving_layout.kv_capacity_tokens`) and leaves every layer at the whole context where
it keeps them all. The attention compute and a decode step's KV reads take the chunk itself on every runtime
(:func:`estimator.attention.shape_of`, :func:`estimator.weights.kv_read_bytes_per_sequence`): only the
storage is the runtime's (s45 review B2). Scout at 1M tokens, bf16 KV: 4 KiB a token a layer, 197 GB on
48 full layers, 51.6 GB on vLLM on an H100 with 36 layers at 8,192 + 8,192 tokens (12 × 1M + 36 × 16,384).

Sources, per runtime:

- vLLM: ``ChunkedLocalAttentionSpec.max_memory_usage_bytes`` (vllm/v1/kv_cache_interface.py) holds
  ``min(attention_chunk_size + max_num_batched_tokens, max_model_len)`` tokens a request, but only with
  the hybrid KV cache manager, which vllm/config/vllm.py disables for chunked local attention unless
  ``VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE`` is set; ``max_num_batched_tokens`` is the default
  the workspace line assumes (:func:`estimator.runtimes.vllm.vllm_batch_defaults`: 8,192 on an H100,
  2,048 on a card under 70 GiB or an A100), so Scout on an H100 keeps 16,384 tokens there (s45 review B1)
  ("latency regression … Disabling it, by default"; then every layer gets a full-attention spec). The
  variable came in off (vllm#21761, 2025-07-28); vllm.envs documents it False in v0.10.1.1, v0.11.0,
  v0.11.1 and v0.12.0 and True in v0.16.0 (vllm#29627 turned it on; vllm#46553, which would have turned
  it off again, was closed unmerged in July 2026). Which of v0.13–v0.15 first shipped True is not pinned
  here: a stated release before :data:`VLLM_CHUNKED_DEFAULT_ON` is sized at full KV (the upper bound),
  and the note says so.
- SGLang: only ``--hybrid-kvcache-ratio r`` (server_args.py, ``nargs='?'``, ``const=0.5``, default None;
  sgl-project/sglang#6563) splits the pool: the local layers' pool is ``(1 − r) + r × chunk ÷
  context_length`` of the global one ("0.0 = pure uniform … 1.0 = pure hybrid: swa_size / full_size =
  local_attention_size / context_length"), so a chunked layer holds ``(1 − r) × context_length + r ×
  chunk`` tokens of a full-length sequence's KV. Without it every layer holds the whole context.
- llama.cpp: ``LLAMA_SWA_TYPE_CHUNKED`` layers go to the SWA half of ``llama_kv_cache_iswa``
  (src/llama-kv-cache-iswa.cpp), sized ``n_swa × n_seq_max + n_ubatch`` cells, not the context, unless
  ``--swa-full`` (common.h ``swa_full = false``): one chunk a sequence plus ``n_ubatch``
  (:data:`estimator.runtimes.base.LOCAL_UBATCH_TOKENS`, 512), 8,704 tokens (one sequence's upper bound).
- transformers, TGI, lmdeploy, Ollama and the rest: sized with every layer at the whole context (no
  source read here shows a per-chunk pool for them: the upper bound).
"""

from __future__ import annotations

from estimator.catalog import GpuSpec, ModelSpec
from estimator.ledger import Ledger
from estimator.lmdeploy_release import release_tuple
from estimator.models import SizingRequest
from estimator.runtimes.base import LOCAL_UBATCH_TOKENS
from estimator.runtimes.vllm import vllm_batch_defaults

VLLM_CHUNKED_DEFAULT_ON = (0, 16, 0)
"""The first vLLM release documented with ``VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE`` True by
default (docs.vllm.ai v0.16.0 ``vllm.envs``; v0.12.0 documents False)."""
ENV_VAR = "VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE"


def chunk_window(req: SizingRequest, spec: ModelSpec, gpu: GpuSpec) -> tuple[int | None, str, str]:
    """(tokens a chunked layer keeps a sequence at most, or None for the whole context; the note code; what
    decided it, as the user wrote it or the runtime's name). vLLM: chunk + ``max_num_batched_tokens`` on
    ``gpu`` (8,192 + 8,192 on an H100); llama.cpp: chunk + ``n_ubatch`` (8,192 + 512); SGLang with a ratio:
    ``(1 − r) × context_length + r × chunk`` (module docstring). The note codes: ``chunked_kv_assumed``
    (no runtime setting stated: vLLM's current default), ``chunked_kv_stated`` (the stated
    runtime/flag/release keeps about one chunk), ``chunked_kv_full`` (it keeps the whole context on
    every layer)."""
    from estimator.runtimes import RUNTIMES, VLLM

    chunk = spec.attention_chunk_size or 0
    runtime = str(req.runtime) if req.runtime else None
    engine = RUNTIMES.get(runtime) if runtime else VLLM  # None stated: vLLM's current default
    policy = engine.chunk_policy if engine is not None else "full"
    if policy == "full":
        return None, "chunked_kv_full", runtime or ""
    if policy == "hybrid_ratio":
        ratio = req.hybrid_kvcache_ratio
        if ratio is None:
            return None, "chunked_kv_full", engine.name
        context = req.max_model_len or spec.max_context or chunk
        window = round((1 - ratio) * context + ratio * chunk)
        said = f"{engine.name} --hybrid-kvcache-ratio {ratio:g}"
        return (window, "chunked_kv_stated", said) if window < context else (None, "chunked_kv_full", said)
    if policy == "chunk_plus_ubatch":
        return chunk + LOCAL_UBATCH_TOKENS, "chunked_kv_stated", engine.name
    vllm = chunk + vllm_batch_defaults(gpu)[0]  # ChunkedLocalAttentionSpec: chunk + max_num_batched_tokens
    if req.chunked_hybrid_kv is not None:
        said = f"{ENV_VAR}={int(req.chunked_hybrid_kv)}"
        on = req.chunked_hybrid_kv
        return (vllm, "chunked_kv_stated", said) if on else (None, "chunked_kv_full", said)
    if runtime is not None and req.vllm_version:
        said = f"{engine.name} {req.vllm_version}"
        on = release_tuple(req.vllm_version) >= VLLM_CHUNKED_DEFAULT_ON
        return (vllm, "chunked_kv_stated", said) if on else (None, "chunked_kv_full", said)
    return vllm, "chunked_kv_assumed", engine.name


def as_allocated(req: SizingRequest, spec: ModelSpec, gpu: GpuSpec, ledger: Ledger) -> ModelSpec:
    """``spec`` with its chunked layers' KV as the runtime on ``gpu`` keeps it (:func:`chunk_window`):
    :attr:`~estimator.catalog.ModelSpec.chunk_kv_window` tokens on
    :attr:`~estimator.catalog.ModelSpec.chunked_layers` layers, or ``spec`` unchanged (every layer at the
    whole context). ``sliding_window`` is left alone: the compute stays the chunk's (s45 review B2).
    Noted with the chunk, the layers and what decided it. A model without chunked attention, or one that
    already has a sliding window, is returned as it is."""
    if not spec.attention_chunk_size or not spec.chunked_layers or spec.sliding_window:
        return spec
    window, code, said = chunk_window(req, spec, gpu)
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
    return spec.model_copy(update={"chunk_kv_window": window})


def quiet_within_chunk(ledger: Ledger, spec: ModelSpec, context_tokens: int | None) -> None:
    """Drop the chunk notes of :func:`as_allocated` when the context sized (tokens) is within what a chunked
    layer keeps (``chunk_kv_window``, chunk + the runtime's batch: 16,384 with vLLM on an H100; the chunk
    where the runtime keeps the whole context): every layer then holds the whole context, so the note
    would answer nothing asked (a default 4,096-token chat context on Scout, 16K on vLLM on an H100)."""
    within = spec.chunk_kv_window or spec.attention_chunk_size
    if context_tokens and within and context_tokens <= within:
        ledger.notes = [n for n in ledger.notes if not n.code.startswith("chunked_kv")]
