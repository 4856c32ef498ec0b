"""The serving reply's context → concurrency table, kept to the lengths the server runs (s41 trial #10): a
row past the stated ``--max-model-len`` / ``--context-length`` (vLLM and SGLang refuse a longer request), or,
with none stated, past the model config's ``max_position_embeddings`` (ModelSpec.native_context:
Qwen2.5-72B-Instruct 32,768; vLLM and SGLang derive their limit from it and refuse longer unless RoPE
scaling is turned on) is not listed. A context the user asked for stays, whatever its length."""

from __future__ import annotations

from bot.render.fmt import Fmt, rjust
from bot.render.notes import context_len
from estimator.models import SizingReport
from estimator.runtimes import runtime_named


def context_rows(report: SizingReport, f: Fmt) -> list[dict[str, str]]:
    """``[{"context": '  8K', "n": '52'}, …]`` for Inference.concurrency_table's rows the server runs."""
    inf, req, spec = report.inference, report.request, report.model_spec
    if inf is None:
        return []
    limit = req.max_model_len if req.max_model_len and not req.max_model_len_default else None
    if limit is None and spec is not None and spec.native_context and runtime_named(inf.runtime).paged:
        limit = spec.native_context
    limit = max(limit, inf.context_tokens) if limit else None
    return [
        {"context": rjust(context_len(ctx), 4), "n": f.int(n)}
        for ctx, n in inf.concurrency_table
        if limit is None or ctx <= limit
    ]
