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
    """Tokens per sequence that the user's GPUs (their count, else one) hold for ``req.concurrency``
    sequences (one when none is stated): the KV cache of a probe at the model's limit on that count
    (``Inference.kv_capacity_tokens``: vLLM's start-up log, the pool of every other runtime), or of one
    at :data:`CONTEXT_STEP` tokens when the limit's sequence does not fit there, over the sequences,
    rounded down to :data:`CONTEXT_STEP` and at most the limit; None when not asked, a context or
    max_model_len was stated, the model has no known limit, or the weights leave no KV cache.
    ``size(req, ledger)`` is the
    serving sizer (:func:`estimator.serving.size_serving` bound to the resolved model and card)."""
    limit = r.spec.max_context if r.spec is not None else None
    native = r.spec.native_context if r.spec is not None else None
    limit = min(limit, native) if limit and native else limit  # the native window: no RoPE scaling assumed
    if not req.context_asked or req.seq_len or req.max_model_len or not limit:
        return None
    sequences, count = req.concurrency or 1, req.gpu_count or 1
    for tokens in (limit, CONTEXT_STEP):  # at the limit; else the pool their cards keep at a short one
        probe = req.model_copy(update={"seq_len": tokens, "concurrency": sequences, "context_asked": None})
        inf = size(probe, Ledger()).inference
        if inf.min_gpus <= count and inf.kv_capacity_tokens:
            held = inf.kv_capacity_tokens // sequences // CONTEXT_STEP * CONTEXT_STEP
            return min(held, limit) if held else None
    return None
