"""Review #7: the GPU-hours render showed by computing them are derived in core (s18-fix item 5).

The load cost's GPU-hours (recommended GPUs × the rental's hours) and each method row's hours on its
GPUs (its GPU-hours ÷ its GPUs) are bot.core.derived_hours' now; render formats them. No figure changed:
the values below are the same formula by hand, shown as before (131 corpus and trial replies were
compared byte for byte against the commit before the move).
"""

from __future__ import annotations

import inspect

import pytest

from bot.core.pipeline import Context, answer
from bot.render import load_cost_text, sections
from bot.render.fmt import fmt_for
from bot.render.renderer import render

LOAD = "2 × A100 80G, 120 concurrent at peak, Llama-3-70B, rent for 48 hours, cost?"
ROWS = "Qwen2.5-7B on 8 H100s, 1B tokens: full vs LoRA vs QLoRA, how long each?"


def test_load_cost_gpu_hours_are_recommended_gpus_times_the_rental() -> None:
    a = answer(LOAD, Context())
    inf = a.report.inference
    assert inf.cost_for_load is not None and a.report.request.hours == 48
    gh = a.derived_hours.load_gpu_hours
    assert gh == inf.recommended_gpus * 48  # e.g. 8 GPUs × 48 h = 384 GPU-hours
    text = render(a, "text")
    assert f"for 48 hours = {fmt_for('en').hours(gh)} GPU-hours" in text


def test_method_row_hours_are_its_gpu_hours_over_its_gpus() -> None:
    a = answer(ROWS, Context())
    rows = a.report.method_comparison
    assert len(rows) == 3 and all(r.gpu_hours for r in rows)
    assert a.derived_hours.row_hours == pytest.approx(tuple(r.gpu_hours / r.plan_gpus for r in rows))
    text = render(a, "text")
    f = fmt_for("en")
    for hours in a.derived_hours.row_hours:
        assert f"training ≈ {f.hours(hours)} hours on 8 GPUs" in text


def test_render_no_longer_computes_them() -> None:
    assert "estimator.load_cost import load_gpu_hours" not in inspect.getsource(load_cost_text)
    assert "row.gpu_hours / row.plan_gpus" not in inspect.getsource(sections)
