"""Every option of one comparison sized at the same load (s35 fix c item 1).

'部署qwen3-8b给客服用，每天大概1万次对话，用L20还是4090' sized the L20 at 16 sequences (the serving
default) and the RTX 4090 at one (a GeForce card's personal default, :data:`estimator.defaults.
SERVE_CONCURRENCY_PERSONAL`): two jobs, not one job on two cards, and the 4090's '30 token/s' read as
slower than it is. When the user stated no load (no concurrency, users or target speed) and the options'
assumed loads differ, every option is sized again at the largest of them (a service's default outweighs
one card's personal default: the job is the same whichever card runs it), as an assumption with its
reason (``Why.compared_load``), never as the user's words. A stated load is every option's already."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.carried_load import LOAD_FIELDS, _assumed_concurrency
from bot.core.compare_currency import one_currency
from estimator.models import Stage

if TYPE_CHECKING:
    from collections.abc import Callable

    from estimator.models import SizingReport, SizingRequest

Sized = tuple["SizingReport", dict[str, str]]
COMPARED = "compared_load"
"""The source of a load :func:`one_load` set (``bot.core.filled.SOURCE_REASONS``)."""


def one_load(
    asks: list[SizingRequest],
    done: list[Sized | None],
    size: Callable[..., Sized | None],
) -> list[tuple[SizingRequest, Sized]]:
    """(request, sizing) of every option sized (``done[i]`` is ``asks[i]``'s, None where it failed), all at
    one assumed load: the rows whose assumed concurrency is not the largest sized again at it
    (``size(request, extra_sources=...)``, the row's own sources kept, their request carrying the load);
    as sized when a load was stated, the question is not serving, or the loads already agree."""
    pairs = [(a, d) for a, d in zip(asks, done, strict=True) if d is not None]
    first = asks[0]
    if first.stage != Stage.inference or any(getattr(first, f) for f in LOAD_FIELDS):
        return pairs
    loads = [_assumed_concurrency(d[0]) for _, d in pairs]
    known = {n for n in loads if n is not None}
    if len(known) < 2:
        return pairs
    common = max(known)
    out: list[tuple[SizingRequest, Sized]] = []
    for (ask, row), load in zip(pairs, loads, strict=True):
        at = ask.model_copy(update={"concurrency": common})
        again = (
            size(at, extra_sources={**row[1], "concurrency": COMPARED})
            if load not in (None, common)
            else None
        )
        out.append((at, again) if again is not None else (ask, row))
    return out


def load_sizer(
    first: SizingRequest, size: Callable[..., Sized | None]
) -> Callable[[SizingRequest], Sized | None]:
    """``size`` for an option sized again later (another currency): a load :func:`one_load` set, where
    ``first`` stated none, stays an assumption with its reason."""

    def again(q: SizingRequest) -> Sized | None:
        if q.concurrency and not first.concurrency:
            return size(q, extra_sources={"concurrency": COMPARED})
        return size(q)

    return again


def sized_options(asks: list[SizingRequest], sized: Sized, size: Callable[..., Sized | None]) -> list[Sized]:
    """Every option compared: ``sized`` (``asks[0]``'s) and each other ``asks`` sized, at one load
    (:func:`one_load`) and in one currency (:func:`bot.core.compare_currency.one_currency`)."""
    pairs = one_load(asks, [sized, *(size(q) for q in asks[1:])], size)
    return one_currency([o for _, o in pairs], [q for q, _ in pairs], load_sizer(asks[0], size))
