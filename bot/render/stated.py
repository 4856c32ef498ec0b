"""The settings a user stated, echoed next to the stage name where they change the answer
(docs/design.md §8): "13B LoRA fine-tuning (ZeRO-2, rank 8 on q_proj, v_proj) does not fit on …"."""

from __future__ import annotations

from operator import attrgetter

from bot.core.substitution_reasons import runtime_not_sized
from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate
from bot.render.plan_text import paren, zero_name
from estimator.memory import LORA_ALL_LINEAR
from estimator.models import Method, Precision, Recompute, SizingReport, SizingRequest, Stage
from estimator.runtimes import LOCAL
from estimator.training_tools import tool_limits

RECOMPUTE_STATED: dict[str, str] = {
    Recompute.none: N_("no gradient checkpointing"),
    Recompute.selective: N_("selective recompute"),
    Recompute.full: N_("gradient checkpointing"),
}
BASE_BITS: dict[str, int] = {Precision.int8: 8, Precision.int3: 3, Precision.int2: 2}
"""Quantized-base widths worth echoing (4-bit is QLoRA's default)."""


def _tool_limit(tool: str, lang: str, zero_stage: int | None = None) -> str:
    """'LLaMA-Factory: data parallel only, no tensor parallelism'; for a tool with a second backend, which
    one, short for a headline: 'verl, FSDP workers' (estimator.training_tools.ToolLimits.backends; s24
    review #10: the whole limit ran past a phone line; :func:`tool_backend_reason` says it below)."""
    limits = tool_limits(tool)  # Unsloth (s34) with no stage stated: a whole copy per GPU; with a stated
    if limits is not None and not limits.shards_model and zero_stage is None:  # stage, sized as stated
        return translate(lang, N_("%(tool)s: the whole model on each GPU, not sharded"), tool=tool)
    if limits is None or limits.backends is None:
        return translate(lang, N_("%(tool)s: data parallel only, no tensor parallelism"), tool=tool)
    return translate(lang, N_("%(tool)s, %(default)s workers"), tool=tool, default=limits.backends[0])


def tool_backend_reason(report: SizingReport, lang: str) -> str:
    """'; verl with its default FSDP workers: data parallel only — its Megatron workers have tensor
    parallelism' after the plan's reason, for a tool with a second backend; empty otherwise."""
    tool = report.request.training_tool
    limits = tool_limits(tool) if tool else None
    if limits is None or limits.backends is None or not limits.data_parallel_only:
        return ""
    msgid = N_(
        "%(tool)s with its default %(default)s workers: data parallel only — its %(other)s workers have "
        "tensor parallelism"
    )
    default, other = limits.backends
    sep = "；" if lang == "zh" else "; "
    return sep + translate(lang, msgid, tool=tool, default=default, other=other)


def stated_settings(report: SizingReport, lang: str) -> list[str]:
    """The user's own settings that shaped this answer, in ``lang``, in a stable order."""
    req = report.request
    f = fmt_for(lang)
    out: list[str] = []
    if req.stage == Stage.inference:  # training settings in a serving answer are named as not used
        return out
    if req.training_tool:  # the stack first: its layouts bound the plan (estimator.training_tools)
        limits = tool_limits(req.training_tool)
        dp_only = limits is not None and limits.data_parallel_only
        out.append(_tool_limit(req.training_tool, lang, req.zero_stage) if dp_only else req.training_tool)
    layout_used = not (req.gpu_count and (req.tp or 1) * (req.pp or 1) > req.gpu_count)  # else named unused
    if (req.tp or req.pp) and layout_used:
        out.append(" × ".join(f"{name} {n}" for name, n in (("TP", req.tp), ("PP", req.pp)) if n))
    if req.zero_stage is not None:
        out.append(zero_name(req.zero_stage, lang, in_parens=True))
    assumed = set(map(attrgetter("field"), report.assumptions))  # C: no comprehension frame (s37)
    if req.seq_len and "seq_len" not in assumed:  # stated: it sets activations and attention
        out.append(translate(lang, N_("%(n)s-token sequences"), n=f.int(req.seq_len)))
    if req.packing:  # axolotl sample_packing, TRL/LLaMA-Factory packing: each sequence full (s36 fixc #1)
        out.append(translate(lang, N_("samples packed into full sequences")))
    if req.batch_size and "micro_batch" not in assumed:
        out.append(translate(lang, N_("micro-batch %(n)s"), n=f.int(req.batch_size)))
    adapters = req.method in (Method.lora, Method.qlora)
    if adapters and (req.lora_rank or req.lora_targets):
        rank = req.lora_rank or report_rank(report)
        targets = req.lora_targets or []
        if targets and LORA_ALL_LINEAR not in targets:
            out.append(translate(lang, N_("rank %(r)s on %(targets)s"), r=rank, targets=", ".join(targets)))
        elif targets:
            out.append(translate(lang, N_("rank %(r)s on all linear layers"), r=rank))
        else:
            out.append(translate(lang, N_("rank %(r)s"), r=rank))
    if req.method in (Method.lora, Method.qlora, Method.ptuning) and req.precision in BASE_BITS:
        out.append(translate(lang, N_("%(bits)s-bit base"), bits=BASE_BITS[req.precision]))
    if req.pure_bf16:
        out.append(translate(lang, N_("pure bf16")))
    if req.optimizer is not None and req.optimizer.value != "adamw":
        paged = req.optimizer.value.startswith("paged")
        out.append(translate(lang, N_("paged 8-bit AdamW") if paged else N_("8-bit AdamW")))
    if req.optimizer_impl is not None:  # HF optim adamw_torch / adamw_torch_fused (estimator.adamw_step)
        impl = N_("foreach AdamW") if req.optimizer_impl == "foreach" else N_("fused AdamW")
        out.append(translate(lang, impl))
    if req.chunked_loss:  # use_liger_kernel: the fused linear cross-entropy (estimator.request_loss)
        out.append(translate(lang, N_("Liger fused cross-entropy")))
    if req.attention_implementation == "eager":  # its scores change the answer (estimator.attention_scores)
        out.append(attention_stated(report, lang))
    if req.recompute is not None:
        out.append(translate(lang, RECOMPUTE_STATED[req.recompute]))
    if req.method == Method.freeze and req.freeze_layers:
        out.append(translate(lang, N_("last %(n)s layers"), n=req.freeze_layers))
    if req.method == Method.ptuning and req.prefix_tokens:
        out.append(translate(lang, N_("prefix %(n)s tokens"), n=req.prefix_tokens))
    if req.achieved_tflops_per_gpu:
        out.append(translate(lang, N_("%(t)s TFLOPS per GPU"), t=f.num(req.achieved_tflops_per_gpu, 1)))
    elif req.tokens_per_second_per_gpu:
        out.append(translate(lang, N_("%(t)s tokens/s per GPU"), t=f.num(req.tokens_per_second_per_gpu, 0)))
    if req.num_generations:  # RL sampling (estimator.rollout)
        out.append(translate(lang, N_("%(n)s completions per prompt"), n=f.int(req.num_generations)))
    if req.max_completion_length:
        out.append(translate(lang, N_("completions up to %(n)s tokens"), n=f.int(req.max_completion_length)))
    if req.ds3_gather_for_generation is not None:  # TRL/ms-swift (estimator.trainer_generation)
        gathered = N_("ds3_gather_for_generation: true") if req.ds3_gather_for_generation else None
        out.append(translate(lang, gathered or N_("generation without the ZeRO-3 gather")))
    if req.rollout_gpu_memory_utilization:  # the rollout engine's memory (estimator.rollout)
        share = f.percent(req.rollout_gpu_memory_utilization)
        out.append(translate(lang, N_("rollout engine at %(share)s of each GPU"), share=share))
    return out


def attention_stated(report: SizingReport, lang: str) -> str:
    """A stated eager attention, echoed: 'eager attention: +12 GiB of attention scores per GPU' where the
    scores are sized (``Memory.attention_scores_bytes``, estimator.attention_scores), else its name. SDPA
    and FlashAttention-2 are the default count (no scores): used, not echoed beside the stage."""
    scores = report.memory.attention_scores_bytes if report.memory is not None else None
    if not scores:
        return translate(lang, N_("eager attention"))
    msgid = N_("eager attention: +%(gib)s of attention scores per GPU")
    return translate(lang, msgid, gib=fmt_for(lang).gib(scores))


def report_rank(report: SizingReport) -> int:
    """The LoRA rank the answer used: the ledger's default when the user gave only targets."""
    return int(next((a.value for a in report.assumptions if a.field == "lora_rank"), 16) or 16)


LIMIT_KEY = {
    "SGLang": "context_length",
    "lmdeploy": "session_len",
    "TGI": "max_total_tokens",
    "llama.cpp": "ctx-size",
    "Ollama": "num_ctx",
}
"""The name of ``max_model_len`` in each engine (vLLM and any other: max_model_len)."""
SHARE_KEY = {
    "lmdeploy": "cache_max_entry_count",
    "SGLang": "mem_fraction_static",
    "TGI": "cuda_memory_fraction",
}
"""The name of ``gpu_memory_utilization`` where the engine's share means something else: lmdeploy's
``--cache-max-entry-count`` is the share of the memory FREE after the weights that the KV cache takes
(InternLM/lmdeploy ``lmdeploy/messages.py`` ``TurbomindEngineConfig`` / ``PytorchEngineConfig``, default
0.8), sized so by :class:`estimator.runtimes.others.Lmdeploy`; never vLLM's share of the whole card.
SGLang's ``--mem-fraction-static`` is the share of the memory free at start-up for weights and the KV
pool (sglang ``server_args.py``), sized so by :class:`estimator.runtimes.sglang.SGLang` (trial s10 C1).
TGI's ``--cuda-memory-fraction`` (launcher/src/main.rs) is its share of the card (s32 trial #2)."""


FLASH_ON = {"llama.cpp": "-fa on", "Ollama": "OLLAMA_FLASH_ATTENTION=1"}
"""Flash attention stated on, echoed under the name each runtime's users set it by (s34): used — no
layer's fp32 KQ scores in the compute buffer (estimator.serving_verdict.flash_unstated adds them only
when flash attention is not stated)."""


def serving_settings(report: SizingReport, lang: str) -> str:
    """' (SGLang, gpu_memory_utilization 0.95, context_length 8,192)' after the weight format of a
    serving answer: the runtime, memory share and sequence limit the user named; empty when none."""
    req = report.request
    items = []
    if req.runtime is not None and (  # sized under llama.cpp's model, not the one named: said (s47 B7)
        report.inference is None or report.inference.runtime != LOCAL.name or not runtime_not_sized(report)
    ):
        items.append(req.runtime.value)
    if req.gpu_memory_utilization is not None:
        key = SHARE_KEY.get(req.runtime.value if req.runtime else "", "gpu_memory_utilization")
        items.append(f"{key} {req.gpu_memory_utilization:g}")
    if req.max_model_len is not None:  # the engine's limit, under the name its users type
        key = LIMIT_KEY.get(req.runtime.value if req.runtime else "", "max_model_len")
        items.append(f"{key} {fmt_for(lang).int(req.max_model_len)}")
    if req.flash_attention is False:  # llama.cpp -fa off: KQ scores (estimator.runtimes.llama_cpp)
        items.append("-fa off")
    elif req.flash_attention and req.runtime is not None and req.runtime.value in FLASH_ON:  # s34: used
        items.append(FLASH_ON[req.runtime.value])
    solved = req.context_asked and next((a for a in report.assumptions if a.why == "context_asked"), None)
    if solved and report.inference:  # "max context?": the longest their GPUs hold (trial s26 #10)
        from bot.render.notes import context_len

        longest = context_len(report.inference.context_tokens)
        msgid = N_("longest context that fits: %(context)s")
        if solved.params.get("native_window"):  # capped at the native window: YaRN is off (s26 trial 2 #9)
            msgid = N_(
                "longest context: %(context)s, the model's native window; longer needs YaRN RoPE scaling"
            )
        items.append(translate(lang, msgid, context=longest))
        if solved.params.get("lighter"):  # a lighter format reaches further (trial s27b #3)
            items.append(_lighter_reach(solved.params, lang))
    sep = "，" if lang == "zh" else ", "
    return paren(lang, sep.join(items)) if items else ""


def _lighter_reach(params: dict, lang: str) -> str:
    """'Q4_K_M weights reach 128K': the longer context of a lighter weight format
    (estimator.longest_context.longest_contexts), beside the one at the format sized."""
    from bot.render.local_layout import GGUF_NAMES
    from bot.render.notes import context_len

    fmt = str(params["lighter"])
    name = GGUF_NAMES.get(fmt, fmt.upper())
    context = context_len(int(params["lighter_tokens"]))
    return translate(lang, N_("%(format)s weights reach %(context)s"), format=name, context=context)


def settings_suffix(report: SizingReport, lang: str) -> str:
    """' (ZeRO-2, rank 8)' / '（ZeRO-2，秩 8）' after the stage name; empty when nothing was stated."""
    items = stated_settings(report, lang)
    sep = "，" if lang == "zh" else ", "
    return paren(lang, sep.join(items)) if items else ""


def tool_checkpoints(req: SizingRequest) -> bool:
    """Whether the recommended count of ``req`` keeps the named tool's own gradient checkpointing
    (LLaMA-Factory, Unsloth, verl: :attr:`estimator.training_tools.ToolLimits.default_recompute`, no
    recompute mode stated): :func:`estimator.plan.recommended` searches with full recompute allowed
    (``TrainingSetup.tool_recompute``) and the plan turns it off where the activations fit without it
    (``tool_recompute_off``)."""
    limits = tool_limits(req.training_tool) if req.training_tool else None
    return limits is not None and limits.default_recompute is not None and not req.recompute


def checkpointing_rule(req: SizingRequest) -> bool:
    """Whether the recommended count of ``req`` follows :func:`estimator.layouts.prefer_recompute`: a
    named Hugging Face-family tool on data parallelism only (no stated TP or PP), no recompute mode stated
    nor turned on by the tool's own default (:attr:`estimator.setup.TrainingSetup.checkpointing_only`,
    :func:`estimator.plan.recommended`)."""
    limits = tool_limits(req.training_tool) if req.training_tool else None
    if limits is None or limits.megatron_layers or not limits.data_parallel_only or req.recompute:
        return False
    return limits.default_recompute is None and (req.tp or 1) * (req.pp or 1) == 1
