"""A training budget stated in FLOPs (C) → the model and data it trains.

With no model and no data: the compute-optimal N and D of Hoffmann et al. 2022 (Chinchilla) §3 —
D ≈ 20·N with C = 6·N·D, so N = √(C / 120), through :func:`estimator.compute.compute_optimal_params`,
the function the money budget's "largest model" uses. With a size (and no data): the tokens C buys on
it, D = C / (6·N) (Kaplan et al. 2020 §2.1, N the active parameters of a MoE). The request then goes
through the ordinary training path: GPU-hours on the stated (or default) card, GPUs ↔ days, cost.
"""

from __future__ import annotations

from estimator import compute
from estimator.ledger import Ledger
from estimator.models import SizingRequest, Stage
from estimator.reasons import Why

_PRETRAINING = (None, Stage.pretrain, Stage.continued_pretrain)


def with_compute_budget(req: SizingRequest, ledger: Ledger) -> SizingRequest:
    """``req`` with the parameters and tokens its FLOPs budget sets, each said as assumed; unchanged
    without a budget, with data already stated, or for a stage other than pre-training (a fine-tune
    is sized on its own data)."""
    c = req.compute_budget_flops
    if not c or req.tokens or req.num_samples or req.stage not in _PRETRAINING:
        return req
    named = req.model or req.architecture
    if named and not req.params_total:
        return req  # a catalog model's size is known only after resolving: the budget is named as unused
    update: dict[str, float] = {}
    n = req.params_active or req.params_total
    if n is None:
        n = ledger.assume("params_total", compute.compute_optimal_params(c), Why.compute_budget_optimal)
        update["params_total"] = n
    why = Why.compute_budget_optimal if update else Why.compute_budget_tokens
    tokens = ledger.assume("tokens", c / compute.training_flops(n, 1.0), why)  # D = C / (6·N)
    update["tokens"] = tokens
    code = "compute_budget_optimal" if "params_total" in update else "compute_budget_tokens"
    ledger.note(code, flops=c, params_total=n, tokens=tokens)  # FLOPs as a number: bot/render formats it
    return req.model_copy(update=update)
