"""The TP × PP group a user's stated layout sizes every serving copy on (split out of estimator/serving.py,
at its 500-line cap, s45 fixserve #1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from estimator.models import SizingRequest


def stated_group(req: SizingRequest, assumed_count: bool = False) -> tuple[int, int] | None:
    """The user's TP × PP for every serving copy; None when not stated, or when it needs more GPUs than
    the user has (then the search chooses, and the interpretation names the TP as not used). Only a
    stated GPU count caps it: a card's memory in its name ('A800 40G要几张', 'how many A100 80G') is no
    count of one, so ``--tp 2`` there is sized as copies of TP 2 (trial report s10 B1)."""
    if not (req.tp or req.pp):
        return None
    group = (req.tp or 1, req.pp or 1)
    count = None if assumed_count else req.gpu_count  # a personal card's assumed 1 does not cap TP
    ranks = group[0] == 1 or req.attention_tp  # DP ranks of TP 1, or the parser's ranks of a TP (s45)
    if ranks and count and dp_engine_ranks(req):
        group = vllm_ep_group(count, group)  # DP ranks of their own TP, the experts over them all (s45)
    if count and group[0] * group[1] > count:
        return None
    return group


def dp_engine_ranks(req: SizingRequest) -> bool:
    """DP attention stated on a runtime whose DP ranks are engines of their own TP (vLLM DP + EP:
    :attr:`estimator.runtimes.ServingRuntime.dp_engines_own_tp`)."""
    from estimator.runtimes import RUNTIMES

    engine = RUNTIMES.get(req.runtime.value) if req.dp_attention and req.runtime is not None else None
    return engine is not None and engine.dp_engines_own_tp


def vllm_ep_group(count: int, rank: tuple[int, int]) -> tuple[int, int]:
    """vLLM's ``--data-parallel-size N --enable-expert-parallel`` with ``rank`` = (TP, PP) per DP rank, as
    a (TP, PP) group: each DP rank is an engine of its own TP ("each DP engine owns a number of per-GPU
    worker processes equal to the configured TP size"), and "expert layers form a tensor parallel group of
    size DP × TP" (vLLM docs, serving/data_parallel_deployment.md), so the ``count`` GPUs the command runs
    on (DP × TP × PP: :mod:`bot.parse.configs.serve_gpus`) are one expert group of ``count`` ÷ PP per
    stage — sized as the data-parallel-attention group, each rank's attention over its own TP
    (:func:`attention_tp`; the weights each rank keeps counted by :mod:`estimator.dp_replicated`), the
    layout SGLang writes ``--tp N --dp N/TP --enable-dp-attention``. Before, the per-rank TP 1 was read as
    the group's: 'no with TP 1 × PP 1' over 842 sequences held (s44 review B4). ``rank`` itself when
    ``count`` is not a whole number of ranks."""
    tp, pp = rank
    return (count // pp, pp) if count % (tp * pp) == 0 else rank


def attention_tp(req: SizingRequest) -> int:
    """The GPUs each DP-attention rank splits its attention over (:attr:`ServingRuntime.dp_said`): 0
    without DP attention stated; else the request's ``attention_tp`` (SGLang TP ÷ DP, vLLM's per-rank TP
    as the parser read them), or 1 (each GPU its own sequences)."""
    return (req.attention_tp or 1) if req.dp_attention else 0
