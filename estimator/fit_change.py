"""What to change when a training job fits the user's GPUs only at the likely figure (issue 25 item 1).

The verdict says "fits" only when the **high end** of the memory band (:mod:`estimator.memory_band`)
fits the card: real runs sit there often enough (the threads of ``tests/data/real_questions`` that ran
out of memory where the likely figure fitted). When only the likely figure fits, the verdict is
"borderline" and names the settings that make the high end fit, the cheapest first:

0a. ``gather_for_generation`` False — an RL trainer generating its own rollouts under ZeRO-3 (TRL/ms-swift)
   without gathering the whole policy first (``ds3_gather_for_generation: false``, TRL's GRPOConfig doc:
   "disabling this option allows training models that exceed the VRAM capacity of a single GPU";
   :mod:`estimator.trainer_generation`): slower generation, the same training;
0. ``optimizer_impl`` fused — AdamW in one kernel (transformers ``optim="adamw_torch_fused"``, the HF
   Trainer's default from torch 2.8: transformers v4.56.0 src/transformers/training_args.py:1296-1301,
   ``default_optim = "adamw_torch"`` then ``"adamw_torch_fused"`` if
   ``is_torch_greater_or_equal_than_2_8``; earlier, foreach): torch's foreach AdamW (``adamw_torch``) holds
   a copy of the second moments during the step, 4 B per trained parameter with fp32 states
   (torch/optim/adam.py ``_multi_tensor_adam``: ``torch._foreach_sqrt(device_exp_avg_sqs)``; measured on an
   H200, Qwen2.5-3B: 57.6 GiB foreach vs 47.2 fused, bench/device/RESULTS.md s25), fused none
   (:mod:`estimator.adamw_step`). Same states, same numerics, no slower: first. Only where the user runs
   the foreach step: AdamW stated as ``adamw_torch`` (s26 review #3; unstated, the band's likely figure is
   the default's fused step and only its high end holds the copy, for an older torch: the change is not
   offered over a default the user may already run), at ZeRO-0 (DeepSpeed's ZeRO stages step with their own
   optimizer), with no optimizer other than AdamW named, and with a tool that takes a transformers
   ``optim`` name (:attr:`estimator.training_tools.ToolLimits.optim_by_name`: HF Trainer, TRL,
   LLaMA-Factory, axolotl, Unsloth, ms-swift, or no tool named);
0b. ``attention_implementation`` 'sdpa' — over a stated eager attention (s42): PyTorch SDPA's flash /
   memory-efficient kernels (or FlashAttention-2) never store the s×s scores (Dao et al. 2022;
   :mod:`estimator.attention_scores`), and run faster, so it comes before every setting that costs time;
1. ``micro_batch`` 1 (``per_device_train_batch_size``: activations and logits scale with it);
2. ``recompute`` full — gradient checkpointing (``gradient_checkpointing: true``; Chen et al. 2016);
3. ``zero_stage`` 3 on more than one GPU — DeepSpeed ZeRO-3 or FSDP full sharding (Rajbhandari et al.
   2020): the states of the base and the optimizer sharded over the GPUs;
4. ``chunked_loss`` — a loss that never holds the fp32 logits of the whole vocabulary: Liger Kernel's
   fused linear cross-entropy (``use_liger_kernel`` in transformers/TRL, ``enable_liger_kernel`` in
   LLaMA-Factory, ``liger_fused_linear_cross_entropy`` in axolotl; Hsu et al. 2024, arXiv 2410.10989 §3.2:
   the logits are computed and consumed chunk by chunk), Unsloth's own, torchtune's chunked loss;
4b. ``optimizer`` 8-bit AdamW — bitsandbytes' blockwise 8-bit states (``optim="adamw_bnb_8bit"``;
   Dettmers et al. 2022, arXiv 2110.02861): 2 B per parameter for the two moments (+ the absmax per
   block, :data:`estimator.optimizer_states.BNB_8BIT_ABSMAX_BYTES_PER_PARAM`) instead of 8 in fp32 — 6
   of the 8 optimizer-state bytes saved — and no foreach copy at the step. Other numerics (the s25
   fit_sanity note: not an own-card change), so after the settings that keep them. Full training only
   (an adapter's states are small), at ZeRO-0 (bitsandbytes' optimizer under DeepSpeed ZeRO needs
   ``zero_allow_untested_optimizer``), with AdamW as the optimizer and the same tools as 0;
5. ``offload`` — ZeRO-Offload of the optimizer states to host memory (full fine-tuning only: an
   adapter's optimizer states are small; Ren et al. 2021);
5b. ``param_offload`` — a QLoRA job's parameters offloaded to host memory under full sharding (FSDP
   ``CPUOffload(offload_params=True)``: Answer.AI fsdp_qlora ``--use_cpu_offload``, its README's Llama-2-70B
   QLoRA on 2 × 24 GB; :mod:`estimator.adapter_offload`): the base leaves the GPUs, each step copies every
   layer in, so steps are slower (s37 fixc #3). Offered alone only, and not for a bf16 LoRA (its base is
   4× the NF4 one in host RAM; fsdp_qlora's notes: LoRA CPU offloading above 7B ran out of CPU memory —
   QLoRA, setting 6, is offered there);
6. ``method`` QLoRA for a LoRA job (the base in 4 bits; Dettmers et al. 2023);
7. ``seq_len`` — a shorter ``cutoff_len`` / ``max_seq_length``: halves of the user's, down to 256;
8. ``gpu_count`` — 2×, 4× or 8× the user's GPUs.

One setting alone is tried first (in that order); when none suffices, 0a and settings 1–5 are added one
after another (0 and 4b are offered alone only: they hold at ZeRO-0, which a later setting may leave), then
6–8 each on top of them. No constant here: each candidate is sized by the same formulas
and band as the answer (:func:`estimator.memory.breakdown_within`,
:func:`estimator.memory_band.per_gpu_band`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from estimator.adamw_step import zero0_step
from estimator.catalog import GpuSpec, ModelSpec
from estimator.copying import replace  # TrainingSetup copies without __init__ (~34 → ~2 µs each)
from estimator.layout_table import shown_band
from estimator.memory import SearchMemo, breakdown_within, group_out_of_reach
from estimator.memory_band import FRAGMENTATION_HIGH, per_gpu_band
from estimator.models import FitChange, Memory, Method, Plan
from estimator.optimizer_states import OPTIMIZER_BYTES_PER_PARAM, PURE_BF16_OPTIMIZER_BYTES_PER_PARAM
from estimator.search_groups import layout_groups
from estimator.setup import TrainingSetup

MIN_SEQ_LEN = 256
"""Shortest sequence the change suggests (tokens): below it a fine-tuning sample is rarely useful."""

Candidate = tuple[str, object, TrainingSetup, int]
"""(setting, value, the setup with it, the GPU count with it)."""


def high_edge_fit(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    gpus: int,
    setup: TrainingSetup,
    pinned: tuple[int, int] | None = None,
    memo: SearchMemo | None = None,
) -> tuple[Plan, float] | None:
    """The preferred layout on ``gpus`` GPUs whose **high** end of the band fits the card, with that
    high end (bytes per GPU); None when none does. Same layouts and order as
    :func:`estimator.plan.best_plan_for`; ``pinned`` = (TP, PP) keeps the model's split. ``memo``: the
    :class:`estimator.memory.SearchMemo` of this spec, params and setup (any GPU count), if any."""
    found = _first_fit(spec, params, gpu, gpus, setup, pinned, memo)
    return (found[0], found[1]) if found is not None else None


def _first_fit(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    gpus: int,
    setup: TrainingSetup,
    pinned: tuple[int, int] | None = None,
    memo: SearchMemo | None = None,
    likely_only: bool = False,
) -> tuple[Plan, float, float] | None:
    """:func:`high_edge_fit`'s search, returning (plan, high end, likely figure) per GPU; ``likely_only``:
    the first layout whose likely figure fits, its high end above the card or not (:func:`likely_fit`)."""
    usable = gpu.addressable_bytes
    memo = memo or SearchMemo()
    grouped = layout_groups(spec, gpu, gpus, setup, pinned)  # _layouts' tuple, with each layout's group
    out: dict[int, bool] = {}  # by group: its stage-3 floor is above the card (no layout of it fits)
    for layout, g in zip(grouped.layouts, grouped.group_of, strict=True):
        if g not in out:  # a group of one layout is sized as it is: its floor costs about as much
            many = len(grouped.groups[g]) > 1
            out[g] = many and group_out_of_reach(spec, params, setup, layout, usable, memo)
        if out[g]:  # every total of the group is above the card: the test below skips it too, unsized
            continue
        parts = breakdown_within(spec, params, setup, layout, usable, memo)
        if parts is None or sum(parts.values()) > usable:
            continue
        high = shown_band(spec, params, setup, layout, parts, memo)[1]  # the search's peaks, table
        if high <= usable or likely_only:
            return layout.to_plan(), high, sum(parts.values())
    return None


def with_high_edge_plan(
    spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, mem: Memory
) -> Memory:
    """``mem`` at the user's GPU count with, when its plan fits only at the likely figure, the preferred
    layout of the same setup, TP × PP and recompute mode whose high end fits (:func:`high_edge_fit`: a
    higher ZeRO stage, a smaller micro-batch): the plan the answer shows then fits at both ends. The
    recompute mode is kept — it sets the training time (H200 keeping the activations H100 must
    recompute); when only checkpointing makes the high end fit, the verdict says so instead. When no
    layout of that TP × PP does and the user stated no TP, PP or ZeRO stage (a stated one is their layout)
    nor runs a data-parallel-first stack (:attr:`TrainingSetup.data_parallel_first`: the HF tools' ZeRO-3
    stays theirs, s36/s37), any TP × PP of the count in the search's order
    (s43 fixverdict #1: Qwen2.5-14B LoRA on 4 × RTX 3090 without NVLink, ZeRO-3 15.9 GiB likely / 24.8
    GiB high of 24 → TP 2 × DP 2, which fitted at both ends on 2 cards: more GPUs are never worse).
    Unchanged when the plan's high end fits already or no layout's does (the verdict then names what
    to change). A recommendation of the same GPU count takes the same layout: one ZeRO stage shown."""
    plan, gpus = mem.plan, mem.plan_gpus
    if (
        not mem.fits_requested
        or plan is None
        or not gpus
        or (mem.per_gpu_bytes_high or 0) <= mem.usable_bytes
    ):
        return mem
    kept = replace(setup, recompute=setup.recompute or plan.recompute)  # type: ignore[arg-type]
    found = high_edge_fit(spec, params, gpu, gpus, kept, (plan.tp, plan.pp))
    free = setup.tp is None and setup.pp is None and setup.zero_stage is None
    free = free and not setup.data_parallel_first
    if found is None and free:  # any split of the count (s43 fixverdict #1)
        found = high_edge_fit(spec, params, gpu, gpus, kept)
    if found is None:
        return mem
    parts = breakdown_within(spec, params, setup, found[0], math.inf)
    assert parts is not None  # no limit
    low, high = per_gpu_band(spec, setup, found[0], parts, params)
    update = {"plan": found[0], "breakdown": parts, "per_gpu_bytes": sum(parts.values())}
    if mem.recommended_gpus == gpus:  # one layout per GPU count: the recommendation on these GPUs is it
        update |= {"recommended_plan": found[0], "recommended_per_gpu_bytes": update["per_gpu_bytes"]}
    return mem.model_copy(update={**update, "per_gpu_bytes_low": low, "per_gpu_bytes_high": high})


def with_zero1_plan(
    spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, mem: Memory
) -> Memory:
    """``mem`` with its plain-DDP plan (ZeRO-0, DP > 1, no stage stated) moved to ZeRO-1 of the same TP ×
    PP and recompute mode when DDP fits only at the likely figure and ZeRO-1 fits at the band's high end
    (s24 trial #7: 1.3B pre-training on 16 × A100 40GB, DDP 28.0 GiB likely / 41.3 GiB high → borderline,
    ZeRO-1 16.2 GiB). ZeRO-1 moves the bytes DDP moves — a reduce-scatter of the gradients and an
    all-gather of the updated weights, together one all-reduce's 2Ψ (Rajbhandari et al. 2020, ZeRO,
    §7.2.1) — so the time is the same and the layout that fits is preferred. Unchanged otherwise."""
    plan = mem.plan
    if plan is None or plan.zero_stage != 0 or plan.dp <= 1 or setup.zero_stage is not None:
        return mem
    if (mem.per_gpu_bytes_high or 0) <= mem.usable_bytes:
        return mem
    moved = with_high_edge_plan(spec, params, gpu, replace(setup, zero_stage=1), mem)
    return moved if moved.plan is not None and moved.plan.zero_stage == 1 else mem


def _toggles(setup: TrainingSetup, plan: Plan, gpus: int, reach: tuple[bool, bool]) -> Iterator[Candidate]:
    """Settings 0a–5 of the module docstring that differ from the user's setup and the plan. ``reach``:
    whether fused AdamW and 8-bit AdamW apply (:func:`_optimizer_named`) and can save what the plan is
    over the card (:func:`optimizer_reach`)."""
    generates = setup.generation_sequences or setup.generation_step
    if generates and setup.gather_for_generation and plan.zero_stage == 3 and plan.dp > 1:
        yield "gather_for_generation", False, replace(setup, gather_for_generation=False), gpus
    if reach[0] and setup.adamw_impl == "foreach":  # stated adamw_torch; at the plan's ZeRO-0, pinned
        yield "optimizer_impl", "fused", replace(setup, adamw_impl="fused", zero_stage=0), gpus
    if setup.eager_attention:  # the stated eager attention's scores (estimator.attention_scores; s42)
        yield "attention_implementation", "sdpa", replace(setup, eager_attention=False), gpus
    if max(setup.micro_batch, plan.micro_batch) > 1:
        yield "micro_batch", 1, replace(setup, micro_batch=1), gpus
    if plan.recompute != "full":
        yield "recompute", "full", replace(setup, recompute="full"), gpus
    if gpus > 1 and plan.zero_stage < 3 and plan.tp * plan.pp < gpus:
        yield "zero_stage", 3, replace(setup, zero_stage=3, tp=None, pp=None), gpus
    if not setup.chunked_loss:
        yield "chunked_loss", True, replace(setup, chunked_loss=True), gpus
    if reach[1]:
        yield "optimizer", "adamw_8bit", replace(setup, optimizer="adamw8bit", zero_stage=0), gpus
    if setup.method == Method.full and not setup.offload:
        yield "offload", True, replace(setup, offload=True), gpus
    if setup.method == Method.qlora and not setup.offload and setup.shards_model and setup.tp is None:
        yield "param_offload", True, replace(setup, offload=True, zero_stage=3, pp=None), gpus


def _optimizer_named(setup: TrainingSetup, plan: Plan) -> bool:
    """Whether settings 0 and 4b apply: full training with AdamW at the plan's ZeRO-0, its optimizer
    chosen by a transformers ``optim`` name, neither offloaded nor stepped in the backward (an adapter's
    states and step copy are too small to matter)."""
    return (
        setup.optim_by_name
        and setup.method == Method.full
        and setup.optimizer == "adamw"
        and plan.zero_stage == 0
        and setup.zero_stage in (None, 0)
        and not setup.offload
        and not setup.optimizer_in_backward
    )


def optimizer_reach(params: float, setup: TrainingSetup, plan: Plan, over: float | None) -> tuple[bool, bool]:
    """Whether fused AdamW and 8-bit AdamW (settings 0 and 4b) can save ``over`` bytes per GPU, what the
    plan's figure is above the card (its likely figure for a job that does not fit, its high end for a
    borderline one; None or ≤ 0: both can). At most they save, per GPU of the plan's TP × PP at ZeRO-0:
    foreach's copy of the second moments (:func:`estimator.adamw_step.zero0_step`'s high end), and 8-bit
    AdamW the states' bytes too (:data:`estimator.optimizer_states.OPTIMIZER_BYTES_PER_PARAM`: 12 → 6 per
    parameter with an fp32 master copy; 4 → 2.03 without, ``PURE_BF16_OPTIMIZER_BYTES_PER_PARAM``), each
    × (1 + :data:`estimator.memory_band.FRAGMENTATION_HIGH`), the high end's scale of what is allocated
    (the likely figure's 8 % is below it). A change that saves less cannot bring the high end under the
    card: it is not sized (the search's calls, issue 23 item 7)."""
    if over is None or over <= 0:
        return True, True
    trained = params / (plan.tp * plan.pp)  # full training (_optimizer_named): every parameter
    copy = zero0_step(setup, trained)[2]
    table = OPTIMIZER_BYTES_PER_PARAM if setup.master_weights else PURE_BF16_OPTIMIZER_BYTES_PER_PARAM
    most = 1 + FRAGMENTATION_HIGH  # the band's ends scale what they allocate (memory_band.per_gpu_band)
    return copy * most >= over, (copy + (table["adamw"] - table["adamw8bit"]) * trained) * most >= over


ALONE_ONLY = frozenset({"optimizer_impl", "optimizer", "param_offload"})
"""Settings offered alone only, never in a chain (module docstring, 0 and 4b: pinned to ZeRO-0; 5b: the
known recipe as published, not mixed with other changes)."""


def _chained(toggles: list[Candidate]) -> list[Candidate]:
    """The toggles a chain adds one after another (:data:`ALONE_ONLY` aside)."""
    return [c for c in toggles if c[0] not in ALONE_ONLY]


def _structural(setup: TrainingSetup, gpus: int) -> Iterator[Candidate]:
    """Settings 6–8 of the module docstring."""
    if setup.method == Method.lora:
        yield "method", Method.qlora.value, replace(setup, method=Method.qlora), gpus
    seq = setup.seq_len // 2
    while seq >= MIN_SEQ_LEN:
        yield "seq_len", seq, replace(setup, seq_len=seq), gpus
        seq //= 2
    for factor in (2, 4, 8):
        yield "gpu_count", gpus * factor, setup, gpus * factor


def what_to_change(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    gpus: int,
    setup: TrainingSetup,
    plan: Plan,
    settings_first: bool = False,
    over: float | None = None,
) -> list[FitChange]:
    """The settings that make the high end of the band fit ``gpus`` GPUs (module docstring); empty when
    none of them does (or when it fits already). ``settings_first``: for a job that does not fit at
    all (not only at the high end), settings 1–5 combined are tried before 6–8 alone — a shorter
    sequence or more GPUs change the job, micro-batch 1 and a chunked loss do not. ``over``: bytes per GPU
    the plan is above the card, when known (:func:`optimizer_reach`)."""

    memos: dict[TrainingSetup, SearchMemo] = {}  # one per setup: the GPU-count candidates share it
    highs: dict[tuple[TrainingSetup, int], float | None] = {}  # the first combination is the first toggle

    def sized(c: Candidate) -> float | None:
        key = (c[2], c[3])
        if key not in highs:
            memo = memos.setdefault(c[2], SearchMemo())
            found = high_edge_fit(spec, params, gpu, c[3], c[2], memo=memo)
            highs[key] = found[1] if found else None
        return highs[key]

    named = _optimizer_named(setup, plan)
    reach = optimizer_reach(params, setup, plan, over) if named else (False, False)
    toggles = list(_toggles(setup, plan, gpus, reach))
    for c in (*toggles, *(() if settings_first else _structural(setup, gpus))):
        high = sized(c)
        if high is not None:
            return [FitChange(setting=c[0], value=c[1], per_gpu_bytes_high=high)]  # type: ignore[arg-type]
    done: list[FitChange] = []
    cum = setup
    for c in _chained(toggles):
        cum = _combined(cum, c[2], c[0])
        high = sized((c[0], c[1], cum, gpus))
        done.append(FitChange(setting=c[0], value=c[1], per_gpu_bytes_high=high))  # type: ignore[arg-type]
        if high is not None:
            return done
    for c in _structural(cum, gpus):
        high = sized(c)
        if high is not None:
            return [*done, FitChange(setting=c[0], value=c[1], per_gpu_bytes_high=high)]  # type: ignore[arg-type]
    return []


def _combined(cum: TrainingSetup, changed: TrainingSetup, setting: str) -> TrainingSetup:
    """``cum`` with the one setting that ``changed`` differs in."""
    fields = {
        "gather_for_generation": {"gather_for_generation": changed.gather_for_generation},
        "micro_batch": {"micro_batch": changed.micro_batch},
        "recompute": {"recompute": changed.recompute},
        "zero_stage": {"zero_stage": changed.zero_stage, "tp": None, "pp": None},
        "chunked_loss": {"chunked_loss": changed.chunked_loss},
        "attention_implementation": {"eager_attention": changed.eager_attention},
        "offload": {"offload": changed.offload},
        "param_offload": {"offload": True, "zero_stage": 3, "tp": None, "pp": None},
    }[setting]
    return replace(cum, **fields)


def likely_fit(
    spec: ModelSpec, params: float, gpu: GpuSpec, gpus: int, setup: TrainingSetup, plan: Plan
) -> list[FitChange]:
    """On the user's ``gpus`` when no setting makes the band's high end fit them (:func:`what_to_change`
    needs more GPUs, or nothing fits): the changes under which the **likely** figure fits — a borderline
    option the reply offers beside more cards (s24 trial 2 #10: QLoRA of a 70B model on one 48 GB card at
    4,096 tokens offered only a second card, where a chunked loss or 2,048 tokens fit at the likely
    figure). Each one alone, with its likely and high figures per GPU: settings 1–5 of the module
    docstring, then the longest shorter sequence (halves down to :data:`MIN_SEQ_LEN`); when none fits
    alone, settings 1–5 one after another and then the sequence on top. Empty when nothing does."""
    found_alone: list[FitChange] = []
    named = _optimizer_named(setup, plan)
    toggles = list(_toggles(setup, plan, gpus, (named, named)))
    for c in toggles:
        found = _first_fit(spec, params, gpu, gpus, c[2], likely_only=True)
        if found is not None:
            found_alone.append(_likely_change(c[0], c[1], found))
    shorter = _longest_fitting(spec, params, gpu, gpus, setup)
    if found_alone or shorter is not None:
        return [*found_alone, *([shorter] if shorter is not None else [])]
    done: list[FitChange] = []
    cum = setup
    for c in _chained(toggles):
        cum = _combined(cum, c[2], c[0])
        done.append(FitChange(setting=c[0], value=c[1]))  # type: ignore[arg-type]
    shorter = _longest_fitting(spec, params, gpu, gpus, cum) if done else None
    return [*done, shorter] if shorter is not None else []


def _likely_change(setting: str, value: object, found: tuple[Plan, float, float]) -> FitChange:
    return FitChange(setting=setting, value=value, per_gpu_bytes_high=found[1], per_gpu_bytes=found[2])  # type: ignore[arg-type]


def _longest_fitting(
    spec: ModelSpec, params: float, gpu: GpuSpec, gpus: int, setup: TrainingSetup
) -> FitChange | None:
    """The longest of the user's sequence's halves (down to :data:`MIN_SEQ_LEN`) whose likely figure fits
    ``gpus`` GPUs, as a change; None when none does."""
    seq = setup.seq_len // 2
    while seq >= MIN_SEQ_LEN:
        found = _first_fit(spec, params, gpu, gpus, replace(setup, seq_len=seq), likely_only=True)
        if found is not None:
            return _likely_change("seq_len", seq, found)
        seq //= 2
    return None
