"""Two models side by side on one job (session 36 fixb #1; core: bot.core.compared_models): one row per
model — its verdict on the user's cards, then speed and cost per million output tokens (serving) or
GPU-hours and cost (training) — and the line that answers which, first in the reply."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.compared_models import cards_for_load, fits, gpus_needed, which
from bot.render.describe import gpu_names, model_label
from bot.render.fmt import fmt_for, money_span
from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from estimator.models import SizingReport

WHICH = {
    ("fits", True): N_("Only %(model)s fits on %(count)s × %(gpu)s, at the same load and settings"),
    ("fits", False): N_("Only %(model)s fits on %(count)s × %(gpu)s, on the same data and settings"),
    ("cheaper", True): N_("Cheaper to serve: %(model)s, per million output tokens at the same load"),
    ("cheaper", False): N_("Cheaper to train: %(model)s, on the same data, settings and GPUs"),
    ("faster", True): N_("Faster: %(model)s, per sequence at the same load on the same GPUs"),
    ("faster", False): N_("Faster: %(model)s, fewer GPU-hours on the same data, settings and GPUs"),
    ("none_fits", True): N_("Neither model fits on %(count)s × %(gpu)s at this load (rows below)"),
    ("none_fits", False): N_("Neither model fits on %(count)s × %(gpu)s with these settings (rows below)"),
}  # fmt: skip
"""The line that answers which: (why, serving) → wording (bot.core.compared_models.which)."""
FEWER_WHYS = frozenset({"fewer_gpus", "same_gpus", "more_held", "each_needs"})
"""The answers to 'which needs fewer cards' (bot.core.compared_models.fewer_cards; bot.render.fewer_line)."""


def model_rows(
    first: SizingReport,
    others: list[SizingReport],
    lang: str,
    faster: bool = False,
    fewer: bool = False,
    each: bool = False,
) -> tuple[list[str], str | None]:
    """(one row per model, the line that answers which) for ``first`` and the ``others`` compared;
    ``faster``: the message asks which is faster, ``fewer``: which needs fewer cards
    (bot.core.compared_models.which), ``each``: how many cards each needs (s39 fixs2 #1)."""
    reports = [first, *others]
    rows = [_row(r, lang) for r in reports]
    index, why = which(reports, faster, fewer, each)
    if not why:
        return rows, None
    if why in FEWER_WHYS:  # s39 fixp #4: the cards each needs (imported when used: start-up)
        from bot.render.fewer_line import fewer_line

        return rows, fewer_line(reports, index, why, lang)
    serving = first.inference is not None
    f = fmt_for(lang)
    count = f.int(first.request.gpu_count or 1)
    model = model_label(reports[index], lang) if index is not None else ""
    line = translate(lang, WHICH[(why, serving)], model=model, count=count, gpu=gpu_names(first)[0])
    layouts = [_layout(r, lang) for r in reports] if serving else []
    if len(set(layouts)) > 1:  # 'which is faster' on one job: the layouts each model got are named (s37-left)
        sep = "；" if lang == "zh" else "; "
        named = sep.join(f"{model_label(r, lang)} {lay}" for r, lay in zip(reports, layouts, strict=True))
        line += translate(lang, LAYOUTS_DIFFER, layouts=named)
    return rows, line


LAYOUTS_DIFFER = N_(
    " (layouts differ: %(layouts)s — each the best for this load on these GPUs; "
    "speed per sequence rises with TP)"
)
"""Said after the line that answers which when the models were sized on different serving layouts (s37-left:
one at TP 1 × 4 replicas, the other at TP 4): the speeds compare the same GPUs and load, not one layout."""


def _layout(report: SizingReport, lang: str) -> str:
    """'TP=1 × 4 replicas', 'TP=4', 'TP=8 × PP=2' of a serving report (the layout its speed is on)."""
    inf = report.inference
    if inf is None:
        return ""
    text = f"TP={inf.tp}" + (f" × PP={inf.pp}" if inf.pp > 1 else "")
    if inf.replicas > 1:
        text += " × " + translate(lang, N_("%(n)s replicas"), n=fmt_for(lang).int(inf.replicas))
    return text


def _verdict(report: SizingReport, lang: str) -> str:
    """'fits on 4 × H20' / 'does not fit on 4 × H20: needs 8' / 'needs at least 2 × H20'."""
    f = fmt_for(lang)
    gpu = gpu_names(report)[0]
    need = gpus_needed(report)
    ok = fits(report)
    count = f.int(report.request.gpu_count or 1)
    if ok:
        return translate(lang, N_("fits on %(count)s × %(gpu)s"), count=count, gpu=gpu)
    if ok is False and need and need > (report.request.gpu_count or 1):
        msgid = N_("does not fit on %(count)s × %(gpu)s: needs %(need)s")
        return translate(lang, msgid, count=count, gpu=gpu, need=f.int(need))
    if ok is False:
        return translate(lang, N_("does not fit on %(count)s × %(gpu)s"), count=count, gpu=gpu)
    if report.inference is not None and report.request.concurrency:  # s39 fixl2 #1: the load's cards
        msgid = N_("needs %(need)s × %(gpu)s for this load")
        return translate(lang, msgid, need=f.int(cards_for_load(report) or 1), gpu=gpu)
    return translate(lang, N_("needs at least %(need)s × %(gpu)s"), need=f.int(need or 1), gpu=gpu)


def _row(report: SizingReport, lang: str) -> str:
    """One model's row (module doc)."""
    f = fmt_for(lang)
    params = {"model": model_label(report, lang), "verdict": _verdict(report, lang)}
    inf = report.inference
    if inf is not None:
        d = inf.decode_tokens_per_s
        c = inf.cost_per_million_tokens
        if d is None:
            return translate(lang, N_("%(model)s: %(verdict)s"), **params)
        speed = f.int(d.per_sequence)
        if c is None:
            return translate(
                lang, N_("%(model)s: %(verdict)s, ≈ %(speed)s tokens/s per sequence"), speed=speed, **params
            )
        msgid = N_(
            "%(model)s: %(verdict)s, ≈ %(speed)s tokens/s per sequence, %(cpm)s per million output tokens"
        )
        return translate(lang, msgid, speed=speed, cpm=f.price_range(c.low, c.high, c.currency), **params)
    gh, cost = report.gpu_hours, report.cost
    if gh is None:
        return translate(lang, N_("%(model)s: %(verdict)s"), **params)
    hours = f.compact(gh.likely)
    if cost is None:
        return translate(lang, N_("%(model)s: %(verdict)s, %(gh)s GPU-hours"), gh=hours, **params)
    money = money_span(f, cost.low, cost.high, cost.currency)
    return translate(
        lang, N_("%(model)s: %(verdict)s, %(gh)s GPU-hours, %(cost)s"), gh=hours, cost=money, **params
    )


BUDGET_HEAD = N_(
    "%(budget)s for fine-tuning, on %(samples)s samples × %(tokens)s tokens (assumed: tell me your data "
    "size to size yours): the largest catalog model each method fine-tunes within it"
)
BUDGET_ROW = N_("%(method)s: %(model)s — %(gh)s GPU-hours on %(gpus)s × %(gpu)s, %(cost)s")
BUDGET_MOE = N_("%(model)s, %(active)s active per token")
NOT_THE_LIMIT = {
    False: N_("; the budget is not the limit: this is the catalog's largest dense model"),
    True: N_("; the budget is not the limit: this is the catalog's largest MoE model"),
}


def budget_rows(first: SizingReport, others: list[SizingReport], lang: str) -> tuple[list[str], str]:
    """(one row per method, the line that answers) of a fine-tuning budget's largest catalog models
    (bot.core.budget_finetune): the budget, the data assumed, and the question for the user's data size."""
    from bot.core.budget_finetune import DEFAULT_SAMPLES, SAMPLE_TOKENS, is_moe, not_the_limit
    from bot.render.field_labels import METHOD_NAMES
    from bot.render.sections import paid_row

    f = fmt_for(lang)
    req = first.request
    currency = first.cost.currency if first.cost is not None else req.currency
    head = translate(
        lang,
        BUDGET_HEAD,
        budget=f.money(req.budget or 0.0, str(currency)),
        samples=f.int(DEFAULT_SAMPLES),
        tokens=f.int(SAMPLE_TOKENS),
    )
    rows = []
    for r in [first, *others]:
        gh, cost, m = r.gpu_hours, r.headline_cost, r.memory
        if gh is None or cost is None:
            continue
        shown = (r.days.gpus if r.days is not None else None) or r.gpus_for_deadline
        paid = paid_row(r, shown or 0)  # the GPU-hours of the count the answer shows (as comparison rows)
        gh = paid.gpu_hours if paid is not None else gh
        method = translate(lang, METHOD_NAMES.get(str(r.request.method), "LoRA"))
        need = shown or (m.min_gpus if m is not None else None) or 1  # the cards the detail shows
        label, moe = model_label(r, lang), is_moe(r.request.model or "")
        if moe and r.request.params_active and f.params(r.request.params_active) not in label:
            label = translate(lang, BUDGET_MOE, model=label, active=f.params(r.request.params_active))
        money = money_span(f, cost.low, cost.high, cost.currency)
        row = translate(
            lang, BUDGET_ROW, method=method, model=label, gh=f.compact(gh.likely), gpus=f.int(need),
            gpu=gpu_names(r)[0], cost=money,
        )  # fmt: skip
        if not_the_limit(r):
            row += translate(lang, NOT_THE_LIMIT[moe])
        rows.append(row)
    return rows, head
