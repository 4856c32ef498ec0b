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
    if (
        req.dp_attention
        and req.runtime is not None
        and req.runtime.value == "vLLM"
        and group[0] == 1
        and count
    ):
        group = vllm_ep_group(count, group[1])  # DP ranks of TP 1, the experts over them all (s45)
    if count and group[0] * group[1] > count:
        return None
    return group


def vllm_ep_group(count: int, pp: int) -> tuple[int, int]:
    """vLLM's ``--data-parallel-size N --enable-expert-parallel`` with TP 1 per rank, as a (TP, PP) group:
    each DP rank is an engine of its own TP (1), and "the expert layers form an (EP or) TP group of size
    DP × TP" (vLLM docs, serving/data_parallel_deployment.md), so the ``count`` GPUs the command runs on
    (DP × TP × PP: :mod:`bot.parse.configs.serve_gpus`) are one expert group of ``count`` ÷ ``pp`` per
    stage — sized as the data-parallel-attention group (each rank's whole weights counted by
    :mod:`estimator.dp_replicated`), the layout SGLang writes ``--tp N --dp N --enable-dp-attention``.
    Before, the per-rank TP 1 was read as the group's: 'no with TP 1 × PP 1' over 842 sequences held
    (s44 review B4)."""
    return (count // pp, pp) if count % pp == 0 else (1, pp)
