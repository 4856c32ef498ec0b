"""What a training job trains and how (:class:`estimator.setup.TrainingSetup`), from the request: each
setting as the user stated it, else a default the ledger records. Split from :mod:`estimator.training`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from estimator import defaults
from estimator.adapter_offload import sized_offload
from estimator.catalog import ModelSpec
from estimator.checkpoint import checkpoint_bytes
from estimator.later import later
from estimator.ledger import Ledger, beyond_window
from estimator.memory import LORA_ALL_LINEAR
from estimator.model_states import QUANTIZED_BASE_BITS
from estimator.models import (
    Algorithm,
    Checkpoint,
    Method,
    OptimizerChoice,
    Precision,
    Recompute,
    SizingRequest,
    Stage,
)
from estimator.reasons import Why, Word
from estimator.rl_defaults import OWN_LENGTH_TOOLS
from estimator.rl_reference import has_reference
from estimator.rollout import RL_ALGORITHMS, VERL_TRAIN_BATCH_SIZE, rollout_lengths, sequences_per_prompt
from estimator.setup import TrainingSetup, critic_of
from estimator.trainer_generation import PER_DEVICE_DEFAULT, generation_batch
from estimator.training_tools import ToolLimits, quantization_key, tool_limits
from estimator.transients import ZERO3_MAX_LIVE_PARAMETERS

# imported on first call (s43-speed: a plain question calls none of them)
(samples_at_cap,) = later("estimator.sample_padding", "samples_at_cap")
(generates_in_trainer,) = later(
    "estimator.trainer_decode", "generates_in_trainer"
)  # on first call: a plain `ask` never calls it (s48-startup)

QUANTIZED_PRECISION_BITS: dict[Precision | None, int] = {
    Precision.int8: 8,
    Precision.int4: 4,
    Precision.int3: 3,
    Precision.int2: 2,
}
"""The bit width a quantized-base precision names (QLoRA's base, LLaMA-Factory ``quantization_bit``)."""


def _seq_len(req: SizingRequest, stage: Stage, spec: ModelSpec | None = None) -> int:
    """The training sequence length (recorded by :func:`_setup`): the user's; in fine-tuning on samples
    of a stated length ('10万条数据每条1k token'), that length, one sample per sequence; else the
    stage's default — for SFT samples or DPO pairs on a bare count the longest sequence a micro-batch
    holds (:func:`_sft_at_sample_tokens`; a pair's chosen and rejected each up to it).
    Pre-training packs documents into sequences, so a document length is not one. With ``spec``: never
    longer than the model runs unless stated (:func:`_native_context`)."""
    if req.seq_len:
        return int(req.seq_len)
    if stage == Stage.finetune and req.tokens_per_sample and req.num_samples and not _packed_short(req):
        seq = int(req.tokens_per_sample)
    elif trl_rl_lengths(req, stage):
        seq = sum(rollout_lengths(req))
    else:
        seq = int((defaults.SEQ_LEN_FINETUNE if stage == Stage.finetune else defaults.SEQ_LEN_PRETRAIN).value)
    return (_native_context(req, spec, seq) or seq) if spec is not None else seq


def _packed_short(req: SizingRequest) -> bool:
    """Packing on and samples shorter than the default SFT sequence (trial s43 q02: 800-token samples
    packed were sized as 800-token sequences): the samples are joined into full sequences of
    :data:`estimator.defaults.SEQ_LEN_FINETUNE` (LLaMA-Factory ``cutoff_len`` default 2,048,
    src/llamafactory/hparams/data_args.py), so a sequence is that long, not one sample."""
    return bool(req.packing) and (req.tokens_per_sample or 0) < defaults.SEQ_LEN_FINETUNE.value


def trl_rl_lengths(req: SizingRequest, stage: Stage) -> bool:
    """TRL's GRPO/RLOO with no sequence length stated: each trained sequence is a prompt and its
    completion, at most TRL's ``max_prompt_length`` 512 + ``max_completion_length`` 256 (or the stated
    completion; :func:`estimator.rollout.rollout_lengths`; trl/trainer/grpo_config.py
    @35def3e), not the SFT default (s27-fix2: activations at 2,048 beside a 768-token generation KV)."""
    rl = req.algorithm in (Algorithm.grpo, Algorithm.rloo)
    return rl and stage == Stage.finetune and req.training_tool in OWN_LENGTH_TOOLS and not req.seq_len


TRL_CONFIG_TOOLS = frozenset({"TRL", "Unsloth"})
"""Trainers configured by TRL's ``GRPOConfig``: TRL, and Unsloth, whose GRPO is TRL's ``GRPOTrainer``
patched in place (unsloth/models/rl.py ``patch_trl_rl_trainers``; trial s29 #2): their lengths default
to TRL's."""


def _native_context(req: SizingRequest, spec: ModelSpec, seq: int) -> int | None:
    """The catalog model's own context (``max_context``: config.json ``max_position_embeddings`` /
    ``n_positions``, GPT-2 1,024, OPT 2,048) when the default sequence would exceed it: a learned position
    table has no row beyond it, so its pre-training and fine-tuning ran at most that long (s24 review #8:
    GPT-2 was sized at 4K). None when the user set the length or the default fits."""
    if req.seq_len or not spec.max_context or seq <= spec.max_context or _from_samples(req, seq):
        return None
    return int(spec.max_context)


def _from_samples(req: SizingRequest, seq: int) -> bool:
    """The sequence is the user's stated sample length ('10k samples of 2k tokens each'): theirs, never
    capped by the model's context — a length past it is said (:func:`_length_stated`; s24 review #5)."""
    return bool(req.num_samples) and seq == req.tokens_per_sample


def _length_stated(req: SizingRequest, stage: Stage, seq: int) -> bool:
    """A fine-tuning length the user gave — the sequence length, or the samples' length the sequences
    take: one past the model's window is noted (estimator.ledger.beyond_window)."""
    return stage != Stage.pretrain and (bool(req.seq_len) or _from_samples(req, seq))


def _at_sample_tokens(req: SizingRequest, stage: Stage) -> bool:
    """Fine-tuning (SFT, or DPO on preference pairs) on a count of samples with no length and no token
    count: the token count is samples × :data:`estimator.defaults.TOKENS_PER_SAMPLE` (512), the
    AVERAGE sample (``estimator.training._training_tokens``: samples × 512, pairs × 2 × 512); the
    memory is sized at the longest sequence (:func:`_sft_at_sample_tokens`). RL counts prompts, whose
    rollouts have their own lengths."""
    return bool(
        stage == Stage.finetune
        and req.num_samples
        and not req.tokens
        and not req.tokens_per_sample
        and req.algorithm in (None, Algorithm.sft, Algorithm.dpo)
        and (req.algorithm != Algorithm.dpo or req.samples_are_pairs)
    )


def _sft_at_sample_tokens(req: SizingRequest, stage: Stage) -> bool:
    """SFT samples or DPO pairs on a bare count (:func:`_at_sample_tokens`): the time reads the average
    sample (512 tokens × samples; pairs × 2 × 512), the memory the LONGEST sequence a micro-batch holds
    — the typical SFT max length :data:`estimator.defaults.SEQ_LEN_FINETUNE` (2,048; a pair's chosen
    and rejected each up to it, TRL ``DPOConfig.max_length`` cuts each), since trainers pad or cut each
    sample to a max length (LLaMA-Factory ``cutoff_len``, TRL ``SFTConfig.max_length`` default 1,024)
    and a memory sized at the average says "fits" for runs whose long samples OOM (s11 review 9)."""
    return _at_sample_tokens(req, stage) and not req.seq_len


def sample_tokens(req: SizingRequest, stage: Stage) -> int | None:
    """Average tokens per sequence when it differs from the sequence length (SFT on a bare sample
    count: :data:`estimator.defaults.TOKENS_PER_SAMPLE`), for the tokens per step and the step time;
    None when the sequence length is the average too."""
    return int(defaults.TOKENS_PER_SAMPLE.value) if _sft_at_sample_tokens(req, stage) else None


def assume_tokens_per_sample(req: SizingRequest, stage: Stage, ledger: Ledger) -> float:
    """The assumed tokens per sample (:data:`estimator.defaults.TOKENS_PER_SAMPLE`), into ``ledger``:
    for SFT on a bare count said as the average the time uses, next to the longest sequence the memory
    uses ("time: 20K samples × 512 tokens …; memory: sequences up to 2,048 tokens"). GRPO/RLOO on TRL's
    defaults (:func:`trl_rl_lengths`): each completion's sequence, prompt + completion (trial s29 #2)."""
    if trl_rl_lengths(req, stage):
        prompt, completion = rollout_lengths(req)
        why = OWN_LENGTH_TOOLS[req.training_tool or "TRL"]
        return ledger.assume(
            "tokens_per_sample", prompt + completion, why, prompt=prompt, completion=completion
        )
    d = defaults.TOKENS_PER_SAMPLE
    if not _sft_at_sample_tokens(req, stage):
        return ledger.assume("tokens_per_sample", d.value, d.why)
    longest = int(defaults.SEQ_LEN_FINETUNE.value)
    params = {"num_samples": req.num_samples, "tokens_per_sample": int(d.value), "length": longest}
    pairs = req.algorithm == Algorithm.dpo or bool(req.reward_model and req.samples_are_pairs)
    why = Why.tokens_per_pair_time if pairs else Why.tokens_per_sample_time
    return ledger.assume("tokens_per_sample", d.value, why, **params)


def _sample_length_why(req: SizingRequest, stage: Stage) -> Why | None:
    """The ledger's reason for the sequence length on a bare sample count (:func:`_at_sample_tokens`):
    the longest sequence (DPO: chosen and rejected each); None when the stage default applies."""
    if not _at_sample_tokens(req, stage):
        return None
    pairs = req.algorithm == Algorithm.dpo or bool(req.reward_model and req.samples_are_pairs)
    return Why.seq_max_for_pairs if pairs else Why.seq_max_for_samples


class SetupParts(NamedTuple):
    """What :func:`training_setup` settles: the setup and the report fields that come with it."""

    setup: TrainingSetup
    seq_len: int
    batch_size: int
    global_batch: int
    """target sequences per optimizer step (the user's, or the stage's default)"""
    checkpoint: Checkpoint
    sample_tokens: int | None = None
    """average tokens per sequence when below ``seq_len`` (:func:`sample_tokens`), else None"""


EIGHT_BIT = (OptimizerChoice.adamw_8bit, OptimizerChoice.paged_adamw_8bit)
"""The optimizers the user names that keep bitsandbytes' 8-bit AdamW states (``adamw8bit``)."""


_CHECKPOINTED = (None, Recompute.full)
"""Recompute settings under which a tool's own gradient checkpointing runs (offloaded_checkpoints)."""


def training_setup(
    req: SizingRequest,
    stage: Stage,
    spec: ModelSpec,
    params: float,
    method: Method,
    algorithm: Algorithm,
    ledger: Ledger,
) -> SetupParts:
    """What is trained and how (sequence, micro-batch, LoRA rank and targets, quantized base, ZeRO
    stage, recompute, optimizer), each as the user stated it, else a recorded default."""
    seq = _seq_len(req, stage)
    beyond_window(spec, seq, ledger, stated=_length_stated(req, stage, seq))
    native = _native_context(req, spec, seq)
    if not req.seq_len:  # "10万条数据每条1k token": sequences of that length (fine-tuning)
        seq = _assume_seq_len(req, stage, spec, seq, native, ledger)
    micro = defaults.MICRO_BATCH
    mb = req.batch_size or int(ledger.assume("micro_batch", micro.value, micro.why))
    adapters = method in (Method.lora, Method.qlora)
    rank = req.lora_rank or int(defaults.LORA_RANK.value)
    if adapters and req.lora_rank is None:
        ledger.assume("lora_rank", rank, defaults.LORA_RANK.why)
    if adapters and not req.lora_targets:
        ledger.assume("lora_targets", LORA_ALL_LINEAR, defaults.LORA_TARGETS.why)
    freeze_layers = req.freeze_layers or int(defaults.FREEZE_LAYERS.value)
    if method == Method.freeze and req.freeze_layers is None:
        ledger.assume("freeze_layers", freeze_layers, defaults.FREEZE_LAYERS.why)
    prefix = req.prefix_tokens or int(defaults.PREFIX_TOKENS.value)
    if method == Method.ptuning and req.prefix_tokens is None:
        ledger.assume("prefix_tokens", prefix, defaults.PREFIX_TOKENS.why)
    if req.recompute == Recompute.none:
        ledger.assume("recompute", Recompute.none.value, Why.recompute_flash)
    if req.optimizer is None:
        ledger.assume("optimizer", _optimizer_word(method, req.pure_bf16).value, Why.optimizer)
    tpu = (req.gpu or "").startswith("TPU")  # no CUDA context: its runtime's reserve said so (trial s30 #1)
    overhead_why = Why.runtime_overhead_tpu if tpu else Why.runtime_overhead
    ledger.assume("overhead", Word.context_and_fragmentation.value, overhead_why)
    global_batch = _global_batch(req, stage, seq, ledger)
    limits, dp_only = tool_limits(req.training_tool), _data_parallel_only(req, method)
    zero = _default_zero(req, limits, dp_only, ledger)
    setup = TrainingSetup(
        method=method,
        **{"algorithm": algorithm, "reference": algorithm == "sft" or has_reference(req, algorithm)},
        **{"reward_model": bool(req.reward_model), "reference_copy": bool(req.reference_copy)},  # s48
        critic=critic_of(req),  # s49: DeepSpeed-Chat's critic, its own model
        **{"seq_len": seq, "micro_batch": mb},
        lora_rank=rank,
        lora_targets=tuple(req.lora_targets) if req.lora_targets else None,
        base_bits=_base_bits(req, method, ledger),
        frozen_bytes=4.0 if req.precision == "fp32" and method != Method.full else 2.0,  # the base as loaded
        offload=sized_offload(method, req.offload, req.zero_stage, req.offload_params),
        activation_bytes=4.0 if req.precision == "fp32" else 2.0,  # an fp32 run keeps fp32 activations
        master_weights=not req.pure_bf16,
        zero_stage=zero,
        recompute=req.recompute.value if req.recompute else None,  # type: ignore[arg-type]
        megatron_layers=bool(limits and limits.megatron_layers),  # Korthikanti's count, not HF eager
        **(megatron_state_bytes(req, method) if limits and limits.megatron_layers else {}),
        tool_recompute=req.recompute is None and _tool_recompute(limits, req, ledger) is not None,
        checkpointing_only=bool(limits and not limits.megatron_layers) and dp_only,
        freeze_layers=freeze_layers,
        prefix_tokens=prefix,
        optimizer="adamw8bit" if req.optimizer in EIGHT_BIT else "adamw",
        paged_optimizer=req.optimizer == OptimizerChoice.paged_adamw_8bit,
        adamw_impl=req.optimizer_impl,
        tp=req.tp if _layout_possible(req) else None,
        pp=req.pp if _layout_possible(req) else None,
        **_data_parallel(req, stage, method, limits, dp_only),
        shards_model=not (limits and not limits.shards_model and req.zero_stage is None and dp_only),
        chunked_loss=bool(req.chunked_loss) or bool(limits and limits.chunked_loss),  # Liger / Unsloth
        eager_attention=req.attention_implementation == "eager",  # s×s scores (attention_scores)
        optim_by_name=(limits is None or limits.optim_by_name) and req.optimizer_other is None,
        zero3_max_live_parameters=req.zero3_max_live_parameters or ZERO3_MAX_LIVE_PARAMETERS,
        offloaded_checkpoints=bool(limits and limits.offloads_checkpoints and req.recompute in _CHECKPOINTED),
        **trainer_generation(req, ledger),
        gather_for_generation=req.ds3_gather_for_generation is not False,
        step_sequences=global_batch if method == Method.full else 0,  # the plan's step (s35 fixe #1)
        accumulation=0 if req.global_batch or method != Method.full else (req.gradient_accumulation or 0),
    )
    checkpoint = checkpoint_bytes(spec, params, setup := _with_ep(setup, spec, req))  # s48: a stated EP
    return SetupParts(setup, seq, mb, global_batch, checkpoint, sample_tokens(req, stage))


def _with_ep(setup: TrainingSetup, spec: ModelSpec, req: SizingRequest) -> TrainingSetup:
    """``setup`` with the stated expert-parallel degree where usable
    (:func:`estimator.expert_parallel.stated_ep` over the routed experts the plan may split,
    :func:`estimator.layouts._ep_experts`); else unchanged (the interpretation names why:
    bot.core.unused_local.unused_ep)."""
    if not req.expert_parallel:
        return setup
    from dataclasses import replace

    from estimator.expert_parallel import stated_ep
    from estimator.layouts import _ep_experts

    ep, _ = stated_ep(req.expert_parallel, _ep_experts(spec, setup), req.gpu_count)
    return replace(setup, ep=ep) if ep else setup


def _assume_seq_len(
    req: SizingRequest, stage: Stage, spec: ModelSpec, seq: int, native: int | None, ledger: Ledger
) -> int:
    """The unstated sequence length recorded with its reason: the stated sample length, TRL's RL prompt
    + completion (:func:`trl_rl_lengths`), the model's own context when shorter (``native``), else the
    stage's default; returns the length used."""
    seq_default = defaults.SEQ_LEN_FINETUNE if stage == Stage.finetune else defaults.SEQ_LEN_PRETRAIN
    from_samples = stage == Stage.finetune and req.tokens_per_sample and req.num_samples
    why = _sample_length_why(req, stage) or seq_default.why
    average = sample_tokens(req, stage)
    why_params: dict = {"tokens_per_sample": average} if average else {}
    if not from_samples and trl_rl_lengths(req, stage):
        prompt, completion = rollout_lengths(req)
        why, why_params = (
            OWN_LENGTH_TOOLS[req.training_tool or "TRL"],
            {"prompt": prompt, "completion": completion},
        )
    if native is not None:  # GPT-2's 1,024, OPT's 2,048: not a default longer than the model runs
        seq, from_samples, why = native, False, Why.seq_len_model_context
        why_params = {"model": spec.name}
    if from_samples and seq != req.tokens_per_sample:  # packed into full default-length sequences
        from_samples, why, why_params = (
            False,
            Why.seq_packed_default,
            {"tokens_per_sample": req.tokens_per_sample},
        )
    ledger.assume("seq_len", seq, Why.seq_from_samples if from_samples else why, **why_params)
    return seq


def trainer_generation(req: SizingRequest, ledger: Ledger) -> dict[str, float]:
    """The :class:`TrainingSetup` fields of the RL trainer's own generation
    (:mod:`estimator.trainer_generation`: TRL or ms-swift named, an RL algorithm, no rollout engine —
    ``use_vllm`` False, their default — nor any of its settings): the local generation batch
    (:func:`estimator.trainer_generation.generation_batch`: fixed per GPU, or a stated global batch the
    plan's data-parallel ranks share) and the tokens of each sequence
    (:func:`estimator.rollout.rollout_lengths`: stated, else the tool's prompt + completion). Each default
    is said with its source. Empty for any other run."""
    if req.algorithm not in RL_ALGORITHMS or not generates_in_trainer(req):
        return {}
    batch = generation_batch(req)
    prompt, completion = rollout_lengths(req)
    if batch.assumed:
        steps = req.gradient_accumulation or 1
        why, tool = Why.trainer_generation_batch, req.training_tool or "TRL"
        ledger.assume("rollout_completions_per_gpu", int(batch.per_rank), why, tool=tool, steps=steps)
    context = prompt + completion
    if not req.seq_len and not req.max_completion_length:
        why = Why.trainer_generation_context
        ledger.assume("generation_context", context, why, prompt=prompt, completion=completion)
    return {
        "generation_sequences": batch.per_rank,
        "generation_step": batch.step,
        "generation_context": context,
    }


def _default_zero(req: SizingRequest, limits: ToolLimits | None, dp_only: bool, ledger: Ledger) -> int | None:
    """The user's ZeRO stage, else the named tool's own when it runs data parallel only
    (:attr:`estimator.training_tools.ToolLimits.default_zero`: verl's FSDP workers, 3), or 0 for a tool
    that never shards the model (:attr:`~estimator.training_tools.ToolLimits.shards_model`: Unsloth),
    assumed and said; None: the search chooses."""
    if req.zero_stage is not None or limits is None or not dp_only:
        return req.zero_stage
    if not limits.shards_model and not req.offload:  # Unsloth: a whole model on each GPU (s34)
        return int(ledger.assume("zero_stage", 0, Why.tool_no_sharding, tool=req.training_tool))
    if limits.default_zero is None:
        return None
    return int(
        ledger.assume("zero_stage", limits.default_zero, Why.tool_default_zero, tool=req.training_tool)
    )


def megatron_state_bytes(req: SizingRequest, method: Method) -> dict[str, Any]:
    """Full training's state bytes under Megatron-LM / NeMo (:attr:`TrainingSetup.grad_bytes`,
    :attr:`~TrainingSetup.state_extra`), as its docs/source/api-guide/dist_optimizer.md counts them a
    parameter (non-distributed | distributed over d): "float16 param, float16 grads" 20 | 4 + 16/d — fp16
    stated or a card without bf16 (V100, T4: ``--fp16``), the optimizer's fp32 main grads beside its main
    params; "float16 param, fp32 grads" 18 | 6 + 12/d — bf16, where megatron/training/arguments.py sets
    ``accumulate_allreduce_grads_in_fp32`` ("bfloat16 requires gradient accumulation and all-reduce to be done
    in fp32"); "fp32 param, fp32 grads" 16 | 8 + 8/d — fp32 stated. Pure bf16, adapters: the defaults."""
    if method != Method.full or req.pure_bf16:
        return {}
    if req.precision == "fp32":
        return {"grad_bytes": 4.0, "state_extra": (2.0, -4.0)}
    from estimator.catalog import gpus  # lazily: only a Megatron answer asks

    card = gpus().get(req.gpu or "")
    fp16 = req.precision == "fp16" or not (card is None or card.has_bf16)
    return {"grad_bytes": 2.0, "state_extra": (0.0, 4.0)} if fp16 else {"grad_bytes": 4.0}


def _tool_recompute(limits: ToolLimits | None, req: SizingRequest, ledger: Ledger) -> str | None:
    """The named tool's own activation recomputation when the user set none
    (:attr:`estimator.training_tools.ToolLimits.default_recompute`: LLaMA-Factory, verl, Unsloth turn
    gradient checkpointing on), assumed and said; None: the search chooses (trial s20 q22, q05)."""
    if limits is None or limits.default_recompute is None:
        return None
    why = Why.tool_default_recompute
    return str(ledger.assume("recompute", limits.default_recompute, why, tool=req.training_tool))


def _data_parallel_only(req: SizingRequest, method: Method) -> bool:
    """The user's training tool runs data parallelism only (:mod:`estimator.training_tools`), and no
    TP or PP above 1 was stated (a stated layout is kept as given). QLoRA with no tool named keeps to
    data parallelism too: its 4-bit bitsandbytes base runs under DDP, DeepSpeed ZeRO or FSDP (PEFT,
    TRL, LLaMA-Factory, axolotl; Answer.AI fsdp_qlora, answerdotai/fsdp_qlora README "FSDP + QLoRA")
    or on one GPU, never under Megatron-LM tensor parallelism (trial s24 #13: TP 2 on 2 × RTX 3090)."""
    limits = tool_limits(req.training_tool)
    stated_split = (req.tp or 1) > 1 or (req.pp or 1) > 1
    qlora_unnamed = method == Method.qlora and not req.training_tool
    return bool(qlora_unnamed or (limits and limits.data_parallel_only)) and not stated_split


def _data_parallel(req: SizingRequest, stage: Stage, method: Method, limits, dp_only: bool) -> dict:
    """:attr:`estimator.setup.TrainingSetup.data_parallel_only` (``dp_only``) and ``data_parallel_first``:
    a full fine-tune, no Megatron-family tool named, no TP or PP stated and no data-parallel-only tool
    (that one searches no TP at all)."""
    stated = req.tp is not None or req.pp is not None
    megatron = bool(limits and limits.megatron_layers)
    first = stage == Stage.finetune and method == Method.full and not (stated or megatron or dp_only)
    return {"data_parallel_only": dp_only, "data_parallel_first": first}


def _layout_possible(req: SizingRequest) -> bool:
    """A stated TP × PP fits within the user's GPUs (else the search chooses; the interpretation says)."""
    return not req.gpu_count or (req.tp or 1) * (req.pp or 1) <= req.gpu_count


def _optimizer_word(method: Method, pure_bf16: bool | None) -> Word:
    """How the trained parameters are optimized, as the ledger words it."""
    if pure_bf16:
        return Word.adamw_pure_bf16
    if method in (Method.freeze, Method.ptuning):
        return Word.adamw_fp32_trainable
    return Word.adamw if method == Method.full else Word.adamw_adapters


def _base_bits(req: SizingRequest, method: Method, ledger: Ledger) -> float | None:
    """Bits per weight of a quantized frozen base: QLoRA (NF4 unless 8, 3 or 2 bits are stated), or
    LoRA / P-tuning over a base the user quantized (LLaMA-Factory ``quantization_bit``). 8 and 4 bits
    run on bitsandbytes, 3 and 2 on HQQ (LLaMA-Factory docs); the ledger names which, and the key of the
    user's own tool (:func:`estimator.training_tools.quantization_key`)."""
    bits = QUANTIZED_PRECISION_BITS.get(req.precision) if req.precision else None
    if method == Method.full or (bits is None and method != Method.qlora):
        return None
    bits = bits or 4
    backend = Word.bitsandbytes if bits in (8, 4) else Word.hqq
    tool, key = quantization_key(req.training_tool, bits)  # s27: axolotl's load_in_4bit, not LLaMA-Factory's
    ledger.assume("quantization", backend.value, Why.quantized_base, bits=bits, tool=tool, key=key)
    return QUANTIZED_BASE_BITS[bits]


def _tool_step(req: SizingRequest) -> int | None:
    """Sequences per GPU per step of a TRL / ms-swift RL run with no global batch nor accumulation stated
    (its GPU count given): ``per_device_train_batch_size`` (stated, else the tool's own:
    :data:`estimator.trainer_generation.PER_DEVICE_DEFAULT`) × accumulation 1 (transformers' default; ms-swift
    sets 1 for GRPO, swift/arguments/rlhf_args.py L527–529 @3602360) — one generation batch per step, the
    step that generation decodes (s24 trial #10). None otherwise. The per-GPU count is the tool's generation
    batch (:func:`estimator.trainer_generation.generation_batch`, the one source of that rule: s28 review M2).
    """
    if req.training_tool not in PER_DEVICE_DEFAULT or not req.gpu_count or req.algorithm not in RL_ALGORITHMS:
        return None
    if req.training_tool == "ms-swift" and req.algorithm != Algorithm.grpo:
        return None  # its PPO accumulates to 16 sequences (swift/trainers/arguments.py L283–285)
    return int(generation_batch(req).per_rank) or None  # 0: a stated global batch spread over the DP ranks


def _global_batch(req: SizingRequest, stage: Stage, seq_len: int, ledger: Ledger) -> int:
    """Sequences per optimizer step: the user's (verl's ``data.train_batch_size`` counts prompts: × their
    ``rollout.n`` completions, the sequences its step trains; unstated with GPUs, its default 1,024 prompts ×
    ``rollout.n``, the step its rollout decodes; TRL / ms-swift GRPO: :func:`_tool_step` × GPUs), else ~4M
    tokens for pre-training (Llama 2 §2.2) or 128 sequences for fine-tuning (Alpaca), at most ~4M tokens
    (:data:`estimator.defaults.GLOBAL_BATCH_TOKENS_FINETUNE_CAP`: sequences over 32,768 tokens). The plan
    turns it into gradient accumulation (:func:`estimator.plan.with_batch`)."""
    given = getattr(req, "global_batch", None)
    limits = tool_limits(getattr(req, "training_tool", None))
    if given and limits is not None and limits.whole_step_rollout:  # verl counts prompts (s12 trial B4)
        return int(given) * sequences_per_prompt(req)  # data.train_batch_size × rollout.n sequences
    if given:
        return int(given)
    accumulation = getattr(req, "gradient_accumulation", None)
    if accumulation:  # stated: the plan uses it as stated (one data-parallel GPU's share here)
        return int(accumulation) * int(getattr(req, "batch_size", None) or 1)
    if limits is not None and limits.whole_step_rollout and req.gpu_count and req.algorithm in RL_ALGORITHMS:
        # verl's default step, the one its rollout decodes (estimator.rollout): trained as generated
        sequences = VERL_TRAIN_BATCH_SIZE * sequences_per_prompt(req)  # s13 review 10: it trained 128
        why = Why.verl_train_batch_default
        return int(ledger.assume("global_batch", sequences, why, prompts=VERL_TRAIN_BATCH_SIZE))
    if (own := _tool_step(req)) is not None:
        why, tool = Why.rl_tool_global_batch, req.training_tool
        return int(ledger.assume("global_batch", own * (req.gpu_count or 1), why, tool=tool, per_device=own))
    if stage == Stage.finetune:
        d, cap = defaults.GLOBAL_BATCH_FINETUNE, defaults.GLOBAL_BATCH_TOKENS_FINETUNE_CAP
        per_sequence = (req.tokens_per_sample if req.num_samples and not req.packing else None) or seq_len
        if d.value * per_sequence > cap.value:  # long sequences: a pre-training step's tokens at most
            sequences = max(1, round(cap.value / per_sequence))
            params = {"tokens": cap.value, "seq_len": per_sequence}
            return int(ledger.assume("global_batch", sequences, cap.why, **params))
        return int(ledger.assume("global_batch", int(d.value), d.why))
    d = defaults.GLOBAL_BATCH_TOKENS_PRETRAIN
    sequences = max(1, round(d.value / seq_len))
    return int(ledger.assume("global_batch", sequences, d.why, tokens=d.value, seq_len=seq_len))
