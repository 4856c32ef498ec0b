"""The headline's verdict words on the user's own GPU count: the time's (a run of years is not practical,
s39 fixv #5) and the fit's when the question is a yes/no one ('2 张 4090 够吗', s39 fixv #6).

The memory verdict (``report.feasible``: estimator.verdicts.training_verdict) says only whether the job
fits the cards; a 70B pre-training on 16 × H100 that fits at 95 % of each card was headlined 'borderline
(勉强可行)' beside 2,047 days of wall time. The word now follows the time first, then the memory.
"""

from __future__ import annotations

from operator import attrgetter

from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from bot.render.plan_text import gpus_text
from estimator.models import SizingReport

IMPRACTICAL_DAYS = 365.0
"""Wall-clock days on the user's count past which the run is 'not practical' on those GPUs, whatever the
memory says: a year. The longest published pre-training runs took weeks to a few months of wall time
(Llama 3 405B: 54 days on 16K H100, Dubey et al. 2024 §3.3.4; OPT-175B: about two months on 992 A100,
Zhang et al. 2022 §2.5), and a data-centre GPU generation is replaced in about two years (A100 2020, H100
2022, B200 2024), so a run of more than a year on a fixed count is a plan for more GPUs, not a schedule."""

LONG_DAYS = 90.0
"""Wall-clock days on the user's count past which the headline warns that the run is longer than any
published pre-training run and names the count that finishes in the deadline (s40-fixh #4: 243 days on
16 A100 said nothing). The longest public runs: Llama 3 405B ≈ 54 days of training on up to 16K H100
(Dubey et al. 2024 §3.3.4: 466 job interruptions in a 54-day snapshot), OPT-175B about two months on 992
A100 (Zhang et al. 2022 §2.5, its logbook). Three months (a quarter) is past both: a plan longer than that
is a plan for more GPUs."""

DAYS_PER_YEAR = 365.0
CENTURY_DAYS = 36_500.0
"""bot.render.duration's century: past it the headline says '> 100 years' and offers no count."""

_FIELD = attrgetter("field")
"""An assumption's field."""


def years_clause(report: SizingReport, days: float | None, f: Fmt) -> str:
    """' — not practical on these GPUs: ≈ 5.6 years of wall time; 136 GPUs finish in ≈ 29 days' when the
    user's own count takes over :data:`IMPRACTICAL_DAYS` (``days``: its wall-clock days); ' — longer than
    the longest published pre-training runs (Llama 3 405B: ≈ 54 days); …' over :data:`LONG_DAYS`; else ''.
    The count offered is the deadline's (the user's, else the 30-day default: ``gpus_for_deadline``) when
    it is larger than theirs; else 'more GPUs shorten it (see below)'."""
    n = report.request.gpu_count
    if days is None or days <= LONG_DAYS or not n:
        return ""
    lang, at, on = f.lang, report.gpus_for_deadline, None
    if at and at > n:
        for r in report.days_table or []:  # the deadline count's days-table row (a loop: no call a row)
            if r.gpus == at:
                on = r.days.likely
                break
    offer = on is not None and on < days and days <= CENTURY_DAYS  # past a century: no plan (s36 fixe #2)
    if days > IMPRACTICAL_DAYS:
        years = days / DAYS_PER_YEAR
        y = f.num(years, 1 if years < 10 else 0)
        if offer:
            return translate(lang, NOT_PRACTICAL_AT, years=y, gpus=gpus_text(lang, at), days=f.days(on))
        return translate(lang, NOT_PRACTICAL, years=y)
    text = (
        translate(lang, LONG_AT, gpus=gpus_text(lang, at), days=f.days(on))
        if offer
        else translate(lang, LONG)
    )
    return text + translate(lang, BORDERLINE_TOO) if report.feasible == "borderline" else text  # memory's too


def _days_on(report: SizingReport, gpus: int) -> float | None:
    """The days table's likely days on ``gpus`` (None: no such row)."""
    for r in report.days_table or []:
        if r.gpus == gpus:
            return r.days.likely
    return None


def fit_verdict(report: SizingReport, f: Fmt) -> dict[str, str]:
    """``{"verdict": …}``: the verdict word of a yes/no fit question on the user's count that holds the job
    ('yes, it fits', 'borderline (see below)'); {} when their count does not hold it (the headline says so
    already) or their tool's plain DDP does not (verdict 'no', 'tool_default_ddp': its own words)."""
    m = report.memory
    if m is None or not m.fits_requested or report.days is None or report.feasible == "no":
        return {}
    word = translate(f.lang, BORDERLINE if report.feasible == "borderline" else FITS)
    req = report.request
    if req.deadline_days and "deadline_days" not in map(_FIELD, report.assumptions):  # C: no frames
        return {"verdict": _deadline_verdict(report, f, word)}  # '4 小时够吗': the time asked (s40-fixh #5)
    return {"verdict": word}


def _deadline_verdict(report: SizingReport, f: Fmt, word: str) -> str:
    """The yes/no of a deadline check on the user's count ('is 4 hours enough?', '4 小时够吗' after a
    training answer): 'yes, within your 4 hours' or 'no, not within your 4 hours (24 GPUs: ≈ 3.9 hours)'
    — the deadline's count (``gpus_for_deadline``) when it is larger; a borderline memory said after."""
    lang, limit, days = f.lang, report.request.deadline_days or 0.0, report.days.days.likely  # type: ignore[union-attr]
    said = (
        translate(lang, N_("%(n)s hours"), n=f.hours(limit * 24))
        if limit < 1
        else translate(lang, N_("%(n)s days"), n=f.days(limit))
    )
    if days <= limit * 1.0001:
        text = translate(lang, WITHIN, limit=said)
        return text if report.feasible != "borderline" else text + translate(lang, MEMORY_BORDERLINE)
    at, n = report.gpus_for_deadline, report.request.gpu_count or 0
    on = _days_on(report, at) if at and at > n else None
    if at is None or on is None or on > limit * 1.0001:
        return translate(lang, PAST, limit=said)
    took = (
        translate(lang, N_("≈ %(n)s hours"), n=f.hours(on * 24))
        if on < 1
        else translate(lang, N_("≈ %(n)s days"), n=f.days(on))
    )
    return translate(lang, PAST_AT, limit=said, gpus=gpus_text(lang, at), time=took)


NOT_PRACTICAL = N_(
    " — not practical on these GPUs: ≈ %(years)s years of wall time; more GPUs shorten it (see below)"
)
"""The time verdict of a run over a year on the user's count (:data:`IMPRACTICAL_DAYS`)."""

NOT_PRACTICAL_AT = N_(
    " — not practical on these GPUs: ≈ %(years)s years of wall time; %(gpus)s finish in ≈ %(days)s days"
)
""":data:`NOT_PRACTICAL` with the count that finishes in the deadline (the user's, else 30 days)."""

LONG = N_(
    " — longer than the longest published pre-training runs (Llama 3 405B: ≈ 54 days); more GPUs "
    "shorten it (see below)"
)
"""The time verdict of a run over :data:`LONG_DAYS` on the user's count."""

LONG_AT = N_(
    " — longer than the longest published pre-training runs (Llama 3 405B: ≈ 54 days); %(gpus)s finish in "
    "≈ %(days)s days"
)
""":data:`LONG` with the count that finishes in the deadline (the user's, else 30 days)."""

FITS = N_("yes, it fits")
"""A yes/no fit question answered: the job fits the user's count with the margin (verdict 'yes')."""

BORDERLINE = N_("borderline (see below)")
"""A yes/no fit question answered: it fits, without the margin (verdict 'borderline')."""

WITHIN = N_("yes, within your %(limit)s")
"""A deadline check on the user's count answered: the likely time is within their deadline."""

PAST = N_("no, not within your %(limit)s")
"""A deadline check answered: the likely time on their count is past it."""

PAST_AT = N_("no, not within your %(limit)s (%(gpus)s: %(time)s)")
""":data:`PAST` with the count that keeps the deadline and its time."""

MEMORY_BORDERLINE = N_("; memory borderline (see below)")
"""After :data:`WITHIN` when the memory verdict on their count is borderline."""

BORDERLINE_TOO = N_(" — borderline on these GPUs (see below)")
"""After :data:`LONG` when the memory verdict on the user's count is borderline too (its own words)."""
