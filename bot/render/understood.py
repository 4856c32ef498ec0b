"""The interpretation in words (docs/design.md §8): what was not used and why, what was used in place
of what was typed, and a GPU outside the catalog named as typed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.interpretation import USED_REASONS, Interpretation, interpret
from bot.later_names import family_head
from bot.parse import ParseResult
from bot.render.describe import gpu_names
from bot.render.field_labels import FIELD_LABELS
from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate
from bot.render.notes import STAGE_VALUES, context_len, format_param
from bot.render.rig_text import SAME_REASON, same_memory
from bot.render.substitution_texts import SUBSTITUTION_TEXTS, base_shape
from estimator import catalog
from estimator.models import SizingReport

if TYPE_CHECKING:
    from bot.render.contexts import UnderstoodExtras

OWN_LINES = frozenset({"absurd", "nonpositive", "unusable"})
"""Reasons worded by lines of their own in the reply (templates/_extras.j2: 'I ignored …')."""

REPEATED_USED = N_("a second value for the same setting; used: %(used)s")
"""'repeated' when the value used is known: names it, whether it came first or later."""


BEYOND_SLOTS = N_(
    "the slots in your machine: at most %(slots)s cards — the %(sized)s sized are more than one such "
    "machine takes"
)
"""The card slots' reason when the count sized exceeds them (``Interpretation.beyond_slots``)."""
COMMENTED_IN_MESSAGE = N_(
    "commented out with “#” in your message: a tool does not read such a line, so it is not used"
)
"""The reason of a line put aside with '#' in a chat message that holds no config
(:func:`bot.parse.configs.commented.prose_commented`); in a config, ``IGNORED_TEXTS['commented_out']``."""
MAX_SHOWN = 5
"""Items named in the 'not used' line (a pasted log can hold hundreds of numbers)."""


def understood_extras(
    parsed: ParseResult | None,
    report: SizingReport,
    lang: str,
    it: Interpretation | None = None,
    in_message: bool = False,
) -> UnderstoodExtras:
    """Template values: ``not_used`` (one line or ''), ``substitutions`` (sentences) and the unknown-GPU
    line for the card the answer was sized on. ``it``: the interpretation core made
    (:attr:`bot.core.answer.Answer.reply_interpretation`); without it, the message's own. ``in_message``:
    no config was found in the message, so a line put aside with '#' is the message's, not a config's."""
    if parsed is None:
        return {"not_used": "", "substitutions": [], "unknown_gpu_line": "", "beyond": ""}
    it = it if it is not None else interpret(parsed, parsed.request, report)
    if report.cpu is not None and it.ignored:  # the CPU's bound leads and its lead names it (s45 review B6)
        it = it.model_copy(update={"ignored": [i for i in it.ignored if i.reason != "cpu_not_gpu"]})
    not_used = _not_used(
        it,
        lang,
        parsed.repeated_used,
        parsed.card_slots,
        same_memory(report, it.ignored),
        _assumed_load(report),
        (parsed.request.zero_stage is not None, parsed.request.offload is not None),
        in_message,
    )
    tax = None  # the tax rate named, applied to the cost (s46 fixrev #7): a loop, no call (speed pins)
    for t, why in parsed.unused_numbers:
        if why == "tax_rate":
            tax = t
            break
    if tax:  # 'not used' only with no cost (s46 review B4); alone when nothing else is named
        not_used = (not_used + _with_tax(report, tax, lang)).lstrip()
    return {
        "not_used": not_used,
        "substitutions": [
            translate(
                lang,
                SUBSTITUTION_TEXTS[s.reason],
                typed=s.typed,
                used=_used_text(s.used, s.reason, lang, report),
                gpu=gpu_names(report)[0],
            )
            for s in it.substitutions
            if s.reason in SUBSTITUTION_TEXTS
        ],
        "beyond": "".join(("" if lang == "zh" else " ") + b for b in _beyond(report, lang))  # line 1 (s36)
        if (report.request.tokens or 0) > SANE_TOKENS or (report.request.params_total or 0) > SANE_PARAMS
        else "",
        "unknown_gpu_line": _unknown_gpu_line(parsed, report, lang),
    }


PARAMS_BEYOND = N_(
    "A model of %(params)s parameters is far beyond any real one (the largest published hold about 1.6T, "
    "Switch-C): every figure below is an extrapolation."
)
TOKENS_BEYOND = N_(
    "%(tokens)s tokens is far beyond any real dataset (the largest published runs trained on about 36T, "
    "Qwen3): every figure below is an extrapolation."
)
"""Sizes beyond a sane range (s36 fixa #6), said after the headline: a model over 10T parameters, data over
10¹⁵ tokens."""


SANE_PARAMS = 1e13
SANE_TOKENS = 1e15


def _beyond(report: SizingReport, lang: str) -> list[str]:
    r = report.request
    out = []
    if (r.params_total or 0) > SANE_PARAMS:
        out.append(translate(lang, PARAMS_BEYOND, params=fmt_for(lang).params(r.params_total)))
    if (r.tokens or 0) > SANE_TOKENS:
        out.append(translate(lang, TOKENS_BEYOND, tokens=fmt_for(lang).sci(r.tokens)))
    return out


def _not_used(
    it: Interpretation,
    lang: str,
    repeated_used: dict[str, str] | None = None,
    slots: int | None = None,
    same_rig: bool = False,
    load: int | None = None,
    stated: tuple[bool, bool] = (True, True),
    in_message: bool = False,
) -> str:
    """The 'not used' line of ``it``; ``same_rig``: the rig's cards have the same memory (s19); ``load``:
    the concurrent sequences a serving answer assumed (no load stated), named beside a request rate;
    ``stated``: whether the request states a ZeRO stage and an offload (the DeepSpeed settings echoed);
    ``in_message``: a commented-out line is the chat message's (no config in it)."""
    ignored = it.ignored  # most answers have none: no comprehension frames (s37)
    if ignored:  # s48: the reasons' words load with the first answer that has an item (start-up)
        from bot.render.ignored_texts import IGNORED_TEXTS
    items = (
        [
            i
            for i in ignored
            if i.reason in IGNORED_TEXTS
            and i.reason not in USED_REASONS
            and (i.reason != "currency_unsupported" or i.text[:10] != "currency: ")  # s47: the amount says it
        ]
        if ignored
        else []
    )
    used = [i for i in ignored if i.reason in USED_REASONS] if ignored else []  # a tool whose settings apply
    line = _used_line(used, lang, stated) if used else ""
    repeated_used = repeated_used or {}
    if repeated_used:  # s26 trial #18: a value said again and used ('“20” (… used: 20)') is no item
        items = [i for i in items if i.reason != "repeated" or repeated_used.get(i.text) != i.text]
    if not items:
        return line
    sep = "；" if lang == "zh" else "; "
    parts = [
        translate(
            lang,
            N_("“%(text)s” (%(reason)s)"),
            text=_setting_text(i.text, lang),
            reason=translate(lang, SAME_REASON)
            if same_rig and i.reason == "mixed_rig"
            else _reason_text(i.text, i.reason, lang, repeated_used, load, in_message)
            if i.reason != "card_slots" or not it.beyond_slots
            else translate(lang, BEYOND_SLOTS, slots=slots or 0, sized=it.beyond_slots),
        )
        for i in items[:MAX_SHOWN]
    ]
    if len(items) > MAX_SHOWN:
        parts.append(translate(lang, N_("and %(n)s more"), n=len(items) - MAX_SHOWN))
    not_used = translate(lang, N_("Not used: %(items)s."), items=sep.join(parts))
    return f"{line} {not_used}" if line else not_used


def _with_tax(report: SizingReport, rate_text: str, lang: str) -> str:
    """' ' + the cost with the tax rate applied (:func:`bot.render.tax_text.tax_line`), or ''."""
    from bot.render.tax_text import tax_line

    line = tax_line(report, rate_text, lang)
    return (("" if lang == "zh" else " ") + line) if line else ""


def help_not_used(parsed: ParseResult, lang: str, only: tuple[str, ...] | None = None) -> str:
    """The 'not used' line of an answer that sized nothing (the help): ``parsed``'s interpretation with no
    report, each item worded as :func:`_not_used` words it for a sized reply (s42 zhleft #1: the reply to
    an unknown model named none of them while the JSON did); the reasons of :data:`OWN_LINES` keep their
    own lines; ``only``: these reasons alone (an out-of-scope question's rough amounts). "" when there is
    none."""
    it = interpret(parsed, parsed.request, None)
    if not it.ignored:
        return ""
    kept = [i for i in it.ignored if i.reason not in OWN_LINES and (only is None or i.reason in only)]
    it = it.model_copy(update={"ignored": kept})
    return _not_used(it, lang, parsed.repeated_used, parsed.card_slots)


def _used_line(items: list, lang: str, stated: tuple[bool, bool] = (True, True)) -> str:
    """'Used: “training framework: DeepSpeed” (its settings you gave … are what the sizing uses).'; a tool's
    settings name only those ``stated`` (ZeRO stage, offload), :data:`SETTINGS_APPLIED_TEXTS`. One item per
    text, the first reason kept (s26 trial #17: 'training framework: DeepSpeed' was listed twice, read from
    its settings and its settings applied)."""
    if len(items) > 1:
        items = list({i.text: i for i in reversed(items)}.values())[::-1]
    from bot.render.ignored_texts import IGNORED_TEXTS, SETTINGS_APPLIED_TEXTS
    from bot.render.rate_text import rate_text

    parts = [
        translate(
            lang,
            N_("“%(text)s” (%(reason)s)"),
            text=rate_text(i.text, lang) if i.reason == "rate_times_output" else _setting_text(i.text, lang),
            reason=translate(
                lang,
                SETTINGS_APPLIED_TEXTS.get(stated, IGNORED_TEXTS[i.reason])
                if i.reason == "settings_applied"
                else IGNORED_TEXTS[i.reason],
            ),
        )
        for i in items
    ]
    return translate(lang, N_("Used: %(items)s."), items=("；" if lang == "zh" else "; ").join(parts))


def _reason_text(
    text: str,
    reason: str,
    lang: str,
    repeated_used: dict[str, str],
    load: int | None = None,
    in_message: bool = False,
) -> str:
    """Why one item is not used; a repeated value names the value that was used ('used: 2'); a request
    rate with no output length names the load assumed instead (issue 24 item 3, s21); a line commented
    out in a chat message with no config in it is the message's (s29 trial #8: it said "your config")."""
    from bot.render.ignored_texts import IGNORED_TEXTS, QPS_AT_LOAD, SEQ_MAX, WINDOW_BEYOND

    if reason == "commented_out" and in_message:
        return translate(lang, COMMENTED_IN_MESSAGE)
    if reason == "repeated" and text in repeated_used:
        return translate(lang, REPEATED_USED, used=repeated_used[text])
    if reason == "qps_needs_output" and load:
        return translate(lang, QPS_AT_LOAD, n=load)
    if reason == "no_field" and text == "method: lora":  # LoRA adapters served (bot.parse.served_adapters)
        from bot.render.serve_flag_texts import LORA_SERVING

        return translate(lang, LORA_SERVING)  # its own words, not 'no setting for it yet' (s46 fixrev #8)
    if reason == "close_value":  # 'finetuning_type: lroa': did you mean lora? (s39 fixc)
        from bot.render.close_value_text import close_value_text

        return close_value_text(text, lang)
    if reason == "bad_value" and text[:9] == "seq_len: " and float(text[9:]) > SEQ_MAX:  # s36 fixe
        return translate(lang, WINDOW_BEYOND)  # above 10⁸ tokens: no model's window
    return translate(lang, IGNORED_TEXTS[reason])


def _assumed_load(report: SizingReport) -> int | None:
    """The concurrent sequences a serving answer sized with no load stated (the default); None otherwise."""
    inf = report.inference
    if inf is None:
        return None
    for a in report.assumptions:  # the ledger's default load (a loop: no generator frame per assumption)
        if a.field == "concurrency":
            return inf.concurrency
    return None


_OWN_FIELDS = {
    "training_tool": N_("training framework: %(value)s"),
    "budget": N_("budget: %(value)s"),  # s47: a foreign-currency amount (bot.parse.foreign_money)
    "price": N_("price: %(value)s"),
    "script": N_("script: %(value)s"),  # s50 #7: a script named by its file ('script: train.py')
}
"""Request fields no config spells (the sizing's own names): worded in both languages, never as the JSON
key (s23: Chinese answers echoed 'training_tool: DeepSpeed'; s24 review #3: so did English ones)."""


_SCRIPT_TEXTS = {
    "script: DeepSpeed-Chat step 3 critic": N_("script: DeepSpeed-Chat step 3 critic"),
    "script: DeepSpeed-Chat step 3": N_("script: DeepSpeed-Chat step 3"),
    "script: DeepSpeed-Chat step 1 main.py": N_("script: DeepSpeed-Chat step 1 main.py"),
}
"""The script readers' own labels (bot.parse.dschat_critic, bot.parse.script_reads), worded in both
languages (s50 leftovers #7: a Chinese reply showed them in English)."""


def _setting_text(text: str, lang: str) -> str:
    """A setting the answer does not use ('deadline_days: 30.0', as the JSON keeps it) worded for a
    Chinese reply with the ledger's label and the key as a name ('工期（天）（deadline_days）：30');
    English replies keep 'field: value'."""
    from bot.render.ignored_texts import SEQ_MAX, seq_typed

    if text[:9] == "seq_len: " and float(text[9:].replace(",", "")) > SEQ_MAX:  # s36; s38: '5,000' too
        return seq_typed(text, lang)  # '上下文 10000000k' in thousands, as contexts are written
    if (
        text in _SCRIPT_TEXTS
    ):  # 'script: DeepSpeed-Chat step 3 critic' / '脚本：DeepSpeed-Chat 第 3 步的 critic'
        return translate(lang, _SCRIPT_TEXTS[text])
    field, sep, value = text.partition(": ")
    if sep and field == "model":  # another model of the message: its name as typed, in any language
        return value
    if sep and field in _OWN_FIELDS:  # 'training framework: DeepSpeed' / '训练框架：DeepSpeed'
        return translate(lang, _OWN_FIELDS[field], value=value)
    label = FIELD_LABELS.get(field) if sep and lang == "zh" else None
    if label is None:
        return text
    try:
        shown = format_param(fmt_for(lang), field, float(value))
    except ValueError:
        shown = {"True": "✓", "False": "✗"}.get(value, value)
    if field == "stage" and value in STAGE_VALUES:  # "stage: inference" → 阶段：推理
        shown = translate(lang, STAGE_VALUES[value])
    key = f"（{field}）" if "_" in field else ""  # a config key is named
    return f"{translate(lang, label)}{key}：{shown}"


def _used_text(used: str, reason: str, lang: str, report: SizingReport) -> str:
    """What a substitution used, as the reply says it: tokens compact ('5B'), a context as '16K'."""
    if reason == "vague_amount":
        return fmt_for(lang).tokens(float(used))
    if reason == "lower_bound_context" and used.isdigit():
        return context_len(int(used))
    if reason == "fine_tune_base":  # 'Meta Llama 2 13B, its base: 40 layers, no grouped KV' (s46)
        return base_shape(_used_name(used, report), used, lang)
    if reason == "model_alias":  # 'LLaMA 30B = LLaMA-33B, 32.5B parameters'
        params = report.request.params_total or 0
        return f"{_used_name(used, report)}, {fmt_for(lang).params(params)}" if params else used
    if reason == "same_architecture_release":  # 'DeepSeek-V3.2' as the catalog's V3.2-Exp, in reply words
        from bot.render.model_name_zh import localized_model_name

        return localized_model_name(_used_name(used, report), lang)
    if reason == "gpu_by_memory":  # the card whose speed times a memory stated alone ('24G': RTX 4090)
        return gpu_names(report, card=True)[0]
    return _used_name(used, report)


def _used_name(used: str, report: SizingReport) -> str:
    if used == report.request.gpu:
        return gpu_names(report)[0]
    if used == report.request.model and report.model_name:
        return report.model_name
    if used.startswith("dense-"):  # the generic shape's id: the sentence says it is generic; its size
        return used.removeprefix("dense-")
    if used.startswith("moe-"):  # an unknown MoE name's shape: 'MoE 300B-A47B' (s30)
        return "MoE " + used.removeprefix("moe-")
    return used


def _unknown_gpu_line(parsed: ParseResult, report: SizingReport, lang: str) -> str:
    """'“MTT S4000” is not in my catalog: sized as a 48 GiB card by memory alone …', or '… sized on
    A100 80G instead …'; suggestions follow. Empty when the GPU was known."""
    name = parsed.unknown_gpu
    if not name:
        return ""
    whys = {a.field: a for a in report.assumptions}
    gpu = whys.get("gpu")
    if gpu is not None and gpu.why == "mac_chip_assumed":  # a Mac with its memory: the chip assumed, said
        return translate(
            lang, MAC_CHIP_LINE, name=name, gib=f"{report.request.gpu_memory_gib or 0:g}", **gpu.params
        )
    suggestions = " / ".join(parsed.gpu_suggestions[:4])
    if family_head(parsed, report):  # the reply's first line names the family (bot.render.unknown_card)
        return ""
    if gpu is not None and gpu.why == "gpu_unknown_memory":
        line = translate(
            lang,
            N_(
                "“%(name)s” is not in my catalog: sized as a %(gib)s GiB card by memory alone, without time, "
                "speed or price figures."
            ),
            name=name,
            gib=f"{gpu.params.get('memory_gib', 0):g}",
        )
    elif suggestions and _family_only(name):  # 'Intel Gaudi', 'Ascend NPUs', '昇腾卡' (s26)
        return translate(lang, FAMILY_LINE, name=name, used=gpu_names(report)[0], names=suggestions)
    elif gpu is not None and gpu.why == "gpu_family_flagship":  # '4 块 Titan': read as the line's card (s32)
        gib = f"{catalog.gpu(str(gpu.value)).memory_gib:g}"
        return translate(lang, FAMILY_READ_LINE, name=name, used=gpu_names(report)[0], gib=gib)
    else:
        line = translate(
            lang,
            N_(
                "“%(name)s” is not in my catalog: sized on %(used)s instead — add its memory after the "
                "name (“%(name)s <memory>GB”) to size it by memory."
            ),
            name=name,
            used=gpu_names(report)[0],
        )
    if suggestions:
        line += (" " if lang != "zh" else "") + translate(
            lang, N_("Closest cards I know: %(names)s."), names=suggestions
        )
    elif not (report.request.achieved_tflops_per_gpu or report.request.tokens_per_second_per_gpu):
        gib = report.request.gpu_memory_gib if gpu is not None and gpu.why == "gpu_unknown_memory" else None
        hint = translate(lang, NO_NAME_MATCH_MEMORY, name=name, gib=f"{gib:g}") if gib else None
        line += (" " if lang != "zh" else "") + (hint or translate(lang, NO_NAME_MATCH, name=name))
    return line


def _family_only(name: str) -> bool:
    from bot.parse.accelerator_family import family_only  # the parser's, loaded by then

    return family_only(name)


FAMILY_LINE = N_(
    "“%(name)s” names a family of accelerators, not one model: sized on %(used)s only for reference — which "
    "model is it? The ones I know: %(names)s (or add its memory: “%(name)s <memory>GB”)."
)
"""An accelerator family typed without a model ('Intel Gaudi', 'Ascend NPUs', 'TPUs'; s25 closing, "Left"):
named as typed and asked which model, never sized silently as the reference card (design.md §8)."""
FAMILY_READ_LINE = N_(
    "Read “%(name)s” as the %(used)s (%(gib)s GB), the card of that line in my catalog — name the model "
    "if yours is another."
)
"""A line typed without its model letter whose catalog card is read for it ('4 块 Titan' → TITAN RTX;
estimator.gpu_families): said once as read, never also "not in my catalog" / "no card matches" (s32 trial)."""
MAC_CHIP_LINE = N_(
    "“%(name)s” with %(gib)s GB of unified memory, its chip not named: sized as the %(chip)s "
    "(%(bandwidth)s GB/s memory bandwidth)."
)
"""A Mac named by its product line and memory ('128G 的 Mac Studio'; estimator.mac_devices)."""
NO_NAME_MATCH = N_(
    "No card in my catalog matches that name; for time too, add its TFLOPS per card "
    "(“%(name)s <memory>GB, <TFLOPS> TFLOPS per card”)."
)
"""An unknown card with no catalog card of its vendor or series (bot.parse.gpus.gpu_suggestions): how to
size it as itself (its memory; its measured or peak TFLOPS per card times the job)."""
NO_NAME_MATCH_MEMORY = N_(
    "No card in my catalog matches that name; for time too, add its TFLOPS per card "
    "(“%(name)s %(gib)sGB, <TFLOPS> TFLOPS per card”)."
)
"""The same, its memory already given ('SuperGPU 48GB card', s10 trial A4): never asked for again."""


SWITCH_KEPT_RESET = N_(
    "New stage, new job: kept %(kept)s from your previous question; not carried over (sized afresh "
    "for this stage): %(reset)s."
)
SWITCH_RESET = N_(
    "New stage, new job: not carried over from your previous question (sized afresh): %(reset)s."
)
SWITCH_KEPT = N_("New stage, new job: kept %(kept)s from your previous question.")


def switch_line(kept: dict[str, Any], reset: dict[str, Any], report: SizingReport, lang: str) -> str:
    """What a stage switch kept (model, GPU, price) and did not carry over (the old stage's data size,
    GPU count, context …), in one line; '' without a switch."""
    if not kept and not reset:
        return ""
    f = fmt_for(lang)
    sep = "、" if lang == "zh" else ", "
    kept_items = [_kept_text(name, value, report, f) for name, value in kept.items()]
    reset_items = [_reset_text(name, value, lang) for name, value in reset.items()][:MAX_SHOWN]
    kept_text, reset_text = sep.join(kept_items), sep.join(reset_items)
    if kept_items and reset_items:
        return translate(lang, SWITCH_KEPT_RESET, kept=kept_text, reset=reset_text)
    if reset_items:
        return translate(lang, SWITCH_RESET, reset=reset_text)
    return translate(lang, SWITCH_KEPT, kept=kept_text)


def _kept_text(name: str, value: Any, report: SizingReport, f: Any) -> str:
    if name == "model":
        return report.model_name or str(value)
    if name == "params_total":
        return f.params(value)
    if name == "gpu":
        return catalog.family_of(str(value)) or str(value)
    if name == "price_per_gpu_hour":
        currency = report.request.currency
        price = f.price(value, currency.value) if currency is not None else f"{value:g}"
        return translate(f.lang, N_("%(price)s per GPU-hour"), price=price)
    return str(value)


def _reset_text(name: str, value: Any, lang: str) -> str:
    """'GPUs: 24', 'Sequence length: 32K' (zh: '卡数：24')."""
    value = value.value if hasattr(value, "value") else value
    label = FIELD_LABELS.get(name)
    if isinstance(value, int | float) and not isinstance(value, bool):
        shown = format_param(fmt_for(lang), name, value)
    elif isinstance(value, list):
        shown = ", ".join(str(v.value if hasattr(v, "value") else v) for v in value)
    else:
        shown = {True: "✓", False: "✗"}.get(value, str(value)) if isinstance(value, bool) else str(value)
    if label is None:
        return f"{name}: {shown}"
    return f"{translate(lang, label)}{'：' if lang == 'zh' else ': '}{shown}"
