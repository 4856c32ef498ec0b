"""The user's own cards first (s38-fixs2 #1): a serving question that names its GPU count but no context,
where one sequence of the assumed context (a reasoning model's 32K generation length, or the 4K chat default)
does not fit those cards though the weights do, is answered on them at the longest ``--max-model-len`` they
start with — weights + that many tokens of KV cache within the engine's budget (vLLM: gpu_memory_utilization
× the card, less its profiling peak: the KV-cache tokens of its start-up log) — and the assumed context's
option (its GPU count and one-sequence speed) is said beside it as a note. Imported only behind that gate
(:func:`estimator.sizing.estimate`)."""

from __future__ import annotations

from typing import Any

from estimator import defaults
from estimator.ledger import Ledger
from estimator.models import SizingRequest
from estimator.reasons import Why


def own_cards_request(req: SizingRequest, r: Any, served: Any, ledger: Ledger, mark: tuple[int, int]) -> Any:
    """``req`` at the longest context the user's ``gpu_count`` cards hold, with the ledger rolled back to
    ``mark`` (assumptions, notes) and the assumed context's option noted; None when that context is
    shorter than the chat default (:data:`estimator.defaults.SERVE_CONTEXT`: no useful serving setup) or
    the weights leave no KV cache on those cards."""
    from estimator.longest_context import longest_contexts
    from estimator.serving import size_serving

    def size(q: SizingRequest, throwaway: Ledger) -> Any:
        return size_serving(q, r.spec, r.params, r.active, r.gpu, throwaway)

    probe = req.model_copy(update={"context_asked": True})
    found = longest_contexts(probe, r, size)
    if found is None or found[0] < defaults.SERVE_CONTEXT.value or found[0] >= served.context:
        return None
    inf = served.inference
    speed = inf.decode_tokens_per_s.per_sequence if inf.decode_tokens_per_s else None
    del ledger.assumptions[mark[0] :], ledger.notes[mark[1] :]  # the assumed context's sizing, replaced
    at = {"gpu_count": req.gpu_count, "max_model_len": str(found[0]), "seq_len": served.context}
    ledger.assume("context", found[0], Why.own_cards_context, **at)  # the flag's value as typed: no '9.22K'
    option = {"context": served.context, "gpus": inf.min_gpus, "gpu": r.gpu.family}
    ledger.note("own_cards_option", **option, **({"speed": round(speed)} if speed else {}))
    return req.model_copy(update={"seq_len": found[0]})
