"""What 'cheapest' compares between serving options (trial s25 #4): with a load the user stated (concurrent
sequences or users), every option carries that same load, so the cheaper one is the one whose month costs
less (``Inference.cost_per_month``, the middle of its range); with no load stated, each option is priced at
the most its GPUs hold, and the cost per million output tokens compares them (s16 item 7).

Which option is named (:func:`cheapest_of`, session 26): options that hold the job rank first, by their cost
— for training, a count whose GPUs hold it (``memory.fits_requested`` not False); for serving a stated load,
GPUs whose ``max_concurrency`` reaches the stated ``concurrency``. When none holds a stated serving load, the
answer says so first and names the option that holds the most of it per unit of money (sequences held ÷ the
middle of the month's cost); when none holds a single sequence, none is named. Training with no option that
holds the job keeps the cheapest of them (each row already says it does not hold it).

A month compares options that deliver the load at a usable speed (s26 trial 2 #8: 'Cheapest for this load:
L40S' decoded 9.5 tokens/s per user, at the dearest price per million tokens): among the options holding a
stated load, those decoding at least :data:`DECODE_FLOOR_TPS` per sequence at that load rank first by their
month; only when none does are the slower ones ranked by month. A stated budget keeps the month rule: the
user has said what the month may cost (trial s10 A9's budget lead reads the cheapest month's card)."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from estimator.models import SizingReport

_FIELD = attrgetter("field")

DECODE_FLOOR_TPS = 25.0
"""Output tokens/s per sequence a chat user is served at, at least: MLPerf Inference v5.0's
Llama2-70B-Interactive scenario bounds the 99th-percentile time per output token at 40 ms (1 / 0.040 s =
25 tokens/s per user; TTFT ≤ 450 ms) after surveying chat services (MLCommons, "MLPerf Inference v5.0
Advances Language Model Capabilities for GenAI", 2025-04, mlcommons.org/2025/04/llm-inference-v5/;
mlcommons/inference mlperf.conf, llama2-70b-interactive)."""


def monthly_load(report: SizingReport) -> bool:
    """Whether ``report`` serves a load the user stated (a concurrency not among its assumptions: the
    resolved request carries the assumed one too; or users, the concurrency read from them: '公司200人用',
    trial s27 #2) and has a month's cost: options then compare by it."""
    inf = report.inference
    if inf is None or inf.cost_per_month is None or not report.request.concurrency:
        return False
    return bool(report.request.users) or "concurrency" not in map(_FIELD, report.assumptions)


def holds_load(report: SizingReport) -> bool:
    """Whether ``report``'s GPUs hold the job: training, memory that fits the count (``fits_requested`` not
    False); serving a stated load (:func:`monthly_load`), ``max_concurrency`` ≥ the stated ``concurrency``
    (sequences of the asked context)."""
    if report.memory is not None and report.memory.fits_requested is False:
        return False
    inf = report.inference
    return inf is None or not monthly_load(report) or inf.max_concurrency >= inf.concurrency


def cheapest_of(reports: list[SizingReport], pool: list[int], costs: list[float]) -> int | None:
    """Index into ``reports`` of the option to name among ``pool`` (indices; ``costs`` their sort costs,
    :func:`serving_sort_cost` for serving), by the module's rule: the lowest cost among those that hold the
    job (:func:`holds_load`); none holding a stated serving load, the most sequences held per unit of the
    month's cost (ties: the cheaper month), None when no option holds one; none holding a training job,
    the lowest cost."""
    held = [i for i in pool if holds_load(reports[i])]
    usable = [i for i in held if monthly_load(reports[i]) and usable_speed(reports[i])]
    usable = [] if any(reports[i].request.budget for i in held) else usable  # a budget: its month rules
    if held or not any(monthly_load(reports[i]) for i in pool):
        return min(usable or held or pool, key=costs.__getitem__)
    share = [i for i in pool if reports[i].inference.max_concurrency > 0]  # type: ignore[union-attr]
    return min(share, key=lambda i: (costs[i] / reports[i].inference.max_concurrency, costs[i]), default=None)


def usable_speed(report: SizingReport) -> bool:
    """Whether ``report`` decodes its stated load at :data:`DECODE_FLOOR_TPS` per sequence or faster."""
    inf = report.inference
    speed = inf.decode_tokens_per_s if inf is not None else None
    return speed is not None and speed.per_sequence >= DECODE_FLOOR_TPS


def cheaper_but_slow(reports: list[SizingReport], best: int | None) -> SizingReport | None:
    """The option holding the stated load with the lowest month, when the speed floor passed it over for
    ``best`` (:func:`cheapest_of`): the headline names both (s26 trial 2 #8); None otherwise."""
    if best is None or not monthly_load(reports[best]) or reports[best].request.budget:
        return None
    slow = [r for r in reports if holds_load(r) and monthly_load(r) and not usable_speed(r)]
    low = min(slow, key=serving_sort_cost, default=None)  # type: ignore[arg-type,return-value]
    if low is None or (serving_sort_cost(low) or 0) >= (serving_sort_cost(reports[best]) or 0):
        return None
    return low


def serving_sort_cost(report: SizingReport) -> float | None:
    """The middle of the month's cost (:func:`monthly_load`), else of the cost per million output tokens;
    None without a cost."""
    inf = report.inference
    assert inf is not None
    c = inf.cost_per_month if monthly_load(report) else inf.cost_per_million_tokens
    return None if c is None else (c.low + c.high) / 2
