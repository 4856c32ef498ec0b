"""Sizing on a pre-sales offer's GPUs: which offered card a question is sized on, the offer's terms
behind an answer, and the offered card a quote uses when the customer named one not sold.

Moved out of :mod:`bot.core.pipeline` (session 30, the module was at the 500-line cap); the pipeline
passes its own sizing function in, so this module never imports it. No I/O."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.core.cheapest import fits
from bot.core.filled import effective_request
from bot.parse.lang import Lang
from bot.settings.chat import ChatSettings
from estimator.models import SizingReport, SizingRequest

if TYPE_CHECKING:
    from bot.core.offer import Offer  # the pre-sales models: imported only with an offer (start-up)
    from bot.settings.presales import PresalesConfig

Sized = tuple[SizingReport, dict[str, str]]
"""A report and where the values filled before estimating came from (:func:`bot.core.pipeline._size`)."""


def offer_terms_for(presales: PresalesConfig, report: SizingReport, sources: dict[str, str]) -> Offer:
    """The offer's terms behind an answer sized from ``sources`` (:func:`bot.core.offer.offer_terms`)."""
    from bot.core.offer import offer_terms  # with an offer only (start-up)

    return offer_terms(
        presales,
        report,
        chosen="gpu" in sources and sources["gpu"].startswith("offer_"),
        none_fits=sources.get("gpu") == "offer_none_fits",
        price_source=sources.get("price_per_gpu_hour"),
    )


def offered_instead(
    request: SizingRequest,
    presales: PresalesConfig,
    size: Callable[..., Sized | None],
) -> tuple[SizingReport, Offer] | None:
    """The request on the first offered GPU (preferred first) that fits the job and has a price, with the
    offer's terms for it: what a quote under the provider's name is for when the customer named a GPU
    the provider does not sell. None when no offered GPU fits (then no quote is made). ``size``: the
    pipeline's sizing with settings and the offer filled in, given extra ledger sources."""
    from bot.core.offer import candidates, offer_terms, pricing  # with an offer only (start-up)

    for gpu in candidates(presales):
        candidate = request.model_copy(update={"gpu": gpu, "gpu_memory_gib": None})
        sized = size(candidate, extra_sources={"gpu": "offer_instead"})
        if sized is None or not fits(sized[0]):
            continue
        report, sources = sized
        terms = offer_terms(presales, report, price_source=sources.get("price_per_gpu_hour"))
        if terms.offered and pricing(report, terms) is not None:
            return report, terms
    return None


def offer_gpu(
    request: SizingRequest,
    lang: Lang,
    settings: ChatSettings,
    presales: PresalesConfig,
    estimate: Callable[[SizingRequest], SizingReport | None],
) -> tuple[SizingRequest, dict[str, str]]:
    """The request on the first offered GPU (preferred first) that fits the job (``estimate``: the
    pipeline's never-raising estimate, on the request with settings and the offer filled in), else on the
    first one; and the ledger's source for the GPU ('offer_gpu' or 'offer_none_fits'). Unchanged
    without GPUs."""
    from bot.core.offer import candidates  # with an offer only (start-up)

    ids = candidates(presales)
    for gpu in ids:
        candidate = request.model_copy(update={"gpu": gpu})
        if fits(estimate(effective_request(candidate, lang, settings, presales)[0])):
            return candidate, {"gpu": "offer_gpu"}
    if not ids:
        return request, {}
    return request.model_copy(update={"gpu": ids[0]}), {"gpu": "offer_none_fits"}
