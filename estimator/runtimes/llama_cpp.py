"""llama.cpp (and Ollama, LM Studio, MLX): all memory but its context, with a compute buffer of one
``n_ubatch`` (:func:`estimator.runtimes.base.local_workspace_bytes`), and without flash attention one
layer's KQ scores (:func:`kq_score_bytes`). Sizes in bytes."""

from __future__ import annotations

from dataclasses import dataclass

from estimator.catalog import GpuSpec, ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, Default
from estimator.reasons import Why
from estimator.runtimes.base import LOCAL_UBATCH_TOKENS, Load, ServingRuntime, local_workspace_bytes

KQ_SCORE_BYTES = 4.0
"""Bytes per KQ score without flash attention: ``ggml_mul_mat`` returns F32, and llama.cpp sets the KQ
product's precision to F32 (``ggml_mul_mat_set_prec(kq, GGML_PREC_F32)``, src/llama-graph.cpp
``llm_graph_context::build_attn_mha``, ggml-org/llama.cpp@00395eb2)."""


def kq_score_bytes(spec: ModelSpec, context: int | None) -> float:
    """One layer's attention scores without flash attention, bytes per device: ``n_kv × n_ubatch × n_head
    × 4`` (shape [n_kv, n_tokens, n_head] of ``kq = ggml_mul_mat(ctx0, k, q)`` in
    ``build_attn_mha``'s non-flash branch, src/llama-graph.cpp at ggml-org/llama.cpp@00395eb2; the
    soft-max reuses it in place and the graph allocator reuses it from layer to layer, so one is live).
    The worst-case graph llama.cpp reserves at start-up attends ``n_ubatch`` tokens (512,
    :data:`estimator.runtimes.base.LOCAL_UBATCH_TOKENS`, fewer when the context is shorter) to the whole
    cache, ``n_kv`` = ``context`` (n_ctx, one sequence: ``-np 1``); each device of a layer split reserves
    its own. Flash attention (``ggml_flash_attn_ext``) keeps no such matrix. llama.cpp turned it on by
    default (``-fa auto``) in the ``flash_attn_type`` change released as build b6327 (2025-08-31); older
    builds ran without it unless ``-fa`` was given. 0 without a context."""
    if not context:
        return 0.0
    return context * min(LOCAL_UBATCH_TOKENS, context) * spec.heads * KQ_SCORE_BYTES


@dataclass(frozen=True)
class LlamaCpp(ServingRuntime):
    """llama.cpp and the runtimes built on it: all memory but their context (1 GiB,
    :data:`estimator.defaults.CUDA_CONTEXT_BYTES`), a compute buffer for one ``n_ubatch`` of 512 tokens
    and one sequence's logits (llama.cpp ``--ubatch-size`` default 512; ``--parallel`` 1); layers
    split over the cards (``-sm layer``); with ``flash_attention`` False (``-fa off``), one layer's KQ
    scores too (:func:`kq_score_bytes`)."""

    name = "llama.cpp"
    chunk_policy = "chunk_plus_ubatch"
    # LM Studio runs llama.cpp (s33: h2o-llmstudio is no LM Studio); r36: its llama-bench
    words = r"llama[\s.\-_]*cpp|\bgguf\b|(?<![a-z0-9])lm\s*studio|\bllama-(?:server|cli|bench)\b"
    context_key = "-c"
    memory_key = "-ngl"
    local = True
    splits_layers = True
    workspace_why = Why.local_workspace
    recipe = "llama.cpp"
    kv_type_flags = True
    recipes = ("llama.cpp", "ollama")
    flash_attention: bool = True
    """``-fa on`` / ``auto`` (the default since b6327); False: ``-fa off`` as stated."""

    def _usable(self, gpu: GpuSpec) -> float:
        """All memory (unified: the GPU working set) less 1 GiB of context and buffers."""
        return gpu.addressable_bytes - CUDA_CONTEXT_BYTES.value

    def _workspace(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load) -> float:
        kq = 0.0 if self.flash_attention else kq_score_bytes(spec, load.context)
        return local_workspace_bytes(spec, tp) + kq

    def utilization_assumed(self, gpu: GpuSpec, tp: int, spec: ModelSpec, pp: int = 1) -> Default | None:
        return Default(1.0, Why.local_no_cap)
