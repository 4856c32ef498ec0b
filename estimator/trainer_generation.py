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
(:attr:`TrainingSetup.generation_sequences` × :func:`estimator.weights.kv_bytes_per_sequence` at the
sequence length). The training step's activations and loss do not coexist with it (generation finishes
before the forward pass); the model states and ZeRO's buffers stay (the partitions are kept while the
full tensors are gathered), so :class:`estimator.transients.Peaks` takes the larger of the
forward/backward peak and this one.

A stated ``ds3_gather_for_generation: false`` (request field of the same name,
:attr:`TrainingSetup.gather_for_generation`) leaves the partitions in place: TRL's
``unwrap_model_for_generation`` then skips ``GatheredParameters`` and ZeRO-3 fetches each layer's
parameters as the forward reaches it (its usual ``stage3_max_live_parameters`` window, already in
:func:`estimator.transients.gathered_weights`), so only the KV cache is added here; the fit-change
search offers that setting first when the gather is what does not fit (:mod:`estimator.fit_change`).
Not modelled: a vLLM rollout engine (its own share, :mod:`estimator.colocate`).
"""

from __future__ import annotations

from estimator.catalog import ModelSpec
from estimator.models import Method, Plan
from estimator.setup import Layout, TrainingSetup
from estimator.weights import kv_bytes_per_sequence

GATHERING_TOOLS = frozenset({"TRL", "ms-swift"})
"""Training tools whose RL trainers gather ZeRO-3 weights to generate (module doc:
``ds3_gather_for_generation`` default True). No tool named is not assumed to be one of them."""

HALF_BYTES = 2.0
"""Bytes per stored 16-bit weight (ZeRO-3 partitions the bf16/fp16 model)."""


def generation_parts(
    spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan | Layout
) -> tuple[float, float]:
    """(gathered weights, KV cache) bytes per GPU while the trainer generates (module doc), beside the model
    states; (0, 0) unless the setup generates in the trainer (:attr:`TrainingSetup.generation_sequences` >
    0). The KV cache at every stage; the gathered weights only on a ZeRO-3 plan with more than one
    data-parallel rank (below ZeRO-3 every GPU holds the whole 16-bit model already, in the states; one
    rank's ZeRO-3 partition is the whole model: no second copy), nor with ``ds3_gather_for_generation``
    False (module doc)."""
    if not setup.generation_sequences:
        return 0.0, 0.0
    kv = setup.generation_sequences * kv_bytes_per_sequence(spec, setup.seq_len) / plan.tp
    if plan.zero_stage < 3 or plan.dp == 1 or not setup.gather_for_generation:
        return 0.0, kv
    per_weight = setup.base_bits / 8.0 if setup.base_bits and setup.method != Method.full else HALF_BYTES
    return params * per_weight / (plan.tp * plan.pp), kv


def generation_bytes(spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan | Layout) -> float:
    """The sum of :func:`generation_parts`: bytes per GPU the trainer's generation adds to the states."""
    return sum(generation_parts(spec, params, setup, plan))
