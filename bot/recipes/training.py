"""Training recipes from the answer's plan: a DeepSpeed config and its launcher (here), Megatron-LM
arguments (:mod:`bot.recipes.megatron`), a LLaMA-Factory YAML (:mod:`bot.recipes.llamafactory`), a
torchtune command (:mod:`bot.recipes.torchtune`), and which of them an answer gets
(:func:`training_recipes`); what they share is in :mod:`bot.recipes.training_parts`.

Every number comes from the plan (TP, PP, DP, ZeRO stage, offload, recompute, micro-batch, gradient
accumulation, global batch) and the request (sequence length, method, LoRA rank, QLoRA bits, epochs,
tokens). Tool versions and their flag lists: ``bot/recipes/flags/*.json``.

Mappings that are not one-to-one are stated where they are made:

* ZeRO in Megatron-LM: stage 1 = ``--use-distributed-optimizer`` (shards the optimizer states, "similar
  to ZeRO-1", Megatron-LM docs); stages 2 and 3 = Megatron-FSDP with ``--data-parallel-sharding-strategy
  optim_grads`` / ``optim_grads_params`` (its user guide lists the required flags).
* CPU offload in DeepSpeed runs on ZeRO-2 (the ZeRO-Offload setup, Ren et al. 2021); a plan with offload
  on one GPU says ZeRO-0, which shards nothing — ZeRO-2 on one GPU shards nothing either.
* Recompute: 'selective' = Megatron's selective recompute (attention scores recomputed; FlashAttention
  keeps none), 'full' = every layer's input checkpointed (Megatron ``--recompute-granularity full``,
  Hugging Face gradient checkpointing, torchtune ``enable_activation_checkpointing``).
"""

from __future__ import annotations

import json

from bot.recipes import wording as w
from bot.recipes.llamafactory import llamafactory
from bot.recipes.megatron import megatron
from bot.recipes.model import Job, Recipe, gpus_of, nodes, training_precision
from bot.recipes.shell import command, script
from bot.recipes.torchtune import torchtune, torchtune_config
from bot.recipes.training_parts import (
    DS_CONFIG,
    LLAMAFACTORY_ALGORITHMS,
    MASTER_PORT,
    TRL_TRAINERS,
    advised_plan,
    algorithm,
    batch,
    batch_comment,
    deepspeed_stage,
    layout_text,
    torchrun_args,
)
from bot.render.plan_text import gpus_text
from estimator.models import Method, Plan, Stage

__all__ = ["deepspeed", "deepspeed_config", "deepspeed_stage", "launcher", "training_recipes"]


def deepspeed_config(job: Job, plan: Plan) -> dict:
    """The DeepSpeed config: batch sizes (train_batch_size = micro × accumulation × DP, as
    ``DeepSpeedConfig._batch_assertion`` checks), precision, ZeRO stage and offload, AutoTP."""
    micro, accumulation, total = batch(plan)
    precision = training_precision(job)
    config: dict = {
        "train_batch_size": total,
        "train_micro_batch_size_per_gpu": micro,
        "gradient_accumulation_steps": accumulation,
        "gradient_clipping": 1.0,
        precision: {"enabled": True},
    }
    zero: dict = {"stage": deepspeed_stage(plan)}
    if zero["stage"] >= 1:
        zero |= {"overlap_comm": True, "contiguous_gradients": True}
    if plan.offload:
        zero["offload_optimizer"] = {"device": "cpu", "pin_memory": True}
    if zero["stage"] == 3:
        zero["stage3_gather_16bit_weights_on_model_save"] = True
    config["zero_optimization"] = zero
    if plan.tp > 1:
        config["tensor_parallel"] = {"autotp_size": plan.tp}
    return config


def deepspeed(job: Job, plan: Plan) -> Recipe:
    text = json.dumps(deepspeed_config(job, plan), indent=2) + "\n"
    return Recipe(
        tool="deepspeed",
        title=w.title(job.lang, "deepspeed", layout=layout_text(job, plan)),
        filename=DS_CONFIG,
        language="json",
        text=text,
    )


def _hf_trainer_args(job: Job, plan: Plan) -> list[str]:
    """The Hugging Face Trainer arguments the DeepSpeed config must agree with."""
    micro, accumulation, _ = batch(plan)
    args = [
        f"--deepspeed {DS_CONFIG}",
        f"--per_device_train_batch_size {micro}",
        f"--gradient_accumulation_steps {accumulation}",
        f"--{training_precision(job)} true",
    ]
    if plan.recompute == "full":
        args.append("--gradient_checkpointing true")
    return args


def _common_comments(job: Job, plan: Plan) -> list[str]:
    lines = [batch_comment(job.lang, plan)]
    if plan.tp > 1:
        lines.append(w.comment(job.lang, "autotp", tp=plan.tp))
    if plan.offload and plan.zero_stage < 2:
        lines.append(w.comment(job.lang, "offload_stage"))
    if plan.recompute == "full":
        lines.append(w.comment(job.lang, "recompute_hf"))
    elif plan.recompute == "selective":
        lines.append(w.comment(job.lang, "recompute_selective_hf"))
    return lines


def _script_comment(job: Job) -> str:
    """What train.py is: a Hugging Face Trainer script, or TRL's trainer for DPO/PPO/GRPO/RLOO."""
    algo = algorithm(job)
    if algo in TRL_TRAINERS:
        return w.comment(job.lang, "trl_script", trainer=TRL_TRAINERS[algo], algo=algo.upper())
    return w.comment(job.lang, "train_script")


def launcher(job: Job, plan: Plan, notes: list[str] | None = None) -> Recipe:
    """One node: the ``deepspeed`` launcher; several: ``torchrun`` on each node (no ssh/pdsh needed).
    ``notes``: comment lines saying why a tool got no recipe (one that cannot run the algorithm)."""
    n_nodes, per_node = nodes(gpus_of(plan), job.per_node)
    comments = [*_common_comments(job, plan), _script_comment(job), *(notes or [])]
    tail = ["train.py", *_hf_trainer_args(job, plan)]
    if n_nodes == 1:
        cmd = command(["deepspeed"], [("--num_gpus", per_node), ("--master_port", MASTER_PORT)], tail)
        return Recipe(
            tool="deepspeed",
            title=w.title(job.lang, "deepspeed_launch", gpus=gpus_text(job.lang, per_node)),
            filename="launch_deepspeed.sh",
            language="bash",
            text=script(["#!/usr/bin/env bash", *comments], cmd),
        )
    comments.append(w.comment(job.lang, "every_node", nodes=n_nodes, last=n_nodes - 1))
    cmd = command(["torchrun"], torchrun_args(n_nodes, per_node), tail)
    return Recipe(
        tool="torchrun",
        title=w.title(job.lang, "torchrun_launch", nodes=n_nodes, per_node=per_node),
        filename="launch_torchrun.sh",
        language="bash",
        text=script(["#!/usr/bin/env bash", *comments], cmd),
    )


# -- which recipes ------------------------------------------------------------------------------------


def training_recipes(job: Job, torchtune_registry: dict[str, list[str]]) -> list[Recipe]:
    """The recipes for a training answer, best fit first:

    * pre-training (and any plan with a pipeline): Megatron-LM, built for TP/PP/sequence parallelism
      at scale; plus DeepSpeed when the plan has no pipeline (ZeRO + AutoTP run Hugging Face models);
    * fine-tuning: LLaMA-Factory's YAML over the DeepSpeed config and its launcher; torchtune when it
      ships a tested config for this model (no DeepSpeed needed); Megatron-LM when the plan has a
      pipeline.

    A recipe runs the job sized: DPO gets LLaMA-Factory's ``stage: dpo``; PPO, GRPO and RLOO get the
    DeepSpeed config with TRL's trainer; a tool that cannot run the algorithm (Megatron-LM's
    pretrain_gpt.py, torchtune's SFT configs, LLaMA-Factory for GRPO/RLOO/PPO) gets none, said why in
    the launcher (:data:`LLAMAFACTORY_ALGORITHMS`).
    """
    plan = job.plan
    if plan is None or job.spec is None:
        return []
    plan = advised_plan(job, plan)
    out: list[Recipe | None] = []
    notes: list[str] = []
    algo, lang = algorithm(job), job.lang
    pretraining = job.stage in (Stage.pretrain, Stage.continued_pretrain)
    needs_ds = plan.dp > 1 or plan.zero_stage > 0 or plan.offload or plan.tp > 1
    # DeepSpeed's AutoTP training runs with ZeRO 0, 1 or 2 only (deepspeed.ai/tutorials/autotp-training):
    # TP with ZeRO-3 is a layout Megatron-LM runs (Megatron-FSDP), not DeepSpeed nor LLaMA-Factory over it
    autotp = plan.tp == 1 or deepspeed_stage(plan) < 3
    hf_tools = plan.pp == 1 and plan.ep == 1 and autotp  # expert parallelism needs Megatron-LM's MoE code
    megatron_runs = pretraining or autotp or job.method == Method.full  # pretrain_gpt.py has no LoRA
    want_megatron = (pretraining or not hf_tools) and algo == "sft" and megatron_runs
    if pretraining or not hf_tools:
        if want_megatron:
            out.append(None)  # Megatron-LM's place: first, built once the notes are known
        elif algo != "sft":
            notes.append(w.comment(lang, "no_megatron_algo", algo=algo.upper()))
    if not autotp and plan.pp == 1 and plan.ep == 1:
        notes.append(w.comment(lang, "no_deepspeed_tp_zero3", tp=plan.tp))
    fine_tuning = job.stage in (Stage.finetune, Stage.continued_pretrain)
    if fine_tuning and job.method != Method.ptuning and plan.pp == 1 and plan.ep == 1:
        if plan.tp > 1:  # LLaMA-Factory runs data parallelism only (ZeRO/FSDP over HF Trainer)
            notes.append(w.comment(lang, "no_llamafactory_tp", tp=plan.tp))
        elif algo in LLAMAFACTORY_ALGORITHMS:  # LLaMA-Factory 0.9.5 has no P-tuning
            out.append(llamafactory(job, plan, with_deepspeed=needs_ds))
        else:
            key = "no_llamafactory_ppo" if algo == "ppo" else "no_llamafactory_algo"
            notes.append(w.comment(lang, key, algo=algo.upper()))
            needs_ds = True  # TRL's trainer over the DeepSpeed config runs it
    if hf_tools:
        tuned = None
        if algo == "sft":
            tuned = torchtune(job, plan, torchtune_registry)
        elif torchtune_config(job, plan, torchtune_registry) is not None:
            notes.append(w.comment(lang, "no_torchtune_algo", algo=algo.upper()))
        if needs_ds or not fine_tuning:
            out += [deepspeed(job, plan), launcher(job, plan, notes)]
            notes = []
        out.append(tuned)
    if want_megatron:
        out[0] = megatron(job, plan, notes)
    return [r for r in out if r is not None]
