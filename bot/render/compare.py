"""Comparison rows ("A100 vs H100"): one line per GPU and the cheapest first."""

from __future__ import annotations

from bot.render.describe import gpu_names
from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate
from bot.render.sections import headline_days
from estimator.models import SizingReport


def cheapest(report: SizingReport, others: list[SizingReport], lang: str) -> str | None:
    """'Cheapest: H100 (¥73.1万 – ¥195万)' when the question compared GPUs and all have a cost."""
    reports = [report, *others]
    if others and all(r.inference is not None for r in reports):
        return _cheapest_serving(reports, lang)
    costs = [r.cost for r in reports]
    if not others or any(c is None for c in costs) or len({c.currency for c in costs}) > 1:
        return None
    best = min(reports, key=lambda r: r.cost.low + r.cost.high)
    f = fmt_for(lang)
    c = best.cost
    span = f.money_compact_range(c.low, c.high, c.currency)
    return translate(lang, N_("Cheapest: %(gpu)s (%(cost)s)"), gpu=gpu_names(best)[0], cost=span)


def _cheapest_serving(reports: list[SizingReport], lang: str) -> str | None:
    """'Cheapest per token: H20 (¥3.10–6.20 per million output tokens)' for a serving comparison."""
    costs = [r.inference.cost_per_million_tokens for r in reports if r.inference]
    if len(costs) != len(reports) or any(c is None for c in costs) or len({c.currency for c in costs}) > 1:
        return None
    best_i = min(range(len(reports)), key=lambda i: costs[i].low + costs[i].high)
    best, c = reports[best_i], costs[best_i]
    span = fmt_for(lang).price_range(c.low, c.high, c.currency)
    msgid = N_("Cheapest per token: %(gpu)s (%(cost)s per million output tokens)")
    return translate(lang, msgid, gpu=gpu_names(best)[0], cost=span)


def _serving_row(report: SizingReport, lang: str) -> str | None:
    """'H100 80G: 4 GPUs, ≈ 2,400 tokens/s in total, $1.10–2.50 per million output tokens'."""
    inf = report.inference
    if inf is None or inf.decode_tokens_per_s is None:
        return None
    f = fmt_for(lang)
    params = {
        "gpu": gpu_names(report)[0],
        "gpus": f.int(inf.serving_gpus),
        "tps": f.int(inf.decode_tokens_per_s.aggregate),
    }
    c = inf.cost_per_million_tokens
    if c is None:
        return translate(lang, N_("%(gpu)s: %(gpus)s GPUs, ≈ %(tps)s tokens/s in total"), **params)
    msgid = N_("%(gpu)s: %(gpus)s GPUs, ≈ %(tps)s tokens/s in total, %(cpm)s per million output tokens")
    return translate(lang, msgid, cpm=f.price_range(c.low, c.high, c.currency), **params)


def comparison_row(report: SizingReport, lang: str) -> str:
    """One line sizing the same question on another GPU ("A100 vs H100")."""
    serving = _serving_row(report, lang)
    if serving is not None:
        return serving
    f = fmt_for(lang)
    gpu, family, _ = gpu_names(report)
    gh, need, cost = report.gpu_hours, report.gpus_for_deadline, report.cost
    if gh is not None and need:
        params = {"gpu": gpu, "gh": f.compact(gh.likely), "fam": family, "gpus": f.int(need),
                  "days": headline_days(report, need, f)}  # fmt: skip
        if cost is None:
            msgid = N_("%(gpu)s: %(gh)s %(fam)s-hours, about %(gpus)s GPUs for %(days)s days")
            return translate(lang, msgid, **params)
        cost_text = f.money_compact_range(cost.low, cost.high, cost.currency)
        msgid = N_("%(gpu)s: %(gh)s %(fam)s-hours, about %(gpus)s GPUs for %(days)s days, %(cost)s")
        return translate(lang, msgid, cost=cost_text, **params)
    low, high = None, None
    if report.inference is not None:
        low, high = report.inference.min_gpus, report.inference.recommended_gpus
    elif report.memory is not None and report.memory.min_gpus:
        low, high = report.memory.min_gpus, report.memory.recommended_gpus
    if low is None:
        return translate(lang, N_("%(gpu)s: does not fit"), gpu=gpu)
    if high and high != low:
        return translate(
            lang,
            N_("%(gpu)s: at least %(min)s, %(rec)s recommended"),
            gpu=gpu,
            min=f.int(low),
            rec=f.int(high),
        )
    return translate(lang, N_("%(gpu)s: %(min)s needed"), gpu=gpu, min=f.int(low))
