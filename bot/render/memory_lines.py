"""Memory lines of a reply beside the section (split from :mod:`bot.render.memory_text`, s35): the memory
parts' labels, the one borderline rule on a plan's memory and the line saying why a 'fits' is borderline,
and the memory-first headline of a training memory question."""

from __future__ import annotations

from typing import Any

from bot.render.describe import node_of
from bot.render.field_labels import MEMORY_PARTS
from bot.render.fit_change_text import fit_change_text, fit_reason_text
from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from bot.render.plan_text import gpus_text
from bot.render.wording import BORDERLINE_REASONS
from bot.render.wording_extra import OFFLOAD_PARAMS, OFFLOAD_UNTIMED
from estimator.models import Memory, SizingReport
from estimator.units import GIB

_PART_LABELS: dict[tuple[str, str], str] = {}
"""(language, memory part of :data:`MEMORY_PARTS`) → its bar label: the same ~10 fixed texts in every
reply, translated once per process (a table of fixed strings, bounded by :data:`MEMORY_PARTS`; their
widths are remembered by :func:`bot.render.fmt.display_width`)."""


_PARTS = {**MEMORY_PARTS, "gradients_peak": N_("gradients at peak")}
"""The parts' labels; 'gradients_peak': full training's gradients when the peak (the loss's phase) holds
only those the backward has made so far (estimator.late_gradients.gradient_credit; s35 fixb #5: a
'gradients 2.2 GiB' beside 15.3 GiB of weights read as a wrong gradient size)."""


def _part_label(lang: str, key: str) -> str:
    """The bar label of one memory part (a part not in the table: its key)."""
    label = _PART_LABELS.get((lang, key))
    if label is None:
        if key not in _PARTS:
            return key
        label = _PART_LABELS[lang, key] = translate(lang, _PARTS[key])
    return label


def tight(m: Any) -> bool:
    """The one borderline rule of :func:`estimator.verdicts.training_verdict` on a plan's memory ``m``: its
    likely figure above :data:`estimator.plan.HEADROOM` (90 %) of the usable memory ('tight'), or the high
    end of its band above the usable memory ('high_edge'). The ZeRO plan offered in place of the user's
    plain DDP is held to it too (s35 fixb #1: 'it fits' at 56.0 GiB of 56 GiB)."""
    from estimator.plan import HEADROOM

    usable = m.usable_bytes if m is not None else None
    if not usable:
        return False
    return m.per_gpu_bytes > HEADROOM * usable or (m.per_gpu_bytes_high or 0.0) > usable


def borderline_text(report: SizingReport, f: Fmt) -> str | None:
    """One line saying why a 'fits' is only borderline (report.feasible_reason); for the user's plain DDP
    that does not fit (verdict 'no'), what to change (the note says why)."""
    reason = report.feasible_reason
    m = report.memory
    if m is None or (report.feasible, reason) == ("no", "tool_default_ddp"):
        return fit_change_text(m.fit_change, f) if m is not None else None
    if report.feasible != "borderline":
        return None
    if reason == "offload" and report.host_ram is not None and report.host_ram.holds is False:
        return None  # the stated RAM does not hold the offload: the headline and its ⚠️ line say so (s40)
    change = fit_change_text(m.fit_change, f, report.request.gpu_count)
    sep = "" if f.lang.startswith("zh") else " "
    if reason not in BORDERLINE_REASONS:
        line = fit_reason_text(report, f)
        return sep.join(t for t in (line, change) if t) if line else None
    params = report.request.params_total or 0.0
    share = f.percent(m.per_gpu_bytes / m.gpu_memory_bytes) if m.gpu_memory_bytes else ""
    from estimator.offload_time import host_bytes_per_node

    needed = (  # DeepSpeed's estimator per machine (estimator.host_ram), else ZeRO §3.1's 12 B sharded
        report.host_ram.needed_bytes
        if report.host_ram is not None
        else host_bytes_per_node(params, m.plan_gpus or 1, node_of(report)[0])
    )
    slower = next((a.value for a in report.assumptions if a.field == "offload_time"), None)
    text = OFFLOAD_UNTIMED if reason == "offload" and slower is None else BORDERLINE_REASONS[reason]
    text = OFFLOAD_PARAMS if reason == "offload" and m.offloaded_bytes else text  # FSDP params (s34)
    line = translate(f.lang, text, share=share, host=f.gb(needed), slower=f"×{slower:.2f}" if slower else "")
    return sep.join(t for t in (line, change) if t)


_FIRST_PARTS = ("weights", "adapters", "gradients", "optimizer", "activations")
"""The parts a memory-first training headline names one by one, summed over the GPUs (the rest: 'other')."""
_OTHER = N_("other")


def memory_first(m: Memory, f: Fmt) -> dict[str, str] | None:
    """The memory a training job needs, asked with no count ('全参微调 70B 需要多少显存', 'how much VRAM to
    LoRA …'; s35-fixa #2, as serving's memory-first headline): the per-GPU figure on the plan's count, and
    the total the job holds, per GPU × GPUs, by part (weights, gradients, optimizer states, activations
    over all GPUs; the rest — buffers, logits, runtime — as 'other'). None without a plan's count."""
    n = m.plan_gpus or m.min_gpus
    if not n:
        return None
    named = [(k, m.breakdown[k] * n) for k in _FIRST_PARTS if m.breakdown.get(k)]
    total = m.per_gpu_bytes * n
    rest = total - sum(v for _, v in named)
    parts = [f"{_part_label(f.lang, k)} {f.gib(v)}" for k, v in named]
    if rest > 0.05 * GIB:
        parts.append(f"{translate(f.lang, _OTHER)} {f.gib(rest)}")
    return {"per_gpu": f.gib(m.per_gpu_bytes), "n": gpus_text(f.lang, n), "total": f.gib(total),
            "parts": " + ".join(parts)}  # fmt: skip
