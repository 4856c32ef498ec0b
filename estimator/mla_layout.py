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
    from estimator.ledger import Ledger
    from estimator.models import Inference, SizingRequest


SGLANG = "SGLang"
"""``Runtime.sglang``'s value (estimator.request), compared by value: no import of the request here."""
VLLM = "vLLM"
"""``Runtime.vllm``'s value."""


def sglang_plain_tp(req: SizingRequest, spec: ModelSpec) -> bool:
    """True when an MLA model is served with SGLang and no DP attention was said: SGLang's default is
    plain tensor parallelism (``ServerArgs.enable_dp_attention: bool = False``,
    python/sglang/srt/server_args.py; s24 trial #3: sized as DP attention, 8× the default's capacity)."""
    named = req.runtime is not None and req.runtime.value == SGLANG
    return bool(spec.kv_lora_rank) and named and req.dp_attention is None


def vllm_plain_tp(req: SizingRequest, spec: ModelSpec) -> bool:
    """True when an MLA model is served with vLLM, or with no engine named (vLLM is then the server sized:
    :func:`estimator.runtimes.runtime_for`), and no DP attention was said: ``vllm serve`` lays a copy out
    with ``--tensor-parallel-size`` and every rank keeps the whole latent cache; attention is data
    parallel only with ``--data-parallel-size`` and ``--enable-expert-parallel`` (vLLM docs,
    serving/data_parallel_deployment.md; s24 review #6: sized as DP attention, 8× the default's; trial s25
    #8: with no engine named the headline, capacity and budget lines were still DP attention's)."""
    named = req.runtime is None or req.runtime.value == VLLM
    return bool(spec.kv_lora_rank) and named and req.dp_attention is None


def mla_tp_copies(req: SizingRequest, spec: ModelSpec) -> bool:
    """True when an MLA model runs under a TP the user stated (> 1) without DP attention said, or with
    SGLang and no DP attention said (:func:`sglang_plain_tp`, whatever TP the plan takes): each rank
    holds the whole latent cache (module docstring)."""
    if not spec.kv_lora_rank or req.dp_attention:
        return False
    return (req.tp or 1) > 1 or sglang_plain_tp(req, spec) or vllm_plain_tp(req, spec)


def mla_layout(req: SizingRequest, spec: ModelSpec) -> tuple[str, Why]:
    """The ledger's ``kv_layout`` value and reason for an MLA model over a TP group."""
    if mla_tp_copies(req, spec):
        if req.tp is not None:
            return Word.tp_copies.value, Why.mla_tp_copies
        return Word.tp_copies.value, Why.mla_vllm_default if vllm_plain_tp(
            req, spec
        ) else Why.mla_sglang_default
    return Word.dp_attention.value, Why.mla_dp_attention


def indexer_assumption(spec: ModelSpec, ledger: Ledger) -> None:
    """Name DeepSeek Sparse Attention's indexer key cache in the ledger when the model has one: its bytes
    per token (a number, :func:`estimator.weights.indexer_bytes_per_token`; render words it, s24 review #1),
    which are in the KV cache per token."""
    if spec.index_head_dim:
        from estimator.weights import indexer_bytes_per_token

        ledger.assume("kv_indexer", indexer_bytes_per_token(spec), Why.dsa_indexer_cache)  # bytes per token


def note_assumed_dp_attention(req: SizingRequest, spec: ModelSpec, inf: Inference, ledger: Ledger) -> None:
    """Say so when the answer assumed DP attention for an MLA model over a TP group the user did not lay
    out (trial s21 #8: SGLang's DeepSeek-V3 on 8 × H200 sized as DP attention, silently), with what the
    plain ``--tp`` layout holds: every rank keeps the whole latent, so one rank's pool is the copy's
    (module docstring) — the sequences of ``inf.context_tokens`` at 1/TP of the DP-attention pool
    (``kv_capacity_tokens`` // TP // context; SGLang reserves a little less without DP attention,
    ``SGLANG_DP_ATTENTION_GIB`` in estimator/runtimes/sglang.py, so it is about that). Nothing when DP
    attention was said, a TP was stated (then :func:`mla_tp_copies` sizes the copies) or TP is 1. With
    SGLang (:func:`sglang_plain_tp`) the answer is plain TP's, and the note offers DP attention's ×TP
    pool (``kv_capacity_tokens`` × TP // context, about: SGLang reserves a little more with it). With DP
    attention, first the weights each GPU keeps whole (:func:`estimator.dp_replicated.note_replicated`)."""
    if spec.kv_lora_rank and inf.tp > 1 and not mla_tp_copies(req, spec):  # s44: the weights kept whole
        from estimator.dp_replicated import note_replicated
        from estimator.serving_group import attention_tp

        note_replicated(spec, inf, ledger, attention_tp(req) or 1)  # s45: SGLang TP ÷ DP, vLLM's rank TP
    said = req.dp_attention is not None or req.tp is not None
    if not spec.kv_lora_rank or inf.tp <= 1 or said or not inf.kv_capacity_tokens:
        return
    context = max(1, inf.context_tokens)
    if sglang_plain_tp(req, spec):  # sized on SGLang's default, plain TP: DP attention offered after
        from estimator.runtimes.sglang import SGLANG_DP_ATTENTION_GIB

        reserved = SGLANG_DP_ATTENTION_GIB * 2**30 / max(1.0, inf.kv_bytes_per_token or 1.0)
        dp_tokens = int(max(0.0, inf.kv_capacity_tokens - reserved)) * inf.tp
        ledger.note("mla_sglang_plain_tp", tp=inf.tp, context=context, concurrency=dp_tokens // context)
        return
    if vllm_plain_tp(req, spec):  # vLLM's default, plain TP: its data-parallel attention offered after
        dp = inf.kv_capacity_tokens * inf.tp // context
        ledger.note("mla_vllm_plain_tp", tp=inf.tp, context=context, concurrency=dp)
        return
    ledger.note(
        "mla_dp_attention_assumed",
        tp=inf.tp,
        context=context,
        max_concurrency=inf.kv_capacity_tokens // context,
        concurrency=inf.kv_capacity_tokens // inf.tp // context,
    )
