"""The "what to change" of a borderline training verdict (issue 25 item 1): why only the likely figure
fits, and the settings that make the high end of the band fit (``Memory.fit_change``, computed by
:mod:`estimator.fit_change`)."""

from __future__ import annotations

import re
from typing import Any

from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from bot.render.plan_text import gpus_text  # '1 GPU', not '1 GPUs' (trial s25b #5)
from estimator.models import FitChange, SizingReport

FIT_REASONS = {
    "high_edge": N_(
        "Borderline: the likely %(likely)s per GPU fits, but the high end of the band, %(high)s, is above "
        "the card's %(usable)s — real runs often land there."
    ),
    "tool_default_ddp": N_(
        "Borderline: %(tool)s without a DeepSpeed or FSDP setting runs plain DDP, which keeps the whole "
        "model on every GPU; this plan needs ZeRO-%(stage)s."
    ),
}
"""Why a training verdict is borderline, for the reasons :mod:`estimator.verdicts` adds in issue 25."""

NO_FIT_ADAPTER = N_(
    "No layout fits within %(gpus_searched)s GPUs of this type, with %(adapter_method)s already: "
    "choose a card with more memory."
)
"""'no_fit' for a LoRA or QLoRA job: the generic line's "LoRA/QLoRA" would be the user's own method."""

CHANGES = {
    "gather_for_generation": N_(
        "generation without gathering the whole model under ZeRO-3 (ds3_gather_for_generation: false)"
    ),
    "optimizer_impl": N_("if you run adamw_torch (foreach): fused AdamW (optim: adamw_torch_fused)"),
    "optimizer": N_("8-bit AdamW (optim: adamw_bnb_8bit, bitsandbytes)"),
    "attention_implementation": N_(
        "SDPA or FlashAttention-2 instead of eager attention (attn_implementation: sdpa, LLaMA-Factory "
        "flash_attn: sdpa)"
    ),
    "micro_batch": N_("micro-batch %(value)s (per_device_train_batch_size)"),
    "recompute": N_("gradient checkpointing on (gradient_checkpointing: true)"),
    "zero_stage": N_("DeepSpeed ZeRO-%(value)s or FSDP (a deepspeed / fsdp config)"),
    "sharding_stack": N_(
        "another stack that shards the model, ZeRO-%(value)s or FSDP (HF Trainer + DeepSpeed, LLaMA-Factory)"
    ),
    "chunked_loss": N_("a loss without the whole fp32 logits (Liger kernel: use_liger_kernel)"),
    "offload": N_("ZeRO-3 CPU offload of the optimizer states"),
    "param_offload": N_(
        "FSDP CPU offload of the parameters (fsdp_qlora --use_cpu_offload, fsdp_offload_params: true), "
        "slower steps"
    ),
    "method": N_("QLoRA (4-bit base)"),
    "seq_len": N_("sequence length %(value)s (cutoff_len / max_seq_length)"),
    "gpu_count": N_("%(value)s GPUs"),
}
"""One phrase per setting of :class:`estimator.models.FitChange`."""


def fit_reason_text(report: SizingReport, f: Fmt) -> str | None:
    """The sentence for a 'high_edge' / 'tool_default_ddp' borderline; None for other reasons."""
    m, reason = report.memory, report.feasible_reason
    if m is None or reason not in FIT_REASONS:
        return None
    stage = m.plan.zero_stage if m.plan is not None else 3
    return translate(
        f.lang,
        FIT_REASONS[reason],
        likely=f.gib(m.per_gpu_bytes),
        high=f.gib(m.per_gpu_bytes_high or m.per_gpu_bytes),
        usable=f.gib(m.usable_bytes),
        tool=report.request.training_tool or "",
        stage=stage,
    )


MORE_CARDS = N_("%(value)s GPUs instead of your %(n)s (more cards to buy or rent)")
"""The GPU-count change said to a user who named their count ('my RTX 3070': trial s21 #23): it is no
setting of theirs, it means more cards."""


def _change_words(c: FitChange, f: Fmt, owned: int | None) -> str:
    """One change in words; more GPUs than the user's own count said as more cards (:data:`MORE_CARDS`)."""
    if c.setting == "gpu_count" and owned and int(c.value or 0) > owned:
        return translate(f.lang, MORE_CARDS, value=c.value, n=owned)
    return translate(f.lang, CHANGES[c.setting], value=c.value)


def fit_change_text(changes: list[FitChange], f: Fmt, owned: int | None = None) -> str | None:
    """'What to change: gradient checkpointing on, … (high end then ≈ 31.2 GiB per GPU).'; None when
    there is nothing to change. ``owned``: the GPU count the user stated."""
    if not changes:
        return None
    sep = "，" if f.lang.startswith("zh") else ", "
    last = {c.setting: c for c in changes}  # 'ZeRO-2 …, ZeRO-3 …': the steps of one setting, its last said
    kept = [c for c in changes if last[c.setting] is c]  # (trial s18 #5)
    items = sep.join(_change_words(c, f, owned) for c in kept)
    high = changes[-1].per_gpu_bytes_high
    if high is None:
        return translate(f.lang, N_("What to change: %(changes)s."), changes=items)
    return translate(
        f.lang,
        N_("What to change: %(changes)s (the high end is then %(high)s per GPU)."),
        changes=items,
        high=f.gib(high),
    )


def same_card_fix(report: SizingReport) -> bool:
    """Whether changed settings fit a training job on the user's own GPUs where theirs do not
    (``Memory.fit_change`` with its high end, the line :func:`unfit_change_text` shows): then no
    warning says to take a card with more memory (trial s19b #2)."""
    m = report.memory
    return bool(
        m is not None
        and m.fits_requested is False
        and m.fit_change
        and m.plan_gpus
        and m.fit_change[-1].per_gpu_bytes_high is not None
    )


def unfit_change_text(report: SizingReport, f: Fmt) -> str | None:
    """'On 4 GPUs: micro-batch 1, …, Liger kernel (the high end is then ≈ 13.5 GiB per GPU)' — what
    makes a training job that does not fit the user's GPUs fit them (``Memory.fit_change`` of a 'no'
    verdict, :func:`estimator.fit_change.what_to_change` with the user's method and tool); None when
    it fits or nothing does. It is shown even when another row (another tool, QLoRA) also fits at the
    user's count: the user's own tool's settings come first (ms-swift DPO of Qwen2.5-14B at 4,096 on
    4 × 4090 was offered Megatron-LM and QLoRA, not Liger's chunked loss)."""
    m = report.memory
    if m is None or not same_card_fix(report):
        return None
    sep = "，" if f.lang.startswith("zh") else ", "
    items = sep.join(translate(f.lang, CHANGES[c.setting], value=c.value) for c in m.fit_change)
    high = m.fit_change[-1].per_gpu_bytes_high or 0.0
    more_cards = any(c.setting == "gpu_count" for c in m.fit_change)  # 'On your 1 GPU: 2 GPUs' (s20 q12)
    count = next((int(c.value or 0) for c in m.fit_change if c.setting == "gpu_count"), 0)
    if m.recommended_gpus and count >= m.recommended_gpus:  # no better than the count recommended (s21 #10)
        return None
    return translate(
        f.lang,
        N_("Instead of your %(gpus)s GPUs: %(changes)s (the high end is then %(high)s per GPU)")
        if more_cards
        else N_("On your %(gpus)s GPUs: %(changes)s (the high end is then %(high)s per GPU)"),
        gpus=f.int(m.plan_gpus),
        changes=items,
        high=f.gib(high),
    )


OWN_FIX = N_("with %(changes)s (the high end is then %(high)s per GPU)")
"""The own-card change of a failed count's training headline, its count said once by the headline (s38
fixt #1: 'on your 2 GPUs: …, so it fits on your 2' read as two answers)."""


def own_fix_text(report: SizingReport, f: Fmt, fix: str | None, fits: bool) -> str | None:
    """'with a loss without the whole fp32 logits (…) (the high end is then 18.4 GiB per GPU)' when the
    headline's change ``fix`` (:func:`headline_fix`) is the settings that fit the user's own GPUs
    (:func:`unfit_change_text`, no GPU count among them) and ``fits``; else None."""
    m = report.memory
    if not fix or not fits or m is None or not same_card_fix(report):
        return None
    if any(c.setting == "gpu_count" for c in m.fit_change):
        return None
    own = unfit_change_text(report, f)
    if own is None or LEADING_WORD_RE.sub(lambda w: w.group(0).lower(), own) != fix:
        return None
    sep = "，" if f.lang.startswith("zh") else ", "
    items = sep.join(translate(f.lang, CHANGES[c.setting], value=c.value) for c in m.fit_change)
    return translate(f.lang, OWN_FIX, changes=items, high=f.gib(m.fit_change[-1].per_gpu_bytes_high or 0.0))


LIKELY_FIT = N_(
    "On your %(gpus)s GPUs, borderline (the likely figure fits, the band's high end does not): %(changes)s"
)
LIKELY_ONE = N_("%(change)s, ≈ %(likely)s per GPU, up to %(high)s")
LIKELY_OR = N_("; or ")


def likely_fit_text(report: SizingReport, f: Fmt) -> str | None:
    """'On your 1 GPUs, borderline (…): sequence length 2,048 (cutoff_len / max_seq_length), ≈ 46.8 GiB
    per GPU, up to 60.1 GiB' — the changes under which the likely figure fits the user's GPUs when no
    setting holds the band's high end there (``Memory.likely_fit``, :func:`estimator.fit_change.
    likely_fit`; s24 trial 2 #10): each option alone, or one chain of settings; None without any."""
    m = report.memory
    if m is None or not m.likely_fit or not m.plan_gpus:
        return None
    chain = [c for c in m.likely_fit if c.per_gpu_bytes is None]  # settings 1–5 one after another
    ends = [c for c in m.likely_fit if c.per_gpu_bytes is not None]
    sep = "，" if f.lang.startswith("zh") else ", "
    options = []
    for c in ends:
        words = sep.join(
            translate(f.lang, CHANGES[x.setting], value=f.int(x.value) if x.setting == "seq_len" else x.value)
            for x in [*chain, c]
        )
        high = f.gib(c.per_gpu_bytes_high or 0.0)
        options.append(
            translate(f.lang, LIKELY_ONE, change=words, likely=f.gib(c.per_gpu_bytes or 0.0), high=high)
        )
    if not options:
        return None
    changes = translate(f.lang, LIKELY_OR).join(options)
    return translate(f.lang, LIKELY_FIT, gpus=f.int(m.plan_gpus), changes=changes)


def cheaper_fix(
    memory: object, f: Fmt, lang: str, requested: int | None = None, method: str | None = None
) -> tuple[str, bool] | None:
    """('With ZeRO-3: 16 GPUs', whether it fits on the user's ``requested`` GPUs) when the fewest GPUs
    that fit the user's settings is no answer to lead with (:func:`estimator.fit_sanity.
    cheapest_change`): the headline says it first; else None. Another
    tool is worded for the ``method`` as the options list words it (:func:`alternative_label`: NeMo
    for LoRA, trial s30: the headline said Megatron-LM, the list NeMo)."""
    from estimator.fit_sanity import cheapest_change

    best = cheapest_change(memory, requested)
    if best is None:
        return None
    label = alternative_label(best, lang, method)
    label = LEADING_WORD_RE.sub(lambda m: m.group(0).lower(), label)  # '…; with ZeRO-3' mid-sentence
    text = translate(lang, CHEAPER_FIX, change=label, gpus=gpus_text(lang, best.min_gpus))
    return text, bool(requested and best.min_gpus <= requested)


def _their_one_card(report: SizingReport, f: Fmt) -> tuple[str | None, bool, bool]:
    """The headline's change for a user's one card that nearly holds the job (s39 fixz #5): what fits
    there, with its figures (:func:`likely_fit_text`), before more cards; (None, True, False) when none."""
    lead = likely_fit_text(report, f)
    return (
        (LEADING_WORD_RE.sub(lambda w: w.group(0).lower(), lead), True, False)
        if lead
        else (None, True, False)
    )


def headline_fix(report: SizingReport, f: Fmt) -> tuple[str | None, bool, bool]:
    """(the change the headline of a failed count names first, whether the fewest GPUs for the user's
    own settings is a count worth naming there, whether that change fits on the user's own GPUs: then
    no 'that takes 32 cards, more than one machine holds' warning, trial s30). The change:
    :func:`cheaper_fix`, else, when that count is over :data:`estimator.fit_sanity.SANE_FACTOR` × the
    user's (32 × A10G for a 14B QLoRA at 8,192 tokens whose 13.9 GiB fp32 logits do not shrink with data
    parallelism, trial s25b #4), the settings that fit on the user's own cards
    (:func:`unfit_change_text`); (None, True, False) when their count fits."""
    from estimator.fit_sanity import SANE_FACTOR, sane_count

    m, requested = report.memory, report.request.gpu_count
    if m is None or not requested or m.fits_requested is not False:
        return None, True, False
    fix = cheaper_fix(m, f, f.lang, requested, report.request.method)
    if fix is not None and not fix[1] and requested == 1 and m.likely_fit:  # s39 fixz #5: their one card
        return _their_one_card(report, f)
    if fix is not None and _keeps_their_stage(report) and not _tool_setting_fits(report, fix[1]):
        # s37 fixh #2: their ZeRO stage and offload first; a setting of theirs (micro-batch 1) before a
        # kernel swap when it fits on their own GPUs too (s38 fixt #1)
        own = unfit_change_text(report, f)
        return LEADING_WORD_RE.sub(lambda w: w.group(0).lower(), own or ""), sane_count(m), True
    if fix is not None:
        return fix[0], sane_count(m), fix[1]
    own = unfit_change_text(report, f)
    one = requested == 1 and m.likely_fit  # s39 fixz #5: what fits on their one card, before more cards
    if own is None or (m.min_gpus and m.min_gpus <= SANE_FACTOR * requested):
        return _their_one_card(report, f) if one else (None, True, False)  # the count is an answer (s25b #4)
    count = next((int(c.value or 0) for c in m.fit_change if c.setting == "gpu_count"), 0)
    if count and m.min_gpus and count * SANE_FACTOR > m.min_gpus:  # 'Instead of your 1 GPU: 2 GPUs'
        return _their_one_card(report, f) if one else (None, True, False)
    if count and any(
        c.setting in ("offload", "param_offload") for c in m.fit_change
    ):  # host RAM, slower (s25)
        return _their_one_card(report, f) if one else (None, True, False)
    # s36 fixe #1: a change that fits on a few cards before the 40 (ZeRO-3 over five machines) the user's
    # setting takes, or before none at all; the count then comes last, with its machines (the note)
    return LEADING_WORD_RE.sub(lambda w: w.group(0).lower(), own), False, not count


_NOT_THEIRS = frozenset(
    {"zero_stage", "offload", "param_offload", "gpu_count", "method", "sharding_stack", "seq_len"}
)
"""Changes that leave the user's stated job or layout: their ZeRO stage, offload, count, method, data."""


def _keeps_their_stage(report: SizingReport) -> bool:
    """Whether the user stated a ZeRO stage or CPU offload and the settings that fit their own GPUs
    (``Memory.fit_change``, :func:`unfit_change_text`) keep both, their count, method and sequence
    length (micro-batch 1 under their ZeRO-2 + offload): then that change leads the headline, before
    a stage change (s37 fixh #2: 'with ZeRO-3: 2 GPUs' led while micro-batch 1 fit their ZeRO-2)."""
    req = report.request
    m = report.memory
    if (req.zero_stage is None and not req.offload) or m is None or not same_card_fix(report):
        return False
    return all(c.setting not in _NOT_THEIRS for c in m.fit_change)


KEEPS_STAGE = frozenset({"micro_batch_1", "full_recompute"})
"""Alternatives that keep the user's ZeRO stage, offload, tool and job: a setting of their own tool."""


def _tool_setting_fits(report: SizingReport, fits: bool) -> bool:
    """Whether the change the headline would name first (:func:`estimator.fit_sanity.cheapest_change`)
    is a setting of the user's own tool that keeps their stage (:data:`KEEPS_STAGE`) and ``fits`` on
    their GPUs: micro-batch 1 with more accumulation before Liger's chunked loss (s38 fixt #1)."""
    from estimator.fit_sanity import cheapest_change

    best = cheapest_change(report.memory, report.request.gpu_count) if fits else None
    return best is not None and best.change in KEEPS_STAGE


LEADING_WORD_RE = re.compile(r"^[A-Z][a-z]+(?=\s)")
"""A plain capitalized first word ('With', 'No'): lower-cased after the headline's semicolon; never a name
written with capitals inside ('LoRA', 'CPU')."""


def alternative_label(a: Any, lang: str, method: str | None = None) -> str:
    """The wording of ``a`` (an ``estimator.models.Alternative``) in ``lang``: its ``change`` in
    bot.render.field_labels.ALTERNATIVES; the LoRA row sized at ZeRO-3 (``zero_stage`` 3, trial s19 #3: the
    user's ZeRO-1/2 keeps all the weights on each GPU) says so; another stack for an adapter ``method``
    is NeMo's PEFT, not Megatron-LM (:data:`estimator.plan_alternatives.NEMO_PEFT`); an unknown change
    as its key."""
    from bot.render.field_labels import ALTERNATIVES

    key = "lora_zero3" if a.change == "lora" and getattr(a, "zero_stage", None) == 3 else a.change
    key = "other_stack_peft" if key == "other_stack" and method in ("lora", "ptuning") else key
    if key == "sharding_stack":  # s34: ZeRO-3 for a tool that never shards the model (Unsloth)
        return translate(lang, SHARDING_STACK_ROW)
    if key == "half_frozen":  # not in bot.render.wording (at its line cap): s34 trial #5
        return translate(lang, HALF_FROZEN)
    return translate(lang, ALTERNATIVES[key]) if key in ALTERNATIVES else key


SHARDING_STACK_ROW = N_(
    "Another stack that shards the model (HF Trainer + DeepSpeed ZeRO-3, LLaMA-Factory) would allow"
)
"""The alternative row of ZeRO-3 for a tool that keeps the whole model on each GPU
(estimator.plan_alternatives.SHARDING_STACK)."""

HALF_FROZEN = N_("With the frozen base loaded in bf16/fp16 instead of fp32 (torch_dtype)")
"""The ``half_frozen`` alternative (:data:`estimator.plan_alternatives.HALF_LOADS`): an fp32 base halved."""


CHEAPER_FIX = N_("%(change)s: %(gpus)s")
"""The cheaper change a failed count's headline names first (trial s19 #3)."""
