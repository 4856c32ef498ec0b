"""Axis helpers the charts share (moved out of bot/render/chart_plots.py, s40, to keep it within 500
lines): the plain style, 1-2-5 labels on a log axis, ticks whose labels do not collide."""

from __future__ import annotations

import math
from typing import Any


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
