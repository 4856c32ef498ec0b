"""A minimum GPU count that fills the card to its last few per cent is borderline, not 'fits' (s39 fixv #3:
DeepSeek-V3 LoRA on 24 × Ascend 910B at 99.9 % of each card and Llama 3.1 8B DPO on 2 × H100 at 98.3 %
were headlined as plain fits on their minimum, beside a recommended count that keeps ≥ 10 % free).

Only for a question without a GPU count of its own: on the user's count the verdict (estimator.verdicts:
'borderline', 'tight' above 90 %) already says it. Imported lazily, only when a minimum is shown."""

from __future__ import annotations

from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from estimator.models import SizingReport

NO_MARGIN = 0.95
"""Share of the card's memory above which a plan has no margin left: under 5 % free (4 GiB of an 80 GiB
H100). The estimate already counts the CUDA context (≈ 1 GiB) and 8 % of the transients for the caching
allocator's fragmentation, but those are typical figures: PyTorch's allocator keeps reserved-but-unused
blocks that vary run to run by several per cent of the card (PyTorch CUDA semantics, 'Memory
management': fragmentation, ``expandable_segments``), and NCCL's buffers grow with the communicator
count — a few GiB, the same order as the margin. Above 95 % the plan may OOM on a spike, as runs
reported at their minimum do (tests/test_verdict_outcomes)."""


def no_margin_share(report: SizingReport, gpus: int | None) -> float | None:
    """The share of the card the minimum plan fills when ``gpus`` is that minimum, the plan shown is laid
    out there, the user gave no count and the share is over :data:`NO_MARGIN`; else None."""
    m = report.memory
    if m is None or report.request.gpu_count or not gpus or m.min_gpus != gpus or m.plan_gpus != gpus:
        return None
    if not m.gpu_memory_bytes:
        return None
    share = m.per_gpu_bytes / m.gpu_memory_bytes
    return share if share > NO_MARGIN else None


def min_margin_text(report: SizingReport, f: Fmt, count_text: str) -> str:
    """'2 GPUs (borderline there, no margin: 98.4 % of each card; fragmentation and the CUDA context alone
    can take more)' for the memory line's minimum, else ``count_text`` as it is."""
    share = no_margin_share(report, report.memory.min_gpus if report.memory is not None else None)
    if share is None:
        return count_text
    return translate(f.lang, MIN_NO_MARGIN, gpus=count_text, share=f.percent(share))


def headline_margin(report: SizingReport, gpus: int, f: Fmt) -> str:
    """' — borderline on 2 GPUs: 98.4 % of each card, no margin (…)' after a headline whose count is a
    minimum with no margin; ''."""
    share = no_margin_share(report, gpus)
    if share is None:
        return ""
    return translate(f.lang, HEAD_NO_MARGIN, share=f.percent(share))


MIN_NO_MARGIN = N_(
    "%(gpus)s (borderline there, no margin: %(share)s of each card; fragmentation and the CUDA context "
    "alone can take more)"
)
"""The memory line's minimum when it fills over :data:`NO_MARGIN` of the card."""

HEAD_NO_MARGIN = N_(" — borderline at this count: %(share)s of each card, no margin (see below)")
"""The headline's count when it is such a minimum."""


def layout_margin(report: SizingReport, f: Fmt) -> str:
    """' — borderline there: 98.3 % of each card, no margin' after a memory headline's minimum with no
    margin (the 'how many GPUs?' path: the same rule as the training headline's, s40-fixh #2); ''."""
    m = report.memory
    share = no_margin_share(report, m.min_gpus if m is not None else None)
    return "" if share is None else translate(f.lang, LAYOUT_NO_MARGIN, share=f.percent(share))


LAYOUT_NO_MARGIN = N_(" — borderline there: %(share)s of each card, no margin")
"""The memory headline's minimum when it fills over :data:`NO_MARGIN` of the card."""
