"""The reply's sections as preformatted strings: training, memory, serving, budget."""

from __future__ import annotations

import math
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from bot.render.describe import is_tpu
from bot.render.duration import CENTURY_DAYS, TPU_UNIT_HEADERS, UNIT_HEADERS, table_unit, unit_text, wall_time
from bot.render.field_labels import INTERVAL_GROUPS, METHOD_NAMES
from bot.render.fmt import Fmt, money_in_style, money_span, needs_cents, rjust
from bot.render.headline_parts import IMPRACTICAL_DAYS, _recompute_paid, _tight_on, headline_count
from bot.render.i18n import N_, translate
from bot.render.notes import context_len
from bot.render.paid_rows import paid_row as paid_row
from bot.render.plan_text import (
    gpus_text,
    paren,
    plan_short,
)
from estimator import compute
from estimator.models import Band, Cost, MethodRow, SizingReport
from estimator.shown_cost import quoted_gpu_hours as shown_gpu_hours  # the rule is the estimator's
from estimator.shown_cost import shown_figures

FIELD_WHY = attrgetter("field", "why")
"""An assumption's (field, reason key): ``Why`` is a str enum, so a tuple of plain strings compares equal."""

if TYPE_CHECKING:
    from bot.render.contexts import BudgetContext, RentalContext, TrainingContext


def training_section(report: SizingReport, f: Fmt, per_node: int) -> TrainingContext | None:
    if report.flops is None:
        return None
    pf = report.pf_days or 0.0
    places = 2 if pf < 10 else 1 if pf < 100 else 0
    t: TrainingContext = {
        "flops": f.sci(report.flops),
        "formula": report.flops_formula or "6ND",
        "pf_days": (f.sci(pf) if pf < 0.01 else f.num(pf, places)) if pf else None,
        "tokens": f.tokens(report.request.tokens) if report.request.tokens else None,
    }
    t |= _attention_line(report, f)
    shown = shown_figures(report)  # the shown count's GPU-hours, MFU band (priced_rows) and GPU-days
    gh, band = (shown["gpu_hours"], shown["mfu"]) if shown is not None else (None, None)
    if gh is not None:
        if band is None:  # hand-built reports without the band: GPU-hours ∝ 1/MFU
            mfu = report.request.mfu or 0.4
            band = Band(
                low=mfu * gh.likely / gh.high if gh.high else mfu,
                likely=mfu,
                high=mfu * gh.likely / gh.low if gh.low else mfu,
            )
        likely = shown_gpu_hours(gh.likely)
        t |= {
            "gh": f.hours(likely),
            "gh_compact": f.compact(likely) if likely >= 1000 else f.hours(likely),
            "gh_low": f.hours(gh.low),
            "gh_high": f.hours(gh.high),
            "mfu": f.percent(band.likely),
            "band": gh.low != gh.high,
            "mfu_high": f.percent(band.high),
            "mfu_low": f.percent(band.low),
            "fp8": _fp8_peak(report),
        }
        t |= _interval_line(report, gh, f)
        t |= _rollout_line(report, f)
    m = report.memory
    if m is not None and not m.min_gpus and report.days is None and report.warnings:  # s39 fixv #1
        from bot.render.nowhere_text import nowhere_context  # no count holds it as set: line 1 says so

        t |= nowhere_context(report, f, gh.likely if gh is not None else None)
    if report.gpus_for_deadline:
        t |= headline_count(report, report.gpus_for_deadline, f, per_node)
    if report.days is not None:  # the headline is the user's count: its GPU-hours, not the deadline count's
        t |= _recompute_paid(report, (shown or {}).get("gpus") or report.days.gpus, f)  # s37: shown count
        d, b = report.days.days.likely, report.days.days  # b: its band (s37 fixf #4)
        unfit = m is not None and m.fits_requested is False  # the user's count does not hold the job
        t |= {
            "user_gpus": f.int(report.days.gpus),
            "user_days": f.days(d),
            # the user's count does not hold the job: the headline says that first (docs/design.md §8)
            "unfit_min": f.int(m.min_gpus) if unfit and m.min_gpus else None,
            "user_hours": f.hours(d * 24) if d < 1 or d > CENTURY_DAYS else None,  # '> 100 years' (s36)
            "user_time": wall_time(d * 24, f.lang, b) if d * 24 < 1 or d > CENTURY_DAYS else None,
            "tight": (tight := _tight_on(report, report.days.gpus, f)),
            "years": tight if d > IMPRACTICAL_DAYS else "",  # s39 fixv #5: the same clause, worked out once
            # no count of this card holds the job with the user's settings: line 1 says so, no days
            "unfit_any": unfit and not m.min_gpus,
        }
    if (ro := report.rollout) is not None and ro.in_trainer:  # model.generate's rollouts (s40-fixh #6)
        from bot.render.rollout_lever import rollout_lever

        rollout_lever(report, t, f)
    t["rows"] = [] if "nowhere" in t else _days_rows(report, f)  # no count holds it as set (s39 fixv #1)
    t["gpu_days"] = f.compact(shown["gpu_days"]["likely"]) if shown is not None else None  # s23 (trial #5)
    if report.headline_cost is not None:  # the headline's count pays its own (review s14 MEDIUM 5)
        t["cost"] = training_cost(report.headline_cost, f, gh and (gh.likely, t["gh"], shown["gpus"]))
    if report.chinchilla_tokens and (k := report.request.tokens or 0):  # × D/N: over-training said (s29 #9)
        k /= report.chinchilla_tokens
        t["chinchilla"] = {"tokens": f.tokens(report.chinchilla_tokens), "ratio": _ratio(k, f)}
        t["chinchilla"]["per_param"] = per = f"{20 * k:.2g}" if k < 0.05 else None  # D/N < 1: line 1 (s35)
        t["chinchilla"]["over"] = k >= compute.OVER_TRAINED_RATIO
        t["chinchilla"]["line"] = translate(f.lang, STARVED, tokens=t["tokens"], per_param=per) if per else ""
        times = (report.request.tokens or 0.0) / compute.LARGEST_PUBLIC_TOKENS  # compute.beyond_public inline
        if times > compute.BEYOND_PUBLIC_FACTOR:  # 10¹⁵ tokens: said on line 1 (s40 fixt #17)
            t["chinchilla"]["line"] += translate(f.lang, BEYOND_PUBLIC, times=f"{times:,.0f}")
    return t


STARVED = N_(
    "; far too little data: %(tokens)s tokens is %(per_param)s tokens per parameter, against ≈ 20 for a "
    "compute-optimal run (Hoffmann et al. 2022)"
)
"""Under 1 token per parameter, against Chinchilla's ≈ 20 (Hoffmann et al. 2022 §3): line 1 (s35 #4)."""
BEYOND_PUBLIC = N_(
    "; beyond any public run: %(times)s× the most tokens a published pre-training used (Qwen3: 36T, Qwen3 "
    "Technical Report §3) — check the figure"
)
"""Data above 10× the largest public pre-training's (estimator.compute.LARGEST_PUBLIC_TOKENS): sized, said."""


def training_cost(c: Cost, f: Fmt, used: tuple[Any, ...] | None = None) -> dict[str, Any]:
    """The training cost line's values: the range in one money style, the price, the billed hours and
    the wider range the MFU band gives. ``used``: the likely GPU-hours, their text and the count as the
    reply shows them; billed rounded up (8.8 → 9) the line names both (s25 trial #17); ``cards``: the n
    cards when each one's first hour started is what it bills (3.2 GPU-hours on 8 bill 8; s35, s37)."""
    billed, n = f.hours(c.billed_gpu_hours), max(1, (used or (0, 0, 1))[-1] or 1)  # s35-fixa #1: the count
    rounded = used is not None and c.billed_gpu_hours - n < used[0] <= c.billed_gpu_hours + 1e-9
    cards = rounded and used is not None and math.ceil(used[0] - 1e-9) < c.billed_gpu_hours == n
    wl, wh = c.low_with_mfu, c.high_with_mfu
    cents = needs_cents(c.low, c.high, wl, wh)  # one money style per reply
    wide = None if wl is None or wh is None or (wl, wh) == (c.low, c.high) else (wl, wh)
    return {
        "low": money_in_style(f, c.low, c.currency, cents),
        "high": money_in_style(f, c.high, c.currency, cents),
        "same": c.low == c.high,
        "price_low": f.price(c.price_low, c.currency, cents),
        "price_range": f.price_range(c.price_low, c.price_high, c.currency, cents),
        "billed": billed,
        "used": used[1] if rounded and used is not None and used[1] != billed else None,
        "cards": f.int(n) if cards else None,
        "source": c.price_source,
        "wide": None if wide is None else money_span(f, *wide, c.currency, cents),
    }


ATTENTION_SHARE_SHOWN = 0.10
"""The reply states the attention share of the compute above this (issue #15: "above ~10 %")."""


def _attention_line(report: SizingReport, f: Fmt) -> dict[str, Any]:
    """'with attention at 32K: 6.9×10²¹ FLOPs (39 %)' above a 10 % share; the time's FLOPs: attention_time."""
    from bot.render.attention_time import attention_time  # a long context only (start-up)

    share, total = report.attention_share, report.flops_with_attention
    if share is None or total is None or share <= ATTENTION_SHARE_SHOWN:
        return {}
    seq = report.request.seq_len
    return {
        "attention": {
            "flops": f.sci(total),
            "share": f.percent(share),
            "seq": context_len(seq) if seq else "",
            **attention_time(report, f),
        }
    }


def _fp8_peak(report: SizingReport) -> bool:
    """Whether the MFU refers to the FP8 peak (training in FP8): a card whose FP8 peak is its BF16 peak has
    no FP8 rate of its own (TPU v5p: 459 TFLOPS is its BF16 peak, Google Cloud 'TPU v5p'; it has no FP8,
    s26 trial 2 #12), so its peak is named by its BF16 precision."""
    gpu = report.gpu_spec if report.gpu_spec is not None and not report.gpu_spec.generic else None
    peak = report.peak_flops
    fp8 = gpu.peak_tflops_fp8 if gpu else None
    return bool(gpu and peak and fp8 and peak == fp8 * 1e12 and fp8 > (gpu.peak_tflops_bf16 or 0))


def _interval_line(report: SizingReport, gh: Band, f: Fmt) -> dict[str, Any]:
    """What the GPU-hours range is (80 % of comparable published runs fell in it), or the calibrated
    MFU for comparison when the user's measured rate or MFU set the time."""
    out: dict[str, Any] = {}
    iv = report.gpu_hours_interval
    if iv is not None and gh.low != gh.high:
        out["interval"] = {
            "level": f.percent(iv.level),
            "runs": f.int(iv.runs),
            "wider": ", ".join([translate(f.lang, INTERVAL_GROUPS.get(g, g)) for g in iv.widened_for]),
            # no published run on this card: the spread is borrowed from other cards' runs (C: no frames)
            "uncalibrated": not {("mfu", "mfu_uncalibrated"), ("mfu", "mfu_cdna3")}.isdisjoint(
                map(FIELD_WHY, report.assumptions)
            ),
        }
    out |= _eager_line(report, f)
    mfu = report.mfu
    if report.mfu_calibrated and mfu is not None and mfu.likely > 0:
        out["calibrated"] = {
            "mfu": f.percent(report.mfu_calibrated),
            "gh": f.hours(gh.likely * mfu.likely / report.mfu_calibrated),
        }
    return out


def _eager_line(report: SizingReport, f: Fmt) -> dict[str, Any]:
    """The eager MoE slowdown inside the MFU band, shown under it (s41 fixtrain #5): its divisor and the
    dense size whose time it floors at (:func:`estimator.training_rate.eager_moe_slowdown`'s parameters on
    the MFU assumption); empty without it."""
    for a in report.assumptions:
        if a.field == "mfu" and "mfu_eager_moe" in (a.why, *a.also) and a.params.get("eager_factor"):
            factor, total = a.params["eager_factor"], a.params.get("total_b")
            req = report.request  # a stated release or backend: named, not asked for again
            stated = req.transformers_version or req.experts_implementation
            eager = {"factor": f.num(float(factor)), "total": f.num(float(total or 0.0)), "stated": stated}
            eager["impl"] = req.experts_implementation  # own wording: 'eager' / 'batched_mm' (s41 review #4)
            return {"eager": eager}
    return {}


def _rollout_line(report: SizingReport, f: Fmt) -> dict[str, Any]:
    """RL: the rollouts' decode hours inside the GPU-hours, and the training passes' (estimator.rollout)."""
    ro = report.rollout
    if ro is None:
        return {}
    return {
        "rollout": {
            "hours": f.hours(ro.gpu_hours),
            "tokens": f.tokens(ro.generated_tokens),
            "speed": f.int(ro.decode_tokens_per_s_per_gpu),
            **{"batch": f.int(ro.decode_batch), "tp": f.int(ro.decode_tp)},
            "train": f.hours(ro.training_gpu_hours.likely),
            "in_trainer": ro.in_trainer,
        }
    }


def _ratio(x: float, f: Fmt) -> str:
    """A ratio with enough digits to not read as 0: 1.5, 0.25, 0.0007."""
    return f.num(x, 1) if x >= 0.1 else f.num(x, max(2, 1 - math.floor(math.log10(x)))) if x > 0 else "0"


def _days_rows(report: SizingReport, f: Fmt) -> list[dict[str, Any]]:
    """The GPUs ↔ days table, aligned for a <pre> block."""
    rows, mem = report.days_table, report.memory
    if rows and mem is not None and mem.fits_requested is False:  # only counts that hold the job
        rows = [r for r in rows if mem.min_gpus and r.gpus >= mem.min_gpus]
    if not rows:
        return []
    unit = table_unit(max([r.days.likely for r in rows]))  # a job of minutes: not a column of "0 days"
    header = translate(f.lang, (TPU_UNIT_HEADERS if is_tpu(report) else UNIT_HEADERS)[unit])
    py = f._python_digits  # ASCII figures: f.int and rjust as str's own, in C (s36); each formatted once
    gpus = [f"{round(r.gpus):,}" if py else f.int(r.gpus) for r in rows]
    likely = list(map(say := unit_text(unit, f), [r.days.likely for r in rows]))  # f.days in days (s37)
    w_gpus, w_days = max(map(len, gpus)), max(map(len, likely))
    return [
        {
            "gpus": count.rjust(w_gpus) if py else rjust(count, w_gpus),
            "days": days.rjust(w_days) if py else rjust(days, w_days),
            "lo": say(r.days.low) if r.days.low != r.days.high else "",  # shown in a band only
            "hi": say(r.days.high) if r.days.low != r.days.high else "",
            "band": r.days.low != r.days.high,
            "one": r.gpus == 1,
            "unit": unit,
            "header": header,
        }
        for r, count, days in zip(rows, gpus, likely, strict=True)
    ]


def _gpus_for_budget_deadline(report: SizingReport, f: Fmt) -> dict[str, str] | None:
    """A budget and a stated deadline ('预算80w，一个月内'): the GPUs that spend the GPU-hours the budget
    buys within that time (GPU-hours ÷ deadline hours, rounded up), or None."""
    req, hours = report.request, report.budget_gpu_hours
    assumed = {a.field for a in report.assumptions}
    stated = req.deadline_days and "deadline_days" not in assumed
    if not (req.budget and stated and hours) or (req.gpu_count and "gpu_count" not in assumed):
        return None  # with the user's own count, the days table answers it
    # enough GPUs to spend them within the deadline (the estimator's formula: rounded up, whole 8-GPU
    # nodes beyond one node, design §3.2); GPU-hours stay what the budget buys, more GPUs finish sooner
    gpus = compute.gpus_for_deadline(hours.likely, req.deadline_days)
    return {"days": f.days(req.deadline_days), "gpus": f.int(gpus)}


def budget_section(report: SizingReport, f: Fmt, gpu: str) -> BudgetContext | None:
    hours = report.budget_gpu_hours
    if hours is None or report.flops is not None:
        return None
    req = report.request
    capped = req.gpu_count and req.deadline_days and hours.likely == req.gpu_count * req.deadline_days * 24
    if req.budget and not capped:
        what = f.money(req.budget, req.currency or "CNY")
    else:  # GPUs × days, also when they use less than the budget buys
        days = translate(f.lang, N_("%(n)s days"), n=f.days(req.deadline_days or 0))
        if 0 < (req.deadline_days or 0) < 1:  # 'how many tokens an hour … train' (s45 fixread #2): in hours
            days = translate(f.lang, N_("%(n)s hours"), n=f.days(req.deadline_days * 24))
        what = f"{f.int(req.gpu_count or 0)} × {gpu}, {days}"
    tokens = report.tokens_for_budget
    return {
        "what": what,
        "gh": f.int(hours.likely),
        "gh_compact": f.compact(hours.likely),
        "gh_low": f.int(hours.low),
        "gh_high": f.int(hours.high),
        "band": hours.low != hours.high,
        "params": f.params(report.max_params_for_budget) if report.max_params_for_budget else None,
        "chinchilla": f.tokens(report.chinchilla_tokens) if report.chinchilla_tokens else None,
        "tokens": f.tokens(tokens.likely) if tokens else None,
        "tokens_low": f.tokens(tokens.low) if tokens else None,
        "tokens_high": f.tokens(tokens.high) if tokens else None,
        "rows": _days_rows(report, f),
        "deadline_gpus": _gpus_for_budget_deadline(report, f),
        # the budget buys more than the user's GPUs use in their days: say which one binds
        "budget_unused": f.money(req.budget, req.currency or "CNY") if req.budget and capped else None,
        "gpus_unused": _gpus_unused(report, f, gpu),
    }


def _gpus_unused(report: SizingReport, f: Fmt, gpu: str) -> dict[str, str] | None:
    """The user's GPUs and stated days use more GPU-hours than their budget buys ('$50k … on 8x H100 nodes
    in a month': 64 × 30 × 24 = 46,080 H100-hours, the budget 20,000): the budget decides, and the days it
    lasts on their GPUs (GPU-hours ÷ GPUs ÷ 24). s41 trial #15: the answer named neither the 64 GPUs nor
    the month. None otherwise (the other way round is ``budget_unused``)."""
    req, hours = report.request, report.budget_gpu_hours
    if not (req.budget and req.gpu_count and req.deadline_days and hours):
        return None
    full = req.gpu_count * req.deadline_days * 24.0
    if hours.likely >= full or any(a.field in ("gpu_count", "deadline_days") for a in report.assumptions):
        return None
    return {
        "gpus": f"{f.int(req.gpu_count)} × {gpu}",
        "days": f.days(req.deadline_days),
        "gh": f.compact(full),
        "budget": f.money(req.budget, req.currency or "CNY"),
        "lasts": f.days(hours.likely / req.gpu_count / 24.0),
    }


def rental_section(report: SizingReport, f: Fmt) -> RentalContext | None:
    """A known duration ('6 hours on one H100'): GPUs × hours = GPU-hours, and what they cost."""
    req, gh, days = report.request, report.gpu_hours, report.days
    if not req.hours or gh is None or days is None:
        return None
    c = report.cost
    return {
        "gpus": f.int(days.gpus),
        "hours": f.hours(req.hours),
        "gh": f.hours(gh.likely),
        "cost": None if c is None else _compared(f, _billed(f, c, gh.likely), report),
        "price": None if c is None else f.price_range(c.price_low, c.price_high, c.currency),
        "source": c.price_source if c else None,
        "daily": f.num(req.hours_per_day, 3) if req.hours_per_day and req.stage == "inference" else None,
    }


def _compared(f: Fmt, out: str, report: SizingReport) -> str:
    """A serving rental's cost ``out`` and, with a second daily schedule stated, its cost on that one
    (bot.render.schedule_both: '包月又是多少' beside '每天只用 8 小时', trial s43 q32_zh)."""
    c = report.cost
    if c is None or not report.request.hours_per_day_compared:
        return out
    from bot.render.schedule_both import compared_cost

    return compared_cost(f, out, report, c.low, c.high, c.currency)


def _billed(f: Fmt, c: Cost, used: float) -> str:
    """The cost of a rental, and the whole GPU-hours billed when more than used: '$8.40 – $17.50
    (7 GPU-hours billed)' for 6.43 used — billing never rounds down, and the line says what it bills."""
    money = money_span(f, c.low, c.high, c.currency)
    if c.billed_gpu_hours <= used + 1e-9:
        return money
    return translate(
        f.lang, N_("%(money)s (%(hours)s GPU-hours billed)"), money=money, hours=f.int(c.billed_gpu_hours)
    )


def method_rows(report: SizingReport, f: Fmt, row_hours: tuple[float | None, ...] = ()) -> list[str]:
    """'Full fine-tuning: ≈ 67.2 GiB per GPU on 2 GPUs (at least 2)' — one line per method asked;
    ``row_hours``: each row's hours on its GPUs, derived in core (:mod:`bot.core.derived_hours`)."""
    lang = f.lang
    lines = []
    for i, row in enumerate(report.method_comparison):
        name = translate(lang, METHOD_NAMES[row.method.value])
        if row.min_gpus is None:
            text = translate(lang, N_("%(method)s: does not fit"), method=name)
        elif row.feasible != "no":
            text = translate(
                lang,
                N_("%(method)s: ≈ %(per_gpu)s per GPU on %(gpus)s"),
                method=name,
                per_gpu=f.gib(row.per_gpu_bytes),
                gpus=gpus_text(lang, row.plan_gpus),
            )
            text += paren(lang, plan_short(row.plan, lang, method=row.method)) if row.plan is not None else ""
        elif report.request.gpu_count:
            text = translate(
                lang,
                N_("%(method)s: does not fit on %(n)s (≈ %(per_gpu)s per GPU); at least %(min)s"),
                method=name,
                n=gpus_text(lang, report.request.gpu_count),
                per_gpu=f.gib(row.per_gpu_bytes),
                min=gpus_text(lang, row.min_gpus),
            )
        else:
            text = translate(
                lang,
                N_("%(method)s: does not fit on %(n)s; ≈ %(per_gpu)s per GPU on %(gpus)s"),
                method=name,
                n=gpus_text(lang, 1),
                per_gpu=f.gib(row.per_gpu_bytes),
                gpus=gpus_text(lang, row.plan_gpus),
            )
            text += paren(lang, plan_short(row.plan, lang, method=row.method)) if row.plan is not None else ""
        hours = row_hours[i] if i < len(row_hours) else None
        lines.append(_with_hours(text, row, f, hours) if row.gpu_hours is not None else text)
    return lines


def _with_hours(text: str, row: MethodRow, f: Fmt, hours: float | None) -> str:
    """A method's row with its training time ('how long each?', s17): on its GPUs when it fits there,
    else its GPU-hours alone (estimator.method_hours)."""
    assert row.gpu_hours is not None
    if row.feasible == "no" or row.min_gpus is None or hours is None:
        return translate(
            f.lang,
            N_("%(line)s; ≈ %(gpu_hours)s GPU-hours of training"),
            line=text,
            gpu_hours=f.hours(shown_gpu_hours(row.gpu_hours)),
        )
    return translate(
        f.lang,
        N_("%(line)s; training ≈ %(hours)s hours on %(gpus)s (%(gpu_hours)s GPU-hours)"),
        line=text,
        hours=f.hours(hours),
        gpus=gpus_text(f.lang, row.plan_gpus),
        gpu_hours=f.hours(shown_gpu_hours(row.gpu_hours)),  # as the headline rounds them (s17 trial t2)
    )
