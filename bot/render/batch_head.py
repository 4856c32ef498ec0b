"""The answer to a period's tokens or a batch's time, before the serving headline (s44 trial #3, #4):
'how many tokens a day can 16 H100 generate' → '≈ 1.1B tokens a day: 13,181 output tokens/s in total ×
86,400 s, at 656 sequences at once (the most these GPUs hold; TP=8 × 2 copies)'; 'process 1B tokens, how
long on 8×H100' → the batch's time. Figures from ``report.batch_work`` (estimator.batch_work); the serving
headline and its lines follow. Imported by bot.render.renderer only for a report that has one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.answer import Answer

PERIOD_HEAD = {
    86400: N_(
        "≈ %(tokens)s tokens a day: %(tps)s output tokens/s in total × 86,400 s, at %(seqs)s (%(layout)s)."
    ),
    3600: N_(
        "≈ %(tokens)s tokens an hour: %(tps)s output tokens/s in total × 3,600 s, at %(seqs)s (%(layout)s)."
    ),
}
BATCH_HEAD = N_(
    "%(batch)s tokens ≈ %(time)s: ÷ %(tps)s output tokens/s in total, at %(seqs)s (%(layout)s); every token "
    "is counted as generated, so a batch that is mostly prompt runs faster."
)
BATCH_COST = N_("Cost: %(low)s – %(high)s (%(hours)s GPU-hours × %(price)s per GPU-hour)")
"""s46 trial #1: the batch's rental cost ('how much will it cost and how long?'): its GPU-hours × the
serving estimate's price range (estimator.batch_work ``batch_cost``)."""
SEQS = {1: N_("1 sequence at once"), 2: N_("%(n)s sequences at once")}
MOST = N_("the most these GPUs hold; %(layout)s")
COPIES = N_("%(n)s copies")
DETAILS_DIFFER = N_(
    "The lines below size a load of %(load)s on %(details)s; the figure above is these GPUs at their "
    "capacity, on the layout that decodes the most tokens/s."
)
"""s45 fixserve #4: the headline's capacity layout and the details' load layout named apart when they
differ (16 H100, Llama-3.1-70B: 656 sequences on TP=8 × 2 copies above, the default 16 on TP=2 × 8
copies below)."""
UNITS = {"days": N_("%(n)s days"), "hours": N_("%(n)s hours"), "minutes": N_("%(n)s minutes")}


def batch_head(text: str, answer: Answer) -> str:
    """``text`` (a rendered reply) with the period's tokens and the batch's time before its first line, and
    (s46) a LoRA merge's memory (:func:`bot.render.merge_head.merge_head`); unchanged without either."""
    if getattr(getattr(answer.report, "request", None), "merge_asked", None):  # s46 trial #2: a LoRA merge
        from bot.render.merge_head import merge_head

        text = merge_head(text, answer)
    work = answer.report.batch_work if answer.report is not None else None
    if work is None:
        return text
    lang = answer.lang
    f = fmt_for(lang)
    own = _layout(work.tp, work.pp, work.replicas, lang)
    layout = translate(lang, MOST, layout=own) if work.most_held else own  # only when true
    seqs = translate(lang, SEQS[min(2, work.sequences)], n=f.int(work.sequences))  # '1 sequence': singular
    common = {"tps": f.int(work.tokens_per_s), "seqs": seqs, "layout": layout}
    lines = []
    if work.period_s in PERIOD_HEAD and work.tokens_in_period:
        tokens = f.tokens(work.tokens_in_period)
        lines.append(translate(lang, PERIOD_HEAD[work.period_s], tokens=tokens, **common))
    if work.batch_tokens and work.batch_seconds:
        value, unit = f.duration(work.batch_seconds / 86400)
        when = translate(lang, UNITS[unit], n=value)
        lines.append(translate(lang, BATCH_HEAD, batch=f.tokens(work.batch_tokens), time=when, **common))
        if (cost := work.batch_cost) is not None and work.batch_gpu_hours:
            low, high = f.money(cost.low, cost.currency), f.money(cost.high, cost.currency)
            price = f.price_range(cost.price_low, cost.price_high, cost.currency)
            hours = f.hours(work.batch_gpu_hours)
            lines.append(translate(lang, BATCH_COST, low=low, high=high, hours=hours, price=price))
    inf = getattr(answer.report, "inference", None)  # a report without its serving estimate: none
    details = _layout(inf.tp, inf.pp, inf.replicas, lang) if inf is not None and lines else own
    if details != own or (inf is not None and inf.concurrency != work.sequences and lines):
        load = translate(lang, SEQS[min(2, inf.concurrency)], n=f.int(inf.concurrency))
        lines.append(translate(lang, DETAILS_DIFFER, load=load, details=details))
    return "\n".join(lines) + "\n\n" + text if lines else text


def _layout(tp: int, pp: int, replicas: int, lang: str) -> str:
    """'TP=8 × 2 copies', 'TP=8 × PP=2': a layout as the batch line writes it."""
    text = f"TP={tp}" + (f" × PP={pp}" if pp > 1 else "")
    if replicas > 1:
        text += " × " + translate(lang, COPIES, n=fmt_for(lang).int(replicas))
    return text
