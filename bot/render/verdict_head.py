"""The headline's verdict words on the user's own GPU count: the time's (a run of years is not practical,
s39 fixv #5) and the fit's when the question is a yes/no one ('2 张 4090 够吗', s39 fixv #6).

The memory verdict (``report.feasible``: estimator.verdicts.training_verdict) says only whether the job
fits the cards; a 70B pre-training on 16 × H100 that fits at 95 % of each card was headlined 'borderline
(勉强可行)' beside 2,047 days of wall time. The word now follows the time first, then the memory.
"""

from __future__ import annotations

from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from estimator.models import SizingReport

IMPRACTICAL_DAYS = 365.0
"""Wall-clock days on the user's count past which the run is 'not practical' on those GPUs, whatever the
memory says: a year. The longest published pre-training runs took weeks to a few months of wall time
(Llama 3 405B: 54 days on 16K H100, Dubey et al. 2024 §3.3.4; OPT-175B: about two months on 992 A100,
Zhang et al. 2022 §2.5), and a data-centre GPU generation is replaced in about two years (A100 2020, H100
2022, B200 2024), so a run of more than a year on a fixed count is a plan for more GPUs, not a schedule."""

DAYS_PER_YEAR = 365.0


def years_clause(report: SizingReport, days: float | None, f: Fmt) -> str:
    """' — not practical on these GPUs: ≈ 5.6 years of wall time; more GPUs shorten it (see below)' when
    the user's own count takes over :data:`IMPRACTICAL_DAYS` (``days``: its wall-clock days), else ''."""
    if days is None or days <= IMPRACTICAL_DAYS or not report.request.gpu_count:
        return ""
    years = days / DAYS_PER_YEAR
    return translate(f.lang, NOT_PRACTICAL, years=f.num(years, 1 if years < 10 else 0))


def fit_verdict(report: SizingReport, f: Fmt) -> dict[str, str]:
    """``{"verdict": …}``: the verdict word of a yes/no fit question on the user's count that holds the job
    ('yes, it fits', 'borderline (see below)'); {} when their count does not hold it (the headline says so
    already) or their tool's plain DDP does not (verdict 'no', 'tool_default_ddp': its own words)."""
    m = report.memory
    if m is None or not m.fits_requested or report.days is None or report.feasible == "no":
        return {}
    return {"verdict": translate(f.lang, BORDERLINE if report.feasible == "borderline" else FITS)}


NOT_PRACTICAL = N_(
    " — not practical on these GPUs: ≈ %(years)s years of wall time; more GPUs shorten it (see below)"
)
"""The time verdict of a run over a year on the user's count (:data:`IMPRACTICAL_DAYS`)."""

FITS = N_("yes, it fits")
"""A yes/no fit question answered: the job fits the user's count with the margin (verdict 'yes')."""

BORDERLINE = N_("borderline (see below)")
"""A yes/no fit question answered: it fits, without the margin (verdict 'borderline')."""
