"""The global batch of a training layout: sequences per optimizer step and the gradient accumulation
they imply (DeepSpeed, Megatron-LM), set on each layout of a memory answer. Split from
:mod:`estimator.plan` (which re-exports these names); counts of sequences, no I/O.
"""

from __future__ import annotations

from estimator.built import copied
from estimator.models import Memory, Plan


def with_batch(plan: Plan, global_batch: int, accumulation: int | None = None) -> Plan:
    """``plan`` with its global batch and the gradient accumulation it implies.

    Each optimizer step sees micro_batch × gradient_accumulation × dp sequences (DeepSpeed asserts
    train_batch_size = micro × accumulation × data-parallel size, deepspeed/runtime/config.py
    ``_batch_assertion``; Megatron-LM's --global-batch-size must be a multiple of micro-batch × DP).
    The accumulation is the whole number of micro-batches closest to the target ``global_batch``
    (at least 1), so the global batch is the nearest multiple of micro_batch × dp: 1,024 sequences
    on DP 136 → 8 micro-batches → 1,088 sequences. Accumulation changes neither memory per GPU (one
    micro-batch of activations lives at a time) nor the compute of the job. A stated ``accumulation``
    is used as stated, whatever the layout: the global batch follows from it.
    """
    per_step = plan.micro_batch * plan.dp
    accumulation = accumulation or max(1, round(global_batch / per_step))
    batch = {"gradient_accumulation": accumulation, "global_batch_sequences": per_step * accumulation}
    return copied(plan, batch)


def memory_with_batch(mem: Memory, global_batch: int, accumulation: int | None = None) -> Memory:
    """The memory answer with the global batch (or the stated accumulation) set on each of its layouts
    (:func:`with_batch`)."""
    update = {
        name: with_batch(getattr(mem, name), global_batch, accumulation)
        for name in ("plan", "min_plan", "recommended_plan")
        if getattr(mem, name) is not None
    }
    return copied(mem, update)
