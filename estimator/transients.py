"""What a training step holds on one GPU besides the model states, at its peaks.

A step has two peaks (PyTorch's caching allocator keeps what each one allocated):

- **forward/backward**: the activations kept for the backward pass (:func:`kept_activations`: every
  layer's, or only the layer inputs under gradient checkpointing), plus the larger of the loss's
  tensors (:func:`loss_bytes`: logits, their fp32 upcast, log-softmax and its gradients) and one
  layer's recompute-and-backward working set (:func:`layer_workspace`); ZeRO-3 also holds gathered
  16-bit weights (:func:`gathered_weights`);
- **optimizer step**, after the activations are freed: the optimizer's temporaries
  (:func:`step_bytes`: torch AdamW's foreach intermediates, DeepSpeed's fp32 gradient partition).

DeepSpeed's gradient buckets (:func:`zero_buffers`) live through both. Each function returns a
:class:`Span` (low, likely, high) in bytes: low = the smallest tensors the code can get away with
(what ``torch.cuda.max_memory_allocated`` would report at best), high = the largest plausible. The
counts follow the code of the stacks the recipes run (Hugging Face Trainer with PEFT and DeepSpeed,
PyTorch autocast); sources are in each docstring.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import NamedTuple

from estimator.adamw_step import zero0_step
from estimator.catalog import ModelSpec
from estimator.eager_activations import eager_layer_bytes, eager_layers
from estimator.later import later
from estimator.lora import ADAPTER_INPUT_BYTES, DEQUANT_BYTES, LORA_DROPOUT_MASK_BYTES, lora_input_elements
from estimator.models import Algorithm, Method, Plan
from estimator.runtimes.transformers import largest_matrix
from estimator.setup import Layout, Recompute, TrainingSetup, activation_layers
from estimator.trainer_generation import generation_parts

# imported on first call (s43-speed: a plain question calls none of them)
gradient_credit, late_gradients = later("estimator.late_gradients", "gradient_credit", "late_gradients")

# imported on first call (s43-speed: a plain question calls none of them)
kept_score_bytes, live_score_bytes, score_bytes_per_layer = later(
    "estimator.attention_scores", "kept_score_bytes", "live_score_bytes", "score_bytes_per_layer"
)  # live_score_bytes: estimator.plan's (at its 450-line cap, tests/test_s28_tidy.py)

LOSS_CHUNKS = 8
"""Chunks of a chunked cross-entropy: torchtune ``CEWithChunkedOutputLoss(num_output_chunks=8)``
(pytorch/torchtune ``torchtune/modules/loss/ce_chunked_output_loss.py``; PR #1390)."""

KORTHIKANTI_COEFFICIENT = 34.0
"""Bytes per s·b·h per layer, selective recompute (Korthikanti et al. 2022, Table 2)."""

PAIRED_SEQUENCES = 2
"""Sequences per micro-batch example in DPO: the chosen and the rejected answer go through the model
in one concatenated batch — TRL ``DPOTrainer.concatenated_forward`` ("concatenating the chosen and
rejected inputs together", trl/trainer/dpo_trainer.py), LLaMA-Factory's
``PairwiseDataCollatorWithPadding`` (llamafactory/data/collator.py: chosen then rejected in one batch)
— so activations and logits are those of 2 × ``per_device_train_batch_size`` sequences."""
_DPO = Algorithm.dpo  # read once: Python 3.11's EnumType.__getattr__ slows `Algorithm.dpo`


def rows(setup: TrainingSetup, plan: Plan | Layout) -> int:
    """Sequences one micro-batch puts through the model: the micro-batch, × :data:`PAIRED_SEQUENCES`
    for DPO."""
    return plan.micro_batch * (PAIRED_SEQUENCES if setup.algorithm == _DPO or setup.reward_model else 1)


FP32_LOSS_BYTES_PER_LOGIT = (10.0, 12.0, 16.0)
"""(low, likely, high) bytes per logit (token × vocabulary entry) of an fp32 cross-entropy.

The loss upcasts the 16-bit logits: transformers ≥ 4.46 ``ForCausalLMLoss`` does
``logits = logits.float()`` (transformers/loss/loss_utils.py), and under bf16/fp16 autocast
``cross_entropy``/``log_softmax`` run in fp32 anyway (PyTorch AMP docs, "CUDA Ops that can autocast to
float32"). Forward: bf16 logits 2 + fp32 copy 4 + the fp32 log-softmax the backward keeps 4 = 10 (low).
Backward of the log-softmax: its saved output 4 + the incoming gradient 4 + the outgoing gradient 4 =
12 (likely; ``log_softmax_backward_data`` writes a new tensor). High 16: the caching allocator still
holds the forward's blocks of other sizes — a shifted contiguous copy of the logits (2, Qwen-v1 and
transformers < 4.46 ``shift_logits = logits[..., :-1, :].contiguous()``) and the fp32 copy of the
returned logits that accelerate's ``convert_outputs_to_fp32`` makes (4)."""

HALF_LOSS_BYTES_PER_LOGIT = (4.0, 6.0, 8.0)
"""The same for a loss the model code computes in 16-bit, without autocast (DeepSpeed fp16/bf16 runs
the model in half precision; Qwen-v1's remote code calls ``CrossEntropyLoss`` on its bf16/fp16
logits): saved log-softmax 2 + incoming 2 + outgoing gradient 2 = 6; low 4; high 8 with the logits
still referenced by the returned outputs."""

CHUNKED_LOSS_BYTES_PER_LOGIT = (2.0, 2.0 + 4.0 / LOSS_CHUNKS, 2.0 + 2 * 4.0 / LOSS_CHUNKS)
"""torchtune's chunked cross-entropy keeps the bf16 logits (2) and upcasts one chunk of 8 at a time:
likely 2 + 4/8; low 2 (the upcast fused away); high 2 + 2·4/8 (one fp32 chunk and its log-softmax)."""

ZERO_REDUCE_BUCKET_ELEMENTS = 5e8
"""DeepSpeed ``reduce_bucket_size`` default, 5e8 elements (deepspeed/runtime/zero/config.py,
``Field(pp_int(5e8))``): the contiguous gradient buffer ZeRO allocates (stage 1/2: ``buf_0`` in
``backward()``, a second ``buf_1`` with ``overlap_comm``, which the recipes switch on; stage 3:
``__ipg_bucket_flat_buffer`` at init), in the 16-bit dtype."""

ZERO3_MAX_LIVE_PARAMETERS = 1e9
"""DeepSpeed ``stage3_max_live_parameters`` default 1e9: gathered 16-bit parameters ZeRO-3 may keep
on a GPU during forward and backward (deepspeed/runtime/zero/config.py)."""

ZERO3_SUB_GROUP_SIZE = 1e9
"""DeepSpeed ``sub_group_size`` default 1e9: ZeRO-3 steps the optimizer one sub-group of parameters
at a time (deepspeed/runtime/zero/config.py)."""

STEP_GRADIENT_COPY_BYTES = (4.0, 6.0, 6.0)
"""(low, likely, high) bytes per parameter DeepSpeed's optimizer step adds: it flattens the 16-bit
gradient partition (2, unless already contiguous) and copies it to fp32 (4) for the step
(deepspeed/runtime/zero/stage_1_and_2.py ``step``: ``self.flatten(self.averaged_gradients[i]).to(fp32)``;
stage3.py ``_prepare_fp32_grad_for_sub_group``, per sub-group)."""


class Span(NamedTuple):
    """Bytes at the low end, likely and high end of a part."""

    low: float
    likely: float
    high: float

    def __add__(self, other: object) -> Span:  # type: ignore[override]
        assert isinstance(other, Span)
        return _span((self.low + other.low, self.likely + other.likely, self.high + other.high))

    def scaled(self, k: float) -> Span:
        return _span((self.low * k, self.likely * k, self.high * k))

    @staticmethod
    def exact(x: float) -> Span:
        return _span((x, x, x))


_span: Callable[[Iterable[float]], Span] = partial(tuple.__new__, Span)
"""``_span((low, likely, high))`` is ``Span(low, likely, high)`` without the Python call of the
NamedTuple's ``__new__`` (a layout search makes ~15 spans a layout: 9k calls over the corpus)."""


ZERO = Span.exact(0.0)

# ---------------------------------------------------------------------------------------------
# activations


def layer_activation_coefficients(spec: ModelSpec, dropout: bool = False) -> tuple[float, float]:
    """(fused, eager) activation bytes one layer keeps for backward, in units of s·b·h (16-bit values).

    Korthikanti et al. 2022 §4.1's accounting for a pre-norm layer with FlashAttention-style
    attention (no s² scores), per token, divided by h:

    - attention: norm input 2h, projection input 2h, q 2·q_dim, k and v 2·kv_dim each, attention
      output 2·q_dim (also the output projection's input);
    - MLP: norm input 2h, up-projection input 2h; SwiGLU keeps gate, up, SiLU(gate) and their
      product (4 × 2f), GeLU keeps its input and output (2 × 2f). Fused: SwiGLU keeps gate and up
      only, GeLU its input only — the rest is recomputed in the backward kernel;
    - ``dropout``: two 1-byte masks (attention output, MLP output).

    Check: a GPT layer (q_dim = kv_dim = h, f = 4h, GeLU, dropout) gives eager 34 — Korthikanti's
    Table 2 value. MoE: one expert's MLP × (``experts_top_k`` + shared experts) on every layer (the
    leading dense layers are counted as MoE ones; an approximation).
    """
    h = spec.hidden
    q_dim = spec.heads * spec.head_dim_effective
    kv_dim = spec.kv_heads * spec.head_dim_effective
    attention = (4 * h + 4 * q_dim + 4 * kv_dim) / h
    ffn = spec.active_ffn_hidden
    kept = (4, 2) if spec.gated_ffn else (2, 1)  # (eager, fused) tensors of size f
    eager_mlp = 4 + kept[0] * 2 * ffn / h
    fused_mlp = 4 + kept[1] * 2 * ffn / h
    masks = 2.0 if dropout else 0.0
    return attention + fused_mlp + masks, attention + eager_mlp + masks


def activation_bytes_per_layer(
    seq_len: int,
    micro_batch: int,
    spec: ModelSpec,
    tp: int,
    recompute: Recompute,
    eager_attention: bool = False,
) -> float:
    """Activation bytes one transformer layer keeps for the backward pass (16-bit activations).

    Korthikanti et al. 2022, Table 2, with sequence parallelism whenever TP > 1:
      none:      s·b·h·(34 + 5·a·s/h) / t  with eager attention (the a·s² scores are stored)
      selective: s·b·h·34 / t              (attention scores recomputed)
      full:      2·s·b·h / t               (only the layer input is kept)
    With FlashAttention / PyTorch SDPA — the default of every current training stack — the scores
    are never stored, so 'none' (no gradient checkpointing) keeps s·b·h·34 / t like 'selective';
    ``eager_attention`` restores the paper's 'none' row.
    The 34 comes from a GPT layer with a 4h MLP; for GQA/SwiGLU models it is an approximation
    (:func:`layer_activation_coefficients` gives the band around it).
    """
    s, b, h, a = seq_len, micro_batch, spec.hidden, spec.heads
    if recompute == "full":
        return 2.0 * s * b * h / tp
    per = KORTHIKANTI_COEFFICIENT + 5.0 * a * s / h if recompute == "none" and eager_attention else 34.0
    return s * b * h * per / tp


class ActivationFacts(NamedTuple):
    """What the activation formulas need of a model and setup, whatever the layout: the
    :func:`layer_activation_coefficients` (units of s·b·h) and LoRA's adapted input elements per token
    per layer (:func:`estimator.lora.lora_input_elements`). A layout search computes them once
    (:func:`activation_facts`)."""

    fused: float
    eager: float
    adapter_elements: float


def activation_facts(spec: ModelSpec, setup: TrainingSetup) -> ActivationFacts:
    """:class:`ActivationFacts` of ``spec`` trained with ``setup``."""
    fused, eager = layer_activation_coefficients(spec)
    return ActivationFacts(fused, eager, lora_input_elements(spec, setup.method, setup.lora_targets))


def _adapter_bytes_per_element(setup: TrainingSetup, plan: Plan | Layout) -> float:
    """Bytes each adapted input keeps (:data:`ADAPTER_INPUT_BYTES`, :data:`LORA_DROPOUT_MASK_BYTES`):
    a copy when the adapters are fp32 under autocast — the Hugging Face Trainer without DeepSpeed,
    with fp32 master weights (no ZeRO stage) — or when dropout makes a new tensor; plus the mask."""
    dropout = setup.lora_dropout > 0
    autocast_fp32 = setup.master_weights and plan.zero_stage == 0
    copy = ADAPTER_INPUT_BYTES if autocast_fp32 or dropout else 0.0
    return copy + (LORA_DROPOUT_MASK_BYTES if dropout else 0.0)


def kept_activations(
    spec: ModelSpec, setup: TrainingSetup, plan: Plan | Layout, facts: ActivationFacts | None = None
) -> Span:
    """Activations stage 1 of the pipeline keeps for the backward pass, all layers, × the PP
    micro-batches in flight (1F1B, Narayanan et al. 2021).

    Full recompute: the layer inputs, 2·s·b·h/t each (exact). No recompute on a data-parallel layout of
    a stack running transformers' code (:func:`estimator.eager_activations.eager_layers`): the count from
    that code and autograd (:func:`estimator.eager_activations.eager_layer_bytes`, likely and high) —
    since s25; Megatron-LM / NeMo, and their TP/PP/EP layouts: Korthikanti's 34·s·b·h/t per layer
    (likely, its fused kernels). The band is [min(34, fused), max(34, eager, HF high)] of
    :func:`layer_activation_coefficients`, plus LoRA's input copies
    (:func:`estimator.lora.lora_input_elements` × 2 bytes, + the dropout masks).
    """
    pairs = PAIRED_SEQUENCES if setup.algorithm == _DPO or setup.reward_model else 1  # chosen, rejected
    s, b, t = setup.seq_len, plan.micro_batch * pairs, plan.tp
    layers = activation_layers(spec, setup, plan.pp, plan.recompute) * plan.pp
    if plan.recompute == "full":
        kept = (min(layers, 2) if setup.offloaded_checkpoints else layers) * setup.activation_bytes / 2
        return Span.exact(activation_bytes_per_layer(s, b, spec, t, "full") * kept)  # Unsloth: 2 on the GPU
    fused, eager, elements = facts or activation_facts(spec, setup)
    per_coef = s * b * spec.hidden / t
    copy = _adapter_bytes_per_element(setup, plan)
    adapters = elements * s * b / t * copy
    low = min(KORTHIKANTI_COEFFICIENT, fused) * per_coef + adapters
    high = max(KORTHIKANTI_COEFFICIENT, eager) * per_coef + adapters
    if eager_layers(setup, plan):
        per_token, top = eager_layer_bytes(spec, setup, plan.zero_stage, copy > 0)
        likely, high = per_token * s * b + adapters, max(high, top * s * b + adapters)
    else:
        likely = activation_bytes_per_layer(s, b, spec, t, plan.recompute) + adapters  # type: ignore[arg-type]
    kept = _span((low * (k := layers * setup.activation_bytes / 2), likely * k, high * k))  # fp32: ×2 (s34)
    if setup.eager_attention:  # eager attention's s×s scores, every layer without recompute (s42)
        return kept + Span.exact(kept_score_bytes(spec, setup, plan))
    return kept


def _per_layer_linear_params(spec: ModelSpec, params: float) -> float:
    """Weights of one decoder layer's projections (all but the embeddings and head, per layer)."""
    embeddings = float(spec.vocab * spec.hidden * (1 if spec.tied_embeddings else 2))  # embedding_params
    lm = params - spec.vision.params if spec.vision is not None else params  # no VL tower (language_params)
    return max(0.0, lm - embeddings) / spec.layers


def layer_workspace(
    spec: ModelSpec,
    params: float,
    setup: TrainingSetup,
    plan: Plan | Layout,
    facts: ActivationFacts | None = None,
) -> Span:
    """One layer's recompute and backward under full recompute (gradient checkpointing): the layer's
    activations rebuilt — fused (low) or eager (likely) count of :func:`layer_activation_coefficients`,
    the eager count twice with their gradients (high) — plus LoRA's input copies of that layer and, for
    a quantized base, dequantized weights (:data:`DEQUANT_BYTES`): one matrix at a time
    (bitsandbytes; likely), every projection of the layer (AutoGPTQ keeps each for the backward; high).
    0 without recompute: the kept activations (:func:`kept_activations`) already count every layer."""
    if plan.recompute != "full":
        if setup.eager_attention and plan.recompute == "selective":  # one layer's scores rebuilt (s42)
            return Span.exact(score_bytes_per_layer(spec, setup, plan.micro_batch, plan.tp))
        return ZERO
    pairs = PAIRED_SEQUENCES if setup.algorithm == _DPO or setup.reward_model else 1  # chosen, rejected
    s, b, t = setup.seq_len, plan.micro_batch * pairs, plan.tp
    fused, eager, elements = facts or activation_facts(spec, setup)
    per_coef = s * b * spec.hidden / t
    adapters = elements * s * b / t * _adapter_bytes_per_element(setup, plan)
    quantized = setup.method == Method.qlora or (setup.base_bits is not None and setup.method != Method.full)
    one = DEQUANT_BYTES * largest_matrix(spec) / t if quantized else 0.0
    layer = DEQUANT_BYTES * _per_layer_linear_params(spec, params) / t if quantized else 0.0
    scores = score_bytes_per_layer(spec, setup, plan.micro_batch, plan.tp) if setup.eager_attention else 0.0
    return _span(
        (
            fused * per_coef + adapters + one + scores,
            eager * per_coef + adapters + one + scores,
            2 * eager * per_coef + adapters + layer + scores,
        )
    )


def loss_bytes(spec: ModelSpec, setup: TrainingSetup, plan: Plan | Layout) -> Span:
    """The loss's peak: b·s·V/t logits × bytes per logit — :data:`FP32_LOSS_BYTES_PER_LOGIT`,
    :data:`HALF_LOSS_BYTES_PER_LOGIT` when the model computes it in 16-bit (``setup.fp32_loss`` False),
    :data:`CHUNKED_LOSS_BYTES_PER_LOGIT` for a chunked loss. Lives at the end of the forward pass and
    the start of the backward, with every kept activation."""
    table = CHUNKED_LOSS_BYTES_PER_LOGIT if setup.chunked_loss else None
    table = table or (FP32_LOSS_BYTES_PER_LOGIT if setup.fp32_loss else HALF_LOSS_BYTES_PER_LOGIT)
    b = plan.micro_batch * (PAIRED_SEQUENCES if setup.algorithm == _DPO or setup.reward_model else 1)
    logits = b * setup.seq_len * (1 if setup.reward_model else spec.vocab) / plan.tp  # RM: a scalar head
    return _span((table[0] * logits, table[1] * logits, table[2] * logits))  # Span.scaled, no frame (s46)


def gathered_weights(spec: ModelSpec, params: float, setup: TrainingSetup, plan: Plan | Layout) -> Span:
    """ZeRO-3's gathered weights in forward and backward per GPU: up to :data:`ZERO3_MAX_LIVE_PARAMETERS`
    elements of the TP × PP shard, in the dtype ZeRO-3 stores them (likely, high), at least one layer's (low).

    ZeRO-3 partitions every parameter, trainable or frozen (``zero.Init`` / ``DeepSpeedZeRoOffload``
    register all of ``module.parameters()``; a LoRA or QLoRA base is sharded over DP like a full
    model's weights, :func:`estimator.memory.breakdown`'s 'weights'), so a frozen base must be
    all-gathered before each sub-module runs just the same. ``PartitionedParameterCoordinator``
    (deepspeed/runtime/zero/partitioned_param_coordinator.py, ``fetch_sub_module``) prefetches while
    the available elements stay under ``max_live_parameters`` and keeps a parameter it will reuse within
    ``max_reuse_distance`` elements (``__params_to_release``; default 1e9, so around the turn from the
    forward to the backward pass the last ~1e9 elements stay gathered). Elements are the stored
    tensor's: a 16-bit weight 2 bytes each; a quantized base (bitsandbytes stores NF4 and int8 as
    ``uint8``/``int8`` tensors) 1 byte each, never more than the base's own bytes on this shard.

    A frozen base on one rank (DP 1) is not gathered (DeepSpeed's ``_no_gather_coalesced``, deepspeed/runtime/
    zero/partition_parameters.py: ``param.data`` is the partition itself; full training's term at DP 1 is
    as before s23) unless it is offloaded (FSDP ``CPUOffload(offload_params=True)``): then the layer being
    computed is copied to the GPU, one layer's weights (estimator.adapter_offload; s34 fixe)."""
    if plan.zero_stage < 3 or (setup.method != Method.full and plan.dp == 1 and not plan.offload):
        return ZERO
    shard = params / (plan.tp * plan.pp)
    if setup.method == Method.full or (setup.base_bits is None and setup.method != Method.qlora):
        # 16-bit weights, trained or a frozen bf16 base (memory._frozen_base without base bits)
        layer_bytes, total_bytes, per_element = (
            2.0 * _per_layer_linear_params(spec, params) / plan.tp,
            2.0 * shard,
            2.0,
        )
    else:
        from estimator.model_states import _frozen_base  # memory imports this module: import here

        total_bytes = _frozen_base(spec, params, setup, plan)
        per_element = 2.0 if total_bytes >= 2.0 * shard else 1.0
        layer_bytes = total_bytes / shard * _per_layer_linear_params(spec, params) / plan.tp
    live = min(per_element * setup.zero3_max_live_parameters, total_bytes)  # the user's, else 1e9
    live = layer_bytes if setup.method != Method.full and plan.dp == 1 else live  # offloaded base, one rank
    return _span((min(live, layer_bytes), live, live))


def zero_buffers(plan: Plan | Layout) -> float:
    """DeepSpeed's contiguous gradient buckets (:data:`ZERO_REDUCE_BUCKET_ELEMENTS`, 16-bit): two at
    ZeRO-1/2 (``overlap_comm``, as the recipes configure it), one at ZeRO-3; 0 without ZeRO."""
    if plan.zero_stage == 0:
        return 0.0
    buckets = 1 if plan.zero_stage >= 3 else 2
    return buckets * ZERO_REDUCE_BUCKET_ELEMENTS * 2.0


def step_bytes(setup: TrainingSetup, plan: Plan | Layout, trained: float) -> Span:
    """The optimizer step's temporaries for ``trained`` parameters on this GPU (before ZeRO):

    - no ZeRO: :func:`estimator.adamw_step.zero0_step`: 0 with fused AdamW (the Hugging Face Trainer's
      default ``adamw_torch_fused`` on torch ≥ 2.8: transformers/training_args.py; likely), foreach's copy
      of the second moments, 4 bytes per parameter with fp32 states (torch/optim/adam.py
      ``_multi_tensor_adam``; high), each at every end when the user states it (``optim: adamw_torch`` /
      ``adamw_torch_fused``);
    - ZeRO-1/2: the fp32 copy of the gradient partition (:data:`STEP_GRADIENT_COPY_BYTES`) over DP;
      ZeRO-3: the same per sub-group of at most :data:`ZERO3_SUB_GROUP_SIZE` parameters;
    - 0 with CPU offload (the step runs on the host), 8-bit or paged optimizers (bitsandbytes updates in
      one fused kernel), the optimizer in the backward pass (one parameter at a time) or SGD.
    """
    if plan.offload or setup.paged_optimizer or setup.optimizer_in_backward or setup.optimizer != "adamw":
        return ZERO
    if plan.zero_stage == 0:  # fused likely, foreach high unless one is stated (estimator.adamw_step)
        return _span(zero0_step(setup, trained))
    partition = trained / plan.dp if plan.zero_stage < 3 else min(trained / plan.dp, ZERO3_SUB_GROUP_SIZE)
    low, likely, high = STEP_GRADIENT_COPY_BYTES  # Span.scaled in place: no frame (s46)
    return _span((low * partition, likely * partition, high * partition))


class Peaks(NamedTuple):
    """Everything of one training step besides the model states, on one GPU (bytes)."""

    buffers: float
    """DeepSpeed's gradient buckets (:func:`zero_buffers`), through forward, backward and step."""
    activations: Span
    """Pipeline stage 1's kept activations (its ``pp`` micro-batches in flight)."""
    loss: Span
    workspace: Span
    gathered: Span
    step: Span
    pp: int = 1
    """Pipeline stages: the loss lives on the last one, which holds one micro-batch in flight (1F1B)
    while stage 1 holds ``pp``; the fuller of the two is the peak."""
    late: float = 0.0
    """Gradient bytes of the states not yet allocated at the loss's peak (:func:`late_gradients`)."""
    generation: tuple[float, float] = (0.0, 0.0)
    """The RL trainer's own generation, (gathered weights, KV cache) (:mod:`estimator.trainer_generation`):
    a peak apart from the forward/backward one, which is at least their sum."""

    def _stages(self, end: int) -> tuple[float, float]:
        """(stage 1, last stage) at one end (0 low, 1 likely, 2 high) of the forward/backward peak."""
        acts, loss, work = self.activations[end], self.loss[end], self.workspace[end]
        if self.pp == 1:
            return acts + max(loss, work), acts + max(loss, work)
        return acts + work, acts / self.pp + max(loss, work)

    def forward_backward(self) -> Span:
        """The forward/backward peak: kept activations + the larger of the loss's tensors and one
        layer's recompute working set (they never coexist) + ZeRO-3's gathered weights; with a pipeline,
        the fuller of stage 1 (all its micro-batches, no loss) and the last stage (one micro-batch and
        the loss)."""
        if self.pp == 1:  # _stages and Span.__add__ in place (s46): the same floats, 1 frame for 6
            _, (a0, a1, a2), (l0, l1, l2), (w0, w1, w2), g = self[:5]  # Peaks' first five fields
            peak = _span((a0 + max(l0, w0) + g[0], a1 + max(l1, w1) + g[1], a2 + max(l2, w2) + g[2]))
        else:
            peak = _span([max(self._stages(end)) for end in range(3)]) + self.gathered
        return peak if peak.low >= (gen := sum(self.generation)) else Span(*(max(x, gen) for x in peak))

    def likely_parts(self) -> dict[str, float]:
        """The likely peak as parts that add up to it: 'activations' and 'logits' (the loss's peak),
        'layer_workspace' (what one layer's recompute needs beyond the loss's peak), 'gathered_weights',
        'optimizer_step' (what the step needs beyond the forward/backward peak), 'zero_buffers'. With a
        pipeline, 'logits' is what the last stage needs beyond stage 1 (0 when stage 1 is fuller).
        Parts that are 0 are left out, except activations and logits. With :attr:`late` gradients, also
        'gradients': those the peak holds (:func:`gradient_credit`), in place of the states' part. When the
        trainer's :attr:`generation` is the peak: its 'gathered_weights' and 'kv_cache', no activations."""
        acts, loss, workspace = self.activations.likely, self.loss.likely, self.workspace.likely
        if self.pp == 1:
            logits, extra = loss, max(0.0, workspace - loss)
        else:
            first, last = self._stages(1)
            logits, extra = max(0.0, last - first), workspace
        shown, gathered, kv = acts, self.gathered.likely, 0.0
        if sum(self.generation) > acts + logits + extra + gathered:  # the trainer's generation is the peak
            (gathered, kv), shown, logits, extra = self.generation, 0.0, 0.0, 0.0
        fwd = shown + logits + extra + gathered + kv
        credit = gradient_credit(self.late, acts, loss, workspace, self.step.likely) if self.late else 0.0
        parts = {
            "gradients": self.late - credit,  # replaces the states' part (estimator.memory._with_transients)
            "zero_buffers": self.buffers,
            "activations": shown,
            "logits": logits,
            "layer_workspace": extra,
            "gathered_weights": gathered,
            "kv_cache": kv,
            "optimizer_step": max(0.0, self.step.likely - fwd),
        }
        keep = ("activations", "logits", "gradients") if self.late > 0 else ("activations", "logits")
        return {k: v for k, v in parts.items() if (v > 0 and k != "gradients") or k in keep}

    def low(self) -> float:
        """Low end: the larger of the two peaks, each at its smallest (what the allocator reports as
        peak allocated, at best), less the :attr:`late` gradients' credit (:func:`gradient_credit`)."""
        acts, loss, work, step = self.activations.low, self.loss.low, self.workspace.low, self.step.low
        credit = gradient_credit(self.late, acts, loss, work, step) if self.late else 0.0  # one stage
        return self.buffers + max(self.forward_backward().low - credit, step)

    def high(self) -> float:
        """High end: both peaks at their largest, added — the caching allocator keeps the blocks the
        forward/backward freed, and the step's temporaries of other sizes may need new ones. No
        :attr:`late` credit: the gradients made in the backward may need blocks of their own too."""
        return self.buffers + self.forward_backward().high + self.step.high


RUNTIME_PARTS = (
    "activations", "logits", "layer_workspace", "gathered_weights", "kv_cache", "optimizer_step", "overhead"
)  # fmt: skip
"""Breakdown parts that are not model states (their band comes from :class:`Peaks`)."""


def peaks(
    spec: ModelSpec,
    params: float,
    setup: TrainingSetup,
    plan: Plan | Layout,
    trained: float,
    facts: ActivationFacts | None = None,
    kept: Span | None = None,
) -> Peaks:
    """The step's peaks for ``plan``; ``trained`` = parameters this GPU's optimizer steps (before ZeRO);
    ``facts``: :func:`activation_facts` of ``spec`` and ``setup`` when the caller has them; ``kept``:
    :func:`kept_activations` of ``plan`` when the caller has it."""
    generates = setup.generation_sequences or setup.generation_step
    return Peaks(
        buffers=zero_buffers(plan),
        activations=kept_activations(spec, setup, plan, facts) if kept is None else kept,
        loss=loss_bytes(spec, setup, plan),
        workspace=layer_workspace(spec, params, setup, plan, facts),
        gathered=gathered_weights(spec, params, setup, plan),
        step=step_bytes(setup, plan, trained),
        pp=plan.pp,
        late=late_gradients(setup, plan, params) if plan.dp == 1 and plan.zero_stage == 0 else 0.0,
        generation=generation_parts(spec, params, setup, plan) if generates else (0.0, 0.0),
    )
