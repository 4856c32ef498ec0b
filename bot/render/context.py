"""SizingReport → everything the reply templates show (strings, lists, flags)."""

from __future__ import annotations

from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any

from bot.core.answer import Answer
from bot.core.chosen import chosen_plan
from bot.core.derived_hours import derived_hours
from bot.core.pipeline import MAX_INPUT_CHARS
from bot.later_names import budget_steps, family_head, per_money_line, sizes_line, ttft_target
from bot.parse import ParseResult
from bot.render.advice import framework_keys
from bot.render.describe import gpu_names, is_tpu, model_label, node_of, stage_key
from bot.render.fit_change_text import same_card_fix
from bot.render.fmt import fmt_for
from bot.render.largest_text import largest_section
from bot.render.load_cost_text import with_load_gpu_hours
from bot.render.memory_text import memory_first, memory_section
from bot.render.note_codes import NoteCode
from bot.render.notes import assumption_rows, note_text
from bot.render.sections import budget_section, method_rows, rental_section, training_section
from bot.render.sections_ledger import linked_rows
from bot.render.serving_text import inference_section
from bot.render.stated import serving_settings, settings_suffix
from bot.render.understood import understood_extras
from bot.render.wording import BUDGET_VERDICTS, TOTAL_MEMORY_VERDICTS
from estimator.models import Note, SizingReport
from estimator.reasons import Why
from estimator.rl_reference import has_reference, no_reference_params

if TYPE_CHECKING:
    from bot.render.contexts import ParseExtras, ReplyContext, SplitContext
    from bot.render.fmt import Fmt

_REASON = itemgetter(1)
"""The reason of a ``ParseResult.unused_numbers`` item (text, reason)."""


_RL_KEYS = ("dpo_", "ppo_", "grpo", "rloo")
"""The first four characters of the stage keys of preference tuning and RL (bot.render.describe.stage_key:
'grpo_lora', 'dpo_full')."""


def _no_reference(report: SizingReport) -> dict | None:
    """The wording of a run sized with no frozen reference model (the ledger's k says so:
    ``flops_no_reference``/``_ppo``, :func:`estimator.rl_reference.has_reference`): its ``setting`` and
    ``switch`` (:func:`estimator.rl_reference.no_reference_params`); None when a reference is loaded.
    With no compute sized (no data given, so no k in the ledger) the request decides (s29 trial #3: 'TRL
    GRPO … how much memory' said "keeps a frozen reference model" at TRL's beta 0)."""
    said = next((a.params for a in report.assumptions if a.why.startswith("flops_no_reference")), None)
    if said is not None or report.flops is not None or has_reference(report.request):
        return said
    return no_reference_params(report.request)


def _reference_words(report: SizingReport) -> dict[str, Any]:
    """The advice's reference-model words of an RL stage: ``no_reference`` (:func:`_no_reference`) and
    ``reference_copy`` (s48: the reference a whole copy beside LoRA adapters,
    ``SizingRequest.reference_copy``: DeepSpeed-Chat step 3); off RL :data:`_NO_REFERENCE_WORDS`."""
    return {"no_reference": _no_reference(report), "reference_copy": bool(report.request.reference_copy)}


_NO_REFERENCE_WORDS: dict[str, Any] = {"no_reference": None, "reference_copy": False}
"""A stage other than RL: no reference words (a constant, so a plain reply pays no call: the render pins)."""


def parse_extras(parsed: ParseResult | None, report: SizingReport | None = None) -> ParseExtras:
    """What the parser could not match; a model sized by the size typed with it ('a 125M GPT-2') is named
    once, by the understood line 'Sized “GPT-2 125M” with a generic shape of its size' — no 'Could not find
    … Did you mean OPT-125M' beside it (s24 review #8)."""
    if parsed is None:
        return {
            "unknown_gpu": None,
            "unknown_model": None,
            "gpu_suggestions": "",
            "model_suggestions": "",
            "model_family_only": False,
            "family_sizes": None,
            "truncated": False,
            "max_chars": MAX_INPUT_CHARS,
            "ignored_numbers": "",
            "asks_cost": False,
            "asks_concurrency": False,
            "asks_largest": False,
            "asks_ttft": False,
            "asks_speed": False,
            "asks_usable": False,
            "asks_steps": False,
            "asks_gpu_days": False,
            "engine_not_modelled": False,
            "nonpositive_numbers": "",
            "unusable_numbers": "",
        }
    return {
        # a family typed ('华为的卡'): said once, in the reply's first line (bot.render.unknown_card, s27 #9)
        "unknown_gpu": None
        if parsed.unknown_gpu and report is not None and family_head(parsed, report)
        else parsed.unknown_gpu,
        "gpu_suggestions": " / ".join(parsed.gpu_suggestions[:4]),
        "unknown_model": None
        if parsed.unknown_model and report is not None and _sized_by_size(report)
        else parsed.unknown_model,
        "model_suggestions": " / ".join(parsed.model_suggestions[:4]),
        "model_family_only": parsed.model_family_only,
        # a release of sizes: all of them, and an example from them (bot.parse.family_version, s30 #3)
        "family_sizes": sizes_line(parsed.unknown_model or "", parsed.model_suggestions)
        if parsed.model_family_only
        else None,
        "truncated": parsed.truncated,
        "max_chars": f"{MAX_INPUT_CHARS:,}",  # both locales group with ","; no second Babel locale
        "ignored_numbers": ", ".join(parsed.ignored_numbers[:3]),
        "asks_cost": parsed.asks_cost,
        "asks_concurrency": parsed.asks_concurrency,
        "asks_largest": parsed.asks_largest,
        "asks_ttft": parsed.asks_ttft,
        "asks_speed": "throughput" if parsed.asks_speed and parsed.asks_throughput else parsed.asks_speed,
        "asks_usable": parsed.asks_usable,
        "asks_steps": parsed.asks_steps,  # 'how much memory is usable': usable and KV GiB led (s32 #2)
        "asks_gpu_days": parsed.asks_gpu_days,
        # an engine named but not modelled (MindIE): no vLLM start-up log as if it ran vLLM (s25 trial #14)
        "engine_not_modelled": "runtime_not_modelled" in map(_REASON, parsed.unused_numbers),
        # asked first: no comprehension frame for an empty list (s37)
        "nonpositive_numbers": ", ".join([f"“{n}”" for n in n[:3]])
        if (n := parsed.nonpositive_numbers)
        else "",
        "unusable_numbers": ", ".join([f"“{u}”" for u in u[:3]]) if (u := parsed.unusable_numbers) else "",
    }


def _sized_by_size(report: SizingReport) -> bool:
    """Whether the model was sized as a generic shape of the size the user typed (Why.generic_shape); only
    asked when the parse has an unknown model (render-call budget)."""
    return any(a.field == "architecture" and a.why == Why.generic_shape for a in report.assumptions)


_KT = ("runtime: KTransformers", "runtime_not_modelled")
"""KTransformers named (bot.render.ktransformers_text.NAMED): its split worded for it (s39 fixs2 #3)."""


def for_ktransformers(report: SizingReport, f: Fmt, lang: str, gpu: str) -> SplitContext | None:
    """``inf.split`` worded for KTransformers (bot.render.ktransformers_text; imported when used)."""
    from bot.render.ktransformers_text import for_ktransformers as worded

    return worded(report, f, lang, gpu)


def _time_on_fewest(report: SizingReport, f: Any, training: Any) -> Any:
    """``training`` (the training section, whose headline names the fewest GPUs that hold the job:
    ``unfit_min``) with the time on those GPUs (:func:`bot.render.unfit_time.min_count_time`): called only
    when a time is asked (parse note ``time_asked``: 'how long?' on GPUs that cannot hold it)."""
    from bot.render.unfit_time import min_count_time

    return training | min_count_time(report, report.memory.min_gpus, f)  # type: ignore[union-attr]


def build_context(
    report: SizingReport, lang: str, parsed: ParseResult | None = None, answer: Answer | None = None
) -> ReplyContext:
    """Everything the reply templates show, formatted for ``lang`` (strings, lists, flags). With the
    ``answer`` behind the report, its derived facts (chosen layout, interpretation) are core's; without
    (a bare report), they are derived here from the report alone."""
    plan = answer.chosen_plan if answer is not None else chosen_plan(report)
    hours = answer.derived_hours if answer is not None else derived_hours(report)  # core's, formatted here
    it = answer.reply_interpretation if answer is not None else None
    f = fmt_for(lang)
    (gpu, family, _capacity), (per_node, nvlink) = gpu_names(report), node_of(report)
    training = training_section(report, f, per_node)
    if training and training.get("unfit_min") and parsed and "time_asked" in parsed.notes:  # s41 trial #5
        training = _time_on_fewest(report, f, training)
    if training is not None and parsed is not None and parsed.asks_verdict:  # '2 张 4090 够吗' (s39 fixv #6)
        from bot.render.verdict_head import fit_verdict

        training |= fit_verdict(report, f)  # type: ignore[typeddict-item]
    memory = memory_section(report, f, per_node, nvlink, timed=training is not None, chosen=plan)
    if memory is not None and training is not None and "nowhere" in training:  # no count fits (s39 fixv #1)
        memory["at_layout"] = memory["reason"] = None  # no 'On 1 GPU' layout, no 'it fits on one GPU'
    if memory is not None:  # the memory leads, then the cards (s35-fixa #2)
        asked = report.request.memory_asked and not report.request.gpu_count and report.memory
        memory["mem_first"] = memory_first(report.memory, f) if asked else None  # type: ignore[arg-type]
        theirs = report.request.memory_asked and report.request.gpu_count and report.memory  # s37 fixc #4
        memory["mem_lead"] = bool(theirs and report.memory.fits_requested)  # type: ignore[union-attr]
    inference = inference_section(report, f, lang)
    with_load_gpu_hours(inference, f, hours.load_gpu_hours)  # type: ignore[arg-type]
    if inference is not None and parsed is not None and parsed.asks_ttft:  # '首token 500ms 内' (s37 fixb)
        inference["ttft_target"] = ttft_target(parsed, report, f, lang)  # s38 binds, s46 under the load
    n = parsed.normalized if inference is not None and parsed is not None else ""
    if "token" in n and ("dollar" in n or "$" in n or "元" in n or "块" in n or "美金" in n):  # s46 #11
        inference["per_money"] = per_money_line(n, report, f, lang)  # type: ignore[index]
    if inference is not None:  # the runtime and memory share the user named, next to the weight format
        inference["precision"] += serving_settings(report, lang)
        if inference["split"] and parsed is not None and _KT in parsed.unused_numbers:  # s39 fixs2 #3
            inference["split"] = for_ktransformers(report, f, lang, gpu)
    budget = budget_section(report, f, gpu)
    if budget is not None:  # optimizer steps only when asked (s32 fixi #1)
        budget["steps"] = budget_steps(report, f) if parsed is not None and parsed.asks_steps else None
    rental, largest = rental_section(report, f), largest_section(report, f)
    kind = _kind(largest, inference, training, budget, rental, memory)  # in _KINDS' order
    return {
        "kind": kind,
        "sentence_gap": "" if lang == "zh" else " ",  # Chinese sentences run on without a space
        "offer": None,
        "model": model_label(report, lang),
        "stage": (stage := stage_key(report)),
        # RL sized with no reference model: the advice names the tool's own KL key (s27 fix3 #1)
        **(_reference_words(report) if stage[:4] in _RL_KEYS else _NO_REFERENCE_WORDS),  # no call off RL
        "stage_settings": settings_suffix(report, lang),
        "gpu": gpu,
        "gpu_family": family,
        "tpu": is_tpu(report),  # chips on hosts, ICI inside a slice: no GPU words (trial s30 #1)
        "t": training,
        "m": memory,
        "inf": inference,
        "budget": budget,
        "methods": method_rows(report, f, hours.row_hours),
        "r": rental,
        "largest": largest,
        **_warning_lines(report, lang, kind, memory, inference, parsed),
        # a bare rental ('rent 8x H100 for one week') is no job: no stage to assume, no framework to advise
        "assumptions": [
            row
            for row in linked_rows(report, assumption_rows(report, lang), lang)
            if (kind != "rental" or row["field"] != "stage")
            # 'will it start?' with no load: the default load is not what the body sizes
            and not (inference and inference["start_only"] and row["field"] == "concurrency")
            # the MFU of the time to first token: where it was asked (s39 fixs #1; JSON always)
            and (row["field"] != "prefill_mfu" or (parsed is not None and parsed.asks_ttft))
        ],
        "tools": [] if kind == "rental" else framework_keys(report, plan),
        "show_details": True,
        # QLoRA named in the headline as Unsloth's default, not stated: said under it (trial s29 #2)
        "qlora_assumed": kind in ("training", "memory") and _qlora_assumed(report),
        **parse_extras(parsed, report),
        **understood_extras(parsed, report, lang, it, answer is not None and answer.stack is None),
    }


def _qlora_assumed(report: SizingReport) -> bool:
    """The method assumed as Unsloth's default (its only reason); tested in C (render speed pin)."""
    return "unsloth_default" in map(attrgetter("why"), report.assumptions)


_NOT_LISTED = BUDGET_VERDICTS | TOTAL_MEMORY_VERDICTS | {NoteCode.duration_needs_data}
"""Warnings the reply says elsewhere than in its list of warnings (the verdicts under the headline)."""


def _warning_lines(
    report: SizingReport,
    lang: str,
    kind: str,
    memory: dict[str, Any] | None,
    inference: dict[str, Any] | None,
    parsed: ParseResult | None,
) -> dict[str, Any]:
    """The report's warnings as the reply places them, in one pass: ``notes`` (the list; not those the
    reply already states, the verdicts, nor the unknown card, which is named right under the headline
    with the closest cards), ``budget_verdict`` (every verdict on the user's budget and deadline, right
    under the headline: "within budget" and "not within 30 days" can both hold), ``time_needs_data``
    ("how long?" with no data size: line 1 says what a time needs, the memory headline follows) and
    ``total_verdict`` (the first of each)."""
    notes: list[str] = []
    verdicts: list[str] = []
    time_needs_data = total_verdict = None
    shown: bool | None = None  # whether the reply has the alternatives section, worked out once
    unknown_gpu = parsed is not None and parsed.unknown_gpu
    for n in report.warnings:
        code = n.code
        if code in BUDGET_VERDICTS:
            verdicts.append(note_text(n, lang))
        if code == NoteCode.duration_needs_data and time_needs_data is None:
            time_needs_data = note_text(n, lang)
        if code in TOTAL_MEMORY_VERDICTS and total_verdict is None:
            total_verdict = note_text(n, lang)
        if code in _NOT_LISTED or _said_elsewhere(n, kind, memory, inference):
            continue
        if code == NoteCode.unknown_gpu_assumed and unknown_gpu:
            continue
        if shown is None:
            shown = _alternatives_shown(report, memory)
        if code == NoteCode.no_fit and same_card_fix(report):  # not 'choose a bigger card' (trial s19b #2)
            n = n.model_copy(update={"params": {**n.params, "same_card_fix": True}})
        notes.append(note_text(n, lang, alternatives_shown=shown))
    return {
        "notes": notes,
        "budget_verdict": "\n".join(verdicts),
        "time_needs_data": time_needs_data,
        "total_verdict": total_verdict,
    }


_KINDS = ("largest", "inference", "training", "budget", "rental", "memory")
"""The sections a reply can lead with, in the order :func:`_kind` tries them."""


def _kind(*sections: Any) -> str:
    """Which section leads the reply: the first present of ``sections``, given in :data:`_KINDS`' order
    (largest, inference, training, budget, rental, memory); "none" when none is."""
    for name, section in zip(_KINDS, sections, strict=True):  # a loop: no generator frame a section
        if section:
            return name
    return "none"


def _alternatives_shown(report: SizingReport, memory: dict[str, Any] | None) -> bool:
    """Whether the reply has the alternatives section (the condition in ``_alternatives.j2``)."""
    stage = stage_key(report)
    return (
        bool(memory and memory.get("alternatives"))
        and stage.split("_")[-1] in ("full", "lora", "qlora", "freeze", "ptuning")
        and stage != "continued_pretrain"
    )


_GPU_ONLY_LAYOUT = frozenset(
    {
        "tp_over_pcie",
        "pipeline_across_nodes",
        "tp_group_across_nodes",
        "tp_allreduce_internode",
        "tp_allreduce_ethernet",
        "personal_beyond_one_machine",
        "personal_machines_stated",
    }
)
"""Warnings about the layout of every weight on GPUs, beside the point where the weights are offloaded."""
_START_ONLY_HIDDEN = frozenset(
    {
        "stated_layout_too_small",
        "pipeline_across_nodes",
        "tp_group_across_nodes",
        "concurrency_limited_assumed",
        "personal_beyond_one_machine",
        "personal_machines_stated",
        "price_other_currency",
    }
)
"""Warnings about the layout sized for the default load, hidden when the body sizes the user's cards: the
assumed 16 that do not fit, the machines the load's plan spans, the currency of a cost not shown (trial
s26b #6, #7)."""


def _said_elsewhere(
    note: Note, kind: str, memory: dict[str, Any] | None, inference: dict[str, Any] | None = None
) -> bool:
    """Warnings the reply already states: "does not fit on N" in a memory headline or in a serving
    headline that names both counts (the load's and the weights'), "no NVLink" in the plan's reason
    line."""
    both = inference is not None and (inference["short_both"] or inference["offload_unfit"])
    if inference is not None and inference["start_only"]:  # the body sizes the user's cards, not the
        # layout sized for the default load: no TP over PCIe on one card
        one = inference["user_gpus"] == "1"
        if note.code in _START_ONLY_HIDDEN or (one and note.code == NoteCode.tp_over_pcie):
            return True
    if note.code == NoteCode.does_not_fit_requested and both:
        return True
    if (
        inference is not None
        and inference["one_mac_unfit"]
        and note.code
        in (
            NoteCode.does_not_fit_requested,
            NoteCode.pipeline_across_nodes,
            NoteCode.personal_beyond_one_machine,
        )
    ):
        return True  # one Mac: its headline says what does not fit; no 'at least 9 GPUs' (s24 #6)
    if inference is not None and inference["offload_unfit"] and note.code in _GPU_ONLY_LAYOUT:
        return True  # CPU offload not modelled: the GPU-only layout's warnings answer another question
    if note.code == NoteCode.known_duration:  # the rental headline says it
        return kind in ("rental", "inference", "training")
    if memory is None:
        return False
    if note.code == NoteCode.personal_beyond_one_machine:  # the count as set, beside a headline change
        return memory["fix_fits"]  # that fits on the user's own cards: no contradiction (trial s30)
    if note.code == NoteCode.does_not_fit_requested:
        # the memory headline and the training headline ("does not fit on 2 × …: at least 8") say it
        unfit = memory["fits_requested"] is False and memory["min_gpus"] is not None
        return kind in ("memory", "training") and unfit
    if note.code == NoteCode.recompute_chosen and kind == "memory":  # s36 left #1: the headline names the
        # cost ('≈ 1/3 more compute to save memory'), the details' reason line the figure without it
        return note.params.get("reason") in ("high_edge", "headroom")
    if note.code == NoteCode.consumer_no_nvlink:
        return str(memory.get("reason_key") or "").endswith("no_nvlink")
    if note.code in (
        NoteCode.memory_tight,
        NoteCode.memory_tight_recomputing,
    ):  # the borderline line under the headline already says it
        return bool(memory.get("borderline"))
    return False
