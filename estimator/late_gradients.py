"""Gradients the peak of a one-process ZeRO-0 training step does not hold yet (s25 acts2): the Hugging
Face Trainer without DeepSpeed frees its gradients before each step's forward, so at the loss's peak the
states are 14 B/param, not 16 (:func:`late_gradients`), and the step's peak is the largest of its phases
(:func:`gradient_credit`). Read by :class:`estimator.transients.Peaks` and the search's bounds. Bytes."""

from __future__ import annotations

from estimator.models import Method, Plan
from estimator.setup import Layout, TrainingSetup


def late_gradients(
    setup: TrainingSetup, plan: Plan | Layout, params: float, any_stage: bool = False
) -> float:
    """Bytes of the 'gradients' state part (:func:`estimator.memory.model_state_bytes`: 2 per parameter)
    that the forward/backward peak does not hold: full training at ZeRO-0 in one process (TP = PP = DP =
    EP = 1, the Hugging Face Trainer without DeepSpeed); 0 for every other layout. ``any_stage``: for a
    group's floor, whatever ``plan``'s ZeRO stage (the group holds ZeRO-0 too). ``plan``: a
    :class:`~estimator.models.Plan` or a search :class:`~estimator.setup.Layout`; both carry ``ep`` (a
    Layout's defaults to 1), read directly.

    Why (s25 acts2): the Trainer zeroes gradients with ``set_to_none=True`` (transformers trainer.py
    ``model.zero_grad()``; torch.optim.Optimizer.zero_grad's default since torch 2.0), and autograd allocates
    a leaf's ``.grad`` at its first accumulation in the backward (torch/csrc/autograd/functions/
    accumulate_grad.h ``accumulateGrad``: "if !variable_grad.defined()" it steals or clones the new
    gradient). So when the loss peaks (end of the forward, start of the backward) no gradient exists, while
    autocast's bf16 weight copies (2 B/param, saved by each linear for its input gradient) do: fp32 weights
    4 + Adam 8 + copies 2 = 14 B/param, the 16 counted less 2 — without master weights (bf16 weights, no
    autocast copies) the bf16 gradients' 2. During the backward the gradients grow as the activations and
    copies are freed layer by layer; after it all 16 B/param are held with the optimizer step's temporaries.
    Not at DP > 1: DDP allocates its gradient buckets at construction and, with ``gradient_as_bucket_view``,
    points each ``.grad`` into them (torch/nn/parallel/distributed.py, reducer.cpp ``initialize_buckets``);
    nor under DeepSpeed ZeRO-1/2/3 (its gradient partitions and buckets: deepspeed/runtime/zero/
    stage_1_and_2.py, stage3.py, even on one GPU) or FSDP (sharded gradients after reduce-scatter), nor
    Megatron-LM / NeMo (``setup.megatron_layers``: its DDP wrapper allocates the ``main_grad`` buffers at
    construction, megatron/core/distributed/distributed_data_parallel.py, at every DP).
    Measured on one H200 (bench/device/RESULTS.md, s25): Qwen2.5 3B, 1.5B, 7B without checkpointing
    95.8, 59.7, 133.7 GiB allocated vs 14 B/param + activations + logits 95.6, 59.4, 134.2."""
    one = plan.tp == 1 and plan.pp == 1 and plan.dp == 1 and plan.ep == 1 and not plan.offload
    if not one or setup.method != Method.full or setup.optimizer_in_backward or setup.megatron_layers:
        return 0.0
    return 2.0 * params if any_stage or plan.zero_stage == 0 else 0.0


def gradient_credit(late: float, acts: float, loss: float, work: float, step: float) -> float:
    """Bytes the peak is below states + max(acts + max(loss, work), step) when ``late`` bytes of gradients
    come only in the backward (:func:`late_gradients`; one pipeline stage). The peak is the largest of the
    phases: the loss's (acts + loss − late), under full recompute one layer's rebuild (acts + work, its
    gradients counted in full: a bound), the optimizer step's (step) and the backward's end (0: every
    gradient made, the activations freed) — the backward between grows the gradients as it frees
    activations and autocast copies layer by layer, so it is never above its two ends. The credit is
    min(late, acts + loss − max(acts + work if work > 0, step, 0)), at least 0."""
    if late <= 0.0:
        return 0.0
    rebuild = acts + work if work > 0.0 else 0.0
    return max(0.0, min(late, acts + loss - max(rebuild, step)))
