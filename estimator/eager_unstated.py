"""A serving "fits" on a card without FlashAttention-2, where no runtime was named (s51 verdict).

The estimate sizes a question with no runtime as vLLM (paged KV cache, fused attention kernels). On a card
FlashAttention-2 does not support — "FlashAttention-2 currently supports: Ampere, Ada, or Hopper GPUs …
Support for Turing GPUs (T4, RTX 2080) is coming soon, please use FlashAttention 1.x for Turing GPUs for
now" (Dao-AILab/flash-attention README.md) — many runs are plain Hugging Face ``generate`` code, and
where that code has no fused path (a model's own ``trust_remote_code`` modeling without flash_attn, as
Qwen-1 / Baichuan / ChatGLM-1 ship, or transformers before 4.36, which had no SDPA default) it runs eager
attention: ``softmax(attn_weights, dim=-1, dtype=torch.float32)`` and its
16-bit copy (transformers models/llama/modeling_llama.py ``eager_attention_forward``), one layer's
batch × heads × S × S scores at a time, 6 B each (:data:`estimator.attention_scores.HF_SCORE_BYTES`).
With ``device_map="auto"`` the layers are split over the cards, every head of a layer on one card, so each
card's peak holds one layer's whole scores. The runtime is unknown, so the verdict stays "fits" only when
the cards keep 10 % free with those scores too (the rule of
:func:`estimator.serving_verdict.serving_verdict`), else ('borderline', 'eager_unstated'), noted with the
scores per GPU in bytes and the context in tokens. Imported only for a card of :data:`NO_FA2_GENERATIONS`.
"""

from __future__ import annotations

from estimator.attention_scores import HF_SCORE_BYTES
from estimator.catalog import ModelSpec
from estimator.ledger import Ledger
from estimator.models import Inference, SizingRequest
from estimator.plan import HEADROOM

NO_FA2_GENERATIONS = frozenset({"Volta", "Turing", "Pascal"})
"""NVIDIA generations FlashAttention-2 does not run on (its README: Ampere, Ada, Hopper and later)."""


def eager_score_bytes(spec: ModelSpec, context: int, sequences: int) -> float:
    """One layer's eager attention scores of ``sequences`` sequences of ``context`` tokens: 6 B × b ×
    heads × S² (fp32 softmax output and its 16-bit copy)."""
    s = float(context)
    return HF_SCORE_BYTES * sequences * spec.heads * s * s


def eager_unstated(
    req: SizingRequest, inf: Inference, spec: ModelSpec, count: int, need: float, ledger: Ledger
) -> tuple[str, str | None]:
    """('yes', None) when ``need`` (weights, KV cache and workspace on ``count`` cards) plus each card's one
    layer of eager scores keeps 10 % of the cards free; else ('borderline', 'eager_unstated'), noted."""
    scores = eager_score_bytes(spec, inf.context_tokens, req.concurrency or 1)
    if need + scores * count <= HEADROOM * inf.usable_bytes_per_gpu * count:
        return "yes", None
    ledger.note("eager_unstated", scores_bytes=scores, context=inf.context_tokens)
    return "borderline", "eager_unstated"
