"""Optimizer steps a budget buys, when the question asks them ('8 张 H800 一天能跑多少步'; s32 fixi #1).

A step trains one global batch of sequences, each of the sequence length: steps = tokens ÷ (global batch ×
sequence length). The global batch is the one the estimator sized (its memory plan's
``global_batch_sequences``: the user's, or micro-batch × accumulation × data-parallel GPUs, or the assumed
fine-tuning / pre-training default), so the steps agree with the plan shown; when it was assumed, the
headline says so and asks for the user's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.render.fmt import Fmt
    from estimator.models import SizingReport


def budget_steps(report: SizingReport, f: Fmt) -> dict[str, str | bool] | None:
    """The steps the budget's tokens make, formatted: steps, global batch, sequence length, and whether
    the batch was assumed; None without the tokens, or without a global batch or sequence length (the
    template then gives the formula and asks for the batch)."""
    tokens = report.tokens_for_budget
    plan = report.memory.plan if report.memory is not None else None
    batch = (plan.global_batch_sequences if plan is not None else None) or report.request.global_batch
    seq = report.request.seq_len
    if tokens is None or not batch or not seq:
        return None
    steps = tokens.likely / (batch * seq)
    return {
        "steps": f.int(steps) if steps >= 10 else f.num(steps, 1),
        "batch": f.int(batch),
        "seq": f.int(seq),
        "assumed": any(a.field == "global_batch" for a in report.assumptions),
    }
