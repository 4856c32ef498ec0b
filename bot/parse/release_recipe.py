"""A Qwen 1M-token release served at its long context (s46 trial #8): 'Qwen2.5-7B-Instruct-1M 跑满 100 万
token 上下文' is sized as Qwen2.5-7B (bot.parse.context_release), but the release is served by the vLLM
recipe of its model card, which sets ``--max-num-batched-tokens 131072`` (Qwen/Qwen2.5-7B-Instruct-1M
README, "Deploy with vLLM"): vLLM's start-up profile then runs a forward pass of 131,072 tokens, not the
default 2,048 / 8,192 (:data:`estimator.runtimes.vllm.QWEN_1M_BATCHED_TOKENS`). The same card asks for at
least 120 GB of VRAM in total for the 7B at 1M tokens; with the chunk counted one 80 GB card no longer fits
(weights 15.2 GB + KV 57.3 GB + 18.7 GB of activations), two do. Imported behind its gate (a long-context
release named): other messages pay nothing."""

from __future__ import annotations

from bot.parse.context_release import SUFFIX_END
from estimator.models import SizingRequest
from estimator.runtimes.vllm import QWEN_1M_BATCHED_TOKENS

NATIVE_CONTEXT = 131_072
"""The longest context the Qwen2.5 / Qwen3 models serve without the 1M release's Dual Chunk Attention
(Qwen2.5 technical report; Qwen2.5-7B config.json with YaRN factor 4 × 32,768): below it the recipe's chunk
is not needed, and vLLM's default stays."""


def with_recipe_chunk(request: SizingRequest, typed: str) -> SizingRequest:
    """``request`` with ``max_num_batched_tokens`` 131,072 (:data:`QWEN_1M_BATCHED_TOKENS`) when ``typed``
    (the model's name as typed) names a Qwen '-1M' release (the model sized of the Qwen family) asked at a
    context past :data:`NATIVE_CONTEXT`, on vLLM (named or the default) and with no
    ``max_num_batched_tokens`` stated; else ``request`` unchanged. Not a stated field: the reply's
    workspace line names the recipe."""
    m = SUFFIX_END(typed)
    if m is None or m.group(1).lower() != "1m" or not (request.model or "").lower().startswith("qwen"):
        return request
    if request.max_num_batched_tokens or request.runtime not in (None, "vLLM"):
        return request
    if max(request.seq_len or 0, request.max_model_len or 0) <= NATIVE_CONTEXT:
        return request
    return request.model_copy(update={"max_num_batched_tokens": QWEN_1M_BATCHED_TOKENS})
