"""A LLaMA-Factory ``llamafactory-cli train`` YAML from the answer's plan and request.

A packed run (``SizingRequest.packing``) writes ``packing: true`` after ``cutoff_len``: LLaMA-Factory's
``DataArguments.packing`` ("Enable sequences packing in training", src/llamafactory/hparams/data_args.py;
``neat_packing`` packs without cross-attention between the samples), so the YAML runs the job sized (s44
fixread, issue 24; before, the packed run's YAML padded every batch)."""

from __future__ import annotations

from bot.recipes import refs
from bot.recipes import wording as w
from bot.recipes.model import Job, Recipe, gpus_of, nodes, training_precision
from bot.recipes.run_line import llamafactory_launch
from bot.recipes.training_parts import (
    DS_CONFIG,
    LORA_ALPHA_PER_RANK,
    MASTER_PORT,
    algorithm,
    batch,
    batch_comment,
    deepspeed_stage,
    epochs,
    layout_text,
    lora_rank,
    lora_targets,
    pure_bf16,
    qlora_bits,
    stage_key,
)
from estimator.models import Method, Plan, Stage

# -- LLaMA-Factory -----------------------------------------------------------------------------------

LLAMAFACTORY_LR = {"full": "1.0e-5", "lora": "1.0e-4", "qlora": "1.0e-4", "dpo": "5.0e-6"}
"""Learning rates in LLaMA-Factory v0.9.5's examples (train_full 1.0e-5, train_lora/train_qlora 1.0e-4,
train_lora/llama3_lora_dpo.yaml 5.0e-6);
shown as a comment: the estimate does not size them."""


DPO_BETA = 0.1
"""``pref_beta`` of LLaMA-Factory's DPO examples (examples/train_lora/llama3_lora_dpo.yaml:
``pref_beta: 0.1``, ``pref_loss: sigmoid``), also TRL's ``DPOConfig.beta`` default."""


def _dataset(job: Job, dpo: bool) -> str:
    """LLaMA-Factory's demo dataset for the stage: c4_demo (pt), dpo_en_demo (dpo), alpaca_en_demo (sft)."""
    if job.stage == Stage.continued_pretrain:
        return "c4_demo"
    return "dpo_en_demo" if dpo else "alpaca_en_demo"


def _yaml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.1f}" if value.is_integer() else f"{value:g}"
    return str(value)


def _llamafactory_recompute(plan: Plan, lang: str) -> list[tuple[str, object] | str]:
    """LLaMA-Factory checkpoints every layer unless told not to; "selective recompute" (the title's
    word) is SDPA/FlashAttention recomputing the attention scores, said beside the setting."""
    rows: list[tuple[str, object] | str] = []
    if plan.recompute != "full":
        if plan.recompute == "selective":
            rows.append(w.comment(lang, "recompute_selective_hf"))
        rows.append(("disable_gradient_checkpointing", True))
    return [*rows, ("flash_attn", "sdpa")]


def _method_rows(job: Job, dpo: bool) -> list[tuple[str, object] | str]:
    """The ``### method`` rows after ``stage``: fine-tuning type (LoRA rank/targets, QLoRA bits), and DPO's
    ``pref_beta``/``pref_loss`` as LLaMA-Factory's examples/train_lora/llama3_lora_dpo.yaml."""
    req, lang = job.request, job.lang
    rows: list[tuple[str, object] | str] = [("do_train", True)]
    if job.method == Method.full:
        rows.append(("finetuning_type", "full"))
    elif job.method == Method.freeze:  # the last layers train (LLaMA-Factory freeze_trainable_layers)
        rows += [("finetuning_type", "freeze"), ("freeze_trainable_layers", req.freeze_layers or 2)]
    else:
        rank = lora_rank(job) or 16
        targets = lora_targets(job)
        rows += [
            ("finetuning_type", "lora"),
            ("lora_rank", rank),
            ("lora_alpha", rank * LORA_ALPHA_PER_RANK),
            ("lora_target", ",".join(targets) if targets else "all"),
        ]
        bits = qlora_bits(job)
        if bits:
            rows += [("quantization_bit", bits), ("quantization_method", "bnb" if bits in (4, 8) else "hqq")]
    if dpo:
        rows += [
            w.comment(lang, "pref_beta", beta=DPO_BETA),
            ("pref_beta", DPO_BETA),
            ("pref_loss", "sigmoid"),
        ]
    return rows


def llamafactory(job: Job, plan: Plan, with_deepspeed: bool) -> Recipe:
    """``llamafactory-cli train`` YAML: model, method (LoRA rank/targets, QLoRA bits), DeepSpeed file,
    sequence length, batch and accumulation, precision, recompute."""
    req = job.request
    key = stage_key(job)
    micro, accumulation, _ = batch(plan)
    n_nodes, per_node = nodes(gpus_of(plan), job.per_node)
    lang = job.lang
    rows: list[tuple[str, object] | str] = ["### model"]
    rows.append(("model_name_or_path", refs.model_path(job.spec, req.params_total)))
    rows.append(("trust_remote_code", True))
    dpo = algorithm(job) == "dpo"
    rows += [
        "### method",
        ("stage", "pt" if job.stage == Stage.continued_pretrain else "dpo" if dpo else "sft"),
    ]
    rows += _method_rows(job, dpo)
    if with_deepspeed:  # the stage said beside it, read back when the YAML is pasted (s12 trial B3)
        offload = " + CPU offload" if plan.offload else ""
        rows += [("deepspeed", DS_CONFIG), f"# {DS_CONFIG}: ZeRO-{deepspeed_stage(plan)}{offload}"]
    rows += [
        "### dataset",
        w.comment(lang, "dataset"),
        *([w.comment(lang, "dpo_dataset")] if dpo else []),
        ("dataset", _dataset(job, dpo)),
        ("template", refs.llamafactory_template(job.spec)),
        ("cutoff_len", req.seq_len or 2048),
        *([("packing", True)] if req.packing else []),  # s44 fixread: the packed run sized
        "### output",
        (
            "output_dir",
            f"saves/{refs.short_name(job.spec, req.params_total).lower()}/{key}{'/dpo' if dpo else ''}",
        ),
        ("logging_steps", 10),
        ("save_steps", 500),
        "### train",
        ("per_device_train_batch_size", micro),
        ("gradient_accumulation_steps", accumulation),
        ("num_train_epochs", epochs(job)),
    ]
    precision = training_precision(job)
    if pure_bf16(job) and precision == "bf16":
        rows.append(("pure_bf16", True))
    else:
        rows.append((precision, True))
    rows += _llamafactory_recompute(plan, lang)
    rows.append(
        w.comment(
            lang, "learning_rate", lr=LLAMAFACTORY_LR.get("dpo" if dpo else key, LLAMAFACTORY_LR["full"])
        )
    )
    run = llamafactory_launch("llamafactory-cli train llamafactory.yaml", n_nodes, per_node, MASTER_PORT)
    header = [
        w.comment(lang, "llamafactory_run", command=run),
        batch_comment(lang, plan),
    ]
    if n_nodes > 1:
        header.append(w.comment(lang, "every_node", nodes=n_nodes, last=n_nodes - 1))
    lines = [*header]
    for row in rows:
        lines.append(row if isinstance(row, str) else f"{row[0]}: {_yaml_value(row[1])}")
    stage = w.words(lang, w.STAGES, "dpo" if dpo else key)
    return Recipe(
        tool="llamafactory",
        title=w.title(lang, "llamafactory", stage=stage, layout=layout_text(job, plan)),
        filename="llamafactory.yaml",
        language="yaml",
        text="\n".join(lines) + "\n",
    )
