"""A serving budget's verdict in words (issue 24; the notes of :mod:`estimator.serving_budget`): whether the
answer's monthly cost fits the budget and what the budget rents, with its period as the user said it
('¥50,000 a month', '每月 ¥50,000'). Ranges keep both ends (low at the high price); one price, one value."""

from __future__ import annotations

from typing import Any

from bot.render.fmt import Fmt, fmt_for, money_span
from bot.render.i18n import N_, translate
from bot.render.note_codes import NoteCode

SERVING_BUDGET_MESSAGES: dict[NoteCode, str] = {
    NoteCode.serving_within_budget: N_(
        "Within your budget of %(budget)s: this answer's GPUs (%(gpu_count)s) cost %(cost)s."
    ),
    NoteCode.serving_over_budget: N_(
        "Over your budget of %(budget)s: this answer's GPUs (%(gpu_count)s) cost %(cost)s."
    ),
    NoteCode.serving_budget_borderline: N_(
        "Borderline for your budget of %(budget)s: this answer's GPUs (%(gpu_count)s) cost %(cost)s — it "
        "depends on the price you get."
    ),
    NoteCode.serving_budget_months: N_(
        "Your budget of %(budget)s pays this answer's GPUs (%(gpu_count)s) for %(months)s months, at "
        "%(cost)s."
    ),
    NoteCode.serving_budget_no_price: N_(
        "No rental price for this GPU: your budget of %(budget)s rents this answer's GPUs (%(gpu_count)s) "
        "at up to %(max_price)s per GPU-hour (730 hours a month)."
    ),
}
"""The verdicts (keyed wording: :data:`bot.render.wording.NOTE_MESSAGES` takes them)."""
RENTS = N_(
    "%(monthly)s rents %(gpus)s GPUs at these prices: %(copies)s copies of this %(group)s-GPU layout, "
    "≈ %(sequences)s sequences at once at this context."
)
RENTS_NONE = N_("%(monthly)s rents %(gpus)s GPUs at these prices: not one copy of this %(group)s-GPU layout.")
"""What a budget per period rents, after its verdict."""
LIGHTER_FIRST = N_(
    "Within %(budget)s: %(precision)s weights on %(gpus)s GPUs of this type, %(cost)s, for the same load."
)
LIGHTER_FIRST_LOW = N_(
    "For %(budget)s: %(precision)s weights on %(gpus)s GPUs of this type, %(cost)s for the same load — "
    "within it at the lower prices."
)
"""Leads a serving budget verdict that is over or borderline when lighter weights fit the budget (at
every price in the range / only at its low end)."""
PRECISION_NAMES = {"int4": "INT4 (GPTQ/AWQ)", "fp8": "FP8"}
FP8_WEIGHT_ONLY = N_("FP8 weight-only (W8A16 with vLLM's FP8 Marlin kernels: no FP8 tensor cores) or INT8")
"""FP8 weights suggested for a card without FP8 tensor cores that runs them weight-only (NVIDIA Ampere:
:func:`estimator.serving.runs_fp8_weight_only`). vLLM docs, docs/features/quantization/fp8.md ("FP8
W8A8"): "FP8 computation is supported on NVIDIA GPUs with compute capability >= 8.9 (Ada Lovelace,
Hopper, Blackwell). FP8 models will run on compute capability >= 7.5 (Turing) as weight-only W8A16,
utilizing FP8 Marlin" (vllm-project/vllm#5975 brought FP8 Marlin to Ampere); INT8 (W8A8) is the other
8-bit format such a card runs (s42 trial #10: 'FP8 权重，这种卡 2 张' on A100)."""


def weights_name(precision: str, lang: str, weight_only: bool = False) -> str:
    """The name of suggested ``precision`` weights ('fp8', 'int4') in ``lang``; FP8 on a card that runs it
    weight-only (``weight_only``) as :data:`FP8_WEIGHT_ONLY`."""
    if precision == "fp8" and weight_only:
        return translate(lang, FP8_WEIGHT_ONLY)
    return PRECISION_NAMES.get(precision, precision)


PERIODS = {
    "hour": N_("%(amount)s an hour"),
    "day": N_("%(amount)s a day"),
    "week": N_("%(amount)s a week"),
    "month": N_("%(amount)s a month"),
    "year": N_("%(amount)s a year"),
}
"""A budget with its period, as the user said it."""


def _span(f: Fmt, low: float, high: float, digits: int = 0) -> str:
    text = [f.int(x) if digits == 0 else f.num(x, digits) for x in (low, high)]
    return text[0] if text[0] == text[1] else f"{text[0]}–{text[1]}"


def serving_budget_text(code: str, params: dict[str, Any], lang: str) -> str:
    """The verdict of the note ``code`` with its ``params`` (estimator.serving_budget) in ``lang``."""
    f, currency = fmt_for(lang), str(params.get("currency") or "CNY")
    budget = f.money(params["budget"], currency)
    period = params.get("period")
    if period in PERIODS:
        budget = translate(lang, PERIODS[period], amount=budget)
    # a cost in the budget's own period ('每天 ¥3,000' → the GPUs' cost a day), else a month's
    per = period if period in PERIODS else "month"
    from estimator.serving_budget import PER_MONTH

    months = PER_MONTH.get(per, 1.0)

    def cost(low: float, high: float) -> str:
        """A monthly cost range in the budget's period, with its period word."""
        return translate(lang, PERIODS[per], amount=money_span(f, low / months, high / months, currency))

    words: dict[str, Any] = {"budget": budget, "gpu_count": f.int(params.get("gpu_count", 1))}
    if "cost_low" in params:
        words["cost"] = cost(params["cost_low"], params["cost_high"])
    if "months_low" in params:
        words["months"] = _span(f, params["months_low"], params["months_high"], 2)
    if "max_price" in params:
        words["max_price"] = f.money(params["max_price"], currency)
    text = translate(lang, SERVING_BUDGET_MESSAGES[NoteCode(code)], **words)
    sep = "" if lang == "zh" else " "
    if "fit_gpus" in params:  # what fits the budget first, then what the unconstrained answer costs
        first = translate(
            lang,
            LIGHTER_FIRST if params["fit_cost_high"] <= params["monthly"] else LIGHTER_FIRST_LOW,
            budget=budget,
            precision=weights_name(params["fit_precision"], lang, bool(params.get("fit_weight_only"))),
            gpus=f.int(params["fit_gpus"]),
            cost=cost(params["fit_cost_low"], params["fit_cost_high"]),
        )
        return first + sep + text
    if "gpus_low" not in params:
        return text
    rents = {
        "monthly": budget if period in PERIODS else f.money(params["monthly"], currency),
        "gpus": _span(f, params["gpus_low"], params["gpus_high"]),
        "copies": _span(f, params["copies_low"], params["copies_high"]),
        "group": f.int(params["group"]),
        "sequences": _span(f, params["sequences_low"], params["sequences_high"]),
    }
    more = translate(lang, RENTS if params["copies_high"] else RENTS_NONE, **rents)
    return text + ("" if lang == "zh" else " ") + more
