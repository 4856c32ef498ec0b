"""'Max context?' on the user's GPUs (trial s26 #10): the longest context one sequence — or the load
they stated — fits, solved from the KV cache the serving answer holds, at most the model's own limit
(``max_position_embeddings``, :attr:`estimator.catalog.ModelSpec.max_context`) and at most its native window
(:attr:`estimator.catalog.ModelSpec.native_context`): the longer window a model documents with YaRN is off
by default, needs a runtime's own switch (vLLM ``--hf-overrides`` rope_scaling; llama.cpp
``--rope-scaling yarn``, tools/server/README.md) and costs quality at short lengths (Qwen2.5 model cards), so
it is not assumed for a question that named no length (s26 trial 2 #9: 77K sized for Qwen2.5-14B on a 4090,
"as asked")."""

from __future__ import annotations

from typing import Any

from estimator.ledger import Ledger
from estimator.models import SizingRequest

CONTEXT_STEP = 1024
"""The longest context is said in whole KiB-tokens (a round figure for ``--max-model-len`` / ``num_ctx``)."""


def longest_context(req: SizingRequest, r: Any, size: Any) -> int | None:
    """The tokens of :func:`longest_contexts` alone (None when not asked or nothing fits)."""
    found = longest_contexts(req, r, size)
    return found[0] if found else None


def longest_contexts(req: SizingRequest, r: Any, size: Any) -> tuple[int, tuple[str, int] | None] | None:
    """Tokens per sequence that the user's GPUs (their count, else one) hold for ``req.concurrency``
    sequences (one when none is stated), at the weight format sized first (the one a sequence of
    :data:`CONTEXT_STEP` tokens is served at: bf16 when it fits at all), and ``(format, tokens)`` of a
    lighter format sized at the model's limit when only that one reaches further (trial s27b #3: Llama-3.1-8B
    on a 3090 was answered 'Q4_K_M: 128K … 16-bit doesn't fit' though bf16 holds 43K). The KV cache is that
    of each probe (``Inference.kv_capacity_tokens``: vLLM's start-up log, the pool of every other runtime)
    over the sequences, rounded down to :data:`CONTEXT_STEP` and at most the limit; None when not asked, a
    context or max_model_len was stated, the model has no known limit, or the weights leave no KV cache.
    ``size(req, ledger)`` is the serving sizer (:func:`estimator.serving.size_serving` bound to the
    resolved model and card)."""
    limit = r.spec.max_context if r.spec is not None else None
    native = r.spec.native_context if r.spec is not None else None
    limit = min(limit, native) if limit and native else limit  # the native window: no RoPE scaling assumed
    if not req.context_asked or req.seq_len or req.max_model_len or not limit:
        return None
    sequences, count = req.concurrency or 1, req.gpu_count or 1
    short, full = (
        size(req.model_copy(update={"seq_len": t, "concurrency": sequences}), Ledger()).inference
        for t in (CONTEXT_STEP, limit)
    )
    held = {id(inf): _held(inf, count, sequences, limit) for inf in (short, full)}
    if held[id(full)] and (full.weight_format == short.weight_format or not held[id(short)]):
        return held[id(full)], None  # the limit at the format sized first (or the only one that fits)
    if not held[id(short)]:
        return None
    lighter = (full.weight_format, held[id(full)]) if held[id(full)] else None
    return held[id(short)], lighter if lighter and lighter[1] > held[id(short)] else None


def _held(inf: Any, count: int, sequences: int, limit: int) -> int:
    """The context each of ``sequences`` holds in one probe's KV cache on ``count`` GPUs (0: none)."""
    if inf.min_gpus > count or not inf.kv_capacity_tokens:
        return 0
    return min(inf.kv_capacity_tokens // sequences // CONTEXT_STEP * CONTEXT_STEP, limit)
