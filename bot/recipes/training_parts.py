"""What every training recipe reads from a job and its plan (bot.recipes.training, .megatron,
.llamafactory, .torchtune): batch sizes, ZeRO stage, LoRA settings, epochs, the torchrun arguments."""

from __future__ import annotations

from bot.recipes import wording as w
from bot.recipes.model import Job, gpus_of
from bot.recipes.shell import Arg
from bot.render.fmt import fmt_for
from bot.render.plan_text import plan_layout
from estimator.models import Method, Plan, Stage

MASTER_PORT = 29500
"""The rendezvous port torchrun and the DeepSpeed launcher use by default."""
DS_CONFIG = "ds_config.json"
LORA_ALPHA_PER_RANK = 2
"""LoRA alpha = 2 × rank: LLaMA-Factory's default (``lora_alpha`` None → rank × 2) and torchtune's configs
(rank 8, alpha 16)."""


def stage_key(job: Job) -> str:
    """'pretrain', 'continued_pretrain', or the fine-tuning method ('full', 'lora', 'qlora')."""
    if job.stage in (Stage.pretrain, Stage.continued_pretrain):
        return job.stage.value
    return job.method.value


LLAMAFACTORY_ALGORITHMS = frozenset({"sft", "dpo"})
"""Training algorithms whose LLaMA-Factory recipe is written: ``stage: sft`` and ``stage: dpo`` (its
examples/train_lora/llama3_lora_dpo.yaml). LLaMA-Factory 0.9.5 has no GRPO or RLOO stage (its stages: pt,
sft, rm, ppo, dpo, kto), and its PPO stage needs a reward model trained first (``stage: rm``)."""
TRL_TRAINERS = {"dpo": "DPOTrainer", "grpo": "GRPOTrainer", "rloo": "RLOOTrainer", "ppo": "PPOTrainer"}
"""The TRL trainer that runs each preference/RL algorithm over a DeepSpeed config (``--deepspeed``)."""


def algorithm(job: Job) -> str:
    """'sft', or the preference/RL algorithm the request sized ('dpo', 'ppo', 'grpo', 'rloo')."""
    algo = job.request.algorithm
    return str(getattr(algo, "value", algo)) if algo else "sft"


def advised_plan(job: Job, plan: Plan) -> Plan:
    """The plan a recipe runs: the answer's, with full recompute where the answer's borderline verdict
    says to turn gradient checkpointing on (``Memory.fit_change``, estimator.fit_change) for this very
    layout — the recipe then does what the answer advises, not the setting it warned about."""
    memory = job.report.memory
    if memory is None or plan.recompute == "full" or memory.plan is None:
        return plan
    same = (memory.plan.tp, memory.plan.pp, memory.plan.dp) == (plan.tp, plan.pp, plan.dp)
    if same and any(c.setting == "recompute" and c.value == "full" for c in memory.fit_change):
        return plan.model_copy(update={"recompute": "full"})
    return plan


def deepspeed_stage(plan: Plan) -> int:
    """The ZeRO stage DeepSpeed runs: the plan's, or ZeRO-2 for CPU offload (module docstring)."""
    return max(plan.zero_stage, 2) if plan.offload else plan.zero_stage


def batch(plan: Plan) -> tuple[int, int, int]:
    """(micro-batch, gradient accumulation, global batch) of a plan; global = micro × accumulation × DP."""
    accumulation = plan.gradient_accumulation or 1
    return plan.micro_batch, accumulation, plan.micro_batch * accumulation * plan.dp


def qlora_bits(job: Job) -> int | None:
    """Bits of the frozen base for QLoRA: the request's int8/int4/int3/int2 precision, else 4 (NF4,
    Dettmers et al. 2023)."""
    if job.method != Method.qlora:
        return None
    precision = str(getattr(job.request.precision, "value", job.request.precision) or "")
    if precision.startswith("int") and precision[3:].isdigit():
        return int(precision[3:])
    return 4


def lora_rank(job: Job) -> int | None:
    if job.method == Method.full:
        return None
    value = job.request.lora_rank or job.assumed("lora_rank") or 16
    return int(value)  # type: ignore[arg-type]


def lora_targets(job: Job) -> list[str] | None:
    """LoRA target modules the user named; None = all linear layers (what the estimate assumed)."""
    value = job.request.lora_targets
    if not value:
        return None
    items = [value] if isinstance(value, str) else list(value)
    names = [str(getattr(v, "value", v)) for v in items]
    return None if any(n in ("all", "all-linear") for n in names) else names


def pure_bf16(job: Job) -> bool:
    return bool(job.request.pure_bf16)


def epochs(job: Job) -> float:
    value = job.request.epochs or job.assumed("epochs") or 1
    return float(value)  # type: ignore[arg-type]


def batch_comment(lang: str, plan: Plan) -> str:
    """'# global batch 128 sequences = micro-batch 1 × 16 accumulation × DP 8'."""
    micro, accumulation, total = batch(plan)
    return w.comment(lang, "batch", micro=micro, accumulation=accumulation, dp=plan.dp, **{"global": total})


def layout_text(job: Job, plan: Plan) -> str:
    gpu = job.gpu.family if job.gpu else "GPU"
    return f"{gpus_of(plan)} × {gpu}{fmt_for(job.lang).sep}{plan_layout(plan, job.lang)}"


# -- DeepSpeed ---------------------------------------------------------------------------------------


def torchrun_args(n_nodes: int, per_node: int) -> list[Arg]:
    if n_nodes == 1:
        return [("--standalone", None), ("--nproc-per-node", per_node)]
    return [
        ("--nnodes", n_nodes),
        ("--nproc-per-node", per_node),
        ("--node-rank", "${NODE_RANK}"),
        ("--master-addr", "${MASTER_ADDR}"),
        ("--master-port", MASTER_PORT),
    ]
