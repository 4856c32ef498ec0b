"""The plan is laid out on the GPU count the training answer quotes (fixa item 3, session 21).

With a deadline or a budget and no count stated, the answer's count (``gpus_for_deadline``) may move
after the memory was laid out: to the recommended, comfortable count when it costs about as much as a
borderline fewest one (:func:`estimator.comfortable_count.comfortable_count`), or to the next count that
meets the deadline when recomputing misses it (:func:`estimator.training_plan.with_fewest_paying`). The
headline then said "about 4 GPUs" while the plan, the memory chart, the batch line and the launch recipe
described the 2 GPUs laid out before. Here the memory and plan are laid out again on the quoted count, and
the notes of the earlier count (:data:`COUNT_NOTES`) are dropped for those of the new one.
"""

from __future__ import annotations

from typing import Any

from estimator.comfortable_count import recomputes_shown
from estimator.ledger import Ledger
from estimator.models import Algorithm, Method, SizingRequest
from estimator.rate_budget_count import with_rented_count
from estimator.reasons import Why
from estimator.resolve import Resolved
from estimator.shown_cost import billed_on_count
from estimator.training_plan import memory_and_plan, with_fewest_paying
from estimator.training_setup import training_setup

COUNT_NOTES = ("memory_tight", "memory_tight_recomputing", "recompute_chosen", "global_batch_adjusted")
"""Notes about the plan at one GPU count (its share of the card, its recompute, its batch split)."""


def quoted_count(req: SizingRequest, r: Resolved, out: Any, table: dict[str, Any], ledger: Ledger) -> dict:
    """The days-table fields (:func:`estimator.training_plan.with_fewest_paying`) and, when the quoted
    count is not the one the memory was laid out on (no count stated, at least the fewest that fit),
    ``memory`` / ``feasible`` / ``feasible_reason`` laid out on the quoted count."""
    fields = with_fewest_paying(out, table, bool(req.deadline_days or req.budget or req.cost_asked))
    fields = with_rented_count(req, out, fields)  # a budget per hour: the GPUs it rents (s41 trial #3)
    days = fields.get("days", out.days)  # the count shown: each card pays its first hour (s35-fixa #1)
    shown = days.gpus if days is not None else fields.get("gpus_for_deadline", out.gpus_for_deadline)
    if days is not None and (m := out.memory) is not None and m.fits_requested is False and m.min_gpus:
        shown = m.min_gpus  # estimator.shown_cost.count_shown inline (a frame less: the estimate's calls)
    if shown and out.cost is not None and out.cost.billed_gpu_hours < shown:  # else nothing to re-bill
        fields |= billed_on_count(out, fields, shown)
    n, mem = fields.get("gpus_for_deadline"), out.memory
    if n != (out.fewest_recompute or (n,))[0] and recomputes_shown(out, n):  # its row pays it (s41 #4)
        was = next((a for a in ledger.assumptions if a.field == "recompute_time_fewest"), None)
        if was is not None:
            params = {**was.params, "shown": n}
            ledger.replace("recompute_time_fewest", was.value, Why.recompute_time_shown, **params)
    if req.gpu_count is not None or mem is None or mem.plan is None or n is None or n == mem.plan_gpus:
        return fields
    if mem.min_gpus is None or n < mem.min_gpus or out.spec is None or out.params is None:
        return fields
    method, algorithm = out.method or Method.full, req.algorithm or Algorithm.sft
    parts = training_setup(req, r.stage, out.spec, out.params, method, algorithm, Ledger())  # as laid out
    ledger.notes = [note for note in ledger.notes if note.code not in COUNT_NOTES]
    plan = memory_and_plan(req, r, parts.setup, out.spec, out.params, n, parts.global_batch, ledger)
    return fields | {
        "memory": plan.memory,
        "feasible": plan.feasible,
        "feasible_reason": plan.feasible_reason,
    }
