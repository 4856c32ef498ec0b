"""A torchtune ``tune run`` command from the answer's plan, over a config torchtune ships for the model."""

from __future__ import annotations

from bot.recipes import refs
from bot.recipes import wording as w
from bot.recipes.model import Job, Recipe, gpus_of, nodes
from bot.recipes.shell import Arg, command, script
from bot.recipes.training_parts import (
    LORA_ALPHA_PER_RANK,
    MASTER_PORT,
    batch,
    batch_comment,
    epochs,
    layout_text,
    lora_rank,
    lora_targets,
    qlora_bits,
    stage_key,
)
from estimator.models import Method, Plan, Stage

# -- torchtune ---------------------------------------------------------------------------------------


def torchtune_config(job: Job, plan: Plan, registry: dict[str, list[str]]) -> tuple[str, str] | None:
    """(recipe, config) of torchtune v0.6.1 for this model, method and GPU count, or None when torchtune
    has no tested config for it (or the plan needs TP/PP, or QLoRA bits other than NF4)."""
    if job.spec is None or plan.tp > 1 or plan.pp > 1 or job.stage != Stage.finetune:
        return None
    if job.method in (Method.freeze, Method.ptuning):  # torchtune has neither
        return None
    base = refs.TORCHTUNE_BASES.get(job.spec.id)
    if base is None:
        return None
    single = gpus_of(plan) == 1
    if job.method == Method.full:
        recipe = "full_finetune_single_device" if single else "full_finetune_distributed"
        names = [f"{base}_full_single_device", f"{base}_full_low_memory"] if single else [f"{base}_full"]
    else:
        if job.method == Method.qlora and qlora_bits(job) != 4:
            return None
        kind = "qlora" if job.method == Method.qlora else "lora"
        recipe = "lora_finetune_single_device" if single else "lora_finetune_distributed"
        names = [f"{base}_{kind}_single_device"] if single else [f"{base}_{kind}"]
    config = next((n for n in names if n in registry.get(recipe, [])), None)
    return (recipe, config) if config else None


def torchtune(job: Job, plan: Plan, registry: dict[str, list[str]]) -> Recipe | None:
    """``tune run`` with the plan's batch, accumulation, sequence length, LoRA rank, recompute and
    sharding as ``key=value`` overrides of a config torchtune ships for this model."""
    found = torchtune_config(job, plan, registry)
    if found is None:
        return None
    recipe, config = found
    micro, accumulation, _ = batch(plan)
    n_nodes, per_node = nodes(gpus_of(plan), job.per_node)
    overrides = [
        f"batch_size={micro}",
        f"gradient_accumulation_steps={accumulation}",
        f"tokenizer.max_seq_len={job.request.seq_len or 2048}",
        f"epochs={max(1, round(epochs(job)))}",
        "dtype=bf16",
        f"enable_activation_checkpointing={plan.recompute == 'full'}",
    ]
    rank = lora_rank(job)
    if rank:
        overrides += [f"model.lora_rank={rank}", f"model.lora_alpha={rank * LORA_ALPHA_PER_RANK}"]
        targets = lora_targets(job)
        if targets is None:  # all linear layers, as the estimate assumed
            overrides += [
                "'model.lora_attn_modules=[q_proj,k_proj,v_proj,output_proj]'",  # quoted: [] is a shell glob
                "model.apply_lora_to_mlp=True",
            ]
    lang = job.lang
    comments = [
        "#!/usr/bin/env bash",
        w.comment(lang, "torchtune_why", repo=refs.model_path(job.spec, job.request.params_total)),
        batch_comment(lang, plan),
    ]
    launch: list[Arg] = []
    if gpus_of(plan) > 1:
        reshard = plan.zero_stage == 3
        overrides.append(f"fsdp_reshard_after_forward={reshard}")
        if plan.offload:
            overrides.append("fsdp_cpu_offload=True")
        comments.append(w.comment(lang, "torchtune_sharding", how=w.words(lang, w.FSDP, reshard)))
        launch = [("--nnodes", n_nodes), ("--nproc_per_node", per_node)]
        if n_nodes > 1:
            launch += [
                ("--node_rank", "${NODE_RANK}"),
                ("--master_addr", "${MASTER_ADDR}"),
                ("--master_port", MASTER_PORT),
            ]
            comments.append(w.comment(lang, "every_node", nodes=n_nodes, last=n_nodes - 1))
    cmd = command(["tune", "run"], launch, [recipe, f"--config {config}", *overrides])
    stage = w.words(lang, w.STAGES, stage_key(job))
    return Recipe(
        tool="torchtune",
        title=w.title(lang, "torchtune", stage=stage, config=config, layout=layout_text(job, plan)),
        filename="torchtune.sh",
        language="bash",
        text=script(comments, cmd),
    )
