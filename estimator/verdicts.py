"""Does the job fit the user's GPUs? 'yes' / 'borderline' (with a reason) / 'no' for training.

The serving verdicts live with the serving branch (:mod:`estimator.serving`); both count the user's
GPUs the same way (:func:`requested_count`).
"""

from __future__ import annotations

from dataclasses import replace

from estimator.catalog import GpuSpec, ModelSpec
from estimator.ledger import Ledger
from estimator.memory import breakdown
from estimator.models import Memory, Method, Plan, SizingRequest
from estimator.plan import HEADROOM, best_plan_for
from estimator.setup import TrainingSetup
from estimator.training_tools import tool_limits


def requested_count(req: SizingRequest) -> int | None:
    """The user's GPU count; a memory size without a count ('24G显存的卡') means one card."""
    return req.gpu_count or (1 if req.gpu_memory_gib else None)


def training_verdict(
    req: SizingRequest,
    spec: ModelSpec,
    params: float,
    gpu: GpuSpec,
    setup: TrainingSetup,
    mem: Memory,
    ledger: Ledger | None = None,
) -> tuple[str | None, str | None]:
    """('yes' / 'borderline' / 'no', reason) for the user's GPU count; (None, None) without one.

    yes: a layout fits with ≥ 10 % headroom and the high end of its band fits the card.
    no, 'tool_default_ddp': the user's data-parallel tool, with no ZeRO/FSDP setting stated, runs plain
    DDP (:func:`tool_runs_ddp`) and no DDP layout fits their count, although a ZeRO one does: the verdict
    is on their setting as configured (design §8), the ZeRO plan is the alternative (:func:`ddp_bytes`).
    borderline: the same, where a DDP layout would fit too ('tool_default_ddp'); or the plan fits only
    above 90 % of the card ('tight'); or the likely figure fits but the band's high end
    (:mod:`estimator.memory_band`) does not ('high_edge': real runs land there, issue 25 item 1); for
    these three :func:`estimator.fit_change.what_to_change` names what to change. Also borderline: only
    at the upper end of a stated range ('range_upper_end'); only thanks to CPU offload (≈ 12 B/param of
    host RAM and slow steps, ZeRO-Offload §4: 'offload'; 'yes', 'offload_unneeded' when the same setting
    without offload fits their count within the headroom: :func:`without_offload`, supervised training
    only: an RL job's colocated rollout engine takes GPU memory offload frees, outside this sizing, as in
    the ms-swift GRPO thread whose rollout OOMs with offload on); a QLoRA base too
    big for one card must be sharded (FSDP-QLoRA: works with recent tooling, fiddly: 'sharded_4bit_base').
    no: nothing fits on that many GPUs. ``ledger``: where 'offload_unneeded' puts its note
    ('offload_not_needed': the per-GPU GiB without offload and its share of the usable memory).
    """

    count = requested_count(req)
    if count is None:
        return None, None
    if mem.fits_requested:
        if tool_runs_ddp(req, setup, mem):
            ddp_fits = best_plan_for(spec, params, gpu, count, replace(setup, zero_stage=0)) is not None
            return ("borderline" if ddp_fits else "no"), "tool_default_ddp"
        if mem.per_gpu_bytes > HEADROOM * mem.usable_bytes:
            return "borderline", "tight"
        if (mem.per_gpu_bytes_high or 0.0) > mem.usable_bytes:
            return "borderline", "high_edge"
        if setup.offload:  # 'yes' when it fits without (the note says offload is not needed, s25b #6)
            unneeded = req.algorithm in (None, "sft") and without_offload(spec, params, gpu, count, setup)
            if (
                unneeded and ledger is not None
            ):  # their offload's figure stays the answer; the note: it can go
                per_gpu = sum(unneeded[1].values())
                share = round(per_gpu / mem.usable_bytes, 3)
                ledger.note("offload_not_needed", per_gpu_gib=round(per_gpu / 2**30, 1), ratio=share)
            return ("yes", "offload_unneeded") if unneeded else ("borderline", "offload")
        plan = mem.plan
        if plan is not None and setup.method == Method.qlora:
            base_on_one_gpu = mem.breakdown.get("weights", 0) * plan.tp * plan.pp
            base_on_one_gpu *= plan.dp if plan.zero_stage >= 3 else 1
            if base_on_one_gpu > HEADROOM * mem.usable_bytes:
                return "borderline", "sharded_4bit_base"
        return "yes", None
    if req.gpu_count_max and best_plan_for(spec, params, gpu, req.gpu_count_max, setup):
        return "borderline", "range_upper_end"
    return "no", None


def without_offload(
    spec: ModelSpec, params: float, gpu: GpuSpec, count: int, setup: TrainingSetup
) -> tuple[Plan, dict[str, float]] | None:
    """The layout and per-GPU bytes of ``setup`` without CPU offload on ``count`` GPUs when it fits within
    :data:`estimator.plan.HEADROOM` (90 %) of the card, else None: offload is then not needed (trial s25b
    #6: Qwen2.5-32B full fine-tuning, ZeRO-3 on 16 × H100 80G holds 16 B × 32.8B / 16 ≈ 33 GB of model
    states per GPU without it; ZeRO-Offload (Ren et al. 2021) §4 moves the optimizer states to the host
    only to fit fewer GPUs, at slower steps)."""
    if not setup.offload:
        return None
    return best_plan_for(spec, params, gpu, count, replace(setup, offload=False), HEADROOM)


def tool_runs_ddp(req: SizingRequest, setup: TrainingSetup, mem: Memory) -> bool:
    """The user named a data-parallel tool (Hugging Face Trainer, TRL, LLaMA-Factory, axolotl, ms-swift,
    Unsloth: :data:`estimator.training_tools.TRAINING_TOOL_LIMITS`) and neither a ZeRO stage nor offload
    (which needs ZeRO), while the plan on their GPUs shards with ZeRO.

    Without a ``deepspeed`` / ``fsdp`` setting these tools run PyTorch DDP, which keeps a whole replica
    of the model on every GPU (transformers ``TrainingArguments``: DeepSpeed and FSDP only when
    ``deepspeed`` / ``fsdp`` are set; PyTorch DDP docs: each process keeps its own replica of the model;
    LLaMA-Factory shards only with ``deepspeed: examples/deepspeed/ds_z3_config.json`` or an FSDP
    config): the run as stated does not use the plan's layout, so the verdict names the setting."""
    plan, named = mem.plan, tool_limits(req.training_tool)
    return bool(
        named is not None and named.data_parallel_only and setup.data_parallel_only and not named.on_deepspeed
        and setup.zero_stage is None and not setup.offload
        and plan is not None and plan.dp > 1 and plan.zero_stage > 0
    )  # fmt: skip


def ddp_bytes(spec: ModelSpec, params: float, setup: TrainingSetup, mem: Memory) -> float:
    """Bytes per GPU of the user's run as configured under plain DDP: the plan's layout (DP, micro-batch,
    recompute) with ZeRO off — every GPU holds the whole model states (PyTorch DDP: one replica per
    process; ZeRO §3, stage 0: (2 + 2 + K)·Ψ per GPU) — for the 'does not fit with DDP' verdict."""
    assert mem.plan is not None
    return sum(
        breakdown(
            spec, params, replace(setup, zero_stage=0), mem.plan.model_copy(update={"zero_stage": 0})
        ).values()
    )
