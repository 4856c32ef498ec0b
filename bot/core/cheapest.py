"""Which of several reports is the cheapest, and whether a report's job fits: what a plain answer needs
of the offer's choosing rules (:mod:`bot.core.offer`), without the pre-sales models that module makes
(an answer without an offer does not import it: ``sizing-bot ask`` start-up, bench/RESULTS.md session 27
part s27-spstart). :mod:`bot.core.offer` imports these names from here, so old imports still work."""

from __future__ import annotations

from bot.core.serving_rank import cheapest_of, serving_sort_cost
from estimator import catalog
from estimator.models import SizingReport, SizingRequest


def names_a_gpu(request: SizingRequest) -> bool:
    """Whether the question chose the hardware itself (a GPU, a card's memory, a total memory)."""
    return (
        request.gpu is not None or request.gpu_memory_gib is not None or request.total_memory_gib is not None
    )


def fits(report: SizingReport | None) -> bool:
    """Whether a report's job fits on its GPU (on the user's count when given, else on some count)."""
    if report is None or report.feasible == "no":
        return False
    if report.inference is not None:
        return report.inference.min_gpus is not None and report.inference.min_gpus > 0
    if report.memory is not None:
        return report.memory.min_gpus is not None
    return True


def _sort_cost(report: SizingReport) -> float | None:
    """What 'cheapest' compares: the cost of the job (middle of its range), for serving the cost per million
    output tokens or a stated load's month (bot.core.serving_rank, trial s25 #4), for what a budget trains
    (s24 review #12) the budget's share of a token (most tokens)."""
    if report.inference is not None:
        return serving_sort_cost(report)
    c, bought = report.headline_cost, report.tokens_for_budget
    if c is None and bought is not None and bought.likely > 0:  # 'which GPUs … $20k budget': no job cost
        return 1 / bought.likely
    return None if c is None else (c.low + c.high) / 2


def cheapest_index(reports: list[SizingReport], families: list[str] | None = None) -> int | None:
    """Index of the cheapest report, among those on ``families`` (the offered GPUs) when given and any
    is, and among those whose GPUs hold the job when any does; None unless every report has a cost in
    one currency and they are all training or all serving."""
    if len(reports) < 2 or len({r.inference is None for r in reports}) > 1:
        return None
    costs = [_sort_cost(r) for r in reports]
    currencies = {
        (r.inference.cost_per_million_tokens.currency if r.inference and r.inference.cost_per_million_tokens
         else r.cost.currency if r.cost else None)
        for r in reports
    }  # fmt: skip
    if any(c is None for c in costs) or len(currencies) > 1:
        return None
    allowed = [
        i for i, r in enumerate(reports) if families is None or catalog.family_of(r.request.gpu) in families
    ]
    pool = allowed or list(range(len(reports)))
    # a job that does not fit its GPUs is no cheapest option ('8x RTX 4090 or 16x H100' for a 70B), nor a
    return cheapest_of(reports, pool, costs)  # serving load they do not hold (serving_rank, session 26)
