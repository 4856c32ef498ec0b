"""The training headline's parts (split off :mod:`bot.render.sections`, session 39): the GPU count and
days or hours it states, the recompute clause and what recompute pays, a tight fit on that count, and the
deadline it keeps or misses.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from bot.render.duration import wall_time
from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from bot.render.paid_rows import paid_row, recompute_factor
from estimator import compute
from estimator.models import SizingReport
from estimator.shown_cost import quoted_gpu_hours as shown_gpu_hours  # the rule is the estimator's

IMPRACTICAL_DAYS = 90.0
"""bot.render.verdict_head.LONG_DAYS (three months: longer than any published pre-training run; the
'not practical' year is verdict_head.IMPRACTICAL_DAYS), here as the gate that imports it only for such a
run (s40-fixh #4)."""

FIELD = attrgetter("field")
"""An assumption's field (``x in map(FIELD, assumptions)``: the test in C, no generator frames)."""


def headline_count(report: SizingReport, n: int, f: Fmt, per_node: int) -> dict[str, Any]:
    """The training headline's GPU count ``n`` (the sized count, or a minimum order's: offer_text) and
    its time: GPUs, whole nodes, days (the days table's), hours, wall time, the deadline in brackets."""
    gh, m = report.gpu_hours, report.memory
    on_n = _days_on(report, n)
    hours_on_n = on_n * 24 if on_n is not None else None
    edge = (  # a minimum that fills over 95 % of the card, no count stated: borderline there (s39 fixv #3)
        m is not None and not report.request.gpu_count and m.min_gpus == n == m.plan_gpus
        and m.per_gpu_bytes > 0.95 * m.gpu_memory_bytes  # bot.render.margin_text.NO_MARGIN
    )  # fmt: skip
    return {
        **_recompute_paid(report, n, f),
        "nodes": f.int(n // per_node) if n > per_node and n % per_node == 0 else None,
        "per_node": per_node,
        # the deadline, unless memory or whole nodes pushed the count well past it (then the real days)
        "deadline": headline_days(report, n, f),
        "need": f.int(n),
        "within": _within_deadline(report, n, f)
        + _tight_on(report, n, f)
        + _recompute_clause(report, n, f)
        + (_no_margin(report, n, f) if edge else ""),
        "min_margin": _min_margin(report, n, f) if edge else None,  # the memory line's minimum (s39 fixv #3)
        "hours": headline_hours(report, n, f),
        # under an hour: 'about 4 minutes', 'under a minute' (not '0.01 hours')
        "time": wall_time(hours_on_n, f.lang) if gh is not None and hours_on_n is not None else None,
        "one": n == 1,
    }


def _no_margin(report: SizingReport, n: int, f: Fmt) -> str:
    """:func:`bot.render.margin_text.headline_margin`, imported only for a minimum with no margin."""
    from bot.render.margin_text import headline_margin

    return headline_margin(report, n, f)


def _min_margin(report: SizingReport, n: int, f: Fmt) -> str:
    """:func:`bot.render.margin_text.min_margin_text` of ``n`` GPUs, for the memory line's minimum."""
    from bot.render.margin_text import min_margin_text
    from bot.render.plan_text import gpus_text

    return min_margin_text(report, f, gpus_text(f.lang, n))


def headline_hours(report: SizingReport, gpus: int, f: Fmt) -> str | None:
    """Wall-clock hours for a job under a day on ``gpus`` ('one GPU for 7.2 hours'), else None."""
    days = _days_on(report, gpus) if gpus > 0 else None
    if days is None or days >= 1:
        return None
    return f.hours(days * 24)


def _recompute_paid(report: SizingReport, gpus: int, f: Fmt) -> dict[str, str]:
    """The headline's GPU-hours on ``gpus`` when full recomputation makes them slower (issue 24, s14:
    "624 A100-hours: about 2 GPUs for 19 days" — 624 ÷ 2 ÷ 24 is 13 days; the 19 were recomputing's):
    the GPU-hours the estimator gives that count (its days-table row), so the headline's hours, days
    and cost agree; else the count-free GPU-hours (a minimum order's larger count keeps the activations);
    nothing without GPU-hours."""
    row = paid_row(report, gpus)
    hours = row.gpu_hours if row is not None else report.gpu_hours  # a minimum order's count: its own
    if hours is None:
        return {}
    likely = shown_gpu_hours(hours.likely)
    return {"gh_compact": f.compact(likely) if likely >= 1000 else f.hours(likely)}


def _recompute_clause(report: SizingReport, gpus: int, f: Fmt) -> str:
    """'; full recompute on 2 GPUs to fit: ×1.5 the time, included' after a headline whose GPU-hours
    :func:`_recompute_paid` raised, else ''. The GPU-hours line and the cost quote the same raised figure
    (estimator.shown_cost.shown_figures: one answer, one figure, s40-fixh #3); this clause is the note of
    what it includes."""
    factor = recompute_factor(report, gpus)
    if factor is None or factor < 1.01 or report.gpu_hours is None:
        return ""
    if report.rollout is not None and (row := paid_row(report, gpus)) is not None and row.gpu_hours:
        return translate(  # trial s21 #7: only the training passes recompute; the rollouts do not
            f.lang,
            N_("; full recompute on %(gpus)s GPUs to fit: the training passes ×%(factor)s, included"),
            gpus=f.int(gpus), factor=f"{factor:.2g}",
        )  # fmt: skip
    gh, row = report.gpu_hours.likely, paid_row(report, gpus)
    if row is not None and row.gpu_hours and row.gpu_hours.likely > gh * factor * 1.01:  # s26 trial #12
        return translate(
            f.lang,
            N_("; full recompute on %(gpus)s GPUs to fit (×%(factor)s) and the scale-out to them, both "
               "included"),
            gpus=f.int(gpus), factor=f"{factor:.2g}",
        )  # fmt: skip
    return translate(
        f.lang,
        N_("; full recompute on %(gpus)s GPUs to fit: ×%(factor)s the time, included"),
        gpus=f.int(gpus),
        factor=f"{factor:.2g}",
    )


def _tight_on(report: SizingReport, gpus: int, f: Fmt) -> str:
    """' — borderline on these GPUs' after a headline on the user's own count when the verdict there
    is borderline (a second fresh-user trial: the headline gave only the days of a 79-of-80-GiB plan)."""
    if report.request.gpu_count != gpus:
        return ""
    if (report.feasible, report.feasible_reason) == ("no", "tool_default_ddp"):  # the user's DDP (s21)
        return translate(
            f.lang, N_(" — not with plain DDP (no deepspeed / fsdp setting): it needs ZeRO (see below)")
        )
    if report.days is not None and report.days.gpus == gpus and report.days.days.likely > IMPRACTICAL_DAYS:
        from bot.render.verdict_head import years_clause  # the time's word before the memory's (s39 fixv #5)

        return years_clause(report, report.days.days.likely, f)
    if report.feasible != "borderline":
        return ""
    return translate(f.lang, N_(" — borderline on these GPUs (see below)"))


def _within_deadline(report: SizingReport, gpus: int, f: Fmt) -> str:
    """' (within your 5 days)' after a headline whose days (the days table's for ``gpus``) are under the
    deadline the user gave, ' (within 30 days)' under an assumed one; '' when the days read as the
    deadline (the headline gives the table's days, the deadline in brackets: issue 22 follow-up)."""
    req = report.request
    days = _days_on(report, gpus)
    if (
        not req.deadline_days
        or days is None
        or f.days(days) == f.days(req.deadline_days)
        or days > req.deadline_days
    ):
        return ""
    if "deadline_days" in map(FIELD, report.assumptions):  # C: no generator frame an assumption
        if days < 0.8 * req.deadline_days:  # a job well inside the assumed month: no deadline to name
            return ""
        return translate(f.lang, N_(" (within %(days)s days)"), days=f.days(req.deadline_days))
    if req.deadline_days < 1:
        return translate(f.lang, N_(" (within your %(hours)s hours)"), hours=f.hours(req.deadline_days * 24))
    return translate(f.lang, N_(" (within your %(days)s days)"), days=f.days(req.deadline_days))


def _days_on(report: SizingReport, gpus: int) -> float | None:
    """Likely days on ``gpus``: the days table's row when it has one (so the headline and the table say
    the same figure), else GPU-hours ÷ GPUs ÷ 24."""
    for r in report.days_table or []:
        if r.gpus == gpus:
            return r.days.likely
    gh = report.gpu_hours
    return compute.days_on(gh.likely, gpus) if gh and gpus > 0 else None


def headline_days(report: SizingReport, gpus: int, f: Fmt) -> str:
    """The headline's days on ``gpus``: the days table's figure for that count (issue 22 follow-up: the
    headline said '14 days', the deadline, beside a table row of '13 days'); the deadline itself only
    without GPU-hours."""
    days = _days_on(report, gpus)
    return f.days(days if days is not None else report.request.deadline_days or 30)
