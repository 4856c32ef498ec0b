"""A personal card named without a count, in an answer that sized nothing (s31): one card, as the estimator
reads it when it sizes (:func:`estimator.resolve.personal_count`: "Can I run a 9B on my RTX 4060?" asks about
that card). Before, the same question with a model the catalog does not hold ('functionary-small on vLLM,
RTX 3090 24gb, why so slow?') echoed no count at all, though the card the user owns is one card: the request
said less than the user did (docs/design.md §8)."""

from __future__ import annotations

from estimator.request import SizingRequest
from estimator.resolve import PERSONAL_COUNT_STAGES


def one_personal_card(request: SizingRequest) -> SizingRequest:
    """``request`` with ``gpu_count`` 1 when it names a personal catalog card (:attr:`GpuSpec.personal`:
    GeForce, Titan, a Mac, a Jetson …) for serving or fine-tuning with no count said or asked and nothing that
    makes the count the question (a total memory, a budget, a deadline); else ``request`` unchanged. The
    same conditions as :func:`estimator.resolve.personal_count`, which applies them when a model is sized."""
    if (
        request.gpu is None
        or request.gpu_count is not None
        or request.stage not in PERSONAL_COUNT_STAGES
        or request.count_asked
        or request.total_memory_gib is not None
        or request.budget is not None
        or request.deadline_days is not None
    ):
        return request
    from estimator import catalog

    spec = catalog.gpus().get(request.gpu)
    return request.model_copy(update={"gpu_count": 1}) if spec is not None and spec.personal else request
