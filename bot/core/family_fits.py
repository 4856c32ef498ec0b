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

from bot.later_names import release_name, size_names
from estimator.plan import HEADROOM
from estimator.request import Precision, Stage
from estimator.runtimes import GGUF_FORMATS  # llama.cpp's weight types: a size sized in one runs on it
from estimator.runtimes.others import home_ram, host_part

if TYPE_CHECKING:
    from bot.parse import ParseResult
    from estimator.models import Inference, SizingReport, SizingRequest


MAX_SIZES = 10
"""At most this many sizes are sized (bot.parse.family_version.LADDER_MAX: a family named alone, s35)."""


@dataclass(frozen=True, slots=True)
class SizeFit:
    """One size: ``model`` (catalog id), ``size`` ('14B', or the id), ``fits`` on the user's ``count``
    cards, its ``weight_format`` ('q4_k_m', 'bf16'), ``required_bytes`` (weights + KV + workspace, all
    cards; for a size that fits, the serving verdict's need beside the usable memory, the CUDA context outside
    both: s36), ``usable_bytes`` (one card's usable memory, bytes) and ``min_gpus`` (the fewest cards that
    hold it at that format), the ``runtime`` whose memory model sized it ('llama.cpp', 'vLLM'), and when it
    runs on the user's one card only with layers in CPU memory, the decode speed then
    (``offload_tokens_per_s``, low and high) and the bytes kept in CPU memory (``host_bytes``)."""

    model: str
    size: str
    fits: bool
    weight_format: str
    required_bytes: float
    usable_bytes: float
    min_gpus: int
    runtime: str = ""
    offload_tokens_per_s: tuple[float, float] | None = None
    host_bytes: float = 0.0
    tight: bool = False
    """Fits with under 10 % of the usable memory left: 'fits, but tight', as the size's own answer says
    (estimator.serving_verdict's HEADROOM rule on the same need; s36: one rule for every fit label)."""


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
        inf = _sized(size, request.model_copy(update={"model": model, "stage": Stage.inference}))
        if inf is None:
            continue
        context, load = inf.context_tokens, inf.concurrency
        rows.append(_row(model, name, inf, count, home_ram(request)))
    if not rows:
        return None
    rows = _as_gguf(rows, request, size, count)
    fit = [r for r in rows if r.fits][::-1]  # the catalog order is smallest first
    rest = [r for r in rows if not r.fits]
    typed = parsed.unknown_model or ""
    family = typed if typed != typed.lower() else release_name(ids) or typed or ids[0]  # 'Llama 3' as typed
    return FamilyFits(family, request.gpu, count, context, load, tuple(fit + rest))


def _sized(size: Sizer, request: SizingRequest) -> Inference | None:
    """The serving sizing of ``request``, or None."""
    sized = size(request)
    return sized[0].inference if sized else None


def _row(model: str, name: str, inf: Inference, count: int, ram: float) -> SizeFit:
    """One size's row: fits on the ``count`` cards, else with layers in CPU memory (llama.cpp's -ngl,
    estimator.layer_offload) on them when that rest fits ``ram`` (bytes), else the fewest cards."""
    split = inf.layer_split
    offload = split is not None and split.fits_gpu and inf.min_gpus > count and host_part(inf) <= ram
    speed = (split.tokens_per_s_low, split.tokens_per_s_high) if offload and split is not None else None
    need = inf.weights_bytes + inf.kv_bytes_per_sequence * max(1, inf.concurrency)
    need += inf.workspace_bytes_per_gpu * count  # the serving verdict's need, beside the same usable memory
    fits = inf.min_gpus <= count and need <= inf.usable_bytes_per_gpu * count
    return SizeFit(
        model,
        name,
        fits,
        inf.weight_format,
        need if fits else inf.required_bytes,
        inf.usable_bytes_per_gpu,
        inf.min_gpus,
        str(inf.runtime or ""),
        speed,
        split.host_bytes if offload and split is not None else 0.0,
        fits and need > HEADROOM * inf.usable_bytes_per_gpu * count,
    )


def _as_gguf(rows: list[SizeFit], request: SizingRequest, size: Sizer, count: int) -> list[SizeFit]:
    """Where the card runs some size in GGUF weights (a personal card, no precision or runtime said), a
    size that fits nowhere in its released weights is sized in Q4_K_M too, so that the list compares
    sizes in the weights used on this card ('70B: Q4_K_M needs 46 GB: 2 cards', not bf16's 16)."""
    if request.precision is not None or request.runtime is not None:
        return rows
    if not any(r.weight_format in GGUF_FORMATS for r in rows):
        return rows
    out = []
    for r in rows:
        if r.fits or r.offload_tokens_per_s or r.weight_format in GGUF_FORMATS:
            out.append(r)
            continue
        q4 = request.model_copy(
            update={"model": r.model, "stage": Stage.inference, "precision": Precision.q4_k_m}
        )
        inf = _sized(size, q4)
        out.append(_row(r.model, r.size, inf, count, home_ram(request)) if inf is not None else r)
    return out
