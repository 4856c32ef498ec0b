"""RL rollouts (GRPO, RLOO, PPO) timed as decode, apart from the training passes.

Each RL step first *generates*: for every prompt the policy samples a group of G completions
(DeepSeekMath, Shao et al. 2024 §4.1: GRPO's group size G; TRL ``GRPOTrainer``: ``num_generations``
completions of at most ``max_completion_length`` tokens per prompt, generated with vLLM or
``model.generate``). Generation decodes one token per sequence per step: every step reads all the
weights, so at the batches a trainer generates with it is memory-bandwidth bound, far below the
compute rate the training passes reach (Pope et al. 2022).

What each part of the time figure covers (:func:`estimator.compute.flops_per_param_token`: GRPO's
10·N·D = 6·N·D training + 2·N·D reference forward + 2·N·D generation, D = prompts × G × (prompt +
completion) tokens):

* **training passes** (at the MFU band, compute-bound): everything but the decoded completions —
  (k·N·D − 2·N·D_gen) FLOPs: the policy's forward and backward, the reference (and, for PPO, the
  critic and reward) forwards, and the prefill of the prompts (2·N per prompt token).
* **rollouts** (:class:`estimator.models.Rollout`): the D_gen = D × completion / (prompt + completion)
  completion tokens, decoded at the serving estimator's speed (:func:`estimator.serving_speed.decode_speed`)
  on engines of ``decode_tp`` GPUs, each decoding ``decode_batch`` sequences at once. Their 2·N·D_gen
  FLOPs stay in the compute figure C (counted once) but are timed here, not at the MFU.

Defaults where the question gives none are TRL ``GRPOConfig``'s (trl/trainer/grpo_config.py):
``max_completion_length`` 256, ``max_prompt_length`` 512 (the releases that have it; later ones cap no
prompt), ``per_device_train_batch_size`` 8 (transformers ``TrainingArguments``' default, which GRPOConfig
keeps). ``num_generations`` (TRL's default 8) is not assumed: without it the data as stated is what is
trained, one sequence per prompt (:func:`sequences_per_prompt`). TRL generates
``per_device_train_batch_size`` × ``steps_per_generation`` completions per GPU at once (its
``generation_batch_size`` ÷ processes): one optimizer step's sequences, the plan's global batch spread
over the GPUs (:func:`trl_generation_per_gpu`).
"""

from __future__ import annotations

import math

from estimator import defaults
from estimator.catalog import GpuSpec, ModelSpec
from estimator.colocate import engine_share
from estimator.later import later
from estimator.ledger import Ledger
from estimator.models import Algorithm, Band, Plan, Precision, Rollout, SizingRequest
from estimator.reasons import Why
from estimator.rl_defaults import rl_lengths
from estimator.rollout_batch import note_rollout_batch, rollout_sequences
from estimator.runtimes import Vllm
from estimator.serving_speed import decode_speed
from estimator.trainer_generation import PER_DEVICE_DEFAULT, generation_batch
from estimator.training_tools import tool_limits
from estimator.weights import kv_bytes_per_sequence, kv_read_bytes_per_sequence, weight_bytes

generate_speed, generates_in_trainer = later(
    "estimator.trainer_decode", "generate_speed", "generates_in_trainer"
)  # on first call: a plain `ask` never calls it (s48-startup)

RL_ALGORITHMS = frozenset({Algorithm.grpo, Algorithm.rloo, Algorithm.ppo})
"""Algorithms whose steps generate their own completions (rollouts)."""
TRL_MAX_PROMPT_LENGTH = 512
"""TRL ``GRPOConfig.max_prompt_length`` default (tokens)."""
TRL_MAX_COMPLETION_LENGTH = 256
"""TRL ``GRPOConfig.max_completion_length`` default (tokens)."""
SWIFT_MAX_COMPLETION_LENGTH = 512
"""ms-swift ``max_completion_length`` default (tokens; swift/arguments/rlhf_args.py @3602360): in GRPO, PPO
and GKD its ``--max_length`` bounds the prompt, and each sequence is that prompt and this completion."""
TRL_COMPLETIONS_PER_GPU = 8
"""``per_device_train_batch_size`` default (transformers ``TrainingArguments``; GRPOConfig keeps it):
completions each GPU generates per step."""
VLLM_MAX_NUM_SEQS = 256
"""vLLM ``max_num_seqs`` default (``SchedulerConfig``): the most sequences one engine decodes at once."""
VERL_TRAIN_BATCH_SIZE = 1024
"""verl's ``data.train_batch_size`` default (prompts per step; verl docs, "Config Explanation", and
verl/trainer/config/ppo_trainer.yaml): its rollout generates the whole step's prompts × ``rollout.n`` at
once, up to vLLM's :data:`VLLM_MAX_NUM_SEQS` per engine (s12 trial C2: 8 sequences at once)."""
VERL_ROLLOUT_SHARE = 0.5
"""verl's ``actor_rollout_ref.rollout.gpu_memory_utilization`` default (volcengine/verl@035682ed
verl/trainer/config/rollout/rollout.yaml: ``gpu_memory_utilization: 0.5``): its engine's share of each GPU
when none is stated, the one its note names (estimator.colocate.ENGINE_NOTES) — not vLLM's 0.9 (s42 trial
#6: a 32B policy's 65 GB of bf16 weights do not fit 0.5 × 80 GB, so its engines are 2 GPUs, not 1)."""
MAX_ENGINE_TP = 1024
"""The largest rollout-engine TP searched for one that holds the model (the request's bound)."""


def engine_usable_bytes(gpu: GpuSpec, utilization: float | None = None) -> float:
    """Bytes per GPU the rollout engine (vLLM, as TRL, verl, ms-swift and OpenRLHF run it) may use: the
    runtime's own usable memory, ``gpu_memory_utilization`` × the memory CUDA reports, at most what is
    free after the CUDA context (:meth:`estimator.runtimes.vllm.Vllm._usable`) — the 'usable per GPU' a
    serving answer states for the same card (A100 80GB: 71.3 GiB, not 0.9 × 80 = 72 GiB). The share is
    the user's own for the engine (``rollout_gpu_memory_utilization``: verl
    ``actor_rollout_ref.rollout.gpu_memory_utilization``, ms-swift/OpenRLHF
    ``--vllm_gpu_memory_utilization``), else vLLM's default 0.9
    (:data:`estimator.defaults.GPU_MEMORY_UTILIZATION`)."""
    return Vllm(utilization).usable_bytes(gpu)


def rollout_share(req: SizingRequest) -> float | None:
    """The rollout engine's share of each GPU (0 < x ≤ 1): the user's or TRL colocate's
    (:func:`estimator.colocate.engine_share`), else verl's :data:`VERL_ROLLOUT_SHARE` under verl, else None
    (vLLM's own default 0.9)."""
    share = engine_share(req)
    return VERL_ROLLOUT_SHARE if share is None and req.training_tool == "verl" else share


def sequences_per_prompt(req: SizingRequest) -> int:
    """Sequences trained per prompt: G (``num_generations``) for an RL algorithm, else 1."""
    return req.num_generations or 1 if req.algorithm in RL_ALGORITHMS else 1


def with_prompt(req: SizingRequest, ledger: Ledger) -> SizingRequest:
    """An RL request whose only length is the completion's (``max_completion_length`` with no sequence
    length, or one no longer than it, as "max completion length 1024" reads): each sequence is a prompt
    of TRL's default ``max_prompt_length`` 512 tokens and its completion, said as assumed — not a
    0-token prompt. A prompt's bound with no sequence length (ms-swift GRPO/PPO/GKD ``--max_length``, read
    as ``prompt_tokens``): that prompt and the stated completion, else ms-swift's default 512 said as
    assumed (:data:`SWIFT_MAX_COMPLETION_LENGTH`; session 12 review 4). Other requests unchanged."""
    completion = req.max_completion_length
    if req.algorithm in RL_ALGORITHMS and req.prompt_tokens and not req.seq_len:
        if not completion:
            n = SWIFT_MAX_COMPLETION_LENGTH
            why, source = Why.swift_completion_default, "swift/arguments/rlhf_args.py @3602360"
            completion = ledger.assume("max_completion_length", n, why, citation=source)
        update = {"seq_len": req.prompt_tokens + completion, "max_completion_length": completion}
        return req.model_copy(update=update)
    if req.algorithm not in RL_ALGORITHMS or not completion or (req.seq_len or 0) > completion:
        return req
    own = rl_lengths(req.training_tool)  # the tool's own default, named (trial s16 #5)
    prompt = ledger.assume("prompt_tokens", own.prompt, own.prompt_why, citation=own.source)
    return req.model_copy(update={"seq_len": prompt + completion})


def rollout_lengths(req: SizingRequest) -> tuple[int, int]:
    """(prompt, completion) tokens per sequence: the stated completion inside the stated sequence, else
    the tool's own defaults for what is not stated (:func:`estimator.rl_defaults.rl_lengths`)."""
    own = rl_lengths(req.training_tool)
    completion = req.max_completion_length or own.completion
    if req.seq_len:
        completion = min(completion, req.seq_len)
        return req.seq_len - completion, completion
    return own.prompt, completion


def _engine_tp(weights: float, gpu: GpuSpec, gpus: int | None, share: float | None = None) -> int:
    """GPUs per generation engine: the smallest power of two whose usable memory
    (:func:`engine_usable_bytes`) holds the weights, at most one node (and the user's GPUs)."""
    cap = max(1, min(gpu.gpus_per_node, gpus or gpu.gpus_per_node))
    tp = 1
    while tp < cap and weights > tp * engine_usable_bytes(gpu, share):
        tp *= 2
    return min(tp, cap)


def check_engine(req: SizingRequest, spec: ModelSpec, params: float, gpu: GpuSpec, ledger: Ledger) -> None:
    """The note when the stated rollout engine's TP (``rollout_tp``) cannot hold the model
    (:func:`stated_engine_tp`), for every RL answer with a model — a memory question as well as a timed
    one. Nothing for other algorithms (the parser reads the setting only in a training question)."""
    if req.algorithm not in RL_ALGORITHMS or not req.rollout_tp:
        return
    prompt, completion = rollout_lengths(req)
    weights = weight_bytes(spec, params, Precision.bf16)  # the engine serves 16-bit weights
    share = rollout_share(req)
    stated_engine_tp(req.rollout_tp, spec, gpu, weights, prompt + completion, ledger, share)


def stated_engine_tp(
    stated: int,
    spec: ModelSpec,
    gpu: GpuSpec,
    weights: float,
    context: int,
    ledger: Ledger | None,
    share: float | None = None,
) -> int:
    """The rollout engine's stated tensor-parallel size when each of its GPUs holds its share of the
    16-bit weights and of one ``context``-token sequence's KV cache within the engine's usable memory
    (:func:`engine_usable_bytes`; vLLM refuses to start without room for one sequence of max_model_len:
    vllm/v1/core/kv_cache_utils.py ``check_enough_kv_cache_memory``; TP splits the KV heads, a head
    shared by several ranks is copied to each). Otherwise a ``rollout_tp_too_small`` note with the
    figures (``ledger``: None when already noted by :func:`check_engine`) and the smallest power-of-two TP
    that holds them, which then times the rollouts. ``share``: the engine's stated share of each GPU."""
    kv = kv_bytes_per_sequence(spec, context)
    usable = engine_usable_bytes(gpu, share)

    def per_gpu(tp: int) -> float:
        return weights / tp + kv / max(1, min(tp, spec.kv_heads))

    if per_gpu(stated) <= usable:
        return stated
    fits = 2 ** max(0, (stated - 1).bit_length())  # the next power of two at or above the stated size
    while per_gpu(fits) > usable and fits < MAX_ENGINE_TP:
        fits *= 2
    if ledger is not None:
        ledger.note(
            "rollout_tp_too_small",
            tp=stated,
            per_gpu_bytes=per_gpu(stated),
            usable_bytes=usable,
            gpu=gpu.name,
            fits_tp=fits,
            share=share or defaults.GPU_MEMORY_UTILIZATION.value,
        )
    return fits


def _completions_per_gpu(req: SizingRequest) -> float:
    """Completions each GPU generates per step: for a tool that generates the whole step at once (verl,
    :attr:`estimator.training_tools.ToolLimits.whole_step_rollout`) its ``global_batch`` prompts × their
    completions spread over the GPUs (verl ``data.train_batch_size`` × ``rollout.n`` ÷ GPUs); a stated
    ``rollout_batch`` (OpenRLHF ``--rollout_batch_size`` prompts × ``--n_samples_per_prompt``, decoded
    together: :mod:`estimator.rollout_batch`) likewise ÷ GPUs; for TRL, or
    no tool named, TRL's generation batch (:func:`trl_generation_per_gpu`); else (another tool, or no GPU
    count) ``per_device_train_batch_size`` (:data:`TRL_COMPLETIONS_PER_GPU` by default)."""
    tool = tool_limits(req.training_tool)
    if tool is not None and tool.whole_step_rollout and req.gpu_count:
        prompts = req.global_batch or VERL_TRAIN_BATCH_SIZE  # verl's default when none is stated
        return prompts * sequences_per_prompt(req) / req.gpu_count
    if req.rollout_batch and req.gpu_count:  # OpenRLHF: prompts × samples (estimator.rollout_batch)
        return (rollout_sequences(req, sequences_per_prompt(req)) or 0) / req.gpu_count
    if req.training_tool in (None, "TRL") and req.gpu_count:
        return trl_generation_per_gpu(req, req.gpu_count)
    return req.batch_size or TRL_COMPLETIONS_PER_GPU


def trl_generation_per_gpu(req: SizingRequest, gpus: int) -> float:
    """Completions one GPU's vLLM engine decodes per generation in TRL's ``GRPOTrainer``: its
    ``generation_batch_size`` = ``per_device_train_batch_size`` × ``num_processes`` ×
    ``steps_per_generation``, where ``steps_per_generation`` defaults to ``gradient_accumulation_steps``
    (trl/trainer/grpo_config.py ``__post_init__``, huggingface/trl@f2cd577): one generation per optimizer
    step, its sequences the step's global batch. In ``vllm_mode="colocate"`` (the default) each process's
    engine decodes its own share, per_device × steps_per_generation (trl/generation/vllm_generation.py
    ``generate``: the local prompts, gathered over the engine's TP group); a ``trl vllm-serve`` server
    gathers them all. So: a stated gradient accumulation × micro-batch, else the global batch (stated, or
    the plan's default :data:`estimator.defaults.GLOBAL_BATCH_FINETUNE`, 128 sequences) ÷ GPUs, at least
    the stated micro-batch (s24 trial #10: 8 at once, one micro-batch, while the plan trained 16 per GPU
    per step). TRL / ms-swift named: their own rule, the stated batch else their defaults
    (:func:`estimator.trainer_generation.generation_batch`: ``per_device_train_batch_size`` 8 / 1)."""
    if req.training_tool in PER_DEVICE_DEFAULT:
        own = generation_batch(req)
        return own.per_rank or own.step / gpus
    if req.gradient_accumulation:
        return req.gradient_accumulation * (req.batch_size or 1)
    step = req.global_batch or defaults.GLOBAL_BATCH_FINETUNE.value
    return max(step / gpus, req.batch_size or 1)


def _note_batch_without_gpus(req: SizingRequest, ledger: Ledger) -> None:
    """A whole-step tool (verl) with its global batch but no GPU count (the count is what is asked, and
    the rollout hours are sized before the search): :func:`_completions_per_gpu` falls back to TRL's
    :data:`TRL_COMPLETIONS_PER_GPU` per GPU; say so (review s12 finding 15), never silently."""
    tool = tool_limits(req.training_tool)
    if tool is None or not tool.whole_step_rollout or not req.global_batch or req.gpu_count or req.batch_size:
        return
    ledger.assume("rollout_completions_per_gpu", TRL_COMPLETIONS_PER_GPU, Why.rollout_batch_without_gpus)


def _decode_batch(
    req: SizingRequest, spec: ModelSpec, gpu: GpuSpec, tp: int, weights: float, context: int
) -> int:
    """Sequences one engine of ``tp`` GPUs decodes at once: the completions its GPUs generate per step
    (:func:`_completions_per_gpu`: TRL ``per_device_train_batch_size``, verl's whole step), at least one
    prompt's G completions (TRL samples a prompt's ``num_generations`` together: ``RepeatSampler``, and
    its vLLM server generates them with ``n`` = G), at most vLLM's :data:`VLLM_MAX_NUM_SEQS` and what
    the engine's usable memory (:func:`engine_usable_bytes`) holds beside the weights as KV cache of
    ``context`` tokens per sequence."""
    wanted = max(math.ceil(_completions_per_gpu(req) * tp), sequences_per_prompt(req))
    free = tp * engine_usable_bytes(gpu, rollout_share(req)) - weights
    held = int(free // kv_bytes_per_sequence(spec, context))
    return max(1, min(wanted, VLLM_MAX_NUM_SEQS, held))


def rollout_part(
    req: SizingRequest,
    spec: ModelSpec,
    params: float,
    active: float | None,
    gpu: GpuSpec,
    tokens: float,
    ledger: Ledger,
) -> tuple[Rollout, float] | None:
    """(the rollouts with their decode GPU-hours, the decoded FLOPs 2·N_active·D_gen to take out of the
    MFU-timed part) for an RL run of ``tokens`` trained tokens; None for other algorithms or a card
    without a bandwidth. ``training_gpu_hours`` is filled by :func:`with_rollout`."""
    if req.algorithm not in RL_ALGORITHMS or not gpu.memory_bandwidth_gbps:
        return None
    prompt, completion = rollout_lengths(req)
    if not req.max_completion_length:
        own = rl_lengths(req.training_tool)
        ledger.assume("max_completion_length", completion, own.completion_why, citation=own.source)
    generated = tokens * completion / (prompt + completion)
    weights = weight_bytes(spec, params, Precision.bf16)  # the engine serves 16-bit weights
    _note_batch_without_gpus(req, ledger)
    note_rollout_batch(req, sequences_per_prompt(req), ledger)
    if generates_in_trainer(req):  # TRL use_vllm False: model.generate in the trainer (s26 trial 2 #3)
        return _in_trainer(req, spec, params, active or params, gpu, (prompt, completion), generated)
    share = engine_share(req, ledger)  # TRL colocate: its 0.3 of each card (estimator.colocate)
    if share is None and req.training_tool == "verl":  # verl's own default, as its note says (s42 #6)
        share = ledger.assume("rollout_gpu_memory_utilization", VERL_ROLLOUT_SHARE, Why.verl_rollout_share)
    if share is None:
        d = defaults.GPU_MEMORY_UTILIZATION
        ledger.assume("rollout_gpu_memory_utilization", d.value, Why.rollout_engine_share)
    tp = _engine_tp(weights, gpu, req.gpu_count, share)
    if req.rollout_tp:
        tp = stated_engine_tp(
            req.rollout_tp, spec, gpu, weights, prompt + completion, None, share
        )  # noted once
    batch = _decode_batch(req, spec, gpu, tp, weights, prompt + completion)
    whole_step = (tool := tool_limits(req.training_tool)) is not None and tool.whole_step_rollout
    if whole_step and req.gpu_count and not req.global_batch:  # verl's default step, said as assumed
        ledger.assume("rollout_prompts_per_step", VERL_TRAIN_BATCH_SIZE, Why.verl_train_batch_default)
    read = kv_read_bytes_per_sequence if spec.chunked_layers else kv_bytes_per_sequence  # Llama 4: its chunk
    kv = read(spec, prompt + math.ceil(completion / 2))  # the mean context while decoding
    n = active or params
    speed = decode_speed(spec, params, n, gpu, tp, weights / params, kv, batch, Precision.bf16, comm=True)
    if speed is None:
        return None
    return _decoded(generated, (prompt, completion), tp, batch, speed.aggregate / tp, n)


def _in_trainer(
    req: SizingRequest,
    spec: ModelSpec,
    params: float,
    n: float,
    gpu: GpuSpec,
    lengths: tuple[int, int],
    generated: float,
) -> tuple[Rollout, float] | None:
    """The rollouts decoded by the trainer's own ``model.generate`` (:mod:`estimator.trainer_decode`): each
    GPU its local generation batch (:func:`estimator.trainer_generation.generation_batch`, a stated global
    batch over the user's GPUs; the same batch whose KV cache the memory holds). TRL's ``RepeatSampler``
    spreads a prompt's ``num_generations`` over the ranks, so a rank may hold fewer than G."""
    prompt, completion = lengths
    own = generation_batch(req)
    batch = max(1, math.ceil(own.per_rank or own.step / (req.gpu_count or 1)))
    weights = weight_bytes(spec, params, Precision.bf16)
    per_gpu = generate_speed(spec, params, n, gpu, weights, prompt + math.ceil(completion / 2), batch)
    if per_gpu is None:
        return None
    return _decoded(generated, lengths, 1, batch, per_gpu, n, in_trainer=True)


def _decoded(
    generated: float,
    lengths: tuple[int, int],
    tp: int,
    batch: int,
    per_gpu: float,
    n: float,
    in_trainer: bool = False,
) -> tuple[Rollout, float]:
    """The rollout record for ``generated`` tokens (prompt, completion ``lengths``) decoded at ``per_gpu``
    tokens/s a GPU, its training part left at zero for :func:`with_rollout`, and the decode's FLOPs:
    2·N per generated token (N the active parameters; Kaplan et al. 2020 §2.1, the forward pass)."""
    prompt, completion = lengths
    out = Rollout(
        generated_tokens=generated,
        completion_tokens=completion,
        prompt_tokens=prompt,
        decode_tp=tp,
        decode_batch=batch,
        decode_tokens_per_s_per_gpu=per_gpu,
        gpu_hours=generated / per_gpu / 3600.0,
        training_gpu_hours=Band(low=0.0, likely=0.0, high=0.0),
        in_trainer=in_trainer,
    )
    return out, 2.0 * n * generated


def with_rollout(training: Band, rollout: Rollout) -> tuple[Band, Rollout]:
    """GPU-hours of the run: the training passes' band plus the rollouts' decode hours, and the rollout
    record with the training part filled in. The rollouts carry the training part's relative uncertainty
    (low/likely, high/likely: the published runs' 80 % interval), so the whole band keeps that interval's
    meaning; a fixed decode figure added to every end would claim a narrower band than any run shows."""
    scale = rollout.gpu_hours / training.likely if training.likely > 0 else 0.0
    total = Band(
        low=training.low * (1.0 + scale),
        likely=training.likely + rollout.gpu_hours,
        high=training.high * (1.0 + scale),
    )
    return total, rollout.model_copy(update={"training_gpu_hours": training})


def note_batch(req: SizingRequest, plan: Plan | None, given: int | None, ledger: Ledger) -> None:
    """The user's global batch as planned. verl's ``data.train_batch_size`` counts prompts, each with
    ``actor_rollout_ref.rollout.n`` responses (verl ``ray_trainer.py``: ``batch.repeat(repeat_times=
    self.config.actor_rollout_ref.rollout.n, interleave=True)`` after generating; ``dp_actor`` mini-batches
    of ``ppo_mini_batch_size × rollout.n``): 512 prompts × 8 = 4,096 sequences a step, said as such —
    not as a batch the plan had to round (trial s30 #2). A batch the plan rounds is noted as adjusted. A
    stated rollout batch is said in its units (:func:`estimator.rollout_batch.note_rollout_batch`)."""
    note_rollout_batch(req, sequences_per_prompt(req), ledger)
    if not given or plan is None:
        return
    tool = tool_limits(req.training_tool)
    n = sequences_per_prompt(req) if tool is not None and tool.whole_step_rollout else 1
    if plan.global_batch_sequences == given * n:
        if n > 1:
            ledger.note("global_batch_prompts", prompts=given, responses=n, sequences=given * n)
        return
    ledger.note(
        "global_batch_adjusted",
        global_batch=given * n,
        adjusted=plan.global_batch_sequences,
        micro_batch=plan.micro_batch,
        gradient_accumulation=plan.gradient_accumulation,
        dp=plan.dp,
    )
