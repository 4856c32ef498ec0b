"""The RL trainer's own generation: its KV cache, and under ZeRO-3 the whole policy gathered on every GPU.

TRL's on-policy trainers (``GRPOTrainer``, ``RLOOTrainer``, ``PPOTrainer``) generate their rollouts with
``model.generate`` when no vLLM engine is used (``use_vllm`` defaults to False: trl/trainer/grpo_config.py),
inside ``unwrap_model_for_generation(model, accelerator, gather_deepspeed3_params=
args.ds3_gather_for_generation)`` (trl/models/utils.py). Under DeepSpeed ZeRO-3 that context enters
``deepspeed.zero.GatheredParameters(model.parameters())``: every partitioned parameter is all-gathered at
once, so each GPU holds the whole model in the dtype ZeRO-3 stores it while it generates, and releases it
after. TRL documents the cost (``GRPOConfig.ds3_gather_for_generation``, default True: "If enabled, the
policy model weights are gathered for generation, improving generation speed. However, disabling this
option allows training models that exceed the VRAM capacity of a single GPU"); ms-swift's GRPO trainer
(built on TRL's) has the same argument and default (``ds3_gather_for_generation: bool = True`` among its
training arguments, swift/trainers/arguments.py; ``use_vllm: bool = False`` in its GRPO arguments).

The generation peak, bytes per GPU (:func:`generation_bytes`): under ZeRO-3 the gathered weights (the
TP × PP shard of all ``params``: 2 bytes each for a 16-bit model, ``base_bits`` / 8 for a quantized frozen
base), and at every stage the KV cache of the sequences the GPU generates at once
(:func:`sequences_per_rank` × :func:`estimator.weights.kv_bytes_per_sequence` at the rollout's prompt +
completion, :attr:`TrainingSetup.generation_context`).

How many sequences one GPU generates at once is the tool's own rule (:func:`generation_batch`): each process
generates its local generation batch, ``per_device_train_batch_size`` × ``steps_per_generation``, in one
``generate`` call — TRL v1.9.0 (huggingface/trl@35def3e) trl/trainer/grpo_trainer.py L1558–1560 ("Receives
the local generation batch (Per-GPU batch size × steps per generation) … Generates completions once for the
entire generation batch"), L1861 ``unwrapped_model.generate(**generate_inputs, …)``; ms-swift
(modelscope/ms-swift@3602360) swift/rlhf_trainers/rollout_mixin.py L394 ``TransformersEngine(…,
max_batch_size=0)``, no cap. ``steps_per_generation`` defaults to ``gradient_accumulation_steps``
(trl/trainer/grpo_config.py L1077–1079; swift/rlhf_trainers/args_mixin.py L205–207), so the local batch is
one optimizer step's sequences on that rank: a stated global batch ÷ the plan's data-parallel size, or
the stated micro-batch × accumulation, else the tool's defaults (:data:`PER_DEVICE_DEFAULT`, accumulation
1: transformers ``TrainingArguments.gradient_accumulation_steps`` default 1; ms-swift GRPO sets 1 when
unset, swift/arguments/rlhf_args.py L527–529).

The training step's activations and loss do not coexist with it (generation finishes before the forward
pass); the model states and ZeRO's buffers stay (the partitions are kept while the full tensors are
gathered), so :class:`estimator.transients.Peaks` takes the larger of the forward/backward peak and this
one.

A stated ``ds3_gather_for_generation: false`` (request field of the same name,
:attr:`TrainingSetup.gather_for_generation`) leaves the partitions in place: TRL's
``unwrap_model_for_generation`` then skips ``GatheredParameters`` and ZeRO-3 fetches each layer's
parameters as the forward reaches it (its usual ``stage3_max_live_parameters`` window, already in
:func:`estimator.transients.gathered_weights`), so only the KV cache is added here; the fit-change
search offers that setting first when the gather is what does not fit (:mod:`estimator.fit_change`).
Not modelled: a vLLM rollout engine (its own share, :mod:`estimator.colocate`).
"""

from __future__ import annotations

from typing import NamedTuple

from estimator.catalog import ModelSpec
from estimator.models import Method, Plan, SizingRequest
from estimator.setup import Layout, TrainingSetup
from estimator.weights import kv_bytes_per_sequence

GATHERING_TOOLS = frozenset({"TRL", "ms-swift"})
"""Training tools whose RL trainers gather ZeRO-3 weights to generate (module doc:
``ds3_gather_for_generation`` default True). No tool named is not assumed to be one of them."""

PER_DEVICE_DEFAULT = {"TRL": 8, "ms-swift": 1}
"""Each tool's ``per_device_train_batch_size`` default: TRL's ``GRPOConfig`` keeps transformers'
``TrainingArguments`` default 8 (src/transformers/training_args.py ``per_device_train_batch_size …
default=8``; GRPOConfig declares no such field at v1.9.0); ms-swift's own 1
(swift/trainers/arguments.py L129 @3602360 ``per_device_train_batch_size: int = 1``)."""


class GenerationBatch(NamedTuple):
    """What one rank generates at once (:func:`generation_batch`): ``per_rank`` sequences when fixed by
    the stated micro-batch and accumulation or the tool's defaults, else ``step`` sequences (a stated
    global batch) spread over the plan's data-parallel ranks; ``assumed``: the tool's default was used."""

    per_rank: float
    step: float = 0.0
    assumed: bool = False


def generation_batch(req: SizingRequest) -> GenerationBatch:
    """The local generation batch of TRL/ms-swift (module doc: ``per_device_train_batch_size`` ×
    ``steps_per_generation``, the latter = ``gradient_accumulation_steps``): stated accumulation ×
    micro-batch, else a stated global batch of sequences over the plan's DP (:func:`sequences_per_rank`;
    a stated accumulation is already inside it: global 256 on 16 GPUs is 16 a GPU, whatever the steps),
    else stated accumulation × the tool's default micro-batch (``assumed``), else the stated micro-batch
    × 1, else :data:`PER_DEVICE_DEFAULT` × 1, ``assumed``."""
    own = PER_DEVICE_DEFAULT.get(req.training_tool or "", PER_DEVICE_DEFAULT["TRL"])
    if req.gradient_accumulation and (req.batch_size or not req.global_batch):
        micro = req.batch_size or own
        return GenerationBatch(float(req.gradient_accumulation * micro), assumed=not req.batch_size)
    if req.global_batch:
        return GenerationBatch(0.0, float(req.global_batch))
    if req.batch_size:
        return GenerationBatch(float(req.batch_size))
    return GenerationBatch(float(own), assumed=True)


def sequences_per_rank(setup: TrainingSetup, plan: Plan | Layout) -> float:
    """Sequences one GPU generates at once on ``plan``: the setup's fixed count, else its generation step
    (a stated global batch) ÷ the plan's data-parallel size, at least one (:func:`generation_batch`)."""
    if setup.generation_sequences or not setup.generation_step:
        return setup.generation_sequences
    return max(1.0, setup.generation_step / plan.dp)


HALF_BYTES = 2.0
"""Bytes per stored 16-bit weight (ZeRO-3 partitions the bf16/fp16 model)."""


def generation_parts(
    spec: ModelSpec,
    params: float,
    setup: TrainingSetup,
    plan: Plan | Layout,
    per_sequence: float | None = None,
) -> tuple[float, float]:
    """(gathered weights, KV cache) bytes per GPU while the trainer generates (module doc), beside the model
    states; (0, 0) unless the setup generates in the trainer (:func:`sequences_per_rank` > 0). The KV
    cache at every stage; the gathered weights only on a ZeRO-3 plan with more than one data-parallel rank
    (below ZeRO-3 every GPU holds the whole 16-bit model already, in the states; one rank's ZeRO-3
    partition is the whole model: no second copy), nor with ``ds3_gather_for_generation`` False (module
    doc). ``per_sequence``: :func:`generation_kv_per_sequence` when the caller keeps it (the same float)."""
    sequences = sequences_per_rank(setup, plan)
    if not sequences:
        return 0.0, 0.0
    if per_sequence is None:
        per_sequence = generation_kv_per_sequence(spec, setup)
    kv = sequences * per_sequence / plan.tp
    if plan.zero_stage < 3 or plan.dp == 1 or not setup.gather_for_generation:
        return 0.0, kv
    per_weight = setup.base_bits / 8.0 if setup.base_bits and setup.method != Method.full else HALF_BYTES
    return params * per_weight / (plan.tp * plan.pp), kv


def generation_kv_per_sequence(spec: ModelSpec, setup: TrainingSetup) -> float:
    """Bytes of one generated sequence's KV cache at the rollout's prompt + completion
    (:attr:`TrainingSetup.generation_context`, else the sequence length), on the whole model."""
    return kv_bytes_per_sequence(spec, setup.generation_context or setup.seq_len)


def generation_bytes(spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan | Layout) -> float:
    """The sum of :func:`generation_parts`: bytes per GPU the trainer's generation adds to the states."""
    return sum(generation_parts(spec, params, setup, plan))
