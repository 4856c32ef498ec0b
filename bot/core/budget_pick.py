"""Which compared serving option a budget per period picks (s29 trial, fix b item 1): '预算每月3万元，选什么
卡？' led with the cheapest per token (4 × H100 bf16, over the budget) and named the option that fits (INT4 on
one card) only in a sub-line. With a budget per period stated, the headline leads with the best option that
fits it, then names those over it; when none fits, it says so first.

The options are each compared card's answer (its precision and GPUs) and its lighter weights on fewer
GPUs (``Inference.alternatives``), at the answer's price per GPU (the budget's note,
:func:`estimator.serving_budget.check_serving_budget`), each with its month and how it fits: ``within``
(at every price of the range), ``low`` (only at its low end), ``over``. The best: within before low; then
the higher precision (the answer's own weights before lighter ones: bf16 > FP8 > INT4); then the cheaper
month (the middle of its range). Cards with no price in the budget's currency are no option (their rows
say so), nor GPUs that do not hold a stated load (:func:`bot.core.serving_rank.holds_load`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from estimator.models import SizingReport

PERIOD_CODES = ("serving_within_budget", "serving_over_budget", "serving_budget_borderline")
"""The budget notes of a budget per period with a price (a sum's months or no price: no option)."""
PRECISION_RANK = {"int4": 0, "int8": 1, "fp8": 1}
"""Lower is lighter; the answer's own weights (bf16, fp16) rank above these."""
FITS_RANK = {"within": 0, "low": 1, "over": 2}


@dataclass(frozen=True)
class BudgetOption:
    """One card at one precision: its GPUs and month (low, high) and how it fits the budget."""

    report: SizingReport
    precision: str
    gpus: int
    low: float
    high: float
    fits: str


@dataclass(frozen=True)
class BudgetPick:
    """The budget (the note's params: budget, period, currency, monthly), the best option that fits (None
    when none does: ``over`` then leads with the cheapest), the others that fit, and those over it."""

    budget: dict[str, Any]
    best: BudgetOption | None
    within: list[BudgetOption] = field(default_factory=list)
    over: list[BudgetOption] = field(default_factory=list)
    low: list[BudgetOption] = field(default_factory=list)
    """Others within it only at the low end of the price range."""


def _note(report: SizingReport) -> dict[str, Any] | None:
    return next((n.params for n in report.warnings if n.code in PERIOD_CODES), None)


def _options(report: SizingReport, p: dict[str, Any]) -> list[BudgetOption]:
    """The answer's own option on ``report`` and its lighter weights on fewer GPUs
    (``Inference.alternatives``), each at the own option's price per GPU (the note ``p``)."""
    monthly, gpus = p["monthly"], max(1, int(p["gpu_count"]))

    def option(precision: str, n: int) -> BudgetOption:
        low, high = p["cost_low"] * n / gpus, p["cost_high"] * n / gpus
        fits = "within" if high <= monthly else "low" if low <= monthly else "over"
        return BudgetOption(report, precision, n, low, high, fits)

    alternatives = report.inference.alternatives if report.inference is not None else []
    lighter = [option(a.change, a.min_gpus) for a in alternatives if a.min_gpus and a.min_gpus < gpus]
    return [option(_own(report), gpus), *lighter]


def _own(report: SizingReport) -> str:
    """The precision of the answer's own weights on ``report``."""
    return str(report.request.precision or "bf16")


def _rank(o: BudgetOption) -> tuple[int, int, float]:
    return FITS_RANK[o.fits], -PRECISION_RANK.get(o.precision, 9), _middle(o)


def budget_pick(reports: list[SizingReport]) -> BudgetPick | None:
    """The budget's choice among the compared serving ``reports`` (module doc); None unless two or more
    are priced in the budget's currency against a budget per period."""
    if len(reports) < 2 or not reports[0].request.budget or reports[0].inference is None:
        return None
    from bot.core.serving_rank import holds_load  # a stated load its GPUs do not hold: no option

    noted = [
        (r, p) for r in reports if r.inference is not None and holds_load(r) and (p := _note(r)) is not None
    ]
    if len(noted) < 2:
        return None
    options = sorted((o for r, p in noted for o in _options(r, p)), key=_rank)
    fitting = [o for o in options if o.fits != "over"]
    own_over = [o for o in options if o.fits == "over" and o.precision == _own(o.report)]
    if not fitting:  # the cheapest first, whatever its weights, then each card's own answer
        cheapest = min(options, key=_middle)
        rest = sorted((o for o in own_over if o is not cheapest), key=_middle)
        return BudgetPick(noted[0][1], None, [], [cheapest, *rest])
    best, seen, others = fitting[0], {fitting[0].report.request.gpu}, []
    for o in fitting[1:]:  # the best of each other card
        if o.report.request.gpu not in seen:
            seen.add(o.report.request.gpu)
            others.append(o)
    within = [o for o in others if o.fits == "within"]
    return BudgetPick(noted[0][1], best, within, own_over, [o for o in others if o.fits == "low"])


def _middle(o: BudgetOption) -> float:
    return (o.low + o.high) / 2
