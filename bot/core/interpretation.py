"""What the answer made of the message (docs/design.md §8): names it did not know, what it did not
use and why, and what it used in place of what was typed. Serialized as ``interpretation`` in the
JSON contract and worded in the reply, so nothing is dropped or replaced silently.

Reasons are stable keys (the bot words them): see :data:`IGNORED_REASONS` and
:data:`SUBSTITUTION_REASONS`.
"""

from __future__ import annotations

from operator import attrgetter

from pydantic import BaseModel, Field

from bot.core.calendar_days import CALENDAR, calendar_days
from bot.core.substitution_reasons import SUBSTITUTION_REASONS as SUBSTITUTION_REASONS
from bot.core.unused_local import offload_unused, unused_local
from bot.core.unused_local import setting_text as _text
from bot.parse import ParseResult
from bot.parse.configs.model import UNUSED_REASONS
from bot.parse.daily_hours import DAILY_SCHEDULE
from bot.parse.load_words import CAP_BATCH_ENGINES
from estimator.factories import empty_list
from estimator.memory import lora_matrices
from estimator.models import (
    METHOD_FIELDS,
    SERVING_FIELDS,
    TRAINING_FIELDS,
    Method,
    Precision,
    SizingReport,
    SizingRequest,
    Stage,
)
from estimator.rollout import RL_ALGORITHMS

IGNORED_REASONS = (
    "absurd",  # far beyond any real model, dataset or cluster
    "nonpositive",  # a count or size of zero or below
    "unusable",  # outside a setting's allowed range (an MFU of 1e-20, a deadline of 1e23 days)
    "unread",  # no word said what the number is
    "network_port",  # '-p 8080:80', '--port 8000', '端口 8080': a port does not change the sizing (s36)
    "volume_not_load",  # a request volume beside a stated load (s35 fixc)
    "steps_need_batch",  # training steps without a global batch and a sequence length
    "steps_default_batch",  # steps × the global batch and length assumed: the tokens timed (s33 #2)
    "steps_default_length",
    "steps_default_global",
    "steps_stated_batch",  # one or neither assumed (s33 fixa)
    "steps_accum_batch",  # the global batch of their accumulation × an assumed micro-batch (s34 #7)
    "steps_accum_batch_length",
    "fractional_count",  # "3.5 A100s": sized on the next whole count
    "repeated",  # a second value for a field that takes one
    "replaced_by_later_value",  # a setting's earlier value ('batch size from 8 down to 2': the 8)
    "sharding_conflict",  # an FSDP sharding strategy beside reshard_after_forward, which sets the stage
    "training_only",  # a training setting in a serving question
    "training_tool_serving",  # a training tool named in a serving question (s32 fixb)
    "serving_only",  # a serving setting in a training question
    "not_for_method",  # e.g. a LoRA rank for full fine-tuning
    "unknown_module",  # a LoRA target no projection of the model is called
    "above_peak",  # a measured throughput above the card's dense peak
    "measured_wins",  # an MFU next to a measured throughput: the measurement is used
    "training_precision",  # int8/int4 for full training: weights train in bf16
    "config_model",  # a model name or size next to a config.json: the config gives the model
    "launch_line_model",  # a model name or size next to a launch line whose shape builds the model (s37 fixd)
    "no_fp8",  # FP8 training asked on a card without FP8 tensor cores: timed in bf16
    "no_fp8_weights",  # FP8 serving asked on a card that cannot load FP8 weights: sized in bf16
    "no_int8",  # int8 training asked on a card without an INT8 tensor-core peak in the catalog: bf16
    "more_than_gpus",  # a TP × PP larger than the GPU count: the layout was searched instead
    "fp8_in_mfu",  # FP8 training beside a stated MFU: the MFU is of the 16-bit peak, the time not on FP8's
    "fp8_time_only",  # FP8 training with nothing to time: FP8 changes the time; memory is sized in bf16
    "config_differs",  # the text said another value than the pasted config: the config's is used
    "prose_changes",  # the text asks to change the pasted config's length: the text's is used (s19)
    "param_offload",  # offload_param cpu/nvme, params offloaded: not modelled; memory an upper bound (s26)
    "offload_adapters",  # CPU offload with LoRA/QLoRA: sized without it (only full fine-tuning models it)
    "optimizer_offload_adapters",  # LoRA/QLoRA offload_optimizer alone: small states, base on the GPUs (s35)
    "tool_inferred",  # a tool not named, read from its settings (ZeRO-3: DeepSpeed); no model of the tool
    "settings_applied",  # a tool named with its settings ('DeepSpeed ZeRO-3'): the settings are used
    "launcher_ddp",  # torchrun with nothing that shards: read as plain DDP, a whole model a GPU (s32)
    "nearest_format",  # a GGUF format the sizing lacks (Q5_K_S): sized as the next larger one (Q5_K_M)
    "qps_needs_output",  # requests per second without the output tokens per request ('qps 20')
    "per_user_rate",  # a rate per user with no count of users written (s18: 'each sends 2 requests a minute')
    "sample_range",  # '2k~4k tokens per sample': the time at the mean, the memory at the longer end
    "sample_avg_max",  # 'average 800, max 4096': the time at the average, the memory at the longest (s24)
    "rate_times_output",  # 'QPS 5，每次输出 300 token': the rate × output tokens, the tokens/s sized (s17)
    "users_active_share",  # '200 employees': the people a service is for, 10 % of them at once (s21 #3)
    "users_at_once",  # '200 users': read as sequences at once; the head-count reading said (s31 left #6)
    "steps_per_device",  # TRL steps × per-device batch × GPUs (÷ G completions): the prompts trained (s18)
    "output_in_context",  # an output length with no prompt ('max_tokens 512'): in the context, named
    "ttft_target",  # '首token 500ms 内': compared with the estimated time to first token (s37 fixb #1)
    "per_user_speed",  # a speed per user ('each user 20 tok/s'): compared with the per-sequence speed
    "llama_cpp_based",  # a front-end that runs llama.cpp (koboldcpp, LM Studio): sized as llama.cpp
    "kv_cache_layer",  # LMCache, NIXL, Mooncake … beside the engine: the KV cache is sized in GPU memory
    "algorithm_family",  # DAPO, KTO, SimPO …: sized as the family the estimator has (GRPO, DPO …)
    "lora_variant",  # DoRA, AdaLoRA, rsLoRA, LoRA+, PiSSA …: low-rank adapters, sized as LoRA (s17)
    "vague",  # '几十万条': an amount with no number in it; never read as its smallest value
    "vague_count",  # '几十张卡': a count of cards or machines with no number in it (s32)
    "rollout_share",  # '2 卡给 vllm' in online RL: the rollout engine's share of the job's cards
    "stated_need",  # '推理显存是 140GB', 'needs 140GB VRAM': a memory the model needs, not the cards'
    "cards_total",  # '8 x A10G with 192 GB VRAM': the cards' memory together (count × card), as sized
    "unknown_other_device",  # 'my macbook / rtx 3090': a device outside the catalog beside the card (s23)
    "cpu_not_gpu",  # 'Xeon E5-2690', 'i9-13900K' with no GPU named: a CPU, not sized; the GPU used said (s32)
    "ppo_models",  # '四个模型' of PPO: actor, critic, reference and reward, counted at the trained size (s23)
    "eval_cards",  # '4 A100 for eval' beside a training rig: not the cards that train (s23)
    "eval_share",  # '8张A100，其中2张做评测': a share of the rig, the rest trains (s24 review #9)
    "not_compared",  # a card named for comparison beyond the six one answer sizes (trial s18 #3)
    "memory_room",  # '加载后剩 8G 的空闲显存': the room after loading, not the card's memory (s19)
    "over_card",  # 'one 4090, the node's 128GB of GPU memory': above the card's own memory, the card's sized
    "utilization_bounds",  # 'gpu_memory_utilization 1.5': outside (0, 1], sized at the engine's default
    "period_as_total",  # '预算每月5万' for a training run: compared with the whole run's cost
    "alternative_engine",  # 'vLLM 也行', 'or vLLM is fine too': accepted, not sized (the one asked first is)
    "budget_no_cost",  # a serving budget with no rental cost to compare it with (no price on file)
    "serving_offload",  # weights in CPU memory on a server that holds every weight on GPUs: not modelled
    "all_on_gpu",  # host memory stated, every weight on the GPUs (estimator.layer_offload): not needed
    "cpu_host_ram",  # a CPU and its RAM with no GPU named: compared with the model under the headline (s34)
    "no_experts",  # experts on the CPU for a dense model: it has none
    "rollout_as_vllm",  # an RL rollout engine other than vLLM (SGLang): the rollouts are timed as vLLM's
    "step_time_target",  # '希望每步不超过 2 秒': a time per step wanted; the sizing times the whole run
    "negated",  # '128k context is not needed', '不需要 128k 上下文': a value the message says is not wanted
    "worked_share",  # 'dataset 80000/8=10000 per GPU': a worked share of a stated total, which is used (s25)
    "liger_asked",  # 'would Liger help?', '要不要开 liger': asked about, not stated on or off (s25)
    "users_not_load",  # '200 users, about 30 concurrent': the users counted, the concurrency sized
    "unknown_other_device_memory",  # 'Jetson Orin 64GB' beside another setup: ask alone, sized by memory
    "per_card_load",  # '单卡能撑 50 并发，要支持 200': one card's observed concurrency, not the load (s29)
    "catalog_peak",  # '910B（280T）', 'A100 (312 TFLOPS)': a chip's peak rate; the catalog's is used
    "card_slots",  # '4 个卡槽', '4 PCIe slots': at most that many cards; the count needed is sized
    "gpu_kinds",  # 'H20、L40S和A800三种卡', 'three GPU types': the kinds listed, each card's count sized
    "mixed_rig",  # 'an RTX 5090 plus an RTX 3080': one machine, sized as that many of its smallest card
    "other_machine",  # '一台 8×4090 和一台 4×A100': two machines of different cards, the larger sized (s32)
    "other_machine_dp",  # the same used together in ZeRO/FSDP/DDP: all sized at the smaller card (s32 fixf)
    "other_machine_training",  # the same in training, no data parallelism said: one TP group (s32 fixf)
    "other_stage_machine",  # '训练用一台 8×H100，部署用一台 4×4090': the other stage's machine (s32 fixf)
    "colocate_not_trl",  # 'colocate' with verl or OpenRLHF: the engine sleeps, nothing to size (s16)
    "mixed_rig_largest",  # the same rig on llama.cpp or no engine: sized on its largest card alone (s16)
    "mixed_rig_sum",  # the same rig on llama.cpp/Ollama named: layers split by memory, the sum sized (s19)
    "current_load",  # '现在 20 并发，峰值 100', '20 users now, scale to 64': the load today, the target sized
    "observed",  # a figure reported from a run ('uses 60 GB', 'got 35 tokens/s'): what happened, no setting
    "team_size",  # '4 people on the team' on a training question: no load, no training setting (s14)
    "daily_schedule",  # '8 hours a day': the cards' hours each day, not the run's duration (s14)
    "daily_schedule_calendar",  # the same on a training run's days: its calendar days (s21)
    "power_price",  # '0.12 USD/kWh', '电费': electricity is not priced (GPU rental is); no budget (s18)
    "weekdays_only",  # 'on weekdays', '工作日': not billed (every day of the month is); ≈ 5/7 of it (s18)
    "calendar_date",  # 'by end of Q3 2025', '2026年3月前': a date, no days without a start date (s20)
    "step_label",  # 'DeepSpeed-Chat step 3', '第3步': which step of a procedure, not a count (s35)
    "time_ago",  # 'two months ago', '两个月前': when something happened, no deadline nor duration (s21)
    "tool_global_batch",  # verl's / OpenRLHF's plain batch size: their global batch, sized as such (s21)
    "rollout_batch_other_tool",  # 'rollout batch 256' with TRL etc.: OpenRLHF's setting, not used (s32)
    "past_date",  # 'by last quarter', '上个季度完成': a deadline already past, flagged (s21)
    "rounded_context",  # 'at only 4k context' beside 'max_seq_length=4608': the key's exact value (s21)
    "earlier_run",  # s14: an earlier run on the same data and cards: its throughput times the new job
    "earlier_run_same_job",  # s14: an earlier run of the same model and method: its MFU times the new job
    "earlier_run_other_job",  # s14: an earlier run of another model or method: its MFU named, not used
    "earlier_run_other_card",  # s17: the same model and method on another card: its MFU times the new job
    "earlier_run_scaled",  # s17-2: no data size: the run's GPU-hours × its card's peak ÷ the new card's
    "earlier_run_other_model",  # s15: an earlier run of another model on the same cards and method: its MFU
    "earlier_run_above_peak",  # s14: an earlier run implying more FLOPs than the cards' peak: set aside
    "earlier_run_rl",  # s16: an earlier GRPO/RLOO/PPO run: mostly generation, not k·N·D — not used
    "claimed_size",  # s37-models: 'DeepSpeed says it can train models of up to 13B': a claim, not the job
    "rl_reward_model_not_sized",  # an RL job's reward/critic/reference model: counted at the actor's size
    "weights_file",  # '模型文件 21G' beside a named model: its file's size, the weights sized from the model
    *UNUSED_REASONS,  # keys of a pasted training/serving config (bot.parse.configs.model)
)
MODEL_SUBSTITUTIONS = {
    "vision_language": "vision_language_llm",
    "alias": "model_alias",
    "speech": "speech_llm",
    "long_context": "long_context_release",
}
"""A model mention's substitution (:mod:`bot.parse.vision_names`) → the reason the reply gives."""


USED_REASONS = frozenset(
    {
        "settings_applied",
        "launcher_ddp",
        "tool_inferred",
        "zero_from_file_name",
        "samples_cap",
        "demo_rows",
        "earlier_run",
        "earlier_run_same_job",
        "earlier_run_other_model",
        "earlier_run_other_card",
        "earlier_run_scaled",
        "cards_total",
        "rate_times_output",
        "ttft_target",
        "users_active_share",
        "users_at_once",
        "steps_per_device",
        "steps_default_batch",
        "steps_default_length",
        "steps_default_global",
        "steps_stated_batch",
        "steps_accum_batch",
        "steps_accum_batch_length",
        "vllm_server_default",
        "cap_only",
        "cap_at_load",
        "cap_as_load",  # lmdeploy's/TGI's batch size, its cap, sized as the load (s32 fixb)
        "sample_range",
        "sample_avg_max",
        "daily_schedule_calendar",
        "script_fp32",
        "script_defaults",
    }
)
"""Reasons of an ``ignored`` entry the answer uses through its settings (a tool named with them or read from
them: ZeRO-3 → DeepSpeed; the cards' total memory; a rate times the output; an engine's cap alone; s33: a
script that loads in fp32): the reply names them apart, never under "Not used" (render reads this set)."""


def _said_once(ignored: list[Ignored]) -> list[Ignored]:
    """``ignored`` without the entries whose text another entry lists as used (s12 trial D2: "DeepSpeed"
    in the prose ('no_field') beside the pasted DeepSpeed config ('settings_applied') was said to be
    both used and not used)."""
    if not ignored:  # most answers: no comprehension frames (s37)
        return ignored
    used = {i.text for i in ignored if i.reason in USED_REASONS}
    return [i for i in ignored if i.reason in USED_REASONS or i.text not in used]


class Ignored(BaseModel, defer_build=True):  # schema built on first use: start-up
    """A number or setting in the message that the answer does not use."""

    text: str = Field(description="as typed, or 'field: value' for a setting")
    reason: str = Field(description="one of IGNORED_REASONS")


class Substitution(BaseModel, defer_build=True):  # schema built on first use: start-up
    """Something typed that the answer sized as something else, and why."""

    typed: str
    used: str
    reason: str = Field(description="one of SUBSTITUTION_REASONS")


class Interpretation(BaseModel, defer_build=True):  # schema built on first use: start-up
    """``interpretation`` of the JSON contract (schema 1 extension)."""

    unknown_gpu: str | None = None
    """a GPU name not in the catalog, as typed"""
    unknown_model: str | None = None
    """a model name not in the catalog, as typed"""
    ignored: list[Ignored] = Field(default_factory=empty_list)
    substitutions: list[Substitution] = Field(default_factory=empty_list)
    beyond_slots: int | None = None
    """the GPU count sized when it is more than the card slots stated ('4 个卡槽'): more cards than the
    machine takes"""


TRAINING_ONLY = tuple(f for f in TRAINING_FIELDS if f not in ("tokens", "method", "algorithm", "batch_size"))
"""Training settings a serving answer names as not used (tokens, method and algorithm words make the
parser choose a training stage, so they never reach a serving answer as typed; a serving batch is read
as the concurrency)."""
SERVING_ONLY = SERVING_FIELDS


def interpret(parsed: ParseResult, said: SizingRequest, report: SizingReport | None) -> Interpretation:
    """The interpretation of one answer: ``parsed`` (the message), ``said`` (what the user said over the
    conversation) and ``report`` (what was sized; None when nothing was)."""
    ignored: list[Ignored] = []  # loops: no comprehension frame for the lists most messages leave empty (s37)
    for reason, typed in (
        ("absurd", parsed.ignored_numbers),
        ("nonpositive", parsed.nonpositive_numbers),
        ("unusable", parsed.unusable_numbers),
    ):
        for t in typed:
            ignored.append(Ignored(text=t, reason=reason))
    cal = calendar_days(parsed, report)  # '8 hours a day' on a run's days: calendar days (s21)
    for t, why in parsed.unused_numbers:
        ignored.append(
            Ignored(text=t, reason=CALENDAR if cal and t == cal.said and why == DAILY_SCHEDULE else why)
        )
    if report is not None:
        ignored += _unused_settings(said, report)
        if report.memory is not None and report.memory.offloaded_bytes:  # FSDP offloads an adapter run's
            ignored = [i for i in ignored if i.reason != "param_offload"]  # parameters: used (s34)
        if report.request.stage == Stage.inference:  # 'Unsloth 只用来推理': a training tool, not served (s32)
            timed = report.inference is not None and report.inference.prefill_seconds is not None
            ignored = [_served_tool(i, timed) for i in ignored]
    # 'use_vllm=False' when the trainer generates (s26); the algorithm checked inline: no call for others
    if report is not None and report.request.algorithm in RL_ALGORITHMS and _in_trainer(report.request):
        ignored = [i for i in ignored if i.reason != "rollout_as_vllm"]
    return Interpretation(
        unknown_gpu=parsed.unknown_gpu,
        unknown_model=parsed.unknown_model,
        ignored=_said_once(ignored),
        substitutions=_substitutions(parsed, report),
        beyond_slots=_beyond_slots(parsed.card_slots, report),
    )


def _served_tool(item: Ignored, timed: bool = False) -> Ignored:
    """A training tool named in a serving question: not used because the serving is sized, not a setting
    the sizing lacks ('no_field' → 'training_tool_serving', s32 fixb #3); a first-token target with a
    time to first token estimated: compared with it ('ttft_target', s37 fixb #1)."""
    if item.reason != "no_field":
        return item
    if timed and item.text.startswith("time_to_first_token: "):
        return Ignored(text=item.text, reason="ttft_target")
    if not item.text.startswith("training_tool: "):
        return item
    return Ignored(text=item.text, reason="training_tool_serving")


def _in_trainer(req: SizingRequest) -> bool:
    """Whether the RL trainer generates its own rollouts (TRL / ms-swift, no engine: trial s26 #3): its
    memory (estimator.trainer_generation) and time (estimator.trainer_decode) are model.generate's, so a
    stated 'use_vllm=False' is used, not named as timed like vLLM. The caller checks the algorithm."""
    from estimator.trainer_decode import generates_in_trainer

    return generates_in_trainer(req)


def _beyond_slots(slots: int | None, report: SizingReport | None) -> int | None:
    """The count the answer states (the days table's GPUs for a job, the serving GPUs, else the fewest
    that fit) when it is more than ``slots``; None otherwise."""
    if not slots or report is None:
        return None
    inf, mem = report.inference, report.memory
    sized = report.gpus_for_deadline or (inf.serving_gpus if inf is not None else None)
    sized = sized or (mem.min_gpus if mem is not None else None)
    return sized if sized and sized > slots else None


ADAPTER_OFFLOAD = (Method.full, Method.lora, Method.qlora)
"""Methods whose CPU offload is sized: full training's optimizer offload, an adapter run's parameter
offload under full sharding (FSDP / ZeRO-3: estimator.adapter_offload, s34); an adapter run's ZeRO-1/2
optimizer offload, freeze-tuning and P-tuning name it as not used."""


def _offload_sized(method: Method, report: SizingReport) -> bool:
    """Whether a stated CPU offload is sized: full training's optimizer offload, an adapter run's parameter
    offload (the report's ``offloaded_bytes``: FSDP / ZeRO-3, estimator.adapter_offload; s34 fixe)."""
    if method == Method.full:
        return True
    return method in ADAPTER_OFFLOAD and bool(report.memory and report.memory.offloaded_bytes)


def _unused_settings(said: SizingRequest, report: SizingReport) -> list[Ignored]:
    """Stated settings the sized stage or method has no use for, and measurements set aside."""
    req = report.request
    serving = req.stage == Stage.inference
    out: list[Ignored] = []
    for name in TRAINING_ONLY if serving else SERVING_ONLY:
        value = getattr(said, name, None)
        if name == "runtime" and value is not None and not serving and req.algorithm in RL_ALGORITHMS:
            # an RL run's rollout engine (ms-swift --use_vllm, verl rollout.name): the rollouts are timed
            # as vLLM decoding (estimator.rollout), so vLLM is used; another engine is timed as vLLM
            if str(getattr(value, "value", value)).lower() != "vllm":
                out.append(Ignored(text=_text(name, value), reason="rollout_as_vllm"))
            continue
        if name == "prompt_tokens" and not serving and req.algorithm in RL_ALGORITHMS:
            continue  # an RL run's prompt bound (ms-swift GRPO --max_length): estimator.rollout.with_prompt
        if value is not None and serving and name == "max_completion_length":  # llama.cpp -n, max_new_tokens
            out.append(Ignored(text=_text("output_tokens", value), reason="output_in_context"))  # in -c
        elif value is not None:
            out.append(
                Ignored(text=_text(name, value), reason="training_only" if serving else "serving_only")
            )
    if (said.tp or said.pp) and said.gpu_count and (said.tp or 1) * (said.pp or 1) > said.gpu_count:
        for name in ("tp", "pp"):
            if getattr(said, name):
                out.append(Ignored(text=_text(name, getattr(said, name)), reason="more_than_gpus"))
    if serving:
        # a serving answer sizes GPUs for the load: CPU offload or a micro-batch next to a stated
        # concurrency are not used, nor a budget it could not compare (estimator.serving_budget): a
        # sum with no rental cost to divide it by (review s10 item 7: not "a training setting")
        out += [Ignored(text=t, reason=why) for t, why in unused_local(said, report)]  # offload, host RAM
        if said.budget and not serving_budget_used(report):
            out.append(Ignored(text=_text("budget", said.budget), reason="budget_no_cost"))
        capped = (
            said.runtime in CAP_BATCH_ENGINES
        )  # their batch is their cap, named so (s32: bot.parse.prose_forms)
        if said.batch_size and said.concurrency and said.batch_size != said.concurrency and not capped:
            out.append(Ignored(text=_text("batch_size", said.batch_size), reason="training_only"))
        if "fp8_weights_unsupported" in map(_CODE, report.warnings):  # C: no generator frames
            out.append(Ignored(text=_text("precision", said.precision), reason="no_fp8_weights"))
    if not serving:
        # a budget per period is used as the period's sum × the run's months (estimator.budget_check)
        if said.budget and said.budget_period and not _per_run(report):  # no price: the run's whole sum
            out.append(Ignored(text=_text("budget_period", said.budget_period), reason="period_as_total"))
        method = req.method or Method.full
        if said.offload and not _offload_sized(method, report):  # LoRA: params under FSDP/ZeRO-3 (s34)
            out.append(Ignored(**offload_unused(said)))
        if said.precision == Precision.fp8 and report.gpu_hours is None and method == Method.full:
            out.append(Ignored(text=_text("precision", said.precision), reason="fp8_time_only"))
        for name, methods in METHOD_FIELDS.items():
            value = getattr(said, name, None)
            if (
                value is not None
                and method not in methods
                and not (req.methods and set(req.methods) & set(methods))
            ):
                out.append(Ignored(text=_text(name, value), reason="not_for_method"))
        if said.lora_targets and method in (Method.lora, Method.qlora):
            out += [
                Ignored(text=t, reason="unknown_module") for t in said.lora_targets if not lora_matrices([t])
            ]
        codes = set(map(_CODE, report.warnings))  # C: no comprehension frame (s37)
        timed = {str(a.value) for a in report.assumptions if a.field == "training_precision"}
        if said.precision in (Precision.int8, Precision.int4) and method == Method.full:
            if "int8_not_supported" in codes:
                out.append(Ignored(text=_text("precision", said.precision), reason="no_int8"))
            elif said.precision not in timed:
                out.append(Ignored(text=_text("precision", said.precision), reason="training_precision"))
        if codes & {"fp8_not_supported", "fp8_no_faster"}:
            out.append(Ignored(text=_text("precision", said.precision), reason="no_fp8"))
        elif _fp8_in_mfu(said, report, timed):
            out.append(Ignored(text=_text("precision", said.precision), reason="fp8_in_mfu"))
        if "measured_above_peak" in codes:
            out.append(
                Ignored(
                    text=_text("achieved_tflops_per_gpu", said.achieved_tflops_per_gpu), reason="above_peak"
                )
            )
        elif said.mfu is not None and (said.achieved_tflops_per_gpu or said.tokens_per_second_per_gpu):
            out.append(Ignored(text=_text("mfu", said.mfu), reason="measured_wins"))
    return out


def _fp8_in_mfu(said: SizingRequest, report: SizingReport, timed: set[str]) -> bool:
    """FP8 training stated beside an MFU (s13 trial S1: 'FP8，之前实测 MFU 38%'): the estimator reads the
    MFU against the 16-bit peak, as MFU is usually quoted (:func:`estimator.training_rate.training_rate`),
    so the time is not on the FP8 peak; the reply says so instead of staying silent."""
    return (
        said.precision == Precision.fp8
        and said.mfu is not None
        and report.gpu_hours is not None
        and Precision.fp8.value not in timed
        and not (said.achieved_tflops_per_gpu or said.tokens_per_second_per_gpu)
    )


SERVING_BUDGET_CODES = frozenset(
    {"serving_within_budget", "serving_over_budget", "serving_budget_borderline", "serving_budget_months"}
    | {"serving_budget_no_price"}
)
"""A serving answer's verdicts on a stated budget (estimator.serving_budget): the budget is used."""


def serving_budget_used(report: SizingReport) -> bool:
    """Whether the serving answer ``report`` compared a stated budget with its cost (issue 24)."""
    return any(n.code in SERVING_BUDGET_CODES for n in report.warnings)


def _substitutions(parsed: ParseResult, report: SizingReport | None) -> list[Substitution]:
    out: list[Substitution] = []
    if report is None:  # nothing sized: only the card the message's Atlas servers were read as (s31)
        return [
            Substitution(typed=t, used=u, reason=r) for t, u, r in parsed.nodes_read if r == "atlas_server"
        ]
    whys = dict(zip(map(_FIELD, report.assumptions), map(_WHY, report.assumptions), strict=True))  # C (s37)
    gpu = report.request.gpu or ""
    if whys.get("gpu") == "gpu_unknown_default" and parsed.unknown_gpu:
        out.append(Substitution(typed=parsed.unknown_gpu, used=gpu, reason="unknown_gpu_default"))
    elif parsed.card_sku and gpu:  # a bare 'RTX 6000': which of the cards of that name (s35-fixa #5)
        why = "card_sku" if gpu != "RTX-6000-Ada" else "rtx_6000_assumed"
        out.append(Substitution(typed=parsed.card_sku, used=gpu, reason=why))
    elif parsed.card_generation and gpu:  # 'A100 Blackwell': the catalog card, said (trial s19 #4)
        out.append(Substitution(typed=parsed.card_generation, used=gpu, reason="card_generation"))
    elif whys.get("gpu") == "gpu_by_memory" and parsed.gpu_memory_gib:
        out.append(Substitution(typed=f"{parsed.gpu_memory_gib:g}G", used=gpu, reason="gpu_by_memory"))
    if parsed.tool_cue and report.request.training_tool:  # "per_device_train_batch_size": HF Trainer
        out.append(
            Substitution(typed=parsed.tool_cue, used=report.request.training_tool, reason="tool_inferred")
        )
    if parsed.model_substitution == "no_version" and parsed.model_typed and report.request.model:
        out.append(Substitution(typed=parsed.model_typed, used=report.request.model, reason="latest_release"))
    why = MODEL_SUBSTITUTIONS.get(parsed.model_substitution or "")  # 'Qwen3-VL-235B-A22B', 'llama 30b' (s14)
    if why and parsed.model_typed and report.request.model:
        out.append(Substitution(typed=parsed.model_typed, used=report.request.model, reason=why))
    if whys.get("precision") == "fp16_no_bf16" and "precision" in parsed.found:  # 'bf16 on 2 V100'
        out.append(
            Substitution(
                typed=getattr(parsed.request.precision, "value", "bf16"), used="fp16", reason="fp16_no_bf16"
            )
        )
    for t, v in parsed.vague_read:  # loops: no comprehension frame for an empty list (s37)
        out.append(Substitution(typed=t, used=f"{v:g}", reason="vague_amount"))
    for t, u, r in (*parsed.nodes_read, *parsed.bounds_read):  # '2机4卡' = 8; '至少 16k'
        out.append(Substitution(typed=t, used=u, reason=r))
    if parsed.unknown_model and whys.get("architecture") == "generic_shape":
        shape = next((a.value for a in report.assumptions if a.field == "architecture"), "")
        out.append(Substitution(typed=parsed.unknown_model, used=str(shape), reason="generic_shape"))
    return out


_CODE = attrgetter("code")
"""A note's code (``x in map(_CODE, warnings)``: the test in C, no generator frames)."""
_FIELD, _WHY = attrgetter("field"), attrgetter("why")
"""An assumption's field and reason (:func:`_substitutions`' table of them, built in C)."""


def _per_run(report: SizingReport) -> bool:
    """Whether a budget per period was used as the period's sum × the run's months
    (estimator.budget_check): a note with a months figure or an hourly/daily budget code."""
    return any(
        "months" in n.params or n.code.startswith(("hourly_budget", "daily_budget")) for n in report.warnings
    )
