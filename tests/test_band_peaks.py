"""The memory band of an answer's layout reads the step's peaks its search already made
(``SearchMemo.peaks``, s17 part s17-sp-est): the same (low, high) as peaks made afresh, on every corpus
question that sizes training memory."""

from __future__ import annotations

import json
from pathlib import Path

import estimator.plan as plan_module
from bot.parse import parse
from estimator import estimate
from estimator.memory_band import per_gpu_band

CORPUS = Path(__file__).parent / "data" / "questions.json"


def test_the_band_from_the_search_s_peaks_is_the_band_made_afresh(monkeypatch) -> None:
    calls: list[bool] = []

    def checked(*args, **kwargs):
        band = per_gpu_band(*args, **kwargs)
        calls.append(kwargs.get("p") is not None)
        if kwargs.get("p") is not None:
            assert band == per_gpu_band(*args, **{**kwargs, "p": None}), args[2]
        return band

    monkeypatch.setattr(plan_module, "per_gpu_band", checked)
    for q in json.loads(CORPUS.read_text(encoding="utf-8")):
        request = parse(q["text"]).request
        if request.params_total or request.tokens:
            estimate(request)
    assert all(calls) and len(calls) >= 80, (sum(calls), len(calls))  # 83 of 83 at s17: every layout sized
