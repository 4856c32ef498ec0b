"""The memory band of an answer's layout is made from what its search already made: the step's peaks
(``SearchMemo.peaks``, s17 part s17-sp-est) or, for a dense full-training layout, the search's layout
table on plain numbers (:meth:`estimator.layout_table.DenseTable.band`, s20-sp-est): the same (low, high)
as :func:`estimator.memory_band.per_gpu_band` made afresh, on every corpus question that sizes training
memory."""

from __future__ import annotations

import json
from pathlib import Path

import estimator.layout_table as table_module
import estimator.plan as plan_module
from bot.parse import parse
from estimator import estimate
from estimator.layout_table import DenseTable
from estimator.memory_band import per_gpu_band

CORPUS = Path(__file__).parent / "data" / "questions.json"


def test_the_band_from_the_search_s_peaks_is_the_band_made_afresh(monkeypatch) -> None:
    calls: list[bool] = []  # per shown band: made from the search (its peaks or its table), not afresh
    sources: list[str] = []
    real_shown, real_band = table_module.shown_band, DenseTable.band

    def from_peaks(*args, **kwargs):
        sources.append("peaks" if kwargs.get("p") is not None else "afresh")
        return per_gpu_band(*args, **kwargs)

    def from_table(*args, **kwargs):
        sources.append("table")
        return real_band(*args, **kwargs)

    def checked(spec, params, setup, plan, parts, memo):
        sources.clear()
        band = real_shown(spec, params, setup, plan, parts, memo)
        calls.append(sources == ["peaks"] or sources == ["table"])
        assert band == per_gpu_band(spec, setup, plan, parts, params), (spec.name, plan, sources)
        return band

    monkeypatch.setattr(table_module, "per_gpu_band", from_peaks)
    monkeypatch.setattr(DenseTable, "band", from_table)
    monkeypatch.setattr(plan_module, "shown_band", checked)
    for q in json.loads(CORPUS.read_text(encoding="utf-8")):
        request = parse(q["text"]).request
        if request.params_total or request.tokens:
            estimate(request)
    assert all(calls) and len(calls) >= 80, (sum(calls), len(calls))  # 83 of 83 at s17: every layout sized
