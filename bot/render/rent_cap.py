"""The options list offers no count a user could not put together (s39 fixv #2: a Qwen3-8B GRPO on 4 × RTX
4090 was offered '8-bit AdamW: 728 GPUs' and 'CPU offload: 296 GPUs').

A personal card (GeForce/Titan, Macs: ``GpuSpec.personal``) is one machine's: its catalog's
``gpus_per_node`` (8) is the most that run one job, since machines of them have no fast interconnect
between them and no one rents hundreds of them as one cluster (the estimator plans no multi-node layout
for them). An option needing more is left out and the cap is named once under the list. Data-centre cards
keep every count: a cluster of them is rented as one."""

from __future__ import annotations

from typing import Any

from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from estimator.models import SizingReport


def rentable_cap(report: SizingReport) -> int | None:
    """The most GPUs an option may need to be shown: one machine of a personal card; None (no cap) else."""
    g = report.gpu_spec
    if g is None or not g.personal:
        return None
    return g.gpus_per_node


def within_cap(report: SizingReport, alts: list[Any]) -> tuple[list[Any], bool]:
    """``alts`` (``(Alternative, failed)`` pairs) without those needing more than :func:`rentable_cap`,
    and whether any was left out."""
    cap = rentable_cap(report)
    if cap is None:
        return alts, False
    kept = [af for af in alts if not af[0].min_gpus or af[0].min_gpus <= cap]
    return kept, len(kept) < len(alts)


def cap_line(report: SizingReport, f: Fmt) -> str:
    """The line naming the cap under the options list."""
    from bot.render.plan_text import gpus_text

    cap = rentable_cap(report) or 0
    name = report.gpu_spec.name if report.gpu_spec is not None else ""
    return translate(f.lang, CAPPED, cap=gpus_text(f.lang, cap), gpu=name)


CAPPED = N_(
    "Options needing more than %(cap)s are left out: %(gpu)s is a personal card, and one machine of them "
    "(%(cap)s) is the most that run one job"
)
"""Under an options list some of whose counts :func:`rentable_cap` left out."""
