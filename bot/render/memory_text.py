"""The memory section of a reply: per-GPU memory bars, the layout explained, the alternatives
that need fewer GPUs, checkpoints (split from :mod:`bot.render.sections`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.render.batch_text import memory_batch, stated_batch_text
from bot.render.fit_change_text import (
    headline_fix,
    own_fix_text,
)
from bot.render.fmt import Fmt, _wide_width, bar, ljust
from bot.render.host_ram import NO_HOST_RAM, host_ram_keys, host_ram_text
from bot.render.i18n import N_, translate
from bot.render.memory_alternatives import alternatives as _alternatives
from bot.render.memory_lines import _PART_LABELS, _part_label, borderline_text, tight
from bot.render.memory_lines import memory_first as memory_first
from bot.render.plan_text import (
    chips_text,
    gpus_text,
    nodes_text,
    paren,
    pcie_zero_text,
    plan_layout,
    plan_reason,
    plan_reason_key,
    plan_short,
)
from bot.render.stated import checkpointing_rule, stated_settings, tool_backend_reason, tool_checkpoints
from bot.render.wording import (
    MIN_CHART_BYTES,
)
from estimator.model_states import FULL_STATE_BYTES_PER_PARAM
from estimator.models import Memory, Method, Plan, SizingReport
from estimator.plan import HEADROOM
from estimator.units import GIB

if TYPE_CHECKING:
    from bot.render.contexts import MemoryContext

REC_WHY = N_(" — the recommended count runs without full recompute and keeps ≥ 10 %% of each GPU free")
"""Why a training answer recommends more GPUs than the fewest that fit (``Memory.recommended_gpus``:
no full recompute, ≥ 10 % headroom, whole nodes for full training; trial s21 #11)."""
REC_WHY_FULL = N_(" — the recommended count keeps ≥ 10 %% of each GPU free, with full recompute")
""":data:`REC_WHY` when the recommended layout recomputes (``Memory.recommended_plan.recompute`` 'full':
a card without NVLink, a tool that checkpoints by default, :func:`estimator.layouts.prefer_recompute`)."""
REC_WHY_HIGH = N_(
    " — on %(fewest)s the high end of the memory band, %(min_high)s per GPU, is above the card's %(usable)s; "
    "the recommended count holds it (%(rec_high)s)"
)
"""Why the recommendation differs from the fewest GPUs when it is the band's high end (s43 fixverdict #3:
Llama-3.1-70B full on H100, 16 GPUs at 67.3 GiB already keep ≥ 10 % free, but their high end is 96.9 GiB
of 80; 24 hold it at 73.4 GiB): the limit that differs is named, not :data:`REC_WHY`'s headroom."""
_REC_WHY: dict[str, str] = {}
""":data:`REC_WHY` by language, translated once (a dict lookup: no Python call a render; the render-call
bound of tests/test_render_s16_speed.py)."""


def _rec_why(lang: str, full: bool = False) -> str:
    """:data:`REC_WHY` (``full``: :data:`REC_WHY_FULL`, as the recommended layout recomputes) in ``lang``,
    kept in :data:`_REC_WHY` (s21 #11)."""
    text = _REC_WHY[lang + "full" * full] = translate(lang, REC_WHY_FULL if full else REC_WHY)
    return text


def _rec_why_text(m: Memory, f: Fmt, at_fewest: bool, why: str) -> str:
    """Why the recommended count differs from the fewest (``at_fewest``: the plan shown is the fewest's, no
    count asked): :data:`REC_WHY_HIGH` where the fewest's likely figure keeps the headroom
    (:data:`estimator.plan.HEADROOM`) but its band high end is above the card and the recommendation's is
    not, else :data:`REC_WHY` / :data:`REC_WHY_FULL` (``why``: their key)."""
    usable, hi, rec_hi = m.usable_bytes, m.per_gpu_bytes_high, m.recommended_per_gpu_bytes_high
    if (
        at_fewest
        and m.min_gpus
        and hi
        and rec_hi
        and hi > usable >= rec_hi
        and m.per_gpu_bytes <= HEADROOM * usable
    ):
        fewest = gpus_text(f.lang, m.min_gpus)
        values = {"fewest": fewest, "min_high": f.gib(hi), "usable": f.gib(usable), "rec_high": f.gib(rec_hi)}
        return translate(f.lang, REC_WHY_HIGH, **values)
    return _REC_WHY.get(why) or _rec_why(f.lang, why != f.lang)


REC_HIGH = N_(
    " — borderline: at the high end of the memory band (%(high)s per GPU) the recommended count is above "
    "the card's %(usable)s, and up to 8 times as many GPUs do not bring it under: what stays on each GPU "
    "(the loss's logits, a layer's activations) shrinks with full recompute, a chunked loss (Liger kernel) "
    "or shorter sequences"
)
"""The recommended count's reason when its band's high end is above the card and no count up to 8× it
holds it (``Memory.recommended_per_gpu_bytes_high``, estimator.rec_high; s37-verdict2 #1)."""
REC_HIGH_AT = N_(
    " — borderline: at the high end of the memory band (%(high)s per GPU) the recommended count is above "
    "the card's %(usable)s; %(gpus)s hold the high end"
)
""":data:`REC_HIGH` when a larger count holds the high end (``Memory.recommended_high_gpus``)."""


def _rec_high(m: Memory, f: Fmt, report: SizingReport) -> str:
    """:data:`REC_HIGH` or :data:`REC_HIGH_AT` in ``f``'s language (the recommended layout's high end is
    above the card)."""
    full = m.recommended_plan is not None and m.recommended_plan.recompute == "full"  # no lever left
    if m.recommended_fit_change or (full and not m.recommended_high_gpus):  # s38-verdict #1: levers first
        from bot.render.rec_high_text import rec_high_levers

        return rec_high_levers(m, f, report.request.method in (Method.lora, Method.qlora))
    high, at = m.recommended_per_gpu_bytes_high, m.recommended_high_gpus
    text = REC_HIGH_AT if at else REC_HIGH
    gpus = gpus_text(f.lang, at) if at else ""
    return translate(f.lang, text, high=f.gib(high), usable=f.gib(m.usable_bytes), gpus=gpus)


_NO_HIGH, NO_MARGIN = {"rec_high": "", "rec_high_more": ""}, 0.95
"""No borderline recommendation (no clause, no line); margin_text.NO_MARGIN as the gate of its import."""


def _split_high(m: Memory, f: Fmt, report: SizingReport) -> dict[str, str]:
    """bot.render.rec_high_text.split_high, imported only for a borderline recommendation (s40-fixh #1)."""
    from bot.render.rec_high_text import split_high

    return split_high(m, f, report.request.method in (Method.lora, Method.qlora))


def _margin(report: SizingReport, f: Fmt) -> str:
    """bot.render.margin_text.layout_margin, imported only for a minimum over NO_MARGIN (s40-fixh #2)."""
    from bot.render.margin_text import layout_margin

    return layout_margin(report, f)


def _padded_bar(fraction: float) -> str:
    """``ljust(bar(fraction, 10), 10)``: the bar of 10 cells and its padding, from a table of the 81
    bars (eighths 0-80), built once. The same rounding as :func:`bot.render.fmt.bar`."""
    fraction = min(max(fraction, 0.0), 1.0)
    eighths = round(fraction * 10 * 8)
    return _PADDED_BARS[1 if fraction > 0 and eighths == 0 else eighths]


_PADDED_BARS = [ljust(bar(eighths / 80, 10), 10) for eighths in range(81)]
"""Each bar of 10 cells padded to 10 (index: eighths of a cell); ``bar(e / 80)`` is ``e`` eighths."""


def _memory_bars(m: Memory, f: Fmt) -> str:
    """One text bar per memory part (parts below 0.05 GiB left out), aligned for a <pre> block: ``ljust(label)
    _padded_bar(share) rjust(GiB)`` written out (display_width's widths; no call a part but its GiB)."""
    lang, labels, parts, b = f.lang, _PART_LABELS, [], m.breakdown
    late = (
        m.plan is not None and m.plan.zero_stage < 2 and 0 < b.get("gradients", 0) < b.get("weights", 0) / 2
    )
    for k, v in b.items():
        k = "gradients_peak" if late and k == "gradients" else k  # only those the backward has made (s35)
        if v >= MIN_CHART_BYTES:
            label = labels.get((lang, k)) or _part_label(lang, k)
            parts.append((label, v, len(label) if label.isascii() else _wide_width(label)))
    if not parts:
        return ""
    total = sum([v for _, v, _ in parts]) or m.per_gpu_bytes or 1.0  # a list: no generator frame a part
    w_label, values = max([width for _, _, width in parts]), f.gibs([v for _, v, _ in parts])
    w_val, rows = max(map(len, values)), []
    for (label, v, width), val in zip(parts, values, strict=True):
        fraction = min(max(v / total, 0.0), 1.0)  # _padded_bar(v / total)
        eighths = round(fraction * 10 * 8)
        cells = _PADDED_BARS[1 if fraction > 0 and eighths == 0 else eighths]
        pad = " " * max(0, w_val - (len(val) if val.isascii() else _wide_width(val)))
        rows.append(f"{label}{' ' * max(0, w_label - width)} {cells} {pad}{val}")
    return "\n".join(rows)


def _checkpoint(report: SizingReport, f: Fmt) -> dict[str, Any] | None:
    ckpt = report.checkpoint_bytes
    if ckpt is None:
        return None
    return {
        "weights": f.storage(ckpt.weights),
        "full": f.storage(ckpt.full_state),
        "adapters": report.request.method in (Method.lora, Method.qlora),
        "asked": bool(report.request.checkpoint_asked),  # the sizes lead the reply (s45 trial #1)
        # bytes per trained parameter of the full state: 16 with mixed-precision AdamW, the optimizer's own
        "bpp": f.num(ckpt.full_state / (ckpt.weights / 2) if ckpt.weights else FULL_STATE_BYTES_PER_PARAM, 1),
    }


def _weighed_rule(report: SizingReport, tool: str | None, nvlink: bool) -> bool:
    """Whether the recommended count weighed full recompute against more nodes
    (:func:`estimator.plan.recommended` with :func:`estimator.layouts.prefer_recompute`): under a
    data-parallel Hugging Face-family tool (:func:`checkpointing_rule`), or with a ZeRO stage said on
    NVLink cards (PCIe-only cards recompute anyway), no recompute mode stated nor the tool's own
    default (s28 trial M3)."""
    req = report.request
    if req.recompute or (tool is not None and tool_checkpoints(req)):
        return False
    return (nvlink and req.zero_stage is not None) or (tool is not None and checkpointing_rule(req))


def memory_section(
    report: SizingReport,
    f: Fmt,
    per_node: int = 8,
    nvlink: bool = True,
    timed: bool = False,
    *,
    chosen: Plan | None,
) -> MemoryContext | None:
    """The memory answer. ``timed``: a training reply (its time and cost refer to ``plan_gpus``: the plan
    explained is that count's); ``chosen``: the layout the answer recommends (Answer.chosen_plan)."""
    if (m := report.memory) is None:
        return None
    lang, plan, at, requested = f.lang, m.plan, m.plan_gpus or m.min_gpus, report.request.gpu_count
    rec, at_min = (m.recommended_gpus if m.min_gpus else None), plan is not None and at == m.min_gpus
    fix, min_sane, fix_fits = headline_fix(report, f)  # a fix the headline names first: their layout
    main = plan if fix else chosen  # the layout run (s25b #4/#5: not 216 × DP, not TP 4 over PCIe for 774M)
    rows = _layout_rows(m, lang, requested, main)[: 1 if fix else None]
    checkpoint, states_total = _checkpoint(report, f), f.storage(m.total_bytes)
    unfit = bool(requested) and m.fits_requested is False and main is plan
    why = lang + "full" * (m.recommended_plan is not None and m.recommended_plan.recompute == "full")
    tool, shown_rec = report.request.training_tool, rec is not None and rec != m.min_gpus  # tool: no call
    above = rec and (hi := m.recommended_per_gpu_bytes_high) and hi > m.usable_bytes and not requested  # s37
    edge = m.per_gpu_bytes > NO_MARGIN * m.gpu_memory_bytes and not requested  # no margin (s40-fixh #2)
    rec_high = _rec_high(m, f, report) if above and timed else ""
    high = _split_high(m, f, report) if above and not timed else _NO_HIGH  # s40-fixh #1
    usable, capacity = f.gib(m.usable_bytes), f.gib(m.gpu_memory_bytes)  # each formatted once
    count_text = chips_text if (g := report.gpu_spec) and g.vendor == "Google" else gpus_text  # TPU: chips
    return {
        "per_gpu": f.gib(m.per_gpu_bytes),
        "usable": usable,
        "capacity": capacity,
        "usable_differs": usable != capacity,
        "share": f.percent(m.per_gpu_bytes / m.gpu_memory_bytes) if m.gpu_memory_bytes else "",
        "min_gpus": f.int(m.min_gpus) if m.min_gpus else None,
        "cheaper_fix": fix,
        "min_sane": min_sane,  # else the headline names no count for the user's settings (s25b #4)
        "fix_fits": fix_fits,  # the headline's change fits on their GPUs: no 'takes 32 cards' (s30)
        "own_fix": own_fix_text(report, f, fix, fix_fits) if fix and fix_fits else None,  # said once (s38)
        "min_text": count_text(lang, m.min_gpus) if m.min_gpus else None,
        "one_gpu": m.min_gpus == 1 and at_min,
        "rollout_server": _rollout_server(report.request),
        "min_layout": _headline_layout(report, plan, lang) + (_margin(report, f) if edge else "")
        if at_min and plan and not timed  # _memory.j2's headline only
        else "",
        "rec_memory": _rec_memory(m, f, at, count_text, rows) if shown_rec and at and rec > at else "",
        "rec_gpus": f.int(rec) if rec and rec != m.min_gpus else None,
        "rec_text": count_text(lang, rec) if rec and rec != m.min_gpus else None,
        "rec_nodes": paren(lang, nodes_text(lang, rec, per_node)) if rec else "",
        "machines": machines_text(report, lang, rec or m.min_gpus, per_node)
        if report.request.machines_asked and not requested  # no call for most questions (render pins)
        else "",
        "rec_why": _rec_why_text(m, f, at_min and not requested, why) + rec_high if shown_rec else "",
        "rec_high": high["rec_high"],  # the headline's clause; its levers the ⚠️ line below (s40-fixh #1)
        "at": count_text(lang, at) if at else None,
        "at_layout": plan_layout(plan, lang) if plan else None,
        "requested": f.int(requested) if requested else None,
        "requested_layout": _requested_layout(report, plan, lang),
        "total": states_total,
        "show_total": checkpoint is None or states_total != checkpoint["full"],
        "chart": _memory_bars(m, f),
        "fits_requested": m.fits_requested if requested else None,
        "borderline": borderline_text(report, f) or (high["rec_high_more"] if not timed else ""),
        "ddp_unfit": _ddp_unfit(report, f),
        "rows": rows,
        "reason": None if main is None or unfit else _reason(report, main, f, nvlink, per_node),
        **(host_ram_keys(report, main, f, unfit) if report.host_ram is not None else NO_HOST_RAM),  # s26, s40
        "batch": memory_batch(report, main, f),
        "stated_batch": stated_batch_text(report, main, f),
        "main_label": _main_label(m, main, lang, rows, timed),
        "reason_key": plan_reason_key(main, nvlink, per_node) if main is not None else None,
        "least": _least_line(m, f) if requested else None,
        "alternatives": _alternatives(report, main, f),
        "checkpoint": checkpoint,
        "headroom": f.percent(HEADROOM),
        "rec_rule": shown_rec and _weighed_rule(report, tool, nvlink),
        "rec_tool_default": tool if tool and shown_rec and tool_checkpoints(report.request) else None,
        "rec_full": nvlink and why.endswith("full"),  # the recommended layout's own recompute (s37-left)
    }


def machines_text(report: SizingReport, lang: str, gpus: int | None, per_node: int) -> str:
    """The whole nodes ``gpus`` fill when the question asks the machines (``machines_asked``: '需要几台8卡
    A100机器', 'how many 8-GPU A100 nodes'; s51 leftovers #3): '1 台 8 卡' / 'one 8-GPU node', the headline's
    lead, the GPU counts after it; empty when not asked, no count or a node of one GPU."""
    if not report.request.machines_asked or not gpus or per_node <= 1:
        return ""
    return nodes_text(lang, -(-gpus // per_node) * per_node, per_node)


def _rec_memory(m: Memory, f: Fmt, at: int, count_text: Any, rows: list[dict[str, Any]]) -> str:
    """'At the recommended 2 GPUs: ≈ 68.9 GiB of 80 GiB per GPU (the chart above: 1 GPU)': the memory of
    the layout the headline recommends when the chart is for fewer GPUs (s45 fixread #4: 'QLoRA 70B on
    H100' recommended 2 over a chart and a minimum for 1 only); empty without its figure. Where the rows
    show the recommended layout, its line gets the figure instead ('Recommended 8 GPUs: … ZeRO-3; ≈ 52.3
    GiB of 80 GiB per GPU') and this is empty: one line fewer on the phone's first screen (s45 merge)."""
    per_gpu, rec = m.recommended_per_gpu_bytes, m.recommended_gpus
    if not per_gpu or not rec:
        return ""
    row = next((r for r in rows if r.get("rec") and r.get("layout")), None)
    if row is not None:
        msg = N_("%(layout)s; ≈ %(per_gpu)s of %(capacity)s per GPU")
        kw = {"per_gpu": f.gib(per_gpu), "capacity": f.gib(m.gpu_memory_bytes)}
        row["plain"], row["layout"] = row["layout"], translate(f.lang, msg, layout=row["layout"], **kw)
        return ""
    msg = N_("At the recommended %(gpus)s: ≈ %(per_gpu)s of %(capacity)s per GPU (the chart above: %(at)s)")
    gpus, capacity = count_text(f.lang, rec), f.gib(m.gpu_memory_bytes)
    return translate(
        f.lang, msg, gpus=gpus, per_gpu=f.gib(per_gpu), capacity=capacity, at=count_text(f.lang, at)
    )


def _reason(report: SizingReport, main: Plan, f: Fmt, nvlink: bool, per_node: int) -> str:
    """Why the layout run: its reason, the PCIe ZeRO and host-RAM clauses, the tool's backend (s24 #10);
    never for the user's own layout that does not fit."""
    lang = f.lang
    return (
        plan_reason(main, nvlink, lang, per_node, report=report)
        + pcie_zero_text(report.memory, main, f)
        + host_ram_text(report, main, f)
        + (tool_backend_reason(report, lang) if report.request.training_tool else "")
    )


def _requested_layout(report: SizingReport, plan: Plan | None, lang: str) -> str:
    """' (TP 2 × DP 4, ZeRO-3)' after the user's count when it fits; empty when it says only the settings
    the stage name already gives (s17 trial t2: '全参微调（ZeRO-3） 在 64 × A100 80G（ZeRO-3） 上')."""
    m = report.memory
    if m is None or not m.fits_requested or plan is None:
        return ""
    return _headline_layout(report, plan, lang)


def _headline_layout(report: SizingReport, plan: Plan, lang: str) -> str:
    """' (TP 2, ZeRO-3)' in a headline, less what its stage name already says ('(ZeRO-3) … (ZeRO-3, …)'
    said the stage twice, s24 review #4); empty when nothing is left."""
    req = report.request  # only a stated ZeRO stage, TP or PP can be both in the stage name and the layout
    said = frozenset(stated_settings(report, lang)) if req.zero_stage is not None or req.tp or req.pp else ()
    layout = plan_short(plan, lang, said=said, method=req.method)
    return paren(lang, layout) if layout else ""


def _layout_rows(
    m: Memory, lang: str, requested: int | None, main: Plan | None
) -> list[dict[str, str | None]]:
    """The memory section's layout lines: the user's count, the minimum, the recommended one, and the
    layout the "Why" and "Batch" lines explain (``main``) when the user's count does not fit."""
    plan, at = m.plan, m.plan_gpus or m.min_gpus
    rec = m.recommended_gpus if m.min_gpus else None
    at_min = plan is not None and at == m.min_gpus
    rows: list[dict[str, str | None]] = []
    if requested and m.fits_requested and requested not in (m.min_gpus, rec) and plan is not None:
        rows.append(
            {
                "label": translate(lang, N_("On %(gpus)s"), gpus=gpus_text(lang, requested)),
                "layout": plan_layout(plan, lang),
            }
        )
    if requested and m.fits_requested is False and plan is not None and at == requested:
        rows.append(  # the user's layout, which does not fit: what it would take per GPU is above
            {
                "label": translate(lang, N_("On %(gpus)s"), gpus=gpus_text(lang, requested)),
                "layout": plan_layout(plan, lang),
            }
        )
    if m.min_gpus and (at_min or not requested):  # a bare count only when the headline does not say it
        rows.append(
            {
                "label": translate(lang, N_("Minimum %(gpus)s"), gpus=gpus_text(lang, m.min_gpus)),
                "layout": plan_layout(plan, lang) if at_min and plan else None,
            }
        )
    if rec and rec != m.min_gpus:
        rows.append(
            {
                "label": translate(lang, N_("Recommended %(gpus)s"), gpus=gpus_text(lang, rec)),
                "layout": plan_layout(m.recommended_plan, lang) if m.recommended_plan else None,
                "rec": "1",  # _rec_memory adds its memory per GPU to this row's line (s45)
            }
        )
    elif requested and m.fits_requested is False and main is not None and main is not plan and m.min_gpus:
        rows.append(  # the layout the "Why" and "Batch" lines explain, when the user's count does not fit
            {
                "label": translate(lang, N_("Minimum %(gpus)s"), gpus=gpus_text(lang, m.min_gpus)),
                "layout": plan_layout(main, lang),
            }
        )
    return rows


def _main_label(
    m: Memory, main: Plan | None, lang: str, rows: list[dict[str, Any]], timed: bool
) -> str | None:
    """'Minimum 24 GPUs: TP 8 × PP 1 × DP 3, ZeRO-3, full recompute' over the "Why" and "Batch" lines
    when they explain another layout than the one shown at ``plan_gpus`` (a fresh-user trial: "On 16
    GPUs: TP 4 × DP 4" then "Why: … TP 8" and "DP 3", the 24-GPU plan's); the label of the memory
    reply's row for it, which a memory reply (not ``timed``) shows right above them instead; None when
    they explain the layout shown."""
    if main is None or m.plan is None or main is m.plan or main == m.plan:  # `is` first: no frame
        return None
    layout = plan_layout(main, lang)
    label = next((r["label"] for r in rows if r.get("plain", r.get("layout")) == layout), None)
    if label is not None and not timed:  # a memory reply shows its rows right above: said there
        return None
    if label is None:
        gpus = gpus_text(lang, main.tp * main.pp * main.dp)
        rec = main is m.recommended_plan and m.recommended_gpus != m.min_gpus
        label = translate(lang, N_("Recommended %(gpus)s") if rec else N_("Minimum %(gpus)s"), gpus=gpus)
    return translate(lang, N_("%(label)s: %(layout)s"), label=label, layout=layout)


def _least_line(m: Memory, f: Fmt) -> str | None:
    """'Least memory on 8 GPUs: ≈ 5.1 GiB per GPU (TP 8, full recompute); …' — why an adapter method shows
    more per GPU than the same GPUs need at the least (estimator.methods.with_least)."""
    if m.least_plan is None or m.least_per_gpu_bytes is None or m.plan is None or not m.plan_gpus:
        return None
    whole_base = m.plan.zero_stage < 3 and m.plan.tp * m.plan.pp == 1
    msgid = (
        N_(
            "Least memory on %(gpus)s: ≈ %(per_gpu)s per GPU (%(layout)s); the plan above keeps the whole "
            "base model on every GPU to communicate least"
        )
        if whole_base
        else N_(
            "Least memory on %(gpus)s: ≈ %(per_gpu)s per GPU (%(layout)s); the plan above uses more memory "
            "to communicate less"
        )
    )
    layout = plan_short(m.least_plan, f.lang, method="lora")  # with_least: adapter methods only
    gpus = gpus_text(f.lang, m.plan_gpus)
    return translate(f.lang, msgid, gpus=gpus, per_gpu=f.gib(m.least_per_gpu_bytes), layout=layout)


def _ddp_unfit(report: SizingReport, f: Fmt) -> dict[str, Any] | None:
    """The headline's figures when the user's tool runs plain DDP as configured and it does not fit
    (the ``ddp_does_not_fit`` note: :func:`estimator.training_plan._note_ddp`); None otherwise."""
    for note in report.warnings:  # a loop: no generator frame a warning
        if note.code == "ddp_does_not_fit":
            break
    else:
        return None
    m = report.memory
    return {"ddp": f.gib(note.params["ddp_gib"] * GIB), "zero": note.params["stage"], "tight": tight(m)}


def _rollout_server(req: Any) -> bool:
    """TRL ``vllm_mode='server'`` on an RL job: the rollouts' vLLM server runs on a GPU of its own, on top of
    the training GPUs sized (trial s18 fxb #4: 'one H100 is enough' left that GPU out)."""
    algorithm = getattr(req.algorithm, "value", req.algorithm)
    return req.rollout_colocated is False and algorithm in ("grpo", "rloo", "ppo")
