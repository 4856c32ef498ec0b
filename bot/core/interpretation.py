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
from bot.core.cpu_machine import machine_without_gpu
from bot.core.ignored_reasons import IGNORED_REASONS as IGNORED_REASONS  # its old name (s39 split)
from bot.core.ignored_reasons import KT_NAMED, KT_USED, MODEL_SUBSTITUTIONS, USED_REASONS
from bot.core.substitution_reasons import SUBSTITUTION_REASONS as SUBSTITUTION_REASONS
from bot.core.substitution_reasons import runtime_not_sized
from bot.later_names import offload_unused, unused_ep, unused_images, unused_local
from bot.later_names import setting_text as _text
from bot.parse import ParseResult
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
from estimator.runtimes import LOCAL


def _said_once(ignored: list[Ignored]) -> list[Ignored]:
    """``ignored`` without the entries whose text another entry lists as used (s12 trial D2: "DeepSpeed"
    in the prose ('no_field') beside the pasted DeepSpeed config ('settings_applied') was said to be
    both used and not used)."""
    if not ignored:  # most answers: no comprehension frames (s37)
        return ignored
    used = {i.text for i in ignored if i.reason in USED_REASONS}
    if any(i.reason.startswith("script_") for i in ignored):  # s48 review B4: a tool read through its script
        ignored = _script_tool(ignored)
    return [i for i in ignored if i.reason in USED_REASONS or i.text not in used]


def _script_tool(ignored: list[Ignored]) -> list[Ignored]:
    """A tool named beside the script of it that was read (DeepSpeed-Chat: bot.parse.script_reads.TOOL_READ,
    keyed on the read's reason): 'no_field' → 'script_tool', a used reason; its script's settings are what
    is sized, so it is not also said to have no setting (s48 review B4)."""
    from bot.parse.script_reads import TOOL_READ  # loaded already: it gave the read's reason

    tools = {f"training_tool: {TOOL_READ[i.reason]}" for i in ignored if i.reason in TOOL_READ}
    return [
        Ignored(text=i.text, reason="script_tool") if i.text in tools and i.reason == "no_field" else i
        for i in ignored
    ]


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
    machine: str | None = None
    """'no_gpu_said' (the message says its machine has no GPU) or 'cpu_named' (a CPU named, no GPU): the
    answer's head is the CPU run (report.cpu); None otherwise (bot.core.cpu_machine, s41 cpufix #3)"""
    beyond_slots: int | None = None
    """the GPU count sized when it is more than the card slots stated ('4 个卡槽'): more cards than the
    machine takes"""


TRAINING_ONLY = tuple(f for f in TRAINING_FIELDS if f not in ("tokens", "method", "algorithm", "batch_size"))
"""Training settings a serving answer names as not used (tokens, method and algorithm words make the
parser choose a training stage, so they never reach a serving answer as typed; a serving batch is read
as the concurrency)."""
SERVING_ONLY = SERVING_FIELDS
DERIVED_FLAG = "max_model_len_default"
"""A serving field the parser derives from vLLM named with no length (estimator.serving_launch), never typed:
a training answer names the runtime, not this flag (trial s48b #8 showed 'max_model_len_default: True')."""


def _tax_used(report: SizingReport) -> bool:
    """Whether a cost is shown to apply a named tax rate to (:func:`bot.core.tax_applied.taxed_band`)."""
    from bot.core.tax_applied import taxed_band

    return taxed_band(report) is not None


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
    tax = None  # a tax rate named: found in this loop, no call (speed pins; s46 review B4)
    users = False  # s48b: '… then serve it for 50 users' on a training answer: the load is not used
    for t, why in parsed.unused_numbers:
        if why == "tax_rate":
            tax = t
        users = users or why == "users_at_once"
        ignored.append(
            Ignored(text=t, reason=CALENDAR if cal and t == cal.said and why == DAILY_SCHEDULE else why)
        )
    if report is not None:
        ignored += _unused_settings(said, report)
        work = report.batch_work  # a rows x tokens batch timed: the row's tokens were used (s45 review B3)
        if work is not None and work.batch_seconds and said.batch_tokens and said.num_samples:
            ignored = [i for i in ignored if i.reason != "output_in_context"]
        if report.memory is not None and report.memory.offloaded_bytes:  # FSDP offloads an adapter run's
            ignored = [i for i in ignored if i.reason != "param_offload"]  # parameters: used (s34)
        if users and report.request.stage != Stage.inference:  # named a serving setting, never 'used'
            ignored = [i for i in ignored if i.reason != "users_at_once"]
        if tax is not None and _tax_used(report):  # applied to the cost shown (s46 review B4)
            ignored = [i for i in ignored if i.reason != "tax_rate"]
        if report.request.stage == Stage.inference:  # 'Unsloth 只用来推理': a training tool, not served (s32)
            timed = report.inference is not None and report.inference.prefill_seconds is not None
            ignored = [_served_tool(i, timed) for i in ignored]
    split = report.inference.layer_split if report is not None and report.inference is not None else None
    if split is not None and split.cpu_moe_layers:  # KTransformers' experts-in-CPU layout is sized (s40 #3)
        ignored = [
            Ignored(text=i.text, reason=KT_USED) if (i.text, i.reason) == KT_NAMED else i for i in ignored
        ]
    # 'use_vllm=False' when the trainer generates (s26); the algorithm checked inline: no call for others
    if report is not None and report.request.algorithm in RL_ALGORITHMS and _in_trainer(report.request):
        ignored = [i for i in ignored if i.reason != "rollout_as_vllm"]
    return Interpretation(
        unknown_gpu=parsed.unknown_gpu,
        unknown_model=parsed.unknown_model,
        ignored=_said_once(ignored),
        substitutions=_substitutions(parsed, report),
        beyond_slots=_beyond_slots(parsed.card_slots, report),
        machine=machine_without_gpu(parsed) if "cpu_only" in parsed.notes else None,
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


MERGE_USED = ("lora_rank", "lora_targets")
"""A LoRA merge's settings that are used, never 'a training setting' (s46: the adapter is sized in the merge's
memory line, bot.render.merge_head)."""


def _unused_settings(said: SizingRequest, report: SizingReport) -> list[Ignored]:
    """Stated settings the sized stage or method has no use for, and measurements set aside."""
    req = report.request
    serving = req.stage == Stage.inference
    out: list[Ignored] = []
    for name in TRAINING_ONLY if serving else SERVING_ONLY:
        value = None if name == "num_samples" and said.batch_tokens else getattr(said, name, None)  # s45 #1
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
        elif value is not None and not (req.merge_asked and name in MERGE_USED) and name != DERIVED_FLAG:
            out.append(
                Ignored(text=_text(name, value), reason="training_only" if serving else "serving_only")
            )
    if (said.tp or said.pp) and said.gpu_count and (said.tp or 1) * (said.pp or 1) > said.gpu_count:
        for name in ("tp", "pp"):
            if getattr(said, name):
                out.append(Ignored(text=_text(name, getattr(said, name)), reason="more_than_gpus"))
    if said.expert_parallel and not serving:  # s48: a stated EP the training plan did not use, and why
        out += [Ignored(text=t, reason=why) for t, why in unused_ep(said, report)]
    if serving:
        # a serving answer sizes GPUs for the load: CPU offload or a micro-batch next to a stated
        # concurrency are not used, nor a budget it could not compare (estimator.serving_budget): a
        # sum with no rental cost to divide it by (review s10 item 7: not "a training setting")
        out += [Ignored(text=t, reason=why) for t, why in unused_local(said, report)]  # offload, host RAM
        if said.budget and not serving_budget_used(report):
            out.append(Ignored(text=_text("budget", said.budget), reason="budget_no_cost"))
        capped = said.runtime in CAP_BATCH_ENGINES  # their batch is their cap (s32: bot.parse.prose_forms)
        if said.batch_size and said.concurrency and said.batch_size != said.concurrency and not capped:
            out.append(Ignored(text=_text("batch_size", said.batch_size), reason="training_only"))
        if "fp8_weights_unsupported" in map(_CODE, report.warnings):  # C: no generator frames
            out.append(Ignored(text=_text("precision", said.precision), reason="no_fp8_weights"))
    if not serving:
        # a budget per period is used as the period's sum × the run's months (estimator.budget_check)
        if said.budget and said.budget_period and not _per_run(report):  # no price: the run's whole sum
            out.append(Ignored(text=_text("budget_period", said.budget_period), reason="period_as_total"))
        if said.image_pixels or said.images_per_sample:  # s40 fixt #2: images a fine-tune does not count
            out += [Ignored(text=t, reason=why) for t, why in unused_images(said, report)]
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
            achieved = _text("achieved_tflops_per_gpu", said.achieved_tflops_per_gpu)
            out.append(Ignored(text=achieved, reason="above_peak"))
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
    elif whys.get("gpu") == "default_gpu" and "gpu_count" in parsed.found and not parsed.nodes_read:
        count = f"{report.request.gpu_count or 0:g}"  # '2 GPUs', no card nor memory: the verdict's card (s46)
        out.append(Substitution(typed=count, used=gpu, reason="card_assumed"))
    if parsed.tool_cue and report.request.training_tool:  # "per_device_train_batch_size": HF Trainer
        out.append(
            Substitution(typed=parsed.tool_cue, used=report.request.training_tool, reason="tool_inferred")
        )
    if parsed.model_substitution == "no_version" and parsed.model_typed and report.request.model:
        out.append(Substitution(typed=parsed.model_typed, used=report.request.model, reason="latest_release"))
    why = MODEL_SUBSTITUTIONS.get(parsed.model_substitution or "")  # 'Qwen3-VL-235B-A22B', 'llama 30b' (s14)
    if why and parsed.model_typed and report.request.model:
        out.append(Substitution(typed=parsed.model_typed, used=report.request.model, reason=why))
    fp8 = getattr(parsed.request.precision, "value", None) == "fp8"  # s50 #2: its own reason, no_fp8_weights
    if whys.get("precision") == "fp16_no_bf16" and "precision" in parsed.found and not fp8:  # 'bf16 on V100'
        out.append(
            Substitution(
                typed=getattr(parsed.request.precision, "value", "bf16"), used="fp16", reason="fp16_no_bf16"
            )
        )
    for t, v in parsed.vague_read:  # loops: no comprehension frame for an empty list (s37)
        out.append(Substitution(typed=t, used=f"{v:g}", reason="vague_amount"))
    for t, u, r in (*parsed.nodes_read, *parsed.bounds_read):  # '2机4卡' = 8; '至少 16k'
        out.append(Substitution(typed=t, used=u, reason=r))
    norm = parsed.normalized  # PEFT words: three tests in C, no frame (the render's call pins)
    if report.request.method is Method.lora and ("peft" in norm or "efficient" in norm or "参数高效" in norm):
        from bot.parse.method_words import peft_typed  # lazily: PEFT said without LoRA is rare

        if typed := peft_typed(parsed.normalized):  # 'fine-tune with PEFT': sized as LoRA, said (s43)
            out.append(Substitution(typed=typed, used="LoRA", reason="peft_as_lora"))
    named, inf = report.request.runtime, report.inference  # 'Q2_K with vLLM': as llama.cpp runs it (s47 B7)
    local = inf is not None and inf.runtime == LOCAL.name  # a call only then (the render's call pins)
    if named is not None and local and (why := runtime_not_sized(report)):
        out.append(Substitution(typed=named.value, used="llama.cpp", reason=why))
    if parsed.unknown_model and whys.get("architecture") == "generic_shape":
        shape = next((a.value for a in report.assumptions if a.field == "architecture"), "")
        speech = "hisper" in parsed.unknown_model  # Whisper (bot.parse.lexicon.ADJACENT_MODELS): not an LLM
        why = "speech_model_shape" if speech else "generic_shape"
        out.append(Substitution(typed=parsed.unknown_model, used=str(shape), reason=why))
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
