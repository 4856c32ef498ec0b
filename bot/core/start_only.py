"""'Will it start?' answered for the user's GPUs with a length and no load (s16 item 1, 876cad5a; s16
review: decided here, not in render, so the JSON says it too as ``report.inference.start_only``): the
headline says the model does not start there (vLLM refuses the length, or the cards hold not even one
sequence), and the concurrency is the default's — not the user's, nor a cap (``--max-num-seqs``: that is
the load), nor asked for — so the reply sizes one sequence on the stated cards and names no load.

Asked in so many words ('will vLLM start with max_model_len 32768 on one L4?', ``start_asked``, trial s26b
#6), the same holds when it starts: the headline is the start-up check's yes (the KV cache's tokens, at
least max_model_len) and no 16 users are assumed. An asked concurrency ('how many users?') on cards where
vLLM refuses the length is answered the same way: no sequence of that length runs, so the body follows the
headline's setup, not the load's plan (trial s26b #7: '≈ 344 tokens/s in total (16 sequences)').
A pasted command's ``--max-num-seqs`` is a cap, not a load: asked whether it starts, the command as given gets
the same yes/no first (s41 trial #7: '能启动吗？vllm serve … --max-num-seqs 64' was answered '2 条并发')."""

from __future__ import annotations

from estimator.models import SizingReport
from estimator.reasons import Why


def start_only(report: SizingReport) -> bool:
    """True when the serving answer sizes one sequence on the user's GPUs and no load (module doc);
    False for a training report, a report without a GPU count, or one that starts unasked."""
    inf, req = report.inference, report.request
    if inf is None or not req.gpu_count or req.target_tokens_per_s:
        return False
    if req.max_num_seqs:  # a command's cap, not a load: asked, its start-up yes (s41 #7); a no sizes the cap
        ok = report.feasible != "no" and req.start_asked and inf.kv_capacity_tokens
        return bool(ok and "context" not in _assumed(report))
    if report.feasible != "no" and not req.start_asked:
        return False  # it starts, unasked: the load is sized (one test, no scan of the assumptions)
    conc = next((a for a in report.assumptions if a.field == "concurrency"), None)
    refused = report.feasible == "no" and report.feasible_reason == "max_model_len" and inf.kv_capacity_tokens
    if conc is not None and conc.why == Why.concurrency_asked:
        return bool(refused)  # 'how many users?' where vLLM refuses the length: none (trial s26b #7)
    if conc is None:
        return False
    if report.feasible != "no":
        return bool(req.start_asked and inf.kv_capacity_tokens and "context" not in _assumed(report))
    if refused:
        return True  # vLLM refuses the length on these cards
    load = not {"concurrency", "context"} <= _assumed(report)  # a context stated
    return req.gpu_count < inf.min_gpus and load  # the cards hold not even the weights and one sequence


def _assumed(report: SizingReport) -> set[str]:
    return {a.field for a in report.assumptions}
