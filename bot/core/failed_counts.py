"""Counts the user tried that ran out of memory are a lower bound (session 17, issue 24).

"试过 4 卡和 8 卡都 OOM", "OOM on 4x and on 8x A100": the parser reads the counts tried as a range
(``gpu_count`` up to ``gpu_count_max``, :func:`bot.parse.counts_tried.tried_counts`) and notes that they
failed (:data:`bot.parse.counts_tried.COUNTS_FAILED`). Sized as a range, the answer would recommend the
larger count, which the user says does not run. Here the request is sized twice:

1. at the largest count that failed, to learn whether the estimate agrees with the run;
2. then at the fewest count above what failed that the layout search tries (:func:`fewest_above`: 1, 2,
   4, then whole nodes, as :func:`estimator.plan.min_gpus` does), or at the estimate's recommended size
   when that is more (the estimate agrees: nothing fits where the run failed); the answer's fewest and
   recommended sizes are raised to it: never a count the user saw fail. When nothing fits at any count,
   the answer at the count that failed stands.

A verdict note right under the headline says which (:data:`FAILED_AGREES` / :data:`FAILED_DISAGREES`), with
the estimate's memory per GPU at the largest count that failed; where the verdict there is borderline (the
band's high end already exceeds the card) the run agrees with that high end (:data:`FAILED_EDGE` /
:data:`ONE_EDGE`, session 19): "disagrees" is kept for a verdict of fits.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.core.failed_serving import (
    SERVING_AGREES,
    SERVING_DISAGREES,
    SERVING_EDGE,
    SERVING_SHARE,
    serving_above_failed,
)
from estimator.fit_sanity import sane_count
from estimator.models import Note, SizingReport, SizingRequest
from estimator.units import GIB

FAILED_AGREES = "tried_counts_failed"
"""Note: the counts tried ran out of memory, and the estimate agrees (nothing fits at the largest)."""
FAILED_DISAGREES = "tried_counts_failed_fit"
"""Note: the counts tried ran out of memory, but the estimate fits at the largest: the run disagrees."""
ONE_AGREES = "count_failed"
"""Note: the one count said ran out of memory ('8 卡 OOM 了'), and the estimate agrees (session 18)."""
ONE_DISAGREES = "count_failed_fit"
"""Note: the one count said ran out of memory, but the estimate fits there: the run disagrees."""
FAILED_EDGE = "tried_counts_failed_edge"
"""Note: the counts tried ran out of memory; the estimate is borderline at the largest (its band's high
end exceeds the card), so the high end agrees with the run (session 19)."""
ONE_EDGE = "count_failed_edge"
"""Note: the one count said ran out of memory; the estimate is borderline there (its band's high end
exceeds the card): the high end agrees with the run (session 19, '4 张 H100 全参 Qwen2.5-14B OOM 了')."""
ALL_CODES = (FAILED_AGREES, FAILED_DISAGREES, ONE_AGREES, ONE_DISAGREES, SERVING_AGREES, SERVING_DISAGREES)
ALL_CODES += (FAILED_EDGE, ONE_EDGE, SERVING_EDGE, SERVING_SHARE)
"""Every failed-count note; each has the largest count that failed as ``gpu_count``."""
DISAGREES = frozenset((FAILED_DISAGREES, ONE_DISAGREES, SERVING_DISAGREES))
"""The notes where the estimate fits at the count that failed: the run disagrees with it."""

KEPT_BY = frozenset({
    "currency", "price_per_gpu_hour", "budget", "budget_period", "deadline_days", "tokens", "num_samples",
    "epochs", "hours", "hours_per_day", "mfu", "achieved_tflops_per_gpu", "tokens_per_second_per_gpu",
    "duration_asked", "count_asked", "concurrency_asked",
})  # fmt: skip
"""Fields a follow-up may change and the counts that failed still bound the job: none of them changes
its memory (time, money, data amount). A changed card (a failed count is a fact about the card it
failed on), count, method, length, batch, precision, model or layout starts afresh (session 18)."""

Sized = tuple[SizingReport, dict[str, str]]
"""A report and where the values filled before estimating came from (:func:`bot.core.pipeline._size`)."""


def fewest_above(failed: int, per_node: int) -> int:
    """The fewest GPU count above ``failed`` among those the layout search tries: 1, 2 and 4 below a
    node of ``per_node`` GPUs, then whole nodes (:func:`estimator.plan.min_gpus`). E.g. 8 A100s
    failed, 8 a node: 16; 2 failed: 4; 4 failed: 8."""
    for n in (1, 2, 4):
        if failed < n < per_node:
            return n
    return (failed // per_node + 1) * per_node


def size_above_failed(request: SizingRequest, size: Callable[[SizingRequest], Sized | None]) -> Sized | None:
    """``request`` (counts tried from ``gpu_count`` to ``gpu_count_max``, all failed) sized above what
    failed, with the note that says whether the estimate agrees; ``size`` sizes one request. None when
    it cannot be sized that way (no memory answer: serving, no model), then the caller sizes it as is."""
    failed = request.gpu_count_max or request.gpu_count
    if failed is None:
        return None
    probe = size(request.model_copy(update={"gpu_count": failed, "gpu_count_max": None}))
    if probe is not None and probe[0].memory is None and probe[0].inference is not None:  # serving (s18)
        return serving_above_failed(request, probe, fewest_above(failed, probe[0].gpus_per_node or 8), size)
    if probe is None or probe[0].memory is None or probe[0].memory.fits_requested is None:
        return None
    agrees, disagrees, edge = (FAILED_AGREES, FAILED_DISAGREES, FAILED_EDGE)
    if request.gpu_count_max is None:  # one count failed ('8 卡 OOM 了', session 18)
        agrees, disagrees, edge = ONE_AGREES, ONE_DISAGREES, ONE_EDGE
    m = probe[0].memory
    params = {"tried_low": request.gpu_count, "gpu_count": failed, "per_gpu_gib": m.per_gpu_bytes / GIB}
    params["usable_gib"] = m.usable_bytes / GIB
    params["high_gib"] = (m.per_gpu_bytes_high or m.per_gpu_bytes) / GIB
    params["feasible"] = probe[0].feasible  # the verdict at the count that failed (fidelity checks read it)
    if m.min_gpus is None:  # nothing fits at any count: the answer at the count that failed says so
        return _noted(probe, Note(code=agrees, params=params))
    above = fewest_above(failed, probe[0].gpus_per_node or 8)
    if not m.fits_requested and not sane_count(m):  # '904 × A100' under ZeRO-2 (trial s19 #3): the answer at
        return _noted(probe, Note(code=agrees, params=params))  # the failed count, its fixes listed first
    if not m.fits_requested:  # the estimate agrees: its own recommended size (its fewest shown beside it)
        above = max(above, m.recommended_gpus or m.min_gpus)
    sized = size(request.model_copy(update={"gpu_count": above, "gpu_count_max": None}))
    if sized is None or sized[0].memory is None:
        return None
    report, sources = sized
    mem = report.memory
    assert mem is not None
    raised: dict = {}
    if mem.fits_requested and mem.min_gpus is not None and mem.min_gpus <= failed:
        raised |= {"min_gpus": above, "min_plan": mem.plan}
    if mem.fits_requested and mem.recommended_gpus is not None and mem.recommended_gpus <= failed:
        raised |= {"recommended_gpus": above, "recommended_plan": mem.plan}
        raised["recommended_per_gpu_bytes"] = mem.per_gpu_bytes
    report = report.model_copy(update={"memory": mem.model_copy(update=raised)})
    code = disagrees if m.fits_requested else agrees
    if m.fits_requested and probe[0].feasible == "borderline" and params["high_gib"] > params["usable_gib"]:
        code = edge  # the band's high end exceeds the card: it agrees with the run (not offload's borderline)
    return _noted((report, sources), Note(code=code, params={**params, "next_gpus": above}))


def _noted(sized: Sized, note: Note) -> Sized:
    """``sized`` with ``note`` first among its report's warnings."""
    report, sources = sized
    return report.model_copy(update={"warnings": [note, *report.warnings]}), sources


def failed_carries(changed: list[str]) -> bool:
    """Whether the counts that failed before a follow-up still bound it: the follow-up changed only
    fields of :data:`KEPT_BY` ('多少钱？', '要几张？', '那 2T token 呢'), none of the card nor the job's
    memory ('那换 H200 呢' sizes 8 × H200 afresh: 8 failed on H100s, not on H200s)."""
    return all(field in KEPT_BY for field in changed)
