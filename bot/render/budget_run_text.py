"""The budget verdicts of a training run whose budget was stated per period ("预算每月5万"): the
estimator compares the run's cost with the budget per month × the run's months
(:func:`estimator.budget_check.run_budget`, trial report B4) and the verdict says so, with both figures."""

from __future__ import annotations

from bot.render.i18n import N_
from bot.render.note_codes import NoteCode

RUN_BUDGET_MESSAGES = {
    NoteCode.over_budget: N_(
        "Over budget: this costs %(cost_low)s – %(cost_high)s, more than the %(budget)s that "
        "%(per_month)s a month comes to over the run's %(months)s months. Fewer tokens, a smaller model "
        "or cheaper GPUs would fit it."
    ),
    NoteCode.within_budget: N_(
        "Within budget: %(cost_low)s – %(cost_high)s of the %(budget)s that %(per_month)s a month comes "
        "to over the run's %(months)s months."
    ),
    NoteCode.budget_borderline: N_(
        "Borderline for the budget: %(cost_low)s – %(cost_high)s against the %(budget)s that "
        "%(per_month)s a month comes to over the run's %(months)s months — it depends on the price you get."
    ),
}
"""A training budget verdict whose note carries ``per_month`` and ``months`` (a budget per period)."""
