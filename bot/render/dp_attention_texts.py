"""The notes of the weights a data-parallel-attention group keeps whole on each GPU (s44 fixserve #2,
estimator.dp_replicated), kept apart from :mod:`bot.render.wording_extra` (at its 500-line cap);
:mod:`bot.render.wording` merges them into its note messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.i18n import N_
from bot.render.note_codes import NoteCode

if TYPE_CHECKING:
    from bot.render.fmt import Fmt
    from estimator.models import Inference, SizingReport

DP_ATTENTION_NOTE_MESSAGES: dict[NoteCode, str] = {
    NoteCode.dp_attention_replicated_sglang: N_(
        "With data-parallel attention each GPU keeps the attention weights and the token embedding whole "
        "(%(whole_bytes)s), not 1/%(tp)s of them: %(extra_bytes)s more per GPU than the weights ÷ %(tp)s, "
        "counted above (SGLang dp_attention.py: attention TP = TP ÷ DP)."
    ),
    NoteCode.dp_attention_replicated_vllm: N_(
        "With data parallelism each GPU keeps every weight but the routed experts whole (%(whole_bytes)s), "
        "not 1/%(tp)s of them: %(extra_bytes)s more per GPU than the weights ÷ %(tp)s, counted above "
        "(vLLM's data-parallel deployment: the experts alone are split over the group)."
    ),
    NoteCode.dp_attention_split_sglang: N_(
        "With data-parallel attention over groups of %(attn_tp)s GPUs each GPU keeps 1/%(attn_tp)s of the "
        "attention weights and the whole token embedding (%(whole_bytes)s), not 1/%(tp)s of them: "
        "%(extra_bytes)s more per GPU than the weights ÷ %(tp)s, counted above (SGLang dp_attention.py: "
        "attention TP = TP ÷ DP = %(attn_tp)s)."
    ),
    NoteCode.dp_attention_split_vllm: N_(
        "With data parallelism over engines of TP %(attn_tp)s each GPU keeps 1/%(attn_tp)s of every weight "
        "but the routed experts (%(whole_bytes)s), not 1/%(tp)s of them: %(extra_bytes)s more per GPU than "
        "the weights ÷ %(tp)s, counted above (vLLM's data-parallel deployment: the experts alone are split "
        "over the group)."
    ),
    NoteCode.draft_counted: N_(
        "The draft model of your speculative decoding, %(draft)s, is counted above: its weights "
        "(%(weights_bytes)s, 2 B a parameter, split over the same GPUs as the target's: vLLM runs the draft "
        "with the target's TP) and its KV cache (%(kv_kib)s KiB per token, beside the target's in each "
        "token held); the decode speed is without speculation."
    ),
    NoteCode.draft_vocab_mismatch: N_(
        "The draft %(draft)s has a vocabulary of %(draft_vocab)s tokens and %(model)s one of "
        "%(target_vocab)s: vLLM refuses a draft model whose vocabulary size differs from the target's "
        '("Target and draft model should have the same vocabulary size") — pick a draft whose '
        "config.json vocab_size is the target's."
    ),
}
"""``dp_attention_replicated_sglang`` (attention and embedding whole) and ``_vllm`` (all but the routed
experts whole) → words; params whole_bytes, extra_bytes (bytes), tp; ``dp_attention_split_*`` (s45) the same
over ranks of ``attn_tp`` GPUs, whole_bytes then the share each GPU keeps. ``draft_counted`` (s44 fixspec,
estimator.draft_model): a named draft's memory counted; params draft, weights_bytes, kv_kib.
``draft_vocab_mismatch`` (s44 fixspec2): the draft's vocabulary differs from the target's, which vLLM's
``SpeculativeConfig.verify_equal_vocab_size_if_draft_model`` (vllm/config/speculative.py) rejects; params
draft, draft_vocab, model, target_vocab."""


def vllm_dp_layout(report: SizingReport, inf: Inference) -> str | None:
    """'DP=8 × TP=1, EP=8', 'DP=8 × TP=2, EP=16': vLLM's ``--data-parallel-size N
    --enable-expert-parallel`` at TP t per rank, sized as one expert group of ``inf.tp`` = N × t GPUs
    (estimator.serving_group.vllm_ep_group), written as the user's launch has it — N engines of TP t, the
    experts over all of them (vLLM docs, serving/data_parallel_deployment.md: "a tensor parallel group of
    size DP × TP") — never the 'TP=8' of a flag they did not set (s45 fixserve #1). None for every other
    layout."""
    req = report.request
    rank = req.tp or 1
    if not (req.dp_attention and inf.tp > rank and inf.tp % rank == 0) or req.runtime is None:
        return None
    from estimator.serving_group import dp_engine_ranks

    if not dp_engine_ranks(req):  # vLLM's DP ranks, each an engine of its own TP (s45)
        return None
    return f"DP={inf.tp // rank} × TP={rank}, EP={inf.tp}"


NO_ENGINES: dict[str, str | None] = {"kv_engines": None, "kv_per_engine": None}
""":func:`engine_kv` for a layout without vLLM's data-parallel engines (the reply's context gates on it)."""
ONE_COPY: dict[str, str | None] = {"total_gpus": None, "total_copies": None, "total_extra": None}
""":func:`weights_kv_total`'s keys for one copy of the weights, no DP attention: ``total`` alone counts."""


def engine_kv(report: SizingReport, inf: Inference, f: Fmt) -> dict[str, str | None]:
    """``kv_engines`` and ``kv_per_engine``: vLLM's data-parallel engines (``--data-parallel-size N``, each
    an engine of its own TP: :func:`vllm_dp_layout`) each log their own pool at start-up — the "GPU KV
    cache size: N tokens" line of vllm/v1/core/kv_cache_utils.py is printed by every engine core for its
    own KV cache — so the group's ``kv_capacity_tokens`` ÷ the engines, in whole blocks
    (:meth:`estimator.runtimes.base.ServingRuntime.whole_blocks`), is the figure each log shows (s46
    fixrev #1: the group's figure was called the log's). Both None for every other layout."""
    none = NO_ENGINES
    rank = report.request.tp or 1
    if not inf.kv_capacity_tokens or vllm_dp_layout(report, inf) is None:
        return none
    from estimator.runtimes import runtime_named

    engines = inf.tp // rank
    per_engine = runtime_named(inf.runtime).whole_blocks(inf.kv_capacity_tokens // engines)
    return {"kv_engines": f.int(engines), "kv_per_engine": f.int(per_engine)}


def weights_kv_total(report: SizingReport, inf: Inference, f: Fmt) -> dict[str, str | None]:
    """``total`` (GiB): the weights and the load's KV cache held on all the serving GPUs — every replica's
    own copy of the weights (``inf.replicas``: data-parallel copies each hold them whole) and, under DP
    attention, the weights each GPU keeps whole above its 1/TP share (the ``dp_attention_*`` note's
    ``extra_bytes`` per GPU, :func:`estimator.dp_replicated.note_replicated`) on each of the TP × PP GPUs of
    every copy, plus ``kv_bytes_total``; ``total_gpus`` (those GPUs), ``total_copies`` (None for one copy)
    and ``total_extra`` (the bytes per GPU, None without DP attention) say which. Before, one copy's
    weights were counted whatever the replicas (s45 review: 635 GiB for two copies of DeepSeek-V3)."""
    extra = 0.0
    for note in report.warnings:
        if note.code.startswith("dp_attention_") and note.params.get("extra_bytes"):
            extra = float(note.params["extra_bytes"] or 0.0)
            break
    copies, gpus = max(1, inf.replicas), inf.tp * inf.pp * max(1, inf.replicas)
    held = inf.weights_bytes * copies + extra * gpus + inf.kv_bytes_total
    return {
        "total": f.gib(held),
        "total_gpus": f.int(gpus),
        "total_copies": f.int(copies) if copies > 1 else None,
        "total_extra": f.gb(extra) if extra > 0 else None,
    }
