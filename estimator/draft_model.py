"""The draft model of speculative decoding in serving memory (s44 fixspec; issue 24 items 3, 4).

vLLM loads the draft beside the target on the same GPUs: ``SpeculativeConfig._verify_and_get_draft_tp``
(vllm/config/speculative.py) sets an unset ``draft_tensor_parallel_size`` to
``target_parallel_config.tensor_parallel_size`` (1 for an ``mlp_speculator`` only) and accepts no value
but 1 or the target's, so by default the draft's weights are split over the target's TP group like the
target's (a stated ``draft_tensor_parallel_size`` 1 is not modelled: the config is named). Its
``SpeculativeConfig.quantization`` is None unless stated ("If `None`, we assume the model weights are not
quantized"), so its weights are 16-bit — 2 B a parameter. The draft's attention layers get KV-cache
blocks from the same pool as the target's, of the same ``kv_cache_dtype`` unless
``SpeculativeConfig.kv_cache_dtype`` is set: each token held costs the target's KV bytes plus the
draft's (its own layers × KV heads × head size, from the catalog). The speed is without speculation (its
speed-up depends on how many drafted tokens are accepted): the draft's bytes are not in the bytes read
per decoded token. EAGLE / MTP heads (one decoder layer beside the target's own embeddings) are not
catalog models: named as typed, not counted (bot.parse.draft_model).

A draft whose vocabulary size (config.json ``vocab_size``, the catalog's ``vocab``) differs from the
target's is refused by vLLM: ``SpeculativeConfig.verify_equal_vocab_size_if_draft_model``
(vllm/config/speculative.py, called by vllm/v1/spec_decode/draft_model.py ``DraftModelProposer``) raises
"Target and draft model should have the same vocabulary size" for ``method == "draft_model"``; the memory
is still counted as stated and the warning ``draft_vocab_mismatch`` says so (s44 fixspec2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from estimator import catalog
from estimator.kv_types import kv_pair
from estimator.models import Precision
from estimator.weights import kv_bytes_per_token, weight_bytes

if TYPE_CHECKING:
    from estimator.catalog import ModelSpec
    from estimator.inference import ServingSetup
    from estimator.ledger import Ledger
    from estimator.request import SizingRequest

DRAFT_PRECISION = Precision.bf16
"""The draft's weights: 16-bit (2 B a parameter) — vLLM's draft ModelConfig takes the target's dtype and no
quantization unless one is stated for the draft (vllm/config/speculative.py)."""


def draft_for(req: SizingRequest, spec: ModelSpec) -> tuple[ModelSpec, float] | None:
    """(the draft's catalog spec, its parameters) when ``req.draft_model`` is a catalog id and the draft is
    not the model sized; None otherwise (a draft the catalog does not know is named as not counted by the
    reader: bot.parse.draft_model)."""
    draft = catalog.models().get(req.draft_model) if req.draft_model else None
    if draft is None or draft.id == spec.id:
        return None
    return draft, draft.params_total


def draft_memory(spec: ModelSpec, draft: tuple[ModelSpec, float]) -> tuple[float, float]:
    """(the draft's weight bytes, the draft's KV bytes per token ÷ the target's at the same KV type).
    Weights: :func:`estimator.weights.weight_bytes` at 2 B a parameter (:data:`DRAFT_PRECISION`); KV:
    :func:`estimator.weights.kv_bytes_per_token` of each model (2 × layers × KV heads × head size)."""
    d_spec, d_params = draft
    ratio = kv_bytes_per_token(d_spec, 1.0) / kv_bytes_per_token(spec, 1.0)
    return weight_bytes(d_spec, d_params, DRAFT_PRECISION), ratio


def note_draft(s: ServingSetup, ledger: Ledger) -> None:
    """The note ``draft_counted`` of ``s``'s draft: its name, weight bytes, KV KiB per token (at ``s``'s
    KV type); the warning ``draft_vocab_mismatch`` when its vocabulary size differs from the target's (vLLM
    refuses the pair, module doc). Nothing without a draft."""
    if s.draft is None:
        return
    weights, _ = draft_memory(s.spec, s.draft)
    kv = kv_bytes_per_token(s.draft[0], kv_pair(s.kv_precision, s.kv_v)[0])
    ledger.note("draft_counted", draft=s.draft[0].name, weights_bytes=weights, kv_kib=kv / 1024)
    if s.draft[0].vocab != s.spec.vocab:  # vLLM refuses the pair (module doc)
        ledger.note(
            "draft_vocab_mismatch",
            draft=s.draft[0].name,
            draft_vocab=s.draft[0].vocab,
            model=s.spec.name,
            target_vocab=s.spec.vocab,
        )
