"""The headline of a compared serving answer with a budget per period (:mod:`bot.core.budget_pick`): the
best option within the budget (card, GPUs, precision, month) alone on the first line, then a line with the
others within it and those over it (s41 trial #11: four options chained by semicolons on the first line);
when none fits, that first, with the cheapest."""

from __future__ import annotations

from bot.core.budget_pick import BudgetOption, BudgetPick
from bot.render.describe import gpu_names
from bot.render.fmt import fmt_for, money_span
from bot.render.i18n import N_, translate
from bot.render.serving_budget_text import PERIODS, weights_name
from estimator.models import SizingReport

BEST = N_("Within your budget of %(budget)s: %(option)s")
BEST_LOW = N_("Within your budget of %(budget)s only at the lower prices: %(option)s")
NONE_FITS = N_("Nothing fits your budget of %(budget)s; the cheapest: %(option)s")
ALSO = N_("; also within it: %(options)s")
LOW = N_("; within it only at the lower prices: %(options)s")
OVER = N_(". Over it: %(options)s")
OPTION = N_("%(gpus)s × %(gpu)s with %(precision)s weights, %(cost)s")
"""One option: '1 × A100 80G with INT4 (GPTQ/AWQ) weights, $876 – $1,825 a month'."""


def budget_pick_line(pick: BudgetPick | None, lang: str) -> str | None:
    """The headline for ``pick``; None without one."""
    if pick is None:
        return None
    f, p = fmt_for(lang), pick.budget
    currency, period = str(p.get("currency") or "CNY"), p.get("period")
    budget = f.money(p["budget"], currency)
    budget = translate(lang, PERIODS[period], amount=budget) if period in PERIODS else budget

    def option(o: BudgetOption) -> str:
        return option_text(o, pick, lang)

    sep = "；" if lang == "zh" else "; "
    if pick.best is None:
        first, *rest = pick.over
        line = translate(lang, NONE_FITS, budget=budget, option=option(first))
        return line + (translate(lang, OVER, options=sep.join(map(option, rest))) if rest else "")
    line = translate(lang, BEST if pick.best.fits == "within" else BEST_LOW, budget=budget,
                     option=option(pick.best))  # fmt: skip
    more = ""  # the other options on a line of their own: the first line is one choice (s41 trial #11)
    if pick.within:
        more += translate(lang, ALSO, options=sep.join(map(option, pick.within)))
    if pick.low:
        more += translate(lang, LOW, options=sep.join(map(option, pick.low)))
    if pick.over:
        more += translate(lang, OVER, options=sep.join(map(option, pick.over)))
    more = more.lstrip("；。;. ")
    return f"{line}\n{more[:1].upper()}{more[1:]}" if more else line


def option_text(o: BudgetOption, pick: BudgetPick, lang: str) -> str:
    """One option of ``pick`` (:data:`OPTION`): GPUs, card, weights and its cost over the budget's period."""
    f, p = fmt_for(lang), pick.budget
    currency, period = str(p.get("currency") or "CNY"), p.get("period")
    per = period if period in PERIODS else "month"
    from estimator.serving_budget import PER_MONTH

    months = PER_MONTH.get(per, 1.0)
    cost = money_span(f, o.low / months, o.high / months, currency)
    return translate(
        lang, OPTION, gpu=gpu_names(o.report)[0], gpus=f.int(o.gpus),
        precision=weights_name(o.precision, lang, weight_only(o.report)),
        cost=translate(lang, PERIODS[per], amount=cost),
    )  # fmt: skip


def weight_only(report: SizingReport) -> bool:
    """Whether the report's card runs FP8 weights weight-only (:func:`estimator.serving.runs_fp8_weight_only`:
    NVIDIA Ampere, no FP8 tensor cores)."""
    from estimator.serving import runs_fp8_weight_only

    spec = report.gpu_spec
    return spec is not None and not spec.has_fp8 and runs_fp8_weight_only(spec)


ROW_WITHIN = N_("; within your budget: %(option)s")
"""A compared card's row whose own weights are over the budget while a lighter option of the same card is
within it: the row names that option, the one the headline named (s40 fixt #13: 'also within it: 1 × H100
with FP8 weights' above a row 'H100 80G: 2 GPUs … ¥21,900 – ¥58,400 a month', over a ¥50,000 budget)."""


def rows_within(lines: list[str], reports: list[object], pick: BudgetPick | None, lang: str) -> list[str]:
    """``lines`` (one row a report of ``reports``), the row of each card the headline names within the budget
    at lighter weights than its row's own with that option after it (:data:`ROW_WITHIN`)."""
    if pick is None or pick.best is None:
        return lines
    out = list(lines)
    for o in (pick.best, *pick.within, *pick.low):
        if o.precision == str(o.report.request.precision or "bf16"):  # the row's own weights: as it says
            continue
        i = next((k for k, r in enumerate(reports) if r is o.report), None)
        if i is not None and i < len(out):
            out[i] += translate(lang, ROW_WITHIN, option=option_text(o, pick, lang))
    return out
