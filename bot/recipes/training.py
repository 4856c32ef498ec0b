"""Training recipes from the answer's plan: a DeepSpeed config and its launcher, Megatron-LM arguments,
a LLaMA-Factory YAML, a torchtune command.

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
import math

from bot.recipes import refs
from bot.recipes import wording as w
from bot.recipes.model import Job, Recipe, chosen_plan, gpus_of, nodes, training_precision
from bot.recipes.shell import Arg, command, script
from bot.render.fmt import fmt_for
from bot.render.plan_text import gpus_text, plan_layout
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


def deepspeed_stage(plan: Plan) -> int:
    """The ZeRO stage DeepSpeed runs: the plan's, or ZeRO-2 for CPU offload (module docstring)."""
    return max(plan.zero_stage, 2) if plan.offload else plan.zero_stage


def batch(plan: Plan) -> tuple[int, int, int]:
    """(micro-batch, gradient accumulation, global batch) of a plan; global = micro × accumulation × DP."""
    accumulation = plan.gradient_accumulation or 1
    return plan.micro_batch, accumulation, plan.micro_batch * accumulation * plan.dp


def qlora_bits(job: Job) -> int | None:
    """Bits of the frozen base for QLoRA: the request's (a bits field, or an int8/int4/int3/int2 precision),
    else 4 (NF4, Dettmers et al. 2023)."""
    if job.method != Method.qlora:
        return None
    for field in ("qlora_bits", "quantization_bits", "quantization_bit", "base_bits"):
        value = job.said(field)
        if value:
            return int(str(getattr(value, "value", value)).removeprefix("int"))
    precision = str(getattr(job.request.precision, "value", job.request.precision) or "")
    if precision.startswith("int") and precision[3:].isdigit():
        return int(precision[3:])
    return 4


def lora_rank(job: Job) -> int | None:
    if job.method == Method.full:
        return None
    value = job.said("lora_rank") or job.assumed("lora_rank") or 16
    return int(value)  # type: ignore[arg-type]


def lora_targets(job: Job) -> list[str] | None:
    """LoRA target modules the user named; None = all linear layers (what the estimate assumed)."""
    value = job.said("lora_targets")
    if not value:
        return None
    items = [value] if isinstance(value, str) else list(value)
    names = [str(getattr(v, "value", v)) for v in items]
    return None if any(n in ("all", "all-linear") for n in names) else names


def pure_bf16(job: Job) -> bool:
    return bool(job.said("pure_bf16"))


def epochs(job: Job) -> float:
    value = job.request.epochs or job.assumed("epochs") or 1
    return float(value)  # type: ignore[arg-type]


def batch_comment(lang: str, plan: Plan) -> str:
    """'# global batch 128 sequences = micro-batch 1 × 16 accumulation × DP 8'."""
    micro, accumulation, total = batch(plan)
    return w.comment(lang, "batch", micro=micro, accumulation=accumulation, dp=plan.dp, **{"global": total})


def _layout(job: Job, plan: Plan) -> str:
    gpu = job.gpu.family if job.gpu else "GPU"
    return f"{gpus_of(plan)} × {gpu}{fmt_for(job.lang).sep}{plan_layout(plan, job.lang)}"


# -- DeepSpeed ---------------------------------------------------------------------------------------


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
        title=w.title(job.lang, "deepspeed", layout=_layout(job, plan)),
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


def launcher(job: Job, plan: Plan) -> Recipe:
    """One node: the ``deepspeed`` launcher; several: ``torchrun`` on each node (no ssh/pdsh needed)."""
    n_nodes, per_node = nodes(gpus_of(plan), job.per_node)
    comments = [*_common_comments(job, plan), w.comment(job.lang, "train_script")]
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
    cmd = command(["torchrun"], _torchrun_args(n_nodes, per_node), tail)
    return Recipe(
        tool="torchrun",
        title=w.title(job.lang, "torchrun_launch", nodes=n_nodes, per_node=per_node),
        filename="launch_torchrun.sh",
        language="bash",
        text=script(["#!/usr/bin/env bash", *comments], cmd),
    )


def _torchrun_args(n_nodes: int, per_node: int) -> list[Arg]:
    if n_nodes == 1:
        return [("--standalone", None), ("--nproc-per-node", per_node)]
    return [
        ("--nnodes", n_nodes),
        ("--nproc-per-node", per_node),
        ("--node-rank", "${NODE_RANK}"),
        ("--master-addr", "${MASTER_ADDR}"),
        ("--master-port", MASTER_PORT),
    ]


# -- Megatron-LM -------------------------------------------------------------------------------------

LLAMA2_PEAK_LR = ((30e9, 3e-4), (math.inf, 1.5e-4))
"""Peak learning rate by size in Llama 2 (Touvron et al. 2023, Table 1): 3.0e-4 for 7B and 13B,
1.5e-4 for 34B and 70B."""
WARMUP_STEPS = 2000
"""Llama 2 §2.2: 2,000 warm-up steps."""


def _megatron_zero(plan: Plan) -> list[Arg]:
    if plan.zero_stage >= 2:
        strategy = "optim_grads" if plan.zero_stage == 2 else "optim_grads_params"
        return [
            ("--use-megatron-fsdp", None),
            ("--data-parallel-sharding-strategy", strategy),
            ("--no-gradient-accumulation-fusion", None),
            ("--use-distributed-optimizer", None),
            ("--ckpt-format", "fsdp_dtensor"),
        ]
    if plan.zero_stage == 1 or plan.offload:
        return [("--use-distributed-optimizer", None)]
    return []


def _megatron_recompute(plan: Plan) -> list[Arg]:
    if plan.recompute == "full":
        return [
            ("--recompute-granularity", "full"),
            ("--recompute-method", "uniform"),
            ("--recompute-num-layers", 1),
        ]
    if plan.recompute == "selective":
        return [("--recompute-granularity", "selective")]
    return []


def _megatron_shape(job: Job) -> list[Arg]:
    """The model's shape flags from the catalog entry (its config.json) or the generic shape."""
    s = job.spec
    assert s is not None
    args: list[Arg] = [
        ("--num-layers", s.layers),
        ("--hidden-size", s.hidden),
        ("--ffn-hidden-size", s.ffn_hidden),
        ("--num-attention-heads", s.heads),
    ]
    if s.kv_heads < s.heads and not s.kv_lora_rank:
        args += [("--group-query-attention", None), ("--num-query-groups", s.kv_heads)]
    if s.head_dim and s.head_dim != s.hidden // s.heads and not s.kv_lora_rank:
        args.append(("--kv-channels", s.head_dim))
    if s.kv_lora_rank:
        args += [("--multi-latent-attention", None), ("--kv-lora-rank", s.kv_lora_rank)]
        if s.q_lora_rank:
            args.append(("--q-lora-rank", s.q_lora_rank))
        if s.qk_nope_head_dim:
            args.append(("--qk-head-dim", s.qk_nope_head_dim))
        if s.qk_rope_head_dim:
            args.append(("--qk-pos-emb-head-dim", s.qk_rope_head_dim))
        if s.v_head_dim:
            args.append(("--v-head-dim", s.v_head_dim))
    if s.is_moe:
        args += [("--num-experts", s.experts), ("--moe-router-topk", s.experts_top_k or 1)]
        args.append(("--moe-ffn-hidden-size", s.expert_ffn_hidden))
        if s.shared_experts:
            args.append(("--moe-shared-expert-intermediate-size", s.shared_experts * s.shared_ffn_hidden))
    if s.gated_ffn:
        args.append(("--swiglu", None))
    llama_style = s.learned_position_embeddings is None
    args.append(("--position-embedding-type", "rope" if llama_style else "learned_absolute"))
    args.append(("--normalization", "RMSNorm" if s.gated_ffn else "LayerNorm"))
    if not s.tied_embeddings:
        args.append(("--untie-embeddings-and-output-weights", None))
    args.append(("--disable-bias-linear", None))
    if s.attention_bias:
        args.append(("--add-qkv-bias", None))
    args += [("--attention-dropout", 0.0), ("--hidden-dropout", 0.0)]
    return args


def megatron(job: Job, plan: Plan) -> Recipe | None:
    """``torchrun … pretrain_gpt.py`` with the plan's parallelism, batch, recompute and precision."""
    if job.spec is None:
        return None
    req = job.request
    seq = req.seq_len or 4096
    micro, _, total = batch(plan)
    n_nodes, per_node = nodes(gpus_of(plan), job.per_node)
    finetune = job.stage == Stage.finetune
    args: list[Arg] = [
        ("--tensor-model-parallel-size", plan.tp),
        ("--pipeline-model-parallel-size", plan.pp),
    ]
    if job.spec.layers % plan.pp:  # unequal stages (estimator.plan.uneven_ok): ⌈L/PP⌉ each, the rest last
        last = job.spec.layers - (plan.pp - 1) * math.ceil(job.spec.layers / plan.pp)
        args.append(("--decoder-last-pipeline-num-layers", last))
    if plan.ep > 1:
        args.append(("--expert-model-parallel-size", plan.ep))
    if plan.tp > 1:
        args.append(("--sequence-parallel", None))
    args += _megatron_zero(plan)
    if plan.offload:
        args += [("--optimizer-cpu-offload", None), ("--use-precision-aware-optimizer", None)]
    args += _megatron_recompute(plan)
    args += [
        ("--micro-batch-size", micro),
        ("--global-batch-size", total),
        ("--seq-length", seq),
        ("--max-position-embeddings", max(seq, job.spec.max_context or 0)),
        *_megatron_shape(job),
        (f"--{training_precision(job)}", None),
    ]
    if (
        job.report.peak_flops
        and job.gpu is not None
        and job.gpu.peak_tflops_fp8
        and (job.report.peak_flops == job.gpu.peak_tflops_fp8 * 1e12)
    ):  # the answer is timed in FP8 (estimator.training.fp8_training): Transformer Engine's FP8 GEMMs
        args.append(("--fp8-format", "hybrid"))
    repo = refs.hf_repo(job.spec)
    args += [
        ("--tokenizer-type", "HuggingFaceTokenizer"),
        ("--tokenizer-model", repo or refs.model_path(job.spec, req.params_total)),
    ]
    tokens = req.tokens
    if tokens:
        args.append(("--train-samples", max(1, math.ceil(tokens / seq))))
    params = req.params_active or req.params_total or 0
    lr = next(rate for limit, rate in LLAMA2_PEAK_LR if params < limit)
    if finetune:
        args += [("--finetune", None), ("--load", "${CKPT_DIR}")]
    args += [
        ("--lr", lr),
        ("--min-lr", lr / 10),
        ("--lr-decay-style", "cosine"),
        ("--lr-warmup-samples", WARMUP_STEPS * total),
        ("--weight-decay", 0.1),
        ("--adam-beta1", 0.9),
        ("--adam-beta2", 0.95),
        ("--clip-grad", 1.0),
        ("--data-path", "${DATA_PATH}"),
        ("--split", "99,1,0"),
        ("--save", "${CKPT_DIR}"),
        ("--save-interval", 1000),
    ]
    lang = job.lang
    comments = [
        "#!/usr/bin/env bash",
        batch_comment(lang, plan),
        w.comment(
            lang, "megatron_zero", zero=plan.zero_stage, how=w.words(lang, w.SHARDING, plan.zero_stage)
        ),
        w.comment(lang, "megatron_shape", source=job.spec.name)
        if refs.catalogued(job.spec)
        else w.comment(lang, "megatron_generic_shape", size=f"{(req.params_total or 0) / 1e9:g}B"),
        w.comment(lang, "llama2_optimizer", lr=f"{lr:g}"),
        w.comment(lang, "megatron_script"),
    ]
    if finetune:
        comments.append(w.comment(lang, "megatron_finetune"))
    if n_nodes > 1:
        comments.append(w.comment(lang, "every_node", nodes=n_nodes, last=n_nodes - 1))
    cmd = command(["torchrun"], [*_torchrun_args(n_nodes, per_node), ("pretrain_gpt.py", None), *args])
    stage = w.words(lang, w.STAGES, stage_key(job))
    return Recipe(
        tool="megatron",
        title=w.title(lang, "megatron", stage=stage, layout=_layout(job, plan)),
        filename="pretrain_megatron.sh" if not finetune else "finetune_megatron.sh",
        language="bash",
        text=script(comments, cmd),
    )


# -- LLaMA-Factory -----------------------------------------------------------------------------------

LLAMAFACTORY_LR = {"full": "1.0e-5", "lora": "1.0e-4", "qlora": "1.0e-4"}
"""Learning rates in LLaMA-Factory v0.9.5's examples (train_full 1.0e-5, train_lora/train_qlora 1.0e-4);
shown as a comment: the estimate does not size them."""


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
    rows += ["### method", ("stage", "pt" if job.stage == Stage.continued_pretrain else "sft")]
    rows.append(("do_train", True))
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
    if with_deepspeed:
        rows.append(("deepspeed", DS_CONFIG))
    rows += [
        "### dataset",
        w.comment(lang, "dataset"),
        ("dataset", "alpaca_en_demo" if job.stage != Stage.continued_pretrain else "c4_demo"),
        ("template", refs.llamafactory_template(job.spec)),
        ("cutoff_len", req.seq_len or 2048),
        "### output",
        ("output_dir", f"saves/{refs.short_name(job.spec, req.params_total).lower()}/{key}"),
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
    rows.append(w.comment(lang, "learning_rate", lr=LLAMAFACTORY_LR.get(key, LLAMAFACTORY_LR["full"])))
    run = "llamafactory-cli train llamafactory.yaml"
    if n_nodes > 1:
        run = (
            f"FORCE_TORCHRUN=1 NNODES={n_nodes} NODE_RANK=${{NODE_RANK}} MASTER_ADDR=${{MASTER_ADDR}} "
            f"MASTER_PORT={MASTER_PORT} NPROC_PER_NODE={per_node} {run}"
        )
    elif per_node > 1:
        run = f"FORCE_TORCHRUN=1 NPROC_PER_NODE={per_node} {run}"
    header = [
        w.comment(lang, "llamafactory_run", command=run),
        batch_comment(lang, plan),
    ]
    if n_nodes > 1:
        header.append(w.comment(lang, "every_node", nodes=n_nodes, last=n_nodes - 1))
    lines = [*header]
    for row in rows:
        lines.append(row if isinstance(row, str) else f"{row[0]}: {_yaml_value(row[1])}")
    stage = w.words(lang, w.STAGES, key)
    return Recipe(
        tool="llamafactory",
        title=w.title(lang, "llamafactory", stage=stage, layout=_layout(job, plan)),
        filename="llamafactory.yaml",
        language="yaml",
        text="\n".join(lines) + "\n",
    )


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
        title=w.title(lang, "torchtune", stage=stage, config=config, layout=_layout(job, plan)),
        filename="torchtune.sh",
        language="bash",
        text=script(comments, cmd),
    )


# -- which recipes ------------------------------------------------------------------------------------


def training_recipes(job: Job, torchtune_registry: dict[str, list[str]]) -> list[Recipe]:
    """The recipes for a training answer, best fit first:

    * pre-training (and any plan with a pipeline): Megatron-LM, built for TP/PP/sequence parallelism
      at scale; plus DeepSpeed when the plan has no pipeline (ZeRO + AutoTP run Hugging Face models);
    * fine-tuning: LLaMA-Factory's YAML over the DeepSpeed config and its launcher; torchtune when it
      ships a tested config for this model (no DeepSpeed needed); Megatron-LM when the plan has a
      pipeline.
    """
    plan = chosen_plan(job.report)
    if plan is None or job.spec is None:
        return []
    out: list[Recipe | None] = []
    pretraining = job.stage in (Stage.pretrain, Stage.continued_pretrain)
    needs_ds = plan.dp > 1 or plan.zero_stage > 0 or plan.offload or plan.tp > 1
    if pretraining or plan.pp > 1 or plan.ep > 1:
        out.append(megatron(job, plan))
    if plan.pp == 1 and plan.ep == 1:  # expert parallelism needs MoE-parallel model code: Megatron-LM
        fine_tuning = job.stage in (Stage.finetune, Stage.continued_pretrain)
        if fine_tuning and job.method != Method.ptuning:  # LLaMA-Factory 0.9.5 has no P-tuning
            out.append(llamafactory(job, plan, with_deepspeed=needs_ds))
        if needs_ds or not fine_tuning:
            out += [deepspeed(job, plan), launcher(job, plan)]
        out.append(torchtune(job, plan, torchtune_registry))
    return [r for r in out if r is not None]
