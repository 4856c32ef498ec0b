"""The serving question's base :class:`estimator.inference.ServingSetup`: every stated setting it sizes with
(issue 23 item 4: one value instead of fifteen parameters), before the layout search varies its weights,
load and GPUs. Kept apart from :func:`estimator.serving.size_serving` so that function stays one screen."""

from __future__ import annotations

from estimator.catalog import GpuSpec, ModelSpec
from estimator.inference import ServingSetup
from estimator.kv_types import default_kv_precision
from estimator.later import LATE
from estimator.models import Precision, SizingRequest
from estimator.serving_group import attention_tp


def base_setup(
    req: SizingRequest,
    model: tuple[ModelSpec, float, float | None],
    gpu: GpuSpec,
    precision: Precision,
    context: int,
    named: str | None,
    price: tuple | None,
    ggml: bool,
) -> ServingSetup:
    """``model`` = (spec, total params, active params); one sequence on the stated GPU count; ``named`` the
    runtime as stated; ``ggml``: llama.cpp / Ollama (an f16 KV cache by default); ``price`` the card's
    (low, high, currency, …) range or None."""
    spec, params, active = model
    return ServingSetup(
        spec, params, active, gpu, precision, context, 1, req.gpu_count, flash_attention=req.flash_attention,
        kv_precision=req.kv_precision or default_kv_precision(precision, gpu, ggml), runtime=named,
        prompt_tokens=req.prompt_tokens, mla_tp_copies=LATE.mla_tp_copies(req, spec), kv_v=req.kv_precision_v,
        price=price[:3] if price else None, utilization=req.gpu_memory_utilization, dp_said=attention_tp(req),
        most_sequences=bool(req.concurrency_asked) and not req.concurrency, tgi_version=req.tgi_version,
        bits_per_weight=req.bits_per_weight, prefill_in_decode=LATE.prefill_in_decode(req),
        draft=LATE.draft_for(req, spec) if req.draft_model else None,  # s44: a named draft model's memory
        batched_tokens=req.max_num_batched_tokens,  # s46: vLLM's prefill chunk as set
    )  # fmt: skip
