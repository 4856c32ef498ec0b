"""The three charts: GPUs ↔ days (training), one GPU's memory by part (fitting), concurrency ↔
context (serving). Drawn on a matplotlib ``Axes`` through the object API (no pyplot state)."""

from __future__ import annotations

from typing import Any

from bot.render.chart import (
    _FALLBACK_PART_COLORS,
    COLORS,
    MIN_PART_BYTES,
    PART_COLORS,
    ChartContext,
    on_color,
)
from bot.render.chart_axes import _log_labels, _spread_ticks, _style
from bot.render.chart_labels import CHART_LABELS, time_label
from bot.render.duration import table_unit
from bot.render.fmt import GIB, Fmt
from bot.render.plan_text import gpus_text
from bot.render.serving_text import usable_text
from estimator import compute
from estimator.models import Inference, Method, SizingReport, Stage

# ---------------------------------------------------------------------------------------------
# Names


def _gpu_short(report: SizingReport) -> str:
    """'A100 80G' when the family has several memory sizes, else the family (as in the reply text)."""
    from bot.render.describe import gpu_names

    return gpu_names(report)[0]


def _model(report: SizingReport) -> str:
    from bot.render.describe import model_label

    return model_label(report)


def _stage(report: SizingReport, ctx: ChartContext) -> str:
    from estimator.models import Algorithm

    req = report.request
    if req.stage == Stage.finetune:
        text = ctx.t((req.method or Method.full).value)
        if req.algorithm and req.algorithm != Algorithm.sft:
            text = f"{req.algorithm.value.upper()} · {text}"
        return text
    if req.stage == Stage.continued_pretrain:
        return ctx.t("continued_pretrain")
    return ctx.t("pretrain")


def _ctx_len(n: int) -> str:
    """Context lengths as people say them: 32768 → '32K', 4000 → '4,000'."""
    if n >= 1024 and n % 1024 == 0:  # 128,000 = 125 × 1,024 too: in thousands, as its model card says it
        return f"{n // 1000}K" if n % 1000 == 0 else f"{n // 1024}K"
    return f"{n:,}"


# ---------------------------------------------------------------------------------------------
# Training: GPUs ↔ days
UNIT_DAYS = {"days": 1.0, "hours": 24.0, "minutes": 24.0 * 60}  # a job under a day: hours or minutes (s40)


def training(ax: Any, report: SizingReport, ctx: ChartContext) -> None:
    """GPUs ↔ days: the likely line, the MFU band, the deadline and the GPUs that meet it, the cost."""
    rows = sorted(report.days_table, key=lambda r: r.gpus)
    unit = "days" if _deadline(report) else table_unit(max(r.days.high for r in rows))  # s40: the text's unit
    _days_curve(ax, report, ctx, rows, UNIT_DAYS[unit])
    marked = _deadline_marks(ax, report, ctx, rows, unit)
    _days_axes(ax, report, ctx, rows, marked, unit)
    _cost_box(ax, report, ctx)


def _deadline(report: SizingReport) -> float | None:
    """The deadline drawn: one asked (or sizing the count), never a default beside the user's count (s38)."""
    assumed = any(a.field == "deadline_days" for a in report.assumptions)
    return report.request.deadline_days if not (assumed and report.days is not None) else None


def _days_curve(ax: Any, report: SizingReport, ctx: ChartContext, rows: list[Any], k: float) -> None:
    f = ctx.f
    xs = [r.gpus for r in rows]
    # the band's MFU is read off the table itself, so the legend says what is drawn
    mfu = report.mfu.likely if report.mfu else report.request.mfu
    ref = rows[0].days
    band_label = None
    if mfu and ref.low > 0 and ref.high > 0:
        band_label = ctx.t(
            "band",
            low=f.percent(round(mfu * ref.likely / ref.high, 3)),
            high=f.percent(round(mfu * ref.likely / ref.low, 3)),
        )
    low, high = [r.days.low * k for r in rows], [r.days.high * k for r in rows]
    ax.fill_between(xs, low, high, color=COLORS["band"], alpha=0.45, linewidth=0, label=band_label)
    likely = ctx.t("likely", mfu=f.percent(mfu) if mfu else "—")
    line = {"color": COLORS["likely"], "marker": "o", "markersize": 6, "linewidth": 2.5}
    ax.plot(xs, [r.days.likely * k for r in rows], label=likely, **line)


def _deadline_marks(
    ax: Any, report: SizingReport, ctx: ChartContext, rows: list[Any], unit: str = "days"
) -> set[float]:
    """The deadline line, a star at the GPUs that meet it, a diamond at the user's count."""
    f, req, k = ctx.f, report.request, UNIT_DAYS[unit]

    def days_at(n: int) -> float | None:
        for r in rows:
            if r.gpus == n:
                return r.days.likely * k
        return compute.days_on(report.gpu_hours.likely, n) * k if report.gpu_hours else None

    marked: set[float] = set()
    assumed = any(a.field == "deadline_days" for a in report.assumptions)
    if deadline := _deadline(report):
        label = ctx.t("deadline_assumed" if assumed else "deadline", days=f.days(req.deadline_days))
        ax.axhline(req.deadline_days, color=COLORS["deadline"], linestyle="--", linewidth=1.8, label=label)
    point = {"markeredgecolor": "white", "zorder": 5, "linestyle": "none"}
    gfd = report.gpus_for_deadline
    if gfd and (d := days_at(gfd)) is not None:
        # the headline's configuration: "136 GPUs, 30 days" reads "136 GPUs → within 30 days (≈ 29)"
        if deadline:
            label = ctx.t("meets_deadline", gpus=f.int(gfd), deadline=f.days(deadline), days=f.days(d))
        else:
            label = time_label(ctx, "meets", gfd, d / k)
        ax.plot([gfd], [d], marker="*", markersize=20, color=COLORS["deadline"], label=label, **point)
        marked.add(gfd)
    yours = req.gpu_count if report.days is not None else None
    if yours and yours != gfd and (d := days_at(yours)) is not None:
        label = time_label(ctx, "yours", yours, d / k)
        ax.plot([yours], [d], marker="D", markersize=11, color=COLORS["you"], label=label, **point)
    return marked


def _days_axes(
    ax: Any, report: SizingReport, ctx: ChartContext, rows: list[Any], marked: set[float], unit: str
) -> None:
    """Log2 GPUs with the table's counts; log days (days ∝ 1/GPUs is a straight line); title, legend."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    f, req, k = ctx.f, report.request, UNIT_DAYS[unit]
    xs = [r.gpus for r in rows]
    deadline = _deadline(report)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    pad = 2**0.25
    ax.set_xlim(min(xs) / pad, max(xs) * pad)
    lows = [r.days.low * k for r in rows] + ([deadline] if deadline else [])
    highs = [r.days.high * k for r in rows] + ([deadline] if deadline else [])
    ax.set_ylim(min(lows) / 1.35, max(highs) * 2.4)  # head-room above the curve for the cost box
    ax.xaxis.set_major_locator(FixedLocator(_spread_ticks([float(x) for x in xs], 0.3, marked)))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f.int(v)))
    _log_labels(ax.yaxis, lambda v: f.days(v) if v >= 1 else f.num(v, 2))
    _style(ax)
    ax.grid(True, which="minor", axis="y", color="#eeeeee", linewidth=0.6)
    ax.set_xlabel(ctx.t("gpus_axis", gpu=_gpu_short(report)), **ctx.font("label"))
    ax.set_ylabel(ctx.t(unit + "_axis"), **ctx.font("label"))
    title = f"{_model(report)} {_stage(report, ctx)}"
    if req.tokens:
        title += " · " + ctx.t("tokens", tokens=f.tokens(req.tokens))
    ax.set_title(title, loc="left", **ctx.font("title", bold=True))
    ax.legend(loc="lower left", prop=ctx.prop("legend"), framealpha=0.92)


def _cost_box(ax: Any, report: SizingReport, ctx: ChartContext) -> None:
    """The total cost, stated once: GPU-hours × price is the same at any GPU count."""
    cost, f = report.cost, ctx.f
    if cost is None:
        return
    lines = [
        ctx.t(
            "cost_title",
            low=f.money_compact(cost.low, cost.currency),
            high=f.money_compact(cost.high, cost.currency),
        ),
        ctx.t(
            "cost_formula",
            hours=f.compact(cost.billed_gpu_hours),
            price=f.price_range(cost.price_low, cost.price_high, cost.currency),
        ),
        ctx.t("cost_varies" if _hours_vary(report) else "cost_same"),
    ]
    box = {"boxstyle": "round,pad=0.5", "facecolor": "#fff8e6", "edgecolor": "#e0b050"}
    text = "\n".join(lines)
    ax.text(0.985, 0.97, text, transform=ax.transAxes, ha="right", va="top", linespacing=1.35, bbox=box,
            **ctx.font("note"))  # fmt: skip


def _hours_vary(report: SizingReport) -> bool:
    """True when a days-table row's GPU-hours (DaysRow.gpu_hours: full recomputation on the fewest GPUs,
    MFU past the scale-out reference) differ from the report's by over 1%: the cost is then not the same
    at every count, and the note says so (s41 trial #13: 93.7K GPU-hours on 64 A100s, 105.7K on 512)."""
    base = report.gpu_hours.likely if report.gpu_hours else 0.0
    return bool(base) and any(
        r.gpu_hours is not None and abs(r.gpu_hours.likely - base) > 0.01 * base for r in report.days_table
    )


# ---------------------------------------------------------------------------------------------
# Fitting: memory of one GPU against the card


def _layout(report: SizingReport, ctx: ChartContext) -> str:
    plan = report.memory.plan if report.memory else None
    if plan is None:
        return ""
    parts = []
    if plan.tp > 1:
        parts.append(f"TP {plan.tp}")
    if plan.pp > 1:
        parts.append(f"PP {plan.pp}")
    if plan.dp > 1 or plan.zero_stage:
        parts.append(f"DP {plan.dp}" + (f" ZeRO-{plan.zero_stage}" if plan.zero_stage else ""))
    key = f"recompute.{plan.recompute}"
    if key in CHART_LABELS:
        parts.append(ctx.t(key))
    if plan.offload:
        parts.append(ctx.t("offload"))
    return " · ".join(parts)


def _share(f: Fmt, x: float) -> str:
    """Share of the card: whole percent, one decimal near full (99.8 %, not a misleading 100 %)."""
    return f.percent(round(x, 3) if 0.95 < x < 1.05 else round(x, 2))


MIN_VISIBLE_SHARE = 0.012
"""The narrowest a memory part is drawn, as a share of the axis (≈ 10 px of a 1000 px chart)."""


def visible_widths(values: list[float], axis: float) -> list[float]:
    """Drawn widths of the stacked parts: each at least :data:`MIN_VISIBLE_SHARE` of ``axis`` so no part
    is invisible, the width added taken from the largest part so the bar still ends at the true total."""
    if not values:
        return []
    floor = MIN_VISIBLE_SHARE * axis
    widths = [max(v, floor) for v in values]
    extra = sum(widths) - sum(values)
    big = max(range(len(values)), key=lambda i: values[i])
    if widths[big] - extra < floor:  # nothing large enough to give the room: draw the true widths
        return list(values)
    widths[big] -= extra
    return widths


def _part_bars(
    ax: Any, parts: list[tuple[str, float]], widths: list[float], scale: float, ctx: ChartContext
) -> None:
    """One stacked bar per memory part (bytes; drawn ``widths`` wide), its number on the parts wider
    than 7 % of ``scale`` (the larger of the total and the card's memory)."""
    f = ctx.f
    left = 0.0
    spare = iter(_FALLBACK_PART_COLORS)
    for (key, v), w in zip(parts, widths, strict=True):
        color = PART_COLORS.get(key) or next(spare, "#7f7f7f")
        label_key = f"parts.{key}"
        name = ctx.t(label_key) if label_key in CHART_LABELS else key
        ax.barh(
            [0],
            [w / GIB],
            left=[left / GIB],
            height=0.6,
            color=color,
            edgecolor="white",
            linewidth=1.2,
            label=f"{name} {f.gib(v)}",
        )
        if w / scale > 0.07:  # wide enough to carry its number
            ax.text(
                (left + w / 2) / GIB,
                0,
                f"{v / GIB:.0f}" if v >= 10 * GIB else f"{v / GIB:.1f}",
                ha="center",
                va="center",
                color=on_color(color),
                **ctx.font("label", bold=True),
            )
        left += w


def fitting(ax: Any, report: SizingReport, ctx: ChartContext) -> None:
    f = ctx.f
    m = report.memory
    assert m is not None
    parts = [(k, v) for k, v in m.breakdown.items() if v >= MIN_PART_BYTES]
    total = sum(v for _, v in parts)
    cap = m.gpu_memory_bytes
    n = m.plan_gpus or m.min_gpus or 1
    widths = visible_widths([v for _, v in parts], max(cap, total) * 1.1)
    _part_bars(ax, parts, widths, max(total, cap), ctx)

    gpu = _gpu_short(report)
    fits = total <= m.usable_bytes
    ax.text(
        total / GIB,
        0.36,
        ctx.t("total", gib=f.gib(total), share=_share(f, total / cap)),
        ha="right" if total > 0.45 * cap else "left",
        va="bottom",
        color=COLORS["total"] if fits else COLORS["over"],  # not a part's colour
        **ctx.font("label", bold=True),
    )
    ax.axvline(cap / GIB, color=COLORS["capacity"], linewidth=2.5)
    ax.text(
        cap / GIB,
        0.62,
        ctx.t("capacity", gpu=gpu, gib=f.gib(cap)) + " ",
        ha="right",
        va="bottom",
        color=COLORS["capacity"],
        **ctx.font("note"),
    )
    if m.usable_bytes < cap * 0.995:
        ax.axvline(m.usable_bytes / GIB, color=COLORS["usable"], linestyle=":", linewidth=2)
        ax.text(
            m.usable_bytes / GIB,
            -0.36,
            ctx.t("usable", gib=f.gib(m.usable_bytes)) + " ",
            ha="right",
            va="top",
            color=COLORS["usable"],
            **ctx.font("note"),
        )

    ax.set_xlim(0, max(cap, total) * 1.1 / GIB)
    ax.set_ylim(-0.75, 0.75)
    ax.set_yticks([0], [ctx.t("per_gpu", n=f.int(n))])
    _style(ax)
    ax.grid(False, axis="y")
    layout = _layout(report, ctx)
    ax.set_xlabel(ctx.t("gib_axis", layout=layout) if layout else "GiB", **ctx.font("label"))
    verdict = _fit_verdict(m, n, fits, f, ctx, _headline_fix(report, n, f))
    title = ctx.t("fit_title", model=_model(report), stage=_stage(report, ctx), gpu=gpu)
    ax.set_title(f"{title}\n{verdict}", loc="left", linespacing=1.4, **ctx.font("title", bold=True))
    ax.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, -0.2),
        ncol=3,
        prop=ctx.prop("legend"),
        frameon=False,
        handlelength=1.2,
        columnspacing=1.4,
    )


def _headline_fix(report: SizingReport, n: int, f: Fmt) -> tuple[str, bool] | None:
    """(the change the text's headline names first on the user's ``n`` GPUs, whether it names the fewest
    GPUs for their settings too): :func:`bot.render.fit_change_text.headline_fix`; None when the bar is
    not the user's count or the headline names no change."""
    if report.request.gpu_count != n:
        return None
    from bot.render.fit_change_text import headline_fix

    fix, sane, _ = headline_fix(report, f)
    return None if fix is None else (fix, sane)


def _fit_verdict(
    m: Any, n: int, fits: bool, f: Fmt, ctx: ChartContext, fix: tuple[str, bool] | None = None
) -> str:
    """The subtitle, about the GPUs the bar shows ("One GPU (of n)"): on ``n`` GPUs when that is not
    the fewest that fit ("fits on 8 GPUs (at least 4 needed)"), else the fewest. With ``fix``
    (:func:`_headline_fix`) the text's headline: their setting first, then the change on a line of its own
    ("does not fit on 8 GPUs as set" / "With micro-batch 1 …: 8 GPUs"), the fewest for their setting only
    where the headline names it (session 26: the chart said "(at least 216 needed)", the text not)."""
    if m.min_gpus is None:
        return ctx.t("no_fit")
    if fix is not None and not fits:
        key = "no_fit_as_set_min" if fix[1] else "no_fit_as_set"
        change = fix[0][:1].upper() + fix[0][1:]  # on its own line: 'With micro-batch 1 …'
        return ctx.t(key, gpus=gpus_text(f.lang, n), min=f.int(m.min_gpus), fix=change)
    if n != m.min_gpus:
        key = "fits_on" if fits else "no_fit_on_one" if n == 1 else "no_fit_on"  # '1 GPU' (s25b #5)
        return ctx.t(key, n=f.int(n), min=f.int(m.min_gpus))
    return ctx.t("min_gpu") if m.min_gpus == 1 else ctx.t("min_gpus", n=f.int(m.min_gpus))


# ---------------------------------------------------------------------------------------------
# Serving: concurrency ↔ context


def serving(ax: Any, report: SizingReport, ctx: ChartContext) -> None:
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    f = ctx.f
    inf = report.inference
    assert inf is not None
    points = sorted((c, s) for c, s in inf.concurrency_table if s > 0)
    xs = [c for c, _ in points]
    ys = [s for _, s in points]
    gpu = _gpu_short(report)
    n = inf.serving_gpus
    ax.plot(
        xs,
        ys,
        color=COLORS["likely"],
        marker="o",
        markersize=7,
        linewidth=2.5,
        label=ctx.t(
            "fits_line",
            n=f.int(n),
            gpu=gpu,
            layout=f"TP {inf.tp}" + (f" · PP {inf.pp}" if inf.pp > 1 else ""),
        ),
    )
    ax.fill_between(xs, [1] * len(xs), ys, color=COLORS["band"], alpha=0.3, linewidth=0)
    for x, y in points:
        ax.annotate(
            f.int(y),
            (x, y),
            textcoords="offset points",
            xytext=(6, 7),
            ha="left",
            va="bottom",
            color=COLORS["likely"],
            **ctx.font("note", bold=True),
        )

    ctx_req, conc = inf.context_tokens, inf.concurrency
    ok = inf.max_concurrency >= conc
    ax.plot(
        [ctx_req],
        [conc],
        marker="*",
        markersize=20,
        linestyle="none",
        zorder=5,
        color=COLORS["fits"] if ok else COLORS["over"],
        markeredgecolor="white",
        label=ctx.t("requested" if ok else "requested_over", conc=f.int(conc), ctx=_ctx_len(ctx_req)),
    )

    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    all_x = [*xs, ctx_req]
    ax.set_xlim(min(all_x) / 2**0.4, max(all_x) * 2**0.4)
    # headroom for the labels above the points and the box in the corner, no more: the highest point
    # sits in the upper fifth of the plot, not halfway up an axis twice as tall as the data
    ax.set_ylim(max(0.8, min([*ys, conc]) / 2.5), max([*ys, conc]) * 1.9)
    ticks = _spread_ticks([float(x) for x in all_x], 0.5)
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _ctx_len(round(v))))
    _log_labels(ax.yaxis, lambda v: f.compact(v) if v >= 1 else "")
    _style(ax)
    ax.grid(True, which="minor", axis="y", color="#eeeeee", linewidth=0.6)
    ax.set_xlabel(ctx.t("context_axis"), **ctx.font("label"))
    ax.set_ylabel(ctx.t("seqs_axis"), **ctx.font("label"))
    ax.set_title(
        ctx.t("serve_title", model=_model(report), n=f.int(n), gpu=gpu),
        loc="left",
        **ctx.font("title", bold=True),
    )
    ax.legend(loc="lower left", prop=ctx.prop("legend"), framealpha=0.92)
    _serve_box(ax, inf, ctx)


def _serve_box(ax: Any, inf: Inference, ctx: ChartContext) -> None:
    """The corner box of the serving chart: weights, KV cache at the load asked for, usable memory."""
    f = ctx.f
    ctx_req, conc = inf.context_tokens, inf.concurrency
    box = ctx.t(
        "serve_box",
        weights=f.gb(inf.weights_bytes),
        fmt=inf.weight_format,
        kv=f.gb(inf.kv_bytes_total),
        conc=f.int(conc),
        ctx=_ctx_len(ctx_req),
        usable=usable_text(inf, f, f.lang),
    )
    ax.text(
        0.985,
        0.97,
        box,
        transform=ax.transAxes,
        ha="right",
        va="top",
        linespacing=1.4,
        **ctx.font("note"),
        bbox={"boxstyle": "round,pad=0.5", "facecolor": "#f4f8fc", "edgecolor": "#9dc3e6"},
    )
