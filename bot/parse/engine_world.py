"""The GPUs a serving engine's stated layout runs on (issue 24, session 23): 'Serving GLM-5.1-AWQ with
vllm --tensor-parallel-size 8 …', 'sglang … --tp-size 4', 'lmdeploy … --tp 2 --pp 2' with no GPU count.

A serving engine puts one copy of the model on TP × PP GPUs (vLLM's ``ParallelConfig.world_size =
pipeline_parallel_size × tensor_parallel_size``, vllm/config/parallel.py; SGLang ``ServerArgs.tp_size``
× ``pp_size``, python/sglang/srt/server_args.py; lmdeploy ``--tp``; TGI ``--num-shard``), so a message that
states that layout and no count states that many GPUs. Before, the count was left empty and the
estimator's own minimum was sized beside the user's TP 8.

Training layouts are not read this way: Megatron-LM's and DeepSpeed's world size is DP × TP × PP, and a
TP alone says nothing of the data-parallel degree.
"""

from __future__ import annotations

from typing import Any

from estimator.runtimes import RUNTIMES

SERVING_ENGINES = frozenset(name for name, rt in RUNTIMES.items() if rt.spans_tp_pp)
"""Runtimes (bot.parse.method_words.RUNTIMES names) whose model copy spans exactly TP × PP GPUs
(``ServingRuntime.spans_tp_pp``)."""


def engine_world(fields: dict[str, Any], counted: bool) -> int | None:
    """TP × PP of the request ``fields`` when they serve on a :data:`SERVING_ENGINES` runtime, state a TP
    or PP above one and no GPU count (``counted``: a count was read from the words, or the words ask for
    one or for the capacity), and ask neither how many GPUs nor how many at once; else None.
    Dimensionless (GPUs)."""
    if counted or fields.get("gpu_count") is not None or fields.get("stage") != "inference":
        return None
    if fields.get("count_asked") or fields.get("concurrency_asked"):
        return None  # 'how many GPUs?': the TP is one copy's; 'how many concurrent?': estimator.resolve's
        # launcher world size answers it on TP × PP GPUs, said as an assumption (launcher_world_size)
    if fields.get("runtime") not in SERVING_ENGINES:
        return None
    tp, pp = fields.get("tp") or 1, fields.get("pp") or 1
    if not (isinstance(tp, int) and isinstance(pp, int)) or tp * pp <= 1:
        return None
    return tp * pp
