"""What is trained and how (:class:`TrainingSetup`), and a candidate parallel layout (:class:`Layout`).

Shared by the memory formulas (:mod:`estimator.memory`), their band (:mod:`estimator.memory_band`)
and the layout search (:mod:`estimator.plan`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal, NamedTuple

from estimator import built
from estimator.catalog import ModelSpec
from estimator.defaults import LORA_RANK, MICRO_BATCH, SEQ_LEN_FINETUNE
from estimator.models import Algorithm, Method, Plan

Recompute = Literal["none", "selective", "full"]
Optimizer = Literal["adamw", "adamw8bit", "sgd"]


@dataclass(frozen=True)
class TrainingSetup:
    """What is being trained and how (independent of the layout)."""

    method: Method = Method.full
    algorithm: Algorithm = Algorithm.sft
    reference: bool = True
    reward_model: bool = False
    """A reward model trained on comparison pairs (``SizingRequest.reward_model``): each micro-batch row
    puts a chosen and a rejected sequence through the model, as DPO's pairs, and a scalar head scores them
    (no vocabulary logits)."""
    """A preference/RL algorithm's frozen reference model is loaded
    (:func:`estimator.rl_reference.has_reference`: not under TRL's GRPO default beta = 0.0)."""
    seq_len: int = int(SEQ_LEN_FINETUNE.value)
    micro_batch: int = int(MICRO_BATCH.value)
    optimizer: Optimizer = "adamw"
    lora_rank: int = int(LORA_RANK.value)
    offload: bool = False
    master_weights: bool = True
    """False = pure bf16: no fp32 master copy; optimizer states in the weights' dtype
    (:data:`PURE_BF16_OPTIMIZER_BYTES_PER_PARAM`)."""
    grad_bytes: float = 2.0
    """Bytes per trained parameter of the gradients full training keeps
    (:func:`estimator.memory.model_state_bytes`): 2 (bf16/fp16), or 4 where Megatron-LM / NeMo train in
    bf16 with fp32 master weights: with ``--bf16`` Megatron sets ``accumulate_allreduce_grads_in_fp32`` and
    its DDP wrapper keeps an fp32 ``main_grad`` buffer for every parameter from construction
    (megatron/training/arguments.py; megatron/core/distributed/distributed_data_parallel.py) — Megatron's
    own count, docs/source/api-guide/dist_optimizer.md: "float16 param, fp32 grads" 18 bytes a parameter
    without the distributed optimizer, 6 + 12/d with it (s37); fp32 params 4 (s37-rev)."""
    state_extra: tuple[float, float] = (0.0, 0.0)
    """Bytes a trained parameter added to the weights' 2 and to the optimizer's K where Megatron-LM / NeMo
    count otherwise (dist_optimizer.md's table): fp16 with fp16 gradients (0, 4) — its optimizer owns an fp32
    main-grad copy beside the fp32 main params, 20 bytes, 4 + 16/d distributed; fp32 params (2, -4) — the
    weights are fp32 and no master copy is kept, 16 bytes, 8 + 8/d. (0, 0) everywhere else."""
    optimizer_in_backward: bool = False
    """The optimizer steps each parameter as soon as its gradient is ready and frees that gradient
    (torchtune ``optimizer_in_bwd``; PyTorch ``register_post_accumulate_grad_hook``): only the
    largest parameter's gradient is resident (:func:`largest_param`)."""
    adamw_impl: Literal["foreach", "fused"] | None = None
    """AdamW's implementation when stated (:attr:`estimator.request_optimizer.OptimizerStep.optimizer_impl`):
    'foreach' keeps a copy of the second moments during the step, 'fused' none; None: fused likely,
    foreach at the high end (:func:`estimator.transients.step_bytes`)."""
    paged_optimizer: bool = False
    """Optimizer states in CUDA unified memory (bitsandbytes ``Paged*`` optimizers; bitsandbytes docs:
    "transfer memory from the GPU to the CPU when GPU memory is exhausted"): counted as 0 bytes on the
    GPU — they never cause an OOM — except the 8-bit states' absmax, which stays on the GPU
    (:func:`optimizer_bytes_per_param`)."""
    zero3_max_live_parameters: float = 1e9
    """DeepSpeed ``stage3_max_live_parameters`` (elements): the user's, else the default 1e9
    (:data:`estimator.transients.ZERO3_MAX_LIVE_PARAMETERS`, deepspeed/runtime/zero/config.py)."""
    chunked_loss: bool = False
    """Cross-entropy upcast one chunk at a time (:data:`LOSS_CHUNKS`): no full fp32 logits copy."""
    eager_attention: bool = False
    """The user's attention is eager (``attn_implementation="eager"``, LLaMA-Factory ``flash_attn: disabled``,
    axolotl ``eager_attention``, 'flash attention off'): each layer keeps its b × heads × s × s scores
    (:mod:`estimator.attention_scores`); False: FlashAttention / SDPA, no scores stored."""
    optim_by_name: bool = True
    """The tool picks its optimizer by a transformers ``optim`` name (no tool named: the HF Trainer's;
    :attr:`estimator.training_tools.ToolLimits.optim_by_name`) and the user named no optimizer other than
    AdamW (``SizingRequest.optimizer_other``: 'optim adafactor' is theirs, never swapped): the fit-change
    search may offer one."""
    megatron_layers: bool = False
    """The training tool runs Megatron-LM's own layers (Megatron-LM, NeMo and the tools built on them,
    :attr:`estimator.training_tools.ToolLimits.megatron_layers`): Korthikanti's activation count at every
    layout. False (the HF Trainer, LLaMA-Factory, TRL, axolotl, Unsloth, no tool named): the model's own
    PyTorch code, whose count without recompute on a data-parallel layout is
    :func:`estimator.eager_activations.eager_layer_bytes`
    (:func:`estimator.eager_activations.eager_layers`)."""
    tool_recompute: bool = False
    """The named tool turns gradient checkpointing on by default and the user set nothing
    (:attr:`estimator.training_tools.ToolLimits.default_recompute`): the recommended count may keep full
    recompute on NVLink cards too (:func:`estimator.plan.recommended`), as the tool runs it."""
    checkpointing_only: bool = False
    """The named tool runs the model's Hugging Face code on data parallelism only (every tool of
    :data:`estimator.training_tools.TRAINING_TOOL_LIMITS` but Megatron-LM and NeMo, and no stated TP or PP):
    its activation recompute is gradient checkpointing, off or on for every layer — the search sizes
    'none' and 'full', never Megatron's 'selective' (:data:`estimator.layouts.CHECKPOINTING_ORDER`)."""
    offloaded_checkpoints: bool = False
    """Full recompute whose saved layer inputs go to CPU memory (Unsloth's gradient checkpointing,
    :attr:`estimator.training_tools.ToolLimits.offloads_checkpoints`): two layers' inputs on the GPU."""
    lora_targets: tuple[str, ...] | None = None
    """Modules LoRA adapts, as named in the model code ('q_proj', 'v_proj', …); None = all linear
    layers (PEFT ``target_modules="all-linear"``). :func:`estimator.memory.lora_params`."""
    base_bits: float | None = None
    """Bits per weight of a quantized frozen base (QLoRA: NF4 4.127 by default; 8, 3 or 2 bits when
    stated: :data:`estimator.memory.QUANTIZED_BASE_BITS`)."""
    reference_copy: bool = False
    """The frozen reference model is a whole copy of the base even under LoRA/QLoRA, at :attr:`frozen_bytes`
    a weight (``SizingRequest.reference_copy``: DeepSpeed-Chat step 3, dschat/rlhf/rlhf_engine.py
    ``_init_ref``); False: with adapters the reference is the base with them switched off, no copy."""
    critic: tuple[float | None, int] | None = None
    """DeepSpeed-Chat step 3's critic, a model of its own (:mod:`estimator.dschat_critic`): (its parameters,
    None for the actor's; its ``--critic_lora_dim``, 0 = trained in full); None: PPO's critic as the
    actor's."""
    frozen_bytes: float = 2.0
    """Bytes per weight of a frozen, unquantized base (LoRA, P-tuning, freeze-tuning): 2 (bf16/fp16), or 4
    where the run loads it in fp32 — stated, or a script calling ``from_pretrained`` with no ``torch_dtype``,
    which transformers before v5 loads in ``torch.get_default_dtype()``, float32 (transformers
    modeling_utils.py ``PreTrainedModel.from_pretrained``, v4.46 docstring: "torch_dtype … if not specified
    the model will get loaded in torch.float (fp32)"). :func:`estimator.memory._frozen_base`."""
    activation_bytes: float = 2.0
    """Bytes per element of the activations a layer keeps: 2 (bf16/fp16 autocast, the count Korthikanti et
    al. 2022 §4.1 make: "the activations ... stored in 16-bit floating point format", 2 bytes), 4 in an fp32
    run (the precision stated fp32: no autocast, every saved tensor in float32; s34 trial #8). It scales
    :func:`estimator.transients.kept_activations`."""
    zero_stage: int | None = None
    """A ZeRO stage the user chose: the layout search keeps it (None = the search chooses)."""
    tp: int | None = None
    """A tensor-parallel degree the user chose (None = the search chooses)."""
    pp: int | None = None
    """A pipeline-parallel degree the user chose (None = the search chooses)."""
    ep: int | None = None
    """An expert-parallel degree the user chose for MoE full training, checked usable
    (:func:`estimator.expert_parallel.stated_ep`): the only EP the search tries (None = the search
    chooses)."""
    recompute: Recompute | None = None
    """A recompute mode the user chose (None = the search chooses: selective, then full)."""
    data_parallel_only: bool = False
    """The user's training tool runs data parallelism only (DDP, ZeRO, FSDP; no TP, PP or EP:
    :data:`estimator.training_tools.TRAINING_TOOL_LIMITS`)."""
    data_parallel_first: bool = False
    """A full fine-tune with no Megatron-family tool named and no TP or PP stated: the stacks people
    fine-tune with (the HF Trainer, LLaMA-Factory, TRL, DeepSpeed) run data parallelism — DDP, ZeRO, FSDP;
    LLaMA-Factory and the HF Trainer have no TP or PP of their own, and DeepSpeed's AutoTP training
    tutorial (deepspeed.ai/tutorials/autotp-training) pairs TP with ZeRO stages 0–2. So a data-parallel
    layout (ZeRO-3/FSDP, gradient checkpointing included) that fits comes before any TP or PP layout,
    left for a count where none fits and run with Megatron-LM or NeMo
    (:func:`estimator.layouts.plan_preference`)."""
    shards_model: bool = True
    """False: the user's tool never shards the model (Unsloth,
    :attr:`estimator.training_tools.ToolLimits.shards_model`, no stage stated): ZeRO-3 is another stack's
    ('sharding_stack' in the alternatives and the changes), not a setting of theirs."""
    freeze_layers: int = 2
    """Freeze-tuning: the last layers that train (LLaMA-Factory ``freeze_trainable_layers`` default 2)."""
    prefix_tokens: int = 128
    """P-tuning v2: prefix length (ChatGLM-6B ptuning README ``PRE_SEQ_LEN=128``)."""
    lora_dropout: float = 0.0
    """LoRA dropout probability (PEFT ``LoraConfig.lora_dropout`` default 0.0, LLaMA-Factory's too);
    above 0 every adapted input keeps a dropout mask (:mod:`estimator.transients`)."""
    generation_sequences: float = 0.0
    """Sequences each GPU generates at once when the RL trainer itself generates its rollouts (TRL or
    ms-swift with no rollout engine) when fixed by the stated batch or the tool's defaults
    (:func:`estimator.trainer_generation.generation_batch`); 0: see :attr:`generation_step`."""
    generation_step: float = 0.0
    """A stated global batch (sequences) that generation spreads over the plan's data-parallel ranks
    (:func:`estimator.trainer_generation.sequences_per_rank`); 0 with a fixed count or no generation."""
    generation_context: int = 0
    """Tokens per generated sequence, the rollout's prompt + completion (stated, else the tool's defaults:
    :func:`estimator.rollout.rollout_lengths`); 0: the sequence length."""
    gather_for_generation: bool = True
    """Under ZeRO-3 that generation gathers the whole policy first (TRL/ms-swift
    ``ds3_gather_for_generation``, default True); False: it runs on the partitions
    (:mod:`estimator.trainer_generation`)."""
    step_sequences: int = 0
    """Sequences per optimizer step of the plan, stated or assumed (:func:`estimator.training_setup.
    _global_batch`: the configs ship its accumulation, so the memory holds it: s35 fixe #1); 0: not full
    training. With :attr:`accumulation`: one process accumulates gradients over micro-batches
    (:func:`estimator.late_gradients.accumulates`)."""
    accumulation: int = 0
    """A stated gradient accumulation with no stated global batch (used as stated,
    :func:`estimator.plan_batch.with_batch`); 0: from :attr:`step_sequences`."""
    fp32_loss: bool = True
    """The cross-entropy runs in fp32 (transformers ≥ 4.46 upcasts the logits; autocast upcasts
    ``cross_entropy``). False: the model's own code computes it in 16-bit without autocast (Qwen-v1's
    remote code under DeepSpeed fp16/bf16)."""


class Layout(NamedTuple):
    """A candidate layout during the search (a light tuple; the result becomes a :class:`Plan`)."""

    tp: int
    pp: int
    dp: int
    zero_stage: int
    recompute: str
    micro_batch: int
    offload: bool
    ep: int = 1

    def to_plan(self) -> Plan:
        return built.plan(self)  # Plan(**self._asdict()), built without validating again


new_layout: Callable[[Iterable[object]], Layout] = partial(tuple.__new__, Layout)
"""``new_layout((tp, pp, dp, zero_stage, recompute, micro_batch, offload, ep))``, all eight fields: a
:class:`Layout` without the Python call of the NamedTuple's ``__new__`` (for the search's hot paths)."""


_FREEZE = Method.freeze  # read once: Python 3.11's EnumType.__getattr__ slows `Method.freeze`


def activation_layers(spec: ModelSpec, setup: TrainingSetup, pp: int, recompute: str | None = None) -> int:
    """Layers of pipeline stage 1 that keep activations for the backward pass: all of them, except in
    freeze-tuning without gradient checkpointing, where the backward pass stops at the first trained
    layer. With checkpointing (``recompute`` 'full'), Hugging Face models make the embedding output
    require gradients (``enable_input_require_grads``, which LLaMA-Factory calls with reentrant
    checkpointing: llamafactory/model/model_utils/checkpointing.py), so every layer keeps its input and
    the backward runs through the frozen layers too."""
    per_stage = math.ceil(spec.layers / pp)
    if setup.method == _FREEZE and (recompute or setup.recompute) != "full":
        return min(per_stage, setup.freeze_layers)
    return per_stage


def critic_of(req: Any) -> tuple[float | None, int] | None:
    """:attr:`TrainingSetup.critic` of a request: DeepSpeed-Chat step 3 (its reference copy read, or its
    critic's size or ``--critic_lora_dim`` stated; s49 leftovers #3), else None."""
    if not (req.reference_copy or req.critic_params or req.critic_lora_dim is not None):
        return None
    return req.critic_params, req.critic_lora_dim or 0
