"""The estimator's input: what the user asked (:class:`SizingRequest`) and its enums, SI units.

Each stated setting is declared once, on its field: bounds (pydantic ``Field``), and in ``json_schema_extra``
(:func:`_setting`) its scope (training or serving), its fine-tuning methods, how the reply echoes it and its
place in the public JSON contract (local serving's: :mod:`estimator.request_local`). The lists the bot needs
(``bot.contract.REQUEST_FIELDS``, :data:`TRAINING_FIELDS`, :data:`SERVING_FIELDS`, …) derive from them."""

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from estimator.catalog import ModelSpec
from estimator.copying import model_copy as _model_copy
from estimator.money_kinds import BudgetPeriod, Currency
from estimator.precision import Precision
from estimator.request_data import DataSettings
from estimator.request_local import AttentionLayout, LocalServingSettings, ServingSchedule
from estimator.request_rollout import RolloutSettings
from estimator.request_setting import ECHOES, _setting, drop_mixin_defaults


class Stage(StrEnum):
    pretrain = "pretrain"
    continued_pretrain = "continued_pretrain"
    finetune = "finetune"
    inference = "inference"


class Method(StrEnum):
    """Fine-tuning method (preference tuning is an :class:`Algorithm` on top of one of these).

    freeze: only the last layers train (LLaMA-Factory ``finetuning_type: freeze``); ptuning: P-tuning v2
    / prefix tuning, a trained prefix of key/value vectors in every layer, the model frozen."""

    full = "full"
    lora = "lora"
    qlora = "qlora"
    freeze = "freeze"
    ptuning = "ptuning"


class Recompute(StrEnum):
    """Activation recomputation: none, selective (attention scores; FlashAttention), full (gradient
    checkpointing of every layer: only layer inputs are kept; Korthikanti et al. 2022)."""

    none = "none"
    selective = "selective"
    full = "full"


class OptimizerChoice(StrEnum):
    """An optimizer the user names (bitsandbytes 8-bit AdamW, Dettmers et al. 2022; its paged variant
    keeps the states in CUDA unified memory: bitsandbytes ``PagedAdamW8bit``)."""

    adamw = "adamw"
    adamw_8bit = "adamw_8bit"
    paged_adamw_8bit = "paged_adamw_8bit"


class Runtime(StrEnum):
    """Serving engine whose memory model applies (docs/design.md §3.4)."""

    vllm = "vLLM"
    sglang = "SGLang"
    transformers = "transformers"
    llama_cpp = "llama.cpp"
    ollama = "Ollama"
    lmdeploy = "lmdeploy"
    tgi = "TGI"
    exllama = "ExLlama"
    aphrodite = "Aphrodite"


class Algorithm(StrEnum):
    sft = "sft"
    dpo = "dpo"
    ppo = "ppo"
    grpo = "grpo"
    rloo = "rloo"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    model_copy = _model_copy  # pydantic's in one frame (s40-speed)


MAX_PARAMS = 1e14
"""The largest model size sized: 100T parameters, 50× the largest published models (≈ 1–2T: Kimi K2 1.04T,
Switch-C 1.6T); a larger stated size is named as beyond any real model."""
DEADLINE_DAYS_RANGE = (1 / 24, 3650.0)
"""Deadline a user may state, in days, both ends included: from one hour to ten years
(``deadline_days`` and ``deadline_default_days``). The estimator takes longer ones (and warns)."""


class _Settings(LocalServingSettings, DataSettings, ServingSchedule, RolloutSettings, AttentionLayout):
    """The plain settings mixins as one base: pydantic asks each direct base of a model whether it has each
    field (``hasattr``: a miss builds an AttributeError), 130 fields × 6 bases (−1.8M instructions, s48)."""


class SizingRequest(_Frozen, _Settings):
    """What the user asked, in SI units. ``None`` = not said (the estimator fills a stated default).

    Fields mirror the public JSON contract (``request`` object of ``sizing-bot ask --format json``)."""

    stage: Stage | None = Field(None, json_schema_extra=_setting(json_order=0))
    method: Method | None = Field(None, json_schema_extra=_setting("training", json_order=1))
    algorithm: Algorithm | None = Field(None, json_schema_extra=_setting("training", json_order=17))
    model: str | None = Field(
        None, description="model catalog id, e.g. 'Llama-3-70B'", json_schema_extra=_setting(json_order=2)
    )
    params_total: float | None = Field(
        None,
        gt=0,
        description="N, total parameters",
        json_schema_extra=_setting(json_order=3, stated=(1.0, 1e16)),
    )
    params_active: float | None = Field(
        None,
        gt=0,
        description="active parameters per token (MoE)",
        json_schema_extra=_setting(json_order=4, stated=(1.0, 1e16)),
    )
    tokens: float | None = Field(
        None,
        gt=0,
        description="D, training tokens (per epoch)",
        json_schema_extra=_setting("training", json_order=5, stated=(1.0, 1e18)),
    )
    epochs: float | None = Field(
        None, gt=0, json_schema_extra=_setting("training", json_order=18, stated=(1e-3, 1e4))
    )
    num_samples: float | None = Field(
        None,
        gt=0,
        description="training rows when tokens are not given",
        json_schema_extra=_setting("training", json_order=19, stated=(1.0, 1e12)),
    )
    tokens_per_sample: float | None = Field(
        None, gt=0, json_schema_extra=_setting("training", json_order=20, stated=(1.0, 1e7))
    )
    samples_are_pairs: bool | None = Field(
        None,
        description="`num_samples` counts pairs ('20k preference pairs', '2万对'): for DPO each pair is two "
        "sequences, a chosen and a rejected response, each of `tokens_per_sample` (Rafailov et al. 2023)",
        json_schema_extra=_setting("training", json_order=21),
    )
    gpu: str | None = Field(
        None, description="GPU catalog id, e.g. 'A100-SXM4-80GB'", json_schema_extra=_setting(json_order=6)
    )
    gpu_count: int | None = Field(
        None, gt=0, json_schema_extra=_setting(json_order=7, stated=(1, 10_000_000))
    )
    gpu_count_max: int | None = Field(
        None,
        gt=0,
        description="upper end when a range was given ('8 to 16')",
        json_schema_extra=_setting(json_order=22),
    )
    gpu_memory_gib: float | None = Field(
        None,
        gt=0,
        le=4096,
        description="memory per GPU when the user gives a size but no model ('24G的卡')",
        json_schema_extra=_setting(json_order=23),
    )
    total_memory_gib: float | None = Field(
        None,
        gt=0,
        le=1_000_000,
        description="GPU memory in total when given without a GPU count ('准备700G显存'): serving "
        "feasibility is judged on it",
        json_schema_extra=_setting(json_order=24),
    )
    deadline_days: float | None = Field(
        None, gt=0, json_schema_extra=_setting("training", json_order=8, stated=DEADLINE_DAYS_RANGE)
    )
    deadline_default_days: float | None = Field(
        None,
        gt=0,
        description="the deadline assumed when none is stated and the answer needs one (a chat's /settings "
        "default), in place of the built-in 30 days; unlike ``deadline_days`` it never makes the GPU count "
        "or the data size the question",
        json_schema_extra=_setting(json_order=48, stated=DEADLINE_DAYS_RANGE),
    )
    budget: float | None = Field(None, gt=0, json_schema_extra=_setting(json_order=9, stated=(0.01, 1e13)))
    budget_period: BudgetPeriod | None = Field(
        None,
        description="what `budget` is per: hour, day, week, month or year; None: a sum (serving_budget)",
        json_schema_extra=_setting(json_order=59),
    )
    currency: Currency | None = Field(None, json_schema_extra=_setting(json_order=10))
    price_per_gpu_hour: float | None = Field(
        None,
        gt=0,
        description="in `currency` per GPU-hour; stated: one fen or cent to 10,000 (market prices ~0.1-100)",
        json_schema_extra=_setting(json_order=11, stated=(0.01, 10_000.0)),
    )
    seq_len: int | None = Field(
        None,
        gt=0,
        description="tokens per sequence (training) or context (serving)",
        json_schema_extra=_setting(json_order=12, echo="stage_suffix", stated=(1, 100_000_000)),
    )
    batch_size: int | None = Field(
        None,
        gt=0,
        description="micro-batch per GPU (training); stated: up to 65,536 sequences, far beyond any run",
        json_schema_extra=_setting("training", json_order=13, echo="stage_suffix", stated=(1, 65_536)),
    )
    concurrency: int | None = Field(
        None,
        gt=0,
        description="concurrent sequences (serving); stated: up to a million, beyond any single deployment "
        "sized here",
        json_schema_extra=_setting("serving", json_order=14, stated=(1, 1_000_000)),
    )
    duration_asked: bool | None = Field(
        None,
        description="the user asks how long a pre-training takes without a data size: D = 20·N "
        "(Chinchilla) is assumed and said",
        json_schema_extra=_setting(json_order=46),
    )
    count_asked: bool | None = Field(
        None,
        description="the user asks how many GPUs ('how many cards', '要几张卡'): a personal card named "
        "without a count is then not assumed to be one card (estimator.resolve.personal_count)",
        json_schema_extra=_setting(json_order=50),
    )
    concurrency_asked: bool | None = Field(
        None,
        description="the user asks how many sequences fit (serving): their GPUs are laid out to hold the "
        "most, not for the throughput of an assumed load",
        json_schema_extra=_setting(json_order=45),
    )
    precision: Precision | None = Field(None, json_schema_extra=_setting(json_order=15, echo="stage_suffix"))
    mfu: float | None = Field(
        None,
        gt=0,
        le=1,
        description="model FLOPs utilisation, fraction of dense peak",
        json_schema_extra=_setting(json_order=16, stated=(0.01, 1.0)),
    )
    offload: bool | None = Field(
        None,
        description="CPU offload of optimizer states (ZeRO-Offload) requested",
        json_schema_extra=_setting(json_order=25),
    )
    kv_precision: Precision | None = Field(
        None,
        description="KV cache format when serving (bf16 default, fp8 option)",
        json_schema_extra=_setting("serving", json_order=26),
    )
    max_num_seqs: int | None = Field(
        None,
        gt=0,
        description="the serving engine's cap on sequences run at once (vLLM --max-num-seqs, SGLang "
        "--max-running-requests, lmdeploy --max-batch-size) with no load stated: the answer runs the "
        "sequences that fit, at most this many",
        json_schema_extra=_setting("serving", json_order=54, stated=(1, 1_000_000)),
    )
    target_tokens_per_s: float | None = Field(
        None,
        gt=0,
        description="serving throughput asked for, output tokens per second in total ('5,000 tokens/s', "
        "'1M tokens per minute'): the load is the sequences that decode it (estimator.throughput_target)",
        json_schema_extra=_setting("serving", json_order=53, stated=(1, 1e9)),
    )
    prompt_tokens: int | None = Field(
        None,
        gt=0,
        description="prompt part of the serving context",
        json_schema_extra=_setting("serving", json_order=27),
    )
    # Settings a practitioner states (docs/design.md §3.1, §8): used as given, never replaced silently
    zero_stage: int | None = Field(
        None,
        ge=0,
        le=3,
        description="ZeRO stage (FSDP FULL_SHARD = 3, SHARD_GRAD_OP = 2, NO_SHARD = 0)",
        json_schema_extra=_setting("training", json_order=28, echo="stage_suffix"),
    )
    lora_rank: int | None = Field(
        None,
        gt=0,
        le=4096,
        json_schema_extra=_setting(
            "training", json_order=29, methods=(Method.lora, Method.qlora), echo="stage_suffix"
        ),
    )
    lora_targets: list[str] | None = Field(
        None,
        description="LoRA target modules as typed ('q_proj', 'v_proj') or ['all-linear']",
        json_schema_extra=_setting(
            "training", json_order=30, methods=(Method.lora, Method.qlora), echo="stage_suffix"
        ),
    )
    pure_bf16: bool | None = Field(
        None,
        description="bf16 weights and optimizer states, no fp32 master copy",
        json_schema_extra=_setting("training", json_order=31, echo="stage_suffix"),
    )
    recompute: Recompute | None = Field(
        None, json_schema_extra=_setting("training", json_order=32, echo="stage_suffix")
    )
    freeze_layers: int | None = Field(
        None,
        gt=0,
        description="trainable last layers (freeze-tuning)",
        json_schema_extra=_setting("training", json_order=33, methods=(Method.freeze,), echo="stage_suffix"),
    )
    prefix_tokens: int | None = Field(
        None,
        gt=0,
        le=100_000,
        description="P-tuning v2 prefix length",
        json_schema_extra=_setting("training", json_order=34, methods=(Method.ptuning,), echo="stage_suffix"),
    )
    achieved_tflops_per_gpu: float | None = Field(
        None,
        gt=0,
        le=100_000,
        description="measured model TFLOPS per GPU: time comes from it",
        json_schema_extra=_setting("training", json_order=35, echo="stage_suffix"),
    )
    tokens_per_second_per_gpu: float | None = Field(
        None,
        gt=0,
        le=1e9,
        description="measured training tokens per second per GPU: time comes from it",
        json_schema_extra=_setting("training", json_order=36, echo="stage_suffix"),
    )
    hours: float | None = Field(
        None,
        gt=0,
        le=1e6,
        description="a known wall-clock duration (hours)",
        json_schema_extra=_setting(json_order=37),
    )
    gpu_memory_utilization: float | None = Field(
        None,
        gt=0,
        le=1,
        description="vLLM gpu_memory_utilization",
        json_schema_extra=_setting("serving", json_order=38, echo="serving_suffix"),
    )
    runtime: Runtime | None = Field(
        None,
        description="serving engine named by the user",
        json_schema_extra=_setting("serving", json_order=39, echo="serving_suffix"),
    )
    methods: list[Method] | None = Field(
        None,
        description="several fine-tuning methods asked at once",
        json_schema_extra=_setting("training", json_order=40),
    )
    optimizer: OptimizerChoice | None = Field(
        None,
        description="an optimizer the user named ('8-bit AdamW')",
        json_schema_extra=_setting("training", json_order=41, echo="stage_suffix"),
    )
    tp: int | None = Field(
        None,
        gt=0,
        le=1024,
        description="tensor-parallel degree the user stated",
        json_schema_extra=_setting(json_order=42, echo="stage_suffix"),
    )
    pp: int | None = Field(
        None,
        gt=0,
        le=1024,
        description="pipeline-parallel degree the user stated",
        json_schema_extra=_setting(json_order=43, echo="stage_suffix"),
    )
    global_batch: int | None = Field(
        None,
        gt=0,
        description="sequences per optimizer step (global batch) when the user gives one",
        json_schema_extra=_setting("training", json_order=44, stated=(1, 10_000_000)),
    )
    architecture: ModelSpec | None = Field(
        None,
        description="the model's architecture from a config.json the user gave (estimator.hf_config): sized "
        "in place of a catalog model or a bare size; parameters counted from it",
        json_schema_extra=_setting(json_order=47),
    )
    training_tool: str | None = Field(
        None,
        max_length=40,
        description="the training tool the user runs: the layout search keeps to what it can run",
        json_schema_extra=_setting("training", json_order=49, echo="stage_suffix"),
    )
    max_model_len: int | None = Field(
        None,
        gt=0,
        le=100_000_000,
        description="the serving engine's longest sequence, in tokens (vLLM --max-model-len, SGLang "
        "--context-length, lmdeploy --session-len, TGI --max-total-tokens, llama.cpp -c, Ollama num_ctx, "
        "LLaMA-Factory vllm_maxlen): each sequence's KV context unless a shorter one is stated",
        json_schema_extra=_setting("serving", json_order=51, echo="serving_suffix"),
    )
    max_model_len_default: bool | None = Field(
        None,
        description="vLLM left at its own length: a pasted vLLM command that sets no --max-model-len, or "
        "vLLM named in words on one GPU with no length and the model's version named (bot.parse.assemble); "
        "it then takes max_position_embeddings "
        "(vllm/config.py _get_and_verify_max_len) and refuses to start when one sequence of that length "
        "does not fit its KV cache (vllm/v1/core/kv_cache_utils.py check_enough_kv_cache_memory)",
        json_schema_extra=_setting("serving", json_order=52),
    )
    num_generations: int | None = Field(  # RL completions per prompt; both: estimator.rollout
        None,
        gt=0,
        json_schema_extra=_setting("training", json_order=55, echo="stage_suffix", stated=(1, 4096)),
    )
    max_completion_length: int | None = Field(
        None,
        gt=0,
        json_schema_extra=_setting("training", json_order=56, echo="stage_suffix", stated=(1, 1e7)),
    )
    gpus_per_node: int | None = Field(
        None,
        gt=0,
        le=64,
        description="GPUs in each machine as stated ('2机4卡', '2 nodes of 4 GPUs'): tensor parallelism "
        "stays inside one (its fast link), the rest spans machines; unset: the card's catalog node",
        json_schema_extra=_setting(json_order=57, stated=(1, 64)),
    )
    rollout_tp: int | None = Field(
        None,
        gt=0,
        le=1024,
        description="RL rollout engine's TP (verl rollout.tensor_model_parallel_size, OpenRLHF/TRL/ms-swift "
        "vllm_tensor_parallel_size): checked to hold its weights and KV cache; not the training layout",
        json_schema_extra=_setting("training", json_order=58, stated=(1, 1024)),
    )
    gradient_accumulation: int | None = Field(
        None, gt=0, le=100_000, json_schema_extra=_setting("training", json_order=60, stated=(1, 100_000))
    )
    """Micro-batches per step as stated (gradient_accumulation_steps), no GPU count or no micro-batch: used
    as stated; global batch = micro × this × DP (deepspeed/runtime/config.py _batch_assertion)."""


def setting(name: str) -> dict[str, Any]:
    """The declaration (:func:`_setting`) of the request field ``name``."""
    extra = SizingRequest.model_fields[name].json_schema_extra
    assert isinstance(extra, dict), name
    return extra


def bounds(name: str) -> tuple[float, float]:
    """(lowest, highest) value a user may state for the request field ``name``, both ends included, from
    its declaration (``stated`` in :func:`_setting`): the one set of bounds a typed question (bot.parse),
    a chat's /settings (bot.settings.chat) and the presales offer (bot.settings.presales) are checked
    against."""
    return setting(name)["stated"]


drop_mixin_defaults(SizingRequest)  # its plain mixins keep no Field(...) attributes (s44-speed)
_DECLARED: dict[str, dict[str, Any]] = {n: setting(n) for n in SizingRequest.model_fields}
"""Each request field's declaration, in declaration order: the tables below read it (one ``model_fields``
look-up a field, not one a field and a table: ~1.4 ms of start-up)."""


def _fields(**match: object) -> tuple[str, ...]:
    """Request fields whose declaration has every ``key=value`` in ``match``, in declaration order."""
    return tuple(n for n, d in _DECLARED.items() if all(d[k] == v for k, v in match.items()))


TRAINING_FIELDS: tuple[str, ...] = _fields(scope="training")
"""Request fields only a training job uses (a serving answer has no use for them)."""
SERVING_FIELDS: tuple[str, ...] = _fields(scope="serving")
"""Request fields only a serving answer uses."""
METHOD_FIELDS: dict[str, tuple[Method, ...]] = {
    n: tuple(Method(m) for m in d["methods"]) for n, d in _DECLARED.items() if d["methods"]
}
"""Settings that belong to some fine-tuning methods only (a LoRA rank: LoRA and QLoRA)."""
ECHOED_FIELDS: dict[str, tuple[str, ...]] = {echo: _fields(echo=echo) for echo in ECHOES}
"""The settings each echo names (bot.render.stated), by echo."""
JSON_FIELDS: tuple[str, ...] = tuple(sorted(_DECLARED, key=lambda n: _DECLARED[n]["json_order"]))
"""Every request field in the order of the JSON contract's ``request`` object (bot.contract)."""
