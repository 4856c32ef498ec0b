"""Which "what would change the answer" lines an answer shows (s17 trial t2 item 2).

An alternative is dropped when it is not one: the plan shown already has its setting ('With CPU offload'
beside a plan that offloads; 'Without full recompute' beside a plan with selective recompute:
'不用全量重计算：48 张' under a 64-GPU plan that already had none), or the request already is it
(8-bit AdamW named, LoRA asked), or it does not fit at any count either ('Without full recompute: does
not fit', trial s27 #5: an alternative that offers nothing). When the user said counts ran out of memory
(:mod:`bot.core.failed_counts`), a count at or below the largest that failed is said to be the estimate's:
one the run disagrees with where the estimate fits at the count that failed ('With 8-bit AdamW: 4 GPUs'
after 'OOM on 4 and on 8'), else one under a setting the failed run did not have."""

from __future__ import annotations

from typing import Any

from bot.core.failed_counts import ALL_CODES, DISAGREES
from bot.render.wording import STATED_ALTERNATIVES
from estimator.fit_sanity import JOB_CHANGES, fix_rank
from estimator.models import Alternative, Plan, SizingReport

_Shown = tuple[Alternative, tuple[int, bool] | None]

FAILED_CODES = ALL_CODES
"""The notes of :mod:`bot.core.failed_counts`, their ``gpu_count`` the largest count that failed; those of
``DISAGREES`` (imported from there: review of session 19, a slice of a copied list had stood for it) are
where the estimate fits at the count that failed."""


def largest_failed(report: SizingReport) -> tuple[int, bool] | None:
    """The largest GPU count the user said ran out of memory, and whether the estimate fits there (the run
    disagrees with it, so its other counts are low too), from the failed-counts note; else None."""
    for note in report.warnings:
        if note.code in FAILED_CODES and (count := (note.params or {}).get("gpu_count")):
            return int(count), note.code in DISAGREES
    return None


def _already(change: str, plan: Plan | None, req: Any) -> bool:
    """Whether the plan shown (``plan``) or the request ``req`` already has the setting ``change`` names."""
    optimizer = str(getattr(req, "optimizer", None) or "")
    method = str(getattr(req, "method", None) or "")
    return (
        (change == "cpu_offload" and plan is not None and plan.offload)
        or (change == "no_full_recompute" and plan is not None and plan.recompute != "full")
        or (change == "adamw8bit" and "8bit" in optimizer)
        or (change in ("lora", "qlora") and method.endswith(change))
    )


def shown(report: SizingReport, main: Plan | None) -> list[tuple[Alternative, tuple[int, bool] | None]]:
    """The alternatives of ``report.memory`` the answer shows beside ``main`` (the plan explained), each
    with :func:`largest_failed` when its own count is at or below the count that failed (to be said)."""
    m = report.memory
    if m is None:
        return []
    failed = largest_failed(report)
    out = []
    for a in m.alternatives:
        if not a.min_gpus or a.min_gpus == m.min_gpus or _already(a.change, main, report.request):
            continue  # does not fit either (trial s27 #5: 'Without full recompute: does not fit' offered
            # nothing), changes nothing, or the plan or request already has it
        out.append((a, failed if failed and a.min_gpus and a.min_gpus <= failed[0] else None))
    return out


def fix_order(alts: list[_Shown], report: SizingReport) -> list[_Shown]:
    """``alts`` in the order to offer them: an alternative to the user's own setting first; where the job
    does not fit the user's GPUs, by :func:`estimator.fit_sanity.fix_rank` before that (those that fit
    on the user's own cards first, a sharding change before CPU offload; trial s19b #2)."""
    m, requested = report.memory, report.request.gpu_count
    unfit = m is not None and m.fits_requested is False and bool(requested)

    def key(af: _Shown) -> tuple[int, ...]:
        a = af[0]
        rank = fix_rank(a.change, a.min_gpus, requested) if unfit else ()
        return (*rank, int(a.change not in STATED_ALTERNATIVES))

    return sorted(alts, key=key)


def with_same_card_fix(lines: list[str], same_card: str | None, report: SizingReport, lead: int) -> list[str]:
    """``lines`` with the changed settings that fit the user's own GPUs (``same_card``,
    :func:`bot.render.fit_change_text.unfit_change_text`) put first, or after the ``lead`` single
    changes of the same job that fit on the user's own cards when it combines more than one (fewest
    changes first; trial s19b #2)."""
    if not same_card:
        return lines
    m = report.memory
    at = lead if m is not None and len(m.fit_change) > 1 else 0
    return [*lines[:at], same_card, *lines[at:]]


def own_card_fix(a: Alternative, requested: int | None) -> bool:
    """Whether ``a`` is one change of the same job that fits on the user's ``requested`` GPUs."""
    return bool(a.min_gpus and requested and a.min_gpus <= requested and a.change not in JOB_CHANGES)
