"""Which sizes of a family fit on the card named (session 31 s31-left #2).

'千问3 在 3060 12G 上能跑哪个', 'which Llama 3 fits on a 12 GB 3060?': a release named without a size
(:mod:`bot.parse.family_version`, ``model_family_only``) beside a card, asked as serving (or with no
stage). Each catalog size of the release is sized as the same question with that model — the same
estimate a sized question gets: weights at the precision stated, or the one the answer picks on that card
(a personal card tries 8-bit, then 4-bit GGUF weights, as for one size), plus the KV cache at the stated
or default context and load (docs/design.md §3.4) — and the reply lists them, the largest that fits
first, then those that do not fit, smallest first. Nothing is sized in the family's place
(docs/design.md §8): every size is named with its own verdict."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.parse.family_version import release_name, size_names
from estimator.request import Stage

if TYPE_CHECKING:
    from bot.parse import ParseResult
    from estimator.models import SizingReport, SizingRequest

MAX_SIZES = 8
"""At most this many sizes are sized (a release's list in the reply is cut at 8: bot.parse.family_version)."""


@dataclass(frozen=True, slots=True)
class SizeFit:
    """One size: ``model`` (catalog id), ``size`` ('14B', or the id), ``fits`` on the user's ``count``
    cards, its ``weight_format`` ('q4_k_m', 'bf16'), ``required_bytes`` (weights + KV + workspace, all
    cards), ``usable_bytes`` (one card's usable memory, bytes) and ``min_gpus`` (the fewest cards that
    hold it at that format)."""

    model: str
    size: str
    fits: bool
    weight_format: str
    required_bytes: float
    usable_bytes: float
    min_gpus: int


@dataclass(frozen=True, slots=True)
class FamilyFits:
    """The family as typed, the card (catalog id), the cards counted, the context and load each size
    was sized at (tokens, sequences), and the sizes: those that fit, largest first, then the rest,
    smallest first."""

    family: str
    gpu: str
    count: int
    context_tokens: int
    concurrency: int
    sizes: tuple[SizeFit, ...]

    @property
    def largest(self) -> SizeFit | None:
        """The largest size that fits, or None."""
        return self.sizes[0] if self.sizes and self.sizes[0].fits else None


Sizer = Callable[["SizingRequest"], "tuple[SizingReport, dict[str, str]] | None"]


def family_fits(parsed: ParseResult, request: SizingRequest, size: Sizer) -> FamilyFits | None:
    """The sizes of the release named, each sized by ``size`` on the card (module doc); None: no family
    without a size, no card, a training stage, or no size could be sized."""
    ids = parsed.model_suggestions[:MAX_SIZES]
    if (
        not parsed.model_family_only
        or not request.gpu
        or len(ids) < 2
        or request.stage not in (None, "inference")
        or request.count_asked
        or not parsed.fits_asked  # which size fits or runs: read in parse (bot.parse.fits_asked, s31)
    ):
        return None
    count = request.gpu_count or 1
    names = size_names(ids)
    rows: list[SizeFit] = []
    context = load = 0
    for model, name in zip(ids, names, strict=True):
        sized = size(request.model_copy(update={"model": model, "stage": Stage.inference}))
        inf = sized[0].inference if sized else None
        if inf is None:
            continue
        context, load = inf.context_tokens, inf.concurrency
        fits = inf.min_gpus <= count
        rows.append(
            SizeFit(
                model,
                name,
                fits,
                inf.weight_format,
                inf.required_bytes,
                inf.usable_bytes_per_gpu,
                inf.min_gpus,
            )
        )
    if not rows:
        return None
    fit = [r for r in rows if r.fits][::-1]  # the catalog order is smallest first
    rest = [r for r in rows if not r.fits]
    typed = parsed.unknown_model or ""
    family = typed if typed != typed.lower() else release_name(ids) or typed or ids[0]  # 'Llama 3' as typed
    return FamilyFits(family, request.gpu, count, context, load, tuple(fit + rest))
