"""What would change a fine-tuning memory answer (split from :mod:`estimator.plan`, s28 tidy): the fewest
GPUs under each option a user can switch on — ZeRO-3 instead of their stage, full recompute, a searched
layout, another stack, micro-batch 1, 8-bit Adam, CPU offload, LoRA, QLoRA, and no full recompute —
the way DeepSpeed's memory estimators list 'with offload / without'
(deepspeed/runtime/zero/stage3.py ``estimate_zero3_model_states_mem_needs_all_cold``). Counts of GPUs,
bytes per GPU; each row is :func:`estimator.plan.min_gpus` of the changed setup.
"""

from __future__ import annotations

from estimator.catalog import GpuSpec, ModelSpec
from estimator.copying import replace
from estimator.memory import SearchMemo
from estimator.models import Alternative, FitChange, Method
from estimator.setup import TrainingSetup


def _alternatives(
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    setup: TrainingSetup,
    memo: SearchMemo | None = None,
    at_least: int = 1,
    own: int | None = None,
) -> list[Alternative]:
    """The fewest GPUs under options a user can switch on (DeepSpeed estimators' 'with offload / without').
    ``at_least``: :func:`estimator.plan.search_floor` of ``setup``'s own search (for the row without full
    recompute); ``own``: that search's count (None: no fit), for :func:`other_stack_helps`."""
    from estimator.plan import min_gpus  # the search this module's rows repeat (it imports this module)

    variants: list[tuple[str, TrainingSetup]] = []
    # the user's own settings first: what changing each of them would give
    if setup.zero_stage is not None and setup.zero_stage < 3:  # another stack's when theirs never shards
        variants.append(("zero3" if setup.shards_model else SHARDING_STACK, replace(setup, zero_stage=3)))
    if setup.recompute is not None and setup.recompute != "full":
        variants.append(("full_recompute", replace(setup, recompute="full")))
    if setup.tp is not None or setup.pp is not None:
        variants.append(("searched_layout", replace(setup, tp=None, pp=None)))
    if other_stack_helps(setup, gpu, own):
        # another stack (Megatron-LM: TP/PP/EP, selective recompute) would allow; never for QLoRA: Megatron-LM
        # and NeMo have no 4-bit (bitsandbytes NF4) base, only LoRA (NeMo PEFT docs: LoRA, P-tuning, IA3)
        other = replace(setup, data_parallel_only=False, zero_stage=None, checkpointing_only=False)
        variants.append(("other_stack", other))
    if setup.frozen_bytes > HALF_BYTES and setup.method in HALF_LOADS:  # an fp32 frozen base (s34 #5)
        variants.append(("half_frozen", replace(setup, frozen_bytes=HALF_BYTES, activation_bytes=HALF_BYTES)))
    if setup.micro_batch > 1:  # the user's micro-batch: activations and logits scale with it
        variants.append(("micro_batch_1", replace(setup, micro_batch=1)))
    if setup.method == Method.full:
        variants += [
            ("adamw8bit", replace(setup, optimizer="adamw8bit")),
            ("cpu_offload", replace(setup, offload=True)),
            ("lora", replace(setup, method=Method.lora)),
            ("qlora", replace(setup, method=Method.qlora)),
        ]
    elif setup.method == Method.lora:
        variants.append(("qlora", replace(setup, method=Method.qlora)))
    out = []
    counts: list[int] = []  # the rows' counts so far: an adapter's search is seeded by the least (a guess)
    for change, variant in variants:
        shared = _kept_shared(memo, setup, variant)  # the user's kept activations, where they are the same
        seed = min(at_least, *counts) if counts and change in _ADAPTERS else at_least
        found = min_gpus(spec, params, gpu, variant, memo=shared, at_most=seed)  # most fit as setup
        zero = None  # trial s19 #3: the user's ZeRO-1/2 keeps all weights on each GPU; the row: ZeRO-3
        if change == "lora" and variant.zero_stage in (1, 2):  # (JSON: change stays 'lora')
            z3 = min_gpus(spec, params, gpu, replace(variant, zero_stage=3))  # s21: kept when fewer GPUs
            if z3 is not None and (found is None or z3[0] < found[0]):
                zero, found = 3, z3
        count, per_gpu = (found[0], sum(found[2].values())) if found else (None, None)
        if count is not None:
            counts.append(count)
        row = Alternative(change=change, zero_stage=zero, min_gpus=count, per_gpu_bytes=per_gpu)
        if change == "cpu_offload" and found is not None:  # the host RAM it needs per machine (s40 fixt #14)
            from estimator.host_ram import host_ram_needed

            ram = host_ram_needed(params, found[1].zero_stage, found[0], gpu.gpus_per_node)[0]
            row = row.model_copy(update={"host_ram_bytes": ram})
        out.append(row)
    out = _without_idle_other_stack(out)
    if setup.recompute is not None:  # the user chose the recompute mode: no "without full recompute" row
        return out
    no_recompute = min_gpus(  # at the setup's own count when its layout there recomputes selectively
        spec, params, gpu, setup, allow_full_recompute=False, memo=memo, at_least=at_least, at_most=at_least
    )
    out.append(
        Alternative(
            change="no_full_recompute",
            min_gpus=no_recompute[0] if no_recompute else None,
            per_gpu_bytes=sum(no_recompute[2].values()) if no_recompute else None,
        )
    )
    return out


_ADAPTERS = ("lora", "qlora")
"""Rows whose search :func:`_alternatives` seeds with the least count of the rows before them (min_gpus'
``at_most``): an adapter job keeps no full-size gradients or optimizer states, so it mostly fits where
the full-training rows do, and QLoRA where LoRA does. Only a guess: a seed that does not fit makes the
search run without it, with the same answer (s34-spans)."""


NEMO_PEFT = frozenset({Method.lora, Method.ptuning})
"""Adapter methods another stack with TP/PP runs: NVIDIA NeMo's PEFT on Megatron-Core (NeMo docs
"Parameter-Efficient Fine-Tuning": LoRA, P-tuning, IA3, adapters, with tensor and pipeline parallelism).
Megatron-LM itself trains full weights only; no such stack has QLoRA's 4-bit base nor LLaMA-Factory's
freeze-tuning."""


SHARDING_STACK = "sharding_stack"
"""The change (an alternative's, a fit change's setting) of ZeRO-3 for a tool that never shards the model
(:attr:`estimator.setup.TrainingSetup.shards_model`: Unsloth): another stack
(:data:`estimator.training_tools.SHARDING_STACKS`), not a setting of the user's tool (session 34)."""
HALF_BYTES = 2.0
"""Bytes per weight of a frozen base loaded in bf16 or fp16 (``torch_dtype=torch.bfloat16``, or float16 on
a card without bf16): the half of fp32's 4 (:attr:`estimator.setup.TrainingSetup.frozen_bytes`)."""
HALF_LOADS = frozenset({Method.lora, Method.ptuning, Method.freeze})
"""Methods whose frozen base the run may load in fp32 (:attr:`estimator.setup.TrainingSetup.frozen_bytes`):
loading it in 16 bits is the change offered first, as the same job (s34 trial #5)."""


def other_stack_helps(setup: TrainingSetup, gpu: GpuSpec, own: int | None) -> bool:
    """Whether to size another stack's TP/PP layouts beside a data-parallel-only tool (issue 24 item 3:
    the user's stack first, then what another stack would allow): full fine-tuning, or an adapter job of
    :data:`NEMO_PEFT` that the user's tool cannot run on one node (``own``, its fewest GPUs, is None or
    above ``gpu.gpus_per_node``) — a LoRA that fits a node stays in the user's tool (s29 trial #7:
    Megatron was offered for a LLaMA-Factory LoRA)."""
    if not setup.data_parallel_only or setup.method in (Method.qlora, Method.freeze):
        return False
    return setup.method == Method.full or (
        setup.method in NEMO_PEFT and (own is None or own > gpu.gpus_per_node)
    )


_KEPT_READS = (
    "method",
    "algorithm",
    "seq_len",
    "freeze_layers",
    "lora_dropout",
    "master_weights",
    "lora_targets",
    "activation_bytes",
)
"""The setup's fields that :func:`estimator.transients.kept_activations` and
:func:`estimator.transients.activation_facts` read (with the model and the layout's TP, PP, micro-batch,
recompute mode and ZeRO stage): tests/test_estimate_speed.py checks the shared spans against fresh ones."""


def _kept_shared(memo: SearchMemo | None, setup: TrainingSetup, variant: TrainingSetup) -> SearchMemo | None:
    """A new :class:`estimator.memory.SearchMemo` for ``variant``'s search that shares ``memo``'s kept
    activations and their facts (the same dicts: each search adds to them) when ``variant`` differs from
    ``setup`` in none of :data:`_KEPT_READS` (the optimizer, ZeRO stage, offload, layout, recompute mode,
    micro-batch or tool of :func:`_alternatives`), else None (a search of its own)."""
    if memo is None:
        return None
    for f in _KEPT_READS:  # a loop: no generator frame a field (s37)
        if getattr(setup, f) != getattr(variant, f):
            return None
    return SearchMemo(activations=memo.activations, by_layers=memo.by_layers, facts=memo.facts)


def _without_idle_other_stack(rows: list[Alternative]) -> list[Alternative]:
    """Drop the 'other stack' row when ZeRO-3 in the user's own tool does as well: another stack is
    named only for what its TP/PP layouts add."""
    by = {a.change: a.min_gpus for a in rows}
    other, zero3 = by.get("other_stack"), by.get("zero3") or by.get(SHARDING_STACK)
    if other is not None and zero3 is not None and zero3 <= other:
        return [a for a in rows if a.change != "other_stack"]
    return rows


def tool_changes(changes: list[FitChange], setup: TrainingSetup) -> list[FitChange]:
    """``changes`` with ZeRO-3 named as another stack's (:data:`estimator.plan_alternatives.SHARDING_STACK`)
    when the user's tool never shards the model (:attr:`TrainingSetup.shards_model`: Unsloth); else as is."""
    if setup.shards_model or not changes:
        return changes
    return [
        c.model_copy(update={"setting": SHARDING_STACK}) if c.setting == "zero_stage" else c for c in changes
    ]
