"""A personal card named without a count, in an answer that sized nothing (s31): one card, as the estimator
reads it when it sizes (:func:`estimator.resolve.personal_count`: "Can I run a 9B on my RTX 4060?" asks about
that card). Before, the same question with a model the catalog does not hold ('functionary-small on vLLM,
RTX 3090 24gb, why so slow?') echoed no count at all, though the card the user owns is one card: the request
said less than the user did (docs/design.md §8)."""

from __future__ import annotations

from estimator.models import Assumption
from estimator.reasons import Why
from estimator.request import SizingRequest
from estimator.resolve import one_personal_card as _one_card


def one_personal_card(request: SizingRequest) -> SizingRequest:
    """``request`` with ``gpu_count`` 1, named in ``assumed_fields`` (a follow-up given this request as its
    ``prev`` fills it again rather than taking it as stated), when it names a personal catalog card
    (:attr:`GpuSpec.personal`: GeForce, Titan, a Mac, a Jetson …) as
    :func:`estimator.resolve.one_personal_card` reads it; else ``request`` unchanged."""
    if request.gpu is None or request.gpu_count is not None:
        return request
    from estimator import catalog

    spec = catalog.gpus().get(request.gpu)
    if spec is None or not _one_card(request, spec.personal, request.stage):
        return request
    filled = (*(request.assumed_fields or ()), "gpu_count")
    return request.model_copy(update={"gpu_count": 1, "assumed_fields": filled})


def assumptions(request: SizingRequest) -> list[Assumption]:
    """The assumption :func:`one_personal_card` made, as the estimator words it when it sizes
    (``personal_one_card``); none when it made none."""
    if request.gpu is None or "gpu_count" not in (request.assumed_fields or ()):
        return []
    from estimator import catalog

    spec = catalog.gpus().get(request.gpu)
    name = spec.name if spec is not None else request.gpu
    return [Assumption(field="gpu_count", value=1, why=Why.personal_one_card, params={"gpu": name})]
