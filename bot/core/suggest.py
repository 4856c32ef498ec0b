"""Which GPUs to offer on an answer's 'switch GPU' buttons: from the catalog's ``related`` lists."""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache

from estimator import catalog, defaults
from estimator.models import SizingReport, SizingRequest


def answer_gpu(report: SizingReport | None, said: SizingRequest | None) -> str:
    """The GPU an answer is about: the report's, else the one the user named, else the default."""
    return (
        (report.request.gpu if report and report.request.gpu else None)
        or (said.gpu if said else None)
        or defaults.DEFAULT_GPU
    )


@cache  # the catalog is fixed for the life of the process
def _by_closeness(current: str) -> tuple[str, ...]:
    """All other families, closest first: memory class (log2 distance), then 16-bit peak."""
    cur = catalog.default_gpu_for_family(current) or catalog.gpu(defaults.DEFAULT_GPU)
    out = []
    for fam in catalog.families():
        g = catalog.default_gpu_for_family(fam)
        if g is None or fam == current:
            continue
        mem = round(abs(math.log2(g.memory_gib / cur.memory_gib)))
        peak = abs(math.log(max(g.peak_flops_16bit, 1.0) / max(cur.peak_flops_16bit, 1.0)))
        out.append((mem, peak, fam))
    return tuple(fam for *_, fam in sorted(out))


def alternative_gpus(gpu_id: str, n: int = 3, *, preferred: Iterable[str] = ()) -> list[str]:
    """Catalog GPU ids to offer instead of ``gpu_id``: ``preferred`` families first (pre-sales), then
    the card's ``related`` families (catalog), then the closest by memory and speed."""
    current = catalog.family_of(gpu_id) or "A100"
    spec = catalog.default_gpu_for_family(current)
    related = spec.related if spec else []
    out: list[str] = []
    for fam in (*preferred, *related, *_by_closeness(current)):
        family = catalog.family_of(fam)
        choice = catalog.default_gpu_for_family(family) if family and family != current else None
        if choice is not None and choice.id not in out:
            out.append(choice.id)
        if len(out) >= n:
            break
    return out


def offered_alternatives(gpu_id: str, families: Iterable[str], n: int = 3) -> list[str]:
    """Catalog ids of the offered ``families`` (in their order) other than ``gpu_id``'s own."""
    current = catalog.family_of(gpu_id)
    out: list[str] = []
    for fam in families:
        spec = catalog.default_gpu_for_family(fam) if fam != current else None
        if spec is not None and spec.id not in out:
            out.append(spec.id)
    return out[:n]


def suggested_gpus(
    report: SizingReport | None, said: SizingRequest | None, families: Iterable[str] = (), n: int = 3
) -> list[str]:
    """Catalog ids for an answer's 'switch GPU' actions, decided here for every front end: the offered
    ``families`` (a pre-sales deployment's, in their order) when there are any, else the catalog's
    related and closest cards to the answer's GPU (:func:`answer_gpu`)."""
    current = answer_gpu(report, said)
    offered = list(families)
    return offered_alternatives(current, offered, n) if offered else alternative_gpus(current, n)
