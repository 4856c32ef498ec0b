"""The body of a budget-led serving comparison leads with the headline's choice (session 30, item 1).

'预算每月3万元，部署 Qwen2.5-72B，选什么卡？' had its headline (:mod:`bot.core.budget_pick`) lead with
INT4 on one A100 while the body's first plan line sized 4 × H100 in bf16 (the cheapest per token): two
answers in one reply. Here the option the headline leads with (the best that fits the budget, or, when
none fits, the cheapest) becomes the answer: its card's report moves first and, when the pick is that
card's lighter weights on fewer GPUs (``Inference.alternatives``), the card is sized again at that
precision, so the body's plan line, figures and ledger are the headline's. The pick itself is the one
made on the reports as first sized (the headline is unchanged)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core.budget_pick import BudgetPick
    from estimator.models import SizingReport, SizingRequest

Sized = tuple["SizingReport", dict[str, str]]


def budget_led(
    done: list[Sized],
    first: SizingRequest,
    size: Callable[..., Sized | None],
    lead_pick: bool = True,
) -> tuple[list[Sized], BudgetPick | None]:
    """``done`` (the compared options, each a report and its sources) with the budget's pick first, and
    the pick (:func:`bot.core.budget_pick.budget_pick`; None without a budget per period and two priced
    options: ``done`` unchanged). ``first``: the user's request; ``size``: the pipeline's sizing with
    settings filled in, used to size the pick's card at the pick's lighter precision (in the ledger as
    the budget's choice, ``Why.budget_pick``, never as the user's words). ``lead_pick`` False
    (a card asked about stays first): the pick only."""
    from bot.core.budget_pick import budget_pick
    from estimator.models import Precision

    pick = budget_pick([r for r, _ in done])
    lead = pick and (pick.best or (pick.over[0] if pick.over else None))
    if pick is None or lead is None or not lead_pick:
        return done, pick
    at = next(i for i, (r, _) in enumerate(done) if r is lead.report)
    done = [done[at], *done[:at], *done[at + 1 :]]
    if lead.precision == str(lead.report.request.precision or "bf16"):
        return done, pick
    own = lead.report.request
    update: dict[str, object] = {"precision": Precision(lead.precision)}
    if own.gpu != first.gpu:  # another card compared: the user's request on it, at no stated memory
        update |= {"gpu": own.gpu, "gpu_memory_gib": None, "price_per_gpu_hour": None}
    resized = size(first.model_copy(update=update), extra_sources={"precision": "budget_pick"})
    if resized is None or resized[0].inference is None:
        return done, pick
    return [resized, *done[1:]], pick
