"""Megatron-LM ``pretrain_gpt.py`` arguments from the answer's plan (see :mod:`bot.recipes.training` for
the mappings that are not one-to-one: ZeRO stages as Megatron runs them, recompute)."""

from __future__ import annotations

import math

from bot.recipes import refs
from bot.recipes import wording as w
from bot.recipes.model import Job, Recipe, gpus_of, nodes, training_precision
from bot.recipes.shell import Arg, command, script
from bot.recipes.training_parts import (
    batch,
    batch_comment,
    layout_text,
    stage_key,
    torchrun_args,
)
from estimator.models import Plan, Stage

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


def _megatron_schedule(job: Job, seq: int, total: int, finetune: bool) -> tuple[list[Arg], float]:
    """Samples, learning-rate schedule (Llama 2's peak by size, cosine, 2,000 warm-up steps), optimizer,
    data and checkpoint arguments; and the peak learning rate."""
    req = job.request
    args: list[Arg] = []
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
    return args, lr


def megatron(job: Job, plan: Plan, notes: list[str] | None = None) -> Recipe | None:
    """``torchrun … pretrain_gpt.py`` with the plan's parallelism, batch, recompute and precision;
    ``notes``: comment lines saying why another tool got no recipe (:func:`.training.training_recipes`)."""
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
    schedule, lr = _megatron_schedule(job, seq, total, finetune)
    args += schedule
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
    comments += notes or []
    if n_nodes > 1:
        comments.append(w.comment(lang, "every_node", nodes=n_nodes, last=n_nodes - 1))
    cmd = command(["torchrun"], [*torchrun_args(n_nodes, per_node), ("pretrain_gpt.py", None), *args])
    stage = w.words(lang, w.STAGES, stage_key(job))
    return Recipe(
        tool="megatron",
        title=w.title(lang, "megatron", stage=stage, layout=layout_text(job, plan)),
        filename="pretrain_megatron.sh" if not finetune else "finetune_megatron.sh",
        language="bash",
        text=script(comments, cmd),
    )
