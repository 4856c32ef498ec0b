"""The pipeline-bubble note appears only when the time pays the bubble: a PP the user stated, with a
known gradient accumulation m, on a stated count (Narayanan et al. 2021 §2.2.1: bubble (p − 1)/m). A
pipeline the search chose keeps the calibrated MFU — fitted on runs that already pipelined — so no time
change and, now, no note (before, DeepSeek-V3 on 2,048 H800 with the search's PP 8 said "idle stages add
about 87.5 %" while the GPU-hours stayed at the calibrated 6·N·D / (peak × 0.28 × 0.7))."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, q: str) -> dict:
    assert main(["ask", "--format", "json", q]) == 0
    return json.loads(capsys.readouterr().out)


def test_search_chosen_pipeline_has_no_bubble_note(capsys):
    d = _ask(capsys, "pretrain DeepSeek-V3 on 14.8T tokens on 2048 H800")
    plan = d["report"]["memory"]["plan"]
    assert (plan["pp"], plan["gradient_accumulation"]) == (8, 8)
    assert d["request"].get("pp") is None
    assert "pp_bubble" not in {w["code"] for w in d["report"]["warnings"]}
    calibrated = 6 * 37e9 * 14.8e12 / (989.4e12 * 0.28 * 0.7 * 3600)
    assert d["report"]["gpu_hours"]["likely"] == pytest.approx(calibrated, rel=1e-9)
    assert "Pipeline bubble" not in d["reply"]


def test_stated_pipeline_has_the_note_and_pays_it(capsys):
    """Llama-3-70B on 16 H100, TP 4 × PP 2 stated: m = 64 (128 sequences over DP 2), bubble 1/64."""
    d = _ask(capsys, "fine-tune Llama-3-70B on 100M tokens on 16 H100, TP 4, PP 2")
    plan = d["report"]["memory"]["plan"]
    assert (plan["tp"], plan["pp"], plan["gradient_accumulation"]) == (4, 2, 64)
    [note] = [w for w in d["report"]["warnings"] if w["code"] == "pp_bubble"]
    assert note["params"] == {"pp": 2, "micro_batches": 64, "bubble": 0.0156}
    assert "Pipeline bubble: with PP 2 and 64 micro-batches per step" in d["reply"]
    flat = _ask(capsys, "fine-tune Llama-3-70B on 100M tokens on 16 H100, TP 4, PP 1")
    ratio = d["report"]["gpu_hours"]["likely"] / flat["report"]["gpu_hours"]["likely"]
    assert ratio == pytest.approx(1 + 1 / 64, rel=1e-9)
