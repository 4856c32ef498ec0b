"""The KV pool's lines of a serving reply — the start-up pool, V0's whole-sequence profile, sliding windows,
and the KV of one sequence at the length vLLM checks at start-up when it refuses it — split out of
:mod:`bot.render.serving_text` (at its 500-line cap, s46 fixrev #3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.render.dp_attention_texts import NO_ENGINES, ONE_COPY, engine_kv, weights_kv_total
from estimator.runtimes import runtime_named

if TYPE_CHECKING:
    from bot.render.fmt import Fmt
    from estimator.models import Inference, SizingReport


def kv_lines(report: SizingReport, inf: Inference, f: Fmt) -> dict[str, Any]:
    """The memory lines' figures of a serving reply: ``kv_capacity`` (a tensor-parallel server's pool; None
    for a runtime that splits layers), ``kv_chunked`` (:func:`v0_whole_profile`), ``kv_windowed``;
    ``total`` (weights + KV cache in GiB, compared with the usable GiB on its line: s37 fixb #3) with every
    copy of the weights the GPUs hold
    (:func:`bot.render.dp_attention_texts.weights_kv_total`, s46 #2) when there are replicas or DP
    attention; vLLM's DP engines' own logs (``engine_kv``, s46 #1) under DP attention; and ``limit_kv``
    (:func:`limit_kv`, s46 #3) when vLLM refuses its max_model_len. Each is gated on its own cue, so a
    reply without it pays one test."""
    dp = report.request.dp_attention
    refuses = report.feasible_reason == "max_model_len" and bool(inf.kv_capacity_tokens)
    one = {**ONE_COPY, "total": f.gib(inf.weights_bytes + inf.kv_bytes_total)}
    split = runtime_named(inf.runtime).splits_layers  # a runtime that splits layers has no pool line
    return {
        "kv_capacity": f.int(inf.kv_capacity_tokens) if inf.kv_capacity_tokens and not split else None,
        "kv_chunked": v0_whole_profile(inf),
        # sliding-window layers beside full ones: the capacity counts full-attention tokens (trial s20 q14)
        "kv_windowed": inf.kv_bytes_per_sequence < 0.99 * inf.kv_bytes_per_token * inf.context_tokens,
        **(weights_kv_total(report, inf, f) if inf.replicas > 1 or dp else one),
        **(engine_kv(report, inf, f) if dp else NO_ENGINES),
        "limit_kv": limit_kv(report, inf, f) if refuses else None,
    }


def engine_limit(report: SizingReport) -> int | None:
    """The max_model_len vLLM refuses (its 'vllm_refuses' note): the model's own when the command set none."""
    note = next((w for w in report.warnings if w.code == "vllm_refuses"), None)
    value = note.params.get("max_model_len") if note else None
    return int(value) if isinstance(value, int | float) else None


def v0_whole_profile(inf: Inference) -> bool:
    """vLLM's start-up log at ``--max-model-len`` = the context holds fewer sequences than the answer
    (V0 profiles one whole sequence up to 32K; a start-up with chunked prefill holds the answer's:
    estimator.inference._most_held): the log line says so."""
    if not runtime_named(inf.runtime).profiles_whole_sequence or not inf.kv_capacity_tokens:
        return False
    if not inf.context_tokens:
        return False
    return inf.max_concurrency > inf.replicas * (inf.kv_capacity_tokens // inf.context_tokens)


def limit_kv(report: SizingReport, inf: Inference, f: Fmt) -> str | None:
    """The KV cache of one sequence at the max_model_len vLLM refuses to start with (:func:`engine_limit`:
    its 'vllm_refuses' note; the model's own ``max_position_embeddings`` when no --max-model-len is set,
    estimator.serving_launch.engine_limit), in GiB: ``kv_bytes_per_token`` × that length — the figure vLLM's
    ``check_enough_kv_cache_memory`` (vllm/v1/core/kv_cache_utils.py) compares with its pool — so the KV
    line and the headline give one length (s45 review #3: the headline at 131,072 over a '× 4K context'
    line). None when the length is the context sized already, or with sliding-window layers (their
    per-sequence KV is not per token × length: the sized line stays)."""
    limit = engine_limit(report)
    context = inf.context_tokens
    if not limit or limit <= context or inf.kv_bytes_per_sequence < 0.99 * inf.kv_bytes_per_token * context:
        return None
    return f.gib(inf.kv_bytes_per_token * limit)
