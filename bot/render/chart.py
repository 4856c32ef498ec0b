"""Charts for the 📊 button and ``sizing-bot ask --chart``: one PNG per answer, phone-sized.

- training (``days_table``): GPUs ↔ days (likely line, low–high band), the deadline and the GPUs
  that meet it; the total cost in a box — it is GPU-hours × price, the same at any GPU count, so
  it is stated once rather than drawn as a flat line on a second axis;
- fitting (``memory``, no ``days_table``): the memory of one GPU, part by part, against the card;
- serving (``inference``): how many sequences fit at each context length, with the request marked.

matplotlib is imported inside :func:`render_chart` only (the CLI without ``--chart`` never loads
it) and used through its object API (``Figure`` + Agg canvas): no pyplot global state, so several
chats can render at once. Fonts are given per text element, never through global rcParams.

Labels are msgids in :mod:`bot.render.chart_labels`, translated like every reply. Chinese labels need
a font with CJK glyphs: an installed one, else the Noto Sans CJK the package depends on
(:mod:`bot.render.cjk_font`); only without either is a Chinese chart drawn in English (never tofu).
"""

from __future__ import annotations

import contextlib
import logging
import os
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.render.chart_labels import CHART_LABELS
from bot.render.cjk_font import is_packaged, register_packaged
from bot.render.fmt import GIB, Fmt, fmt_for
from bot.render.i18n import translations

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
    "total": "#2c3e50",
}

PART_COLORS = {
    "weights": "#0072B2",  # blue
    "gradients": "#56B4E9",  # sky blue
    "optimizer": "#E69F00",  # orange
    "adapters": "#CC79A7",  # reddish purple
    "activations": "#009E73",  # bluish green
    "logits": "#D55E00",  # vermillion
    "overhead": "#999999",  # grey
    "reference": "#F0E442",  # yellow (its number in dark text: on_color)
    "critic": "#000000",  # black
    "reward": "#882255",  # wine (Paul Tol's muted scheme, also colour-blind safe)
}
"""Memory parts' colours: the Okabe–Ito palette (Okabe & Ito 2008, "Color Universal Design"; Wong 2011,
"Points of view: Color blindness", Nature Methods 8:441), told apart under the common colour-vision
deficiencies — s39 fixw #5: activations #27ae60 and logits #16a085, two greens side by side, read as one."""


def on_color(color: str) -> str:
    """The colour of a number drawn on a bar of ``color``: white, or near-black on a light one (relative
    luminance, WCAG 2.1, above 0.5: the yellow)."""
    r, g, b = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return "#1a1a1a" if 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2] > 0.5 else "white"


_FALLBACK_PART_COLORS = ("#7f7f7f", "#bcbd22", "#17becf", "#e377c2")


FONT_SIZES = {"title": 15, "label": 13, "tick": 12, "legend": 11.5, "note": 11.5}

MIN_PART_BYTES = 0.05 * GIB
"""Breakdown parts below this are left out of the memory bar (invisible, and clutter the legend)."""


# ---------------------------------------------------------------------------------------------
# Fonts


@cache
def font_manager_fresh() -> Any:
    """matplotlib's font manager with the fonts installed since its cache was written.

    matplotlib scans the system's fonts once and keeps the list in ``fontlist-v*.json`` in its cache
    directory; a font installed later (``apt-get install fonts-wqy-microhei`` after the first chart)
    stays invisible until that file is deleted. Once per process, the system's font files are compared
    with the list, new ones are added (``FontManager.addfont``) and the cache is rewritten so the next
    start sees them at once."""
    import matplotlib
    from matplotlib import font_manager

    manager = font_manager.fontManager
    known = {os.path.realpath(f.fname) for f in manager.ttflist}
    added = 0
    for path in font_manager.findSystemFonts():
        if os.path.realpath(path) in known:
            continue
        try:
            manager.addfont(path)
            added += 1
        except Exception:  # a font file matplotlib cannot read: skip it, as its own scan does
            log.debug("font %s not added", path, exc_info=True)
    if added:
        version = font_manager.FontManager.__version__
        with contextlib.suppress(OSError):  # a read-only cache: the next start scans again
            font_manager.json_dump(manager, Path(matplotlib.get_cachedir()) / f"fontlist-v{version}.json")
        log.info("matplotlib's font cache was stale: %d font file(s) added", added)
    return manager


@cache
def find_cjk_font() -> str | None:
    """Family name of a font covering Chinese: an installed one, else the packaged Noto Sans CJK
    (:mod:`bot.render.cjk_font`); None only without either. Looked up once per process."""
    installed = {f.name for f in font_manager_fresh().ttflist if not is_packaged(f.fname)}
    for family in CJK_FAMILIES:
        if family in installed:
            return family
    # any other font whose name says it is CJK (e.g. "Noto Serif CJK SC")
    for name in sorted(installed):
        if "CJK" in name and ("SC" in name or "JP" in name or "TC" in name):
            return name
    return register_packaged(font_manager_fresh())  # Noto Sans CJK from the package's dependencies


@cache
def _warn_no_cjk_font() -> None:
    log.warning(
        "no font with Chinese glyphs found (e.g. apt-get install fonts-wqy-microhei); "
        "Chinese charts are drawn with English labels"
    )


@cache
def _has_bold(family: str) -> bool:
    """Whether ``family`` has a bold face (WenQuanYi Micro Hei has none: then no bold at all)."""
    return any(
        f.name == family and f.weight in ("bold", 700, 600, "semibold", "heavy", 800, 900)
        for f in font_manager_fresh().ttflist
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
    ctx = ChartContext(lang)
    fig = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    from bot.render import chart_plots  # matplotlib's Axes calls, loaded with matplotlib

    {"training": chart_plots.training, "fitting": chart_plots.fitting, "serving": chart_plots.serving}[kind](
        ax, report, ctx
    )
    ax.tick_params(which="both", labelfontfamily=ctx.family)
    ax.tick_params(which="major", labelsize=FONT_SIZES["tick"])
    ax.tick_params(which="minor", labelsize=FONT_SIZES["tick"] - 1.5)
    buf = BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


class ChartContext:
    """Language, formatter and fonts for one chart."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.f: Fmt = fmt_for(lang)
        self.family = _families(lang)
        self._gettext = translations(lang).gettext
        self.has_bold = lang != "zh" or _has_bold(self.family[-1])

    def t(self, key: str, **params: Any) -> str:
        """A label in the chart's language (``{name}`` placeholders filled from ``params``)."""
        return self._gettext(CHART_LABELS[key]).format(**params)

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
