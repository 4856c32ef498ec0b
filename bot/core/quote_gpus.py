"""The GPU count a serving quote prices when the answer is "it will not start on your setup" (session 17,
s17-fix item 4).

"vLLM 在 2 张 H800 上部署 Qwen2.5-72B，max-model-len 131072": the reply says 2 cards do not hold it and 4
are the fewest that start, but ``serving_gpus`` (what the speed and cost figures refer to) is the
recommended size for the default load (16 sequences of 128K: 16 GPUs), which nobody asked about, and
the quote priced those 16. When the user's stated count does not start (``does_not_fit_requested``) and
the load was not stated (the concurrency is an assumption in the ledger), the quote prices what the
answer recommends: the fewest GPUs that start (``min_gpus``). A stated load keeps its recommended size.
"""

from __future__ import annotations

from estimator.models import SizingReport

NOT_STARTING = "does_not_fit_requested"
"""The estimator's note: the user's GPU count does not hold the job (serving: the engine would not start)."""


def serving_quote_gpus(report: SizingReport) -> int:
    """GPUs a quote of the serving answer ``report`` prices: the fewest that start when the user's count
    will not and no load was stated, else ``serving_gpus``. ``report.inference`` must be set."""
    inf = report.inference
    assert inf is not None
    if not report.request.gpu_count or not any(w.code == NOT_STARTING for w in report.warnings):
        return inf.serving_gpus
    if any(a.field == "concurrency" for a in report.assumptions):  # the default load, not the user's
        return min(inf.min_gpus, inf.serving_gpus)
    return inf.serving_gpus
