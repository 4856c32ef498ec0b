"""Where an MLA model's latent KV cache lives under tensor parallelism (trial s19, issue 24 item 2).

MLA (DeepSeek-V2/V3/R1, Kimi-K2) caches one latent per token and layer, kv_lora_rank + qk_rope_head_dim
values (512 + 64 for DeepSeek-V3), with a single head: tensor parallelism splits the heads of the
projections but cannot split that latent, so under a plain ``--tp N`` each rank keeps the whole of it
(SGLang ``MLATokenToKVPool``, python/sglang/srt/mem_cache/memory_pool.py; vLLM's MLA backend,
vllm/attention/backends/mla/common.py, cache blocks of [block, 1, kv_lora_rank + rope]): the pool is one
rank's free memory ÷ the latent's size, not the group's. Data-parallel attention (SGLang
``--enable-dp-attention``, vLLM's data- and expert-parallel deployment) keeps each sequence's latent on
one GPU — the layout the answer recommends when no TP is stated (bot.recipes.serving writes its flags).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from estimator.reasons import Why, Word

if TYPE_CHECKING:
    from estimator.catalog import ModelSpec
    from estimator.models import SizingRequest


def mla_tp_copies(req: SizingRequest, spec: ModelSpec) -> bool:
    """True when an MLA model runs under a TP the user stated (> 1) without DP attention said: each rank
    holds the whole latent cache (module docstring)."""
    return bool(spec.kv_lora_rank) and (req.tp or 1) > 1 and not req.dp_attention


def mla_layout(req: SizingRequest, spec: ModelSpec) -> tuple[str, Why]:
    """The ledger's ``kv_layout`` value and reason for an MLA model over a TP group."""
    if mla_tp_copies(req, spec):
        return Word.tp_copies.value, Why.mla_tp_copies
    return Word.dp_attention.value, Why.mla_dp_attention
