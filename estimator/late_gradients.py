"""Gradients the peak of a one-process ZeRO-0 training step does not hold yet (s25 acts2): the Hugging
Face Trainer without DeepSpeed frees its gradients before each step's forward, so at the loss's peak the
states are 14 B/param, not 16 (:func:`late_gradients`), and the step's peak is the largest of its phases
(:func:`gradient_credit`). Read by :class:`estimator.transients.Peaks` and the search's bounds. Bytes."""

from __future__ import annotations

from estimator.models import Method, Plan
from estimator.setup import Layout, TrainingSetup

_FULL = Method.full  # read once: Python 3.11's EnumType.__getattr__ is a call (estimator.setup's _FREEZE)


def late_gradients(
    setup: TrainingSetup, plan: Plan | Layout, params: float, any_stage: bool = False, micro: int = 0
) -> float:
    """Bytes of the 'gradients' state part (:func:`estimator.memory.model_state_bytes`: 2 per parameter)
    that the forward/backward peak does not hold: full training at ZeRO-0 in one process (TP = PP = DP =
    EP = 1, the Hugging Face Trainer without DeepSpeed); 0 for every other layout. ``any_stage``: for a
    group's floor, whatever ``plan``'s ZeRO stage (the group holds ZeRO-0 too). ``plan``: a
    :class:`~estimator.models.Plan` or a search :class:`~estimator.setup.Layout`; both carry ``ep`` (a
    Layout's defaults to 1), read directly. ``micro``: the micro-batch, when not ``plan``'s.

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
    Not while it accumulates (:func:`accumulates`): the gradients of the step's earlier micro-batches are
    held (:func:`accumulated_gradients`). Measured on one H200 (bench/device/RESULTS.md, s25): Qwen2.5 3B,
    1.5B, 7B without checkpointing, one micro-batch a step, 95.8, 59.7, 133.7 GiB allocated vs 14 B/param +
    activations + logits 95.6, 59.4, 134.2."""
    if setup.method != _FULL or setup.optimizer_in_backward or setup.megatron_layers:
        return 0.0  # inline, no call: the search's call count (tests/test_search_sharing.py)
    if plan.tp != 1 or plan.pp != 1 or plan.dp != 1 or plan.ep != 1 or plan.offload:
        return 0.0
    if accumulates(setup, micro or plan.micro_batch):
        return 0.0
    return 2.0 * params if any_stage or plan.zero_stage == 0 else 0.0


def accumulates(setup: TrainingSetup, micro_batch: int) -> bool:
    """Whether one process runs more than one micro-batch per optimizer step (s34 fixc #1): the stated
    accumulation (``setup.accumulation``), else the plan's global batch — stated or assumed (Alpaca's 128)
    — over the micro-batch rounded as :func:`estimator.plan_batch.with_batch` rounds it (128 sequences at
    micro-batch 1 → 128): the accumulation the answer's configs ship (s35 fixe #1; it was the stated batch
    only, so the YAML said 128 while the memory was sized for 1). A run stepping after every micro-batch
    says 'gradient accumulation 1' (as bench/device's runs are asked)."""
    if setup.accumulation:
        return setup.accumulation > 1
    return setup.step_sequences > 0 and round(setup.step_sequences / micro_batch) > 1


def accumulated_gradients(setup: TrainingSetup, plan: Plan | Layout, params: float) -> float:
    """Gradient bytes beyond the states' 2 per parameter (:func:`estimator.memory.model_state_bytes`) that a
    one-process ZeRO-0 step with fp32 master weights holds while it accumulates (s34 fixc #1): 2·params,
    else 0. Why: the Trainer zeroes the gradients only after the optimizer step (transformers trainer.py
    ``_inner_training_loop``: ``self.optimizer.step()`` … ``model.zero_grad()`` under ``if do_sync_step``),
    so from the second micro-batch on every ``.grad`` exists at the loss's peak, in the parameter's dtype
    (autograd ``accumulateGrad`` adds in place into the defined ``.grad``): fp32 under autocast, 4 B/param —
    fp32 weights 4 + fp32 gradients 4 + Adam 8 + autocast's bf16 copies 2 = 18 B/param, not the 16 counted
    (1.24B Llama 3.2 1B: + 2.3 GiB). Without master weights (pure bf16) the gradients are the 2 counted.
    Per stack (s35): LLaMA-Factory upcasts the trainable parameters to fp32 for full, freeze and LoRA
    unless ``pure_bf16`` / BAdam, or ZeRO-3/FSDP without quantization (src/llamafactory/model/adapter.py,
    commit 01d87b82, ``init_adapter``'s ``cast_trainable_params_to_fp32``; ``_setup_full_tuning`` line 54
    ``param.data = param.data.to(torch.float32)``), so its full one-GPU runs hold fp32 ``.grad`` as here; a
    model loaded ``torch_dtype=bfloat16`` and trained as loaded keeps bf16 ``.grad`` and bf16 Adam states
    (``master_weights`` False: the 2 counted). DeepSpeed is not this path (``plan.zero_stage`` > 0 or its
    engine: its own gradient buffers, left as counted)."""
    if setup.method != _FULL or not setup.master_weights or plan.zero_stage != 0 or plan.dp != 1:
        return 0.0
    if plan.tp != 1 or plan.pp != 1 or plan.ep != 1 or plan.offload:
        return 0.0
    if setup.optimizer_in_backward or setup.megatron_layers:
        return 0.0
    return 2.0 * params if accumulates(setup, plan.micro_batch) else 0.0


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
