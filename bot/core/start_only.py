"""'Will it start?' answered for the user's GPUs with a length and no load (s16 item 1, 876cad5a; s16
review: decided here, not in render, so the JSON says it too as ``report.inference.start_only``): the
headline says the model does not start there (vLLM refuses the length, or the cards hold not even one
sequence), and the concurrency is the default's — not the user's, nor a cap (``--max-num-seqs``: that is
the load), nor asked for — so the reply sizes one sequence on the stated cards and names no load."""

from __future__ import annotations

from estimator.models import SizingReport
from estimator.reasons import Why


def start_only(report: SizingReport) -> bool:
    """True when the serving answer sizes one sequence on the user's GPUs and no load (module doc);
    False for a training report, a report without a GPU count, or one that starts."""
    inf, req = report.inference, report.request
    if inf is None or not req.gpu_count or report.feasible != "no" or req.max_num_seqs:
        return False
    if req.target_tokens_per_s:
        return False
    conc = next((a for a in report.assumptions if a.field == "concurrency"), None)
    if conc is None or conc.why == Why.concurrency_asked:
        return False
    if report.feasible_reason == "max_model_len" and inf.kv_capacity_tokens:
        return True  # vLLM refuses the length on these cards
    assumed = {a.field for a in report.assumptions}
    load = not {"concurrency", "context"} <= assumed  # a context stated
    return req.gpu_count < inf.min_gpus and load  # the cards hold not even the weights and one sequence
