"""Charts for the 📊 button and ``sizing-bot ask --chart``: one PNG per answer, phone-sized.

- training (``days_table``): GPUs ↔ days (likely line, low–high band), the deadline and the GPUs
  that meet it; the total cost in a box — it is GPU-hours × price, the same at any GPU count, so
  it is stated once rather than drawn as a flat line on a second axis;
- fitting (``memory``, no ``days_table``): the memory of one GPU, part by part, against the card;
- serving (``inference``): how many sequences fit at each context length, with the request marked.

matplotlib is imported inside :func:`render_chart` only (the CLI without ``--chart`` never loads
it) and used through its object API (``Figure`` + Agg canvas): no pyplot global state, so several
chats can render at once. Fonts are given per text element, never through global rcParams.

Labels live here (not in the gettext catalogs) in a small dict per language. Chinese labels need
a font with CJK glyphs; without one, a Chinese chart is drawn in English (never tofu boxes).
"""

from __future__ import annotations

import logging
import math
from functools import cache
from io import BytesIO
from typing import TYPE_CHECKING, Any

from bot.render.fmt import GIB, Fmt, fmt_for

if TYPE_CHECKING:
    from bot.core.pipeline import Answer
    from estimator.models import SizingReport

log = logging.getLogger(__name__)

WIDTH_IN, HEIGHT_IN, DPI = 8.0, 5.6, 125
"""1000 × 700 px: readable on a phone, small enough to send quickly."""

CJK_FAMILIES = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "Noto Sans CJK JP",
    "Noto Sans CJK TC",
    "Source Han Sans",
    "Microsoft YaHei",
    "PingFang SC",
    "SimHei",
    "Heiti SC",
    "Droid Sans Fallback",
    "AR PL UMing CN",
    "AR PL UKai CN",
)
"""Fonts covering simplified Chinese, best first (sans-serif before serif)."""

LATIN_FAMILY = "DejaVu Sans"
"""matplotlib's bundled font: always there; digits and Latin text look the same in both languages."""

COLORS = {
    "likely": "#1f5fa8",
    "band": "#9dc3e6",
    "deadline": "#c0392b",
    "you": "#e67e22",
    "capacity": "#c0392b",
    "usable": "#7f8c8d",
    "fits": "#27ae60",
    "over": "#c0392b",
}

PART_COLORS = {
    "weights": "#1f5fa8",
    "gradients": "#5b9bd5",
    "optimizer": "#f0a030",
    "adapters": "#8e44ad",
    "activations": "#27ae60",
    "logits": "#16a085",
    "overhead": "#95a5a6",
    "reference": "#c0765a",
    "critic": "#d35400",
    "reward": "#a04060",
}
_FALLBACK_PART_COLORS = ("#7f7f7f", "#bcbd22", "#17becf", "#e377c2")

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "pretrain": "pre-training",
        "continued_pretrain": "continued pre-training",
        "full": "full fine-tune",
        "lora": "LoRA fine-tune",
        "qlora": "QLoRA fine-tune",
        "inference": "serving",
        "tokens": "{tokens} tokens",
        "gpus_axis": "GPUs ({gpu})",
        "days_axis": "Days (wall clock)",
        "likely": "Likely (MFU {mfu})",
        "band": "Range (MFU {low}–{high})",
        "deadline": "Deadline: {days} days",
        "deadline_assumed": "Deadline: {days} days (assumed)",
        "meets": "{gpus} GPUs → {days} days",
        "yours": "Your {gpus} GPUs → {days} days",
        "cost_title": "Total cost {low}–{high}",
        "cost_formula": "{hours} GPU-hours × {price} per GPU-hour",
        "cost_same": "Same for any GPU count:\nmore GPUs finish sooner, not cheaper",
        "fit_title": "{model} {stage} · {gpu}",
        "min_gpus": "at least {n} GPUs",
        "min_gpu": "fits on 1 GPU",
        "no_fit": "does not fit",
        "per_gpu": "One GPU\n(of {n})",
        "gib_axis": "Memory per GPU (GiB) · {layout}",
        "capacity": "{gpu}: {gib}",
        "total": "Total {gib} ({share} of the card)",
        "usable": "usable {gib}",
        "serve_title": "{model} serving · {n} × {gpu}",
        "context_axis": "Context per sequence (tokens)",
        "seqs_axis": "Max concurrent sequences",
        "fits_line": "Fits on {n} × {gpu} ({layout})",
        "requested": "Requested: {conc} × {ctx}",
        "requested_over": "Requested: {conc} × {ctx} (does not fit)",
        "serve_box": "Weights {weights} ({fmt})\nKV cache {kv} ({conc} × {ctx})\nUsable per GPU {usable}",
        "parts.weights": "weights",
        "parts.gradients": "gradients",
        "parts.optimizer": "optimizer",
        "parts.adapters": "adapters",
        "parts.activations": "activations",
        "parts.logits": "logits",
        "parts.overhead": "overhead",
        "parts.reference": "reference model",
        "parts.critic": "critic",
        "parts.reward": "reward model",
        "recompute.none": "no recompute",
        "recompute.selective": "selective recompute",
        "recompute.full": "full recompute",
        "offload": "CPU offload",
    },
    "zh": {
        "pretrain": "预训练",
        "continued_pretrain": "继续预训练",
        "full": "全参微调",
        "lora": "LoRA 微调",
        "qlora": "QLoRA 微调",
        "inference": "推理部署",
        "tokens": "{tokens} token",
        "gpus_axis": "GPU 数（{gpu}）",
        "days_axis": "天数（日历时间）",
        "likely": "最可能（MFU {mfu}）",
        "band": "范围（MFU {low}–{high}）",
        "deadline": "期限：{days} 天",
        "deadline_assumed": "期限：{days} 天（默认）",
        "meets": "{gpus} 张 → {days} 天",
        "yours": "你的 {gpus} 张 → {days} 天",
        "cost_title": "总成本 {low}–{high}",
        "cost_formula": "{hours} 卡时 × 每卡时 {price}",
        "cost_same": "与卡数无关：\n卡越多越快，但不更省钱",
        "fit_title": "{model} {stage} · {gpu}",
        "min_gpus": "至少 {n} 张卡",
        "min_gpu": "单卡可放下",
        "no_fit": "放不下",
        "per_gpu": "每张卡\n（共 {n} 张）",
        "gib_axis": "每卡显存（GiB）· {layout}",
        "capacity": "{gpu} 显存 {gib}",
        "total": "合计 {gib}（占显存 {share}）",
        "usable": "可用 {gib}",
        "serve_title": "{model} 推理部署 · {n} 张 {gpu}",
        "context_axis": "每条序列的上下文（token）",
        "seqs_axis": "最大并发序列数",
        "fits_line": "{n} 张 {gpu} 可容纳（{layout}）",
        "requested": "需求：{conc} 并发 × {ctx}",
        "requested_over": "需求：{conc} 并发 × {ctx}（放不下）",
        "serve_box": "权重 {weights}（{fmt}）\nKV 缓存 {kv}（{conc} × {ctx}）\n每卡可用 {usable}",
        "parts.weights": "权重",
        "parts.gradients": "梯度",
        "parts.optimizer": "优化器状态",
        "parts.adapters": "适配器",
        "parts.activations": "激活值",
        "parts.logits": "logits",
        "parts.overhead": "运行时开销",
        "parts.reference": "参考模型",
        "parts.critic": "评论模型",
        "parts.reward": "奖励模型",
        "recompute.none": "不重计算",
        "recompute.selective": "选择性重计算",
        "recompute.full": "完全重计算",
        "offload": "CPU 卸载",
    },
}

FONT_SIZES = {"title": 15, "label": 13, "tick": 12, "legend": 11.5, "note": 11.5}

MIN_PART_BYTES = 0.05 * GIB
"""Breakdown parts below this are left out of the memory bar (invisible, and clutter the legend)."""


# ---------------------------------------------------------------------------------------------
# Fonts


@cache
def find_cjk_font() -> str | None:
    """Family name of an installed font covering Chinese, or None. Looked up once per process."""
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    for family in CJK_FAMILIES:
        if family in installed:
            return family
    # any other font whose name says it is CJK (e.g. "Noto Serif CJK SC")
    for name in sorted(installed):
        if "CJK" in name and ("SC" in name or "JP" in name or "TC" in name):
            return name
    return None


@cache
def _warn_no_cjk_font() -> None:
    log.warning(
        "no font with Chinese glyphs found (e.g. apt-get install fonts-wqy-microhei); "
        "Chinese charts are drawn with English labels"
    )


@cache
def _has_bold(family: str) -> bool:
    """Whether ``family`` has a bold face (WenQuanYi Micro Hei has none: then no bold at all)."""
    from matplotlib import font_manager

    return any(
        f.name == family and f.weight in ("bold", 700, 600, "semibold", "heavy", 800, 900)
        for f in font_manager.fontManager.ttflist
    )


def chart_lang(lang: str) -> str:
    """The language the chart is drawn in: ``lang``, or English for Chinese without a CJK font."""
    if lang == "zh":
        if find_cjk_font() is None:
            _warn_no_cjk_font()
            return "en"
        return "zh"
    return "en"


def _families(lang: str) -> list[str]:
    """Font fallback list: Latin from DejaVu Sans, Chinese from the CJK font (matplotlib ≥ 3.6)."""
    cjk = find_cjk_font() if lang == "zh" else None
    return [LATIN_FAMILY, cjk] if cjk else [LATIN_FAMILY]


# ---------------------------------------------------------------------------------------------
# Entry point


def chart_kind(report: SizingReport | None) -> str | None:
    """Which chart a report gets: ``serving``, ``training``, ``fitting``, or None."""
    if report is None:
        return None
    inf = report.inference
    if inf is not None:
        return "serving" if any(n > 0 for _, n in inf.concurrency_table) else None
    if len(report.days_table) >= 1:
        return "training"
    if report.memory is not None and report.memory.breakdown:
        return "fitting"
    return None


def render_chart(answer: Answer, lang: str | None = None) -> bytes | None:
    """PNG bytes (1000 × 700) for an answer, or None when there is nothing to chart."""
    report = answer.report
    kind = chart_kind(report)
    if kind is None or report is None:
        return None
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    lang = chart_lang(lang or answer.lang)
    ctx = _Ctx(lang)
    fig = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    {"training": _training, "fitting": _fitting, "serving": _serving}[kind](ax, report, ctx)
    ax.tick_params(which="both", labelfontfamily=ctx.family)
    ax.tick_params(which="major", labelsize=FONT_SIZES["tick"])
    ax.tick_params(which="minor", labelsize=FONT_SIZES["tick"] - 1.5)
    buf = BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


class _Ctx:
    """Language, formatter and fonts for one chart."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.f: Fmt = fmt_for(lang)
        self.family = _families(lang)
        self.labels = LABELS[lang]
        self.has_bold = lang != "zh" or _has_bold(self.family[-1])

    def t(self, key: str, **params: Any) -> str:
        return self.labels[key].format(**params)

    def font(self, size_key: str, bold: bool = False, **extra: Any) -> dict[str, Any]:
        """Text properties; ``parse_math=False``: a ``$`` price is text, not a mathtext delimiter."""
        weight = "bold" if bold and self.has_bold else "normal"
        return {
            "fontfamily": self.family,
            "fontsize": FONT_SIZES[size_key],
            "fontweight": weight,
            "parse_math": False,
            **extra,
        }

    def prop(self, size_key: str) -> Any:
        from matplotlib.font_manager import FontProperties

        return FontProperties(family=self.family, size=FONT_SIZES[size_key])


# ---------------------------------------------------------------------------------------------
# Names


def _gpu_short(report: SizingReport) -> str:
    """'A100 80G' when the family has several memory sizes, else the family (as in the reply text)."""
    from bot.render.describe import gpu_names

    return gpu_names(report)[0]


def _model(report: SizingReport) -> str:
    from bot.render.describe import model_label

    return model_label(report)


def _stage(report: SizingReport, ctx: _Ctx) -> str:
    from estimator.models import Algorithm, Method, Stage

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
    return f"{n // 1024}K" if n >= 1024 and n % 1024 == 0 else f"{n:,}"


def _style(ax: Any) -> None:
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(True, which="major", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)


def _log_labels(axis: Any, fmt: Any) -> None:
    """Label a log axis at 1, 2, 5 × 10ⁿ (major ticks alone are too sparse to read values off)."""
    from matplotlib.ticker import FuncFormatter

    def minor(v: float, _: object) -> str:
        return fmt(v) if f"{v:.3g}"[0] in "25" else ""

    axis.set_major_formatter(FuncFormatter(lambda v, _: fmt(v)))
    axis.set_minor_formatter(FuncFormatter(minor))


def _spread_ticks(values: list[float], min_log2_gap: float, marked: set[float] = frozenset()) -> list[float]:
    """Tick positions on a log2 axis whose labels do not collide: unmarked values first (round
    counts), then the ``marked`` ones (which carry their own legend label) where there is room."""
    kept: list[float] = []

    def room(v: float) -> bool:
        return all(abs(math.log2(v) - math.log2(k)) >= min_log2_gap for k in kept)

    for v in sorted(set(values) - marked) + sorted(set(values) & marked):
        if room(v):
            kept.append(v)
    return sorted(kept)


# ---------------------------------------------------------------------------------------------
# Training: GPUs ↔ days


def _training(ax: Any, report: SizingReport, ctx: _Ctx) -> None:
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    f, req = ctx.f, report.request
    rows = sorted(report.days_table, key=lambda r: r.gpus)
    xs = [r.gpus for r in rows]
    likely = [r.days.likely for r in rows]
    # the band's MFU is read off the table itself, so the legend says what is drawn
    mfu = report.mfu.likely if report.mfu else req.mfu
    ref = rows[0].days
    band_label = None
    if mfu and ref.low > 0 and ref.high > 0:
        band_label = ctx.t(
            "band",
            low=f.percent(round(mfu * ref.likely / ref.high, 3)),
            high=f.percent(round(mfu * ref.likely / ref.low, 3)),
        )
    ax.fill_between(
        xs,
        [r.days.low for r in rows],
        [r.days.high for r in rows],
        color=COLORS["band"],
        alpha=0.45,
        linewidth=0,
        label=band_label,
    )
    ax.plot(
        xs,
        likely,
        color=COLORS["likely"],
        marker="o",
        markersize=6,
        linewidth=2.5,
        label=ctx.t("likely", mfu=f.percent(mfu) if mfu else "—"),
    )

    def days_at(n: int) -> float | None:
        for r in rows:
            if r.gpus == n:
                return r.days.likely
        if report.gpu_hours:
            return report.gpu_hours.likely / n / 24.0
        return None

    # the deadline and the GPUs that meet it
    marked: set[float] = set()
    deadline = req.deadline_days
    if deadline:
        assumed = any(a.field == "deadline_days" for a in report.assumptions)
        ax.axhline(
            deadline,
            color=COLORS["deadline"],
            linestyle="--",
            linewidth=1.8,
            label=ctx.t("deadline_assumed" if assumed else "deadline", days=f.days(deadline)),
        )
    gfd = report.gpus_for_deadline
    if gfd and (d := days_at(gfd)) is not None:
        ax.plot(
            [gfd],
            [d],
            marker="*",
            markersize=20,
            color=COLORS["deadline"],
            markeredgecolor="white",
            zorder=5,
            linestyle="none",
            label=ctx.t("meets", gpus=f.int(gfd), days=f.days(d)),
        )
        marked.add(gfd)
    yours = req.gpu_count if report.days is not None else None
    if yours and yours != gfd and (d := days_at(yours)) is not None:
        ax.plot(
            [yours],
            [d],
            marker="D",
            markersize=11,
            color=COLORS["you"],
            markeredgecolor="white",
            zorder=5,
            linestyle="none",
            label=ctx.t("yours", gpus=f.int(yours), days=f.days(d)),
        )

    # axes: log2 GPUs with the table's counts; log days (days ∝ 1/GPUs is a straight line)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    pad = 2**0.25
    ax.set_xlim(min(xs) / pad, max(xs) * pad)
    lows = [r.days.low for r in rows] + ([deadline] if deadline else [])
    highs = [r.days.high for r in rows] + ([deadline] if deadline else [])
    ax.set_ylim(min(lows) / 1.35, max(highs) * 2.4)  # head-room above the curve for the cost box
    ticks = _spread_ticks([float(x) for x in xs], 0.3, marked)
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f.int(v)))
    _log_labels(ax.yaxis, lambda v: f.days(v) if v >= 1 else f.num(v, 2))
    _style(ax)
    ax.grid(True, which="minor", axis="y", color="#eeeeee", linewidth=0.6)

    ax.set_xlabel(ctx.t("gpus_axis", gpu=_gpu_short(report)), **ctx.font("label"))
    ax.set_ylabel(ctx.t("days_axis"), **ctx.font("label"))
    title = f"{_model(report)} {_stage(report, ctx)}"
    if req.tokens:
        title += " · " + ctx.t("tokens", tokens=f.tokens(req.tokens))
    ax.set_title(title, loc="left", **ctx.font("title", bold=True))
    ax.legend(loc="lower left", prop=ctx.prop("legend"), framealpha=0.92)

    cost = report.cost
    if cost is not None:
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
            ctx.t("cost_same"),
        ]
        ax.text(
            0.985,
            0.97,
            "\n".join(lines),
            transform=ax.transAxes,
            ha="right",
            va="top",
            linespacing=1.35,
            **ctx.font("note"),
            bbox={"boxstyle": "round,pad=0.5", "facecolor": "#fff8e6", "edgecolor": "#e0b050"},
        )


# ---------------------------------------------------------------------------------------------
# Fitting: memory of one GPU against the card


def _layout(report: SizingReport, ctx: _Ctx) -> str:
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
    if key in ctx.labels:
        parts.append(ctx.t(key))
    if plan.offload:
        parts.append(ctx.t("offload"))
    return " · ".join(parts)


def _share(f: Fmt, x: float) -> str:
    """Share of the card: whole percent, one decimal near full (99.8 %, not a misleading 100 %)."""
    return f.percent(round(x, 3) if 0.95 < x < 1.05 else round(x, 2))


def _fitting(ax: Any, report: SizingReport, ctx: _Ctx) -> None:
    f = ctx.f
    m = report.memory
    assert m is not None
    parts = [(k, v) for k, v in m.breakdown.items() if v >= MIN_PART_BYTES]
    total = sum(v for _, v in parts)
    cap = m.gpu_memory_bytes
    n = m.plan_gpus or m.min_gpus or 1
    left = 0.0
    spare = iter(_FALLBACK_PART_COLORS)
    for key, v in parts:
        color = PART_COLORS.get(key) or next(spare, "#7f7f7f")
        label_key = f"parts.{key}"
        name = ctx.t(label_key) if label_key in ctx.labels else key
        ax.barh(
            [0],
            [v / GIB],
            left=[left / GIB],
            height=0.6,
            color=color,
            edgecolor="white",
            linewidth=1.2,
            label=f"{name} {f.gib(v)}",
        )
        if v / max(total, cap) > 0.07:  # wide enough to carry its number
            ax.text(
                (left + v / 2) / GIB,
                0,
                f"{v / GIB:.0f}" if v >= 10 * GIB else f"{v / GIB:.1f}",
                ha="center",
                va="center",
                color="white",
                **ctx.font("label", bold=True),
            )
        left += v

    gpu = _gpu_short(report)
    fits = total <= m.usable_bytes
    ax.text(
        total / GIB,
        0.36,
        ctx.t("total", gib=f.gib(total), share=_share(f, total / cap)),
        ha="right" if total > 0.45 * cap else "left",
        va="bottom",
        color=COLORS["fits"] if fits else COLORS["over"],
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
    if m.min_gpus is None:
        verdict = ctx.t("no_fit")
    elif m.min_gpus == 1:
        verdict = ctx.t("min_gpu")
    else:
        verdict = ctx.t("min_gpus", n=f.int(m.min_gpus))
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


# ---------------------------------------------------------------------------------------------
# Serving: concurrency ↔ context


def _serving(ax: Any, report: SizingReport, ctx: _Ctx) -> None:
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
    ax.set_ylim(max(0.8, min([*ys, conc]) / 3), max([*ys, conc]) * 4)
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
    box = ctx.t(
        "serve_box",
        weights=f.gb(inf.weights_bytes),
        fmt=inf.weight_format,
        kv=f.gb(inf.kv_bytes_total),
        conc=f.int(conc),
        ctx=_ctx_len(ctx_req),
        usable=f.gib(inf.usable_bytes_per_gpu),
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
