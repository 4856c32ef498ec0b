"""Issue 25, item 2: small dense models (< 1B) and small-active MoE get their own efficiency terms
(estimator.efficiency; fitted by estimator.validation_kinds on estimator/data/measured/small_moe_runs.json,
a part held apart), checked through ``sizing-bot ask`` against what the gathered runs measured."""

from __future__ import annotations

from dataclasses import replace

import pytest
from cli_run import ask_json, ask_text

from bot.render.ledger_texts import WHY_TEXTS
from estimator import efficiency, validation_kinds
from estimator.efficiency import CALIBRATED
from estimator.validation import kind_figures, report

BEFORE = replace(CALIBRATED, small_slope=0.0, fine_moe_factor=CALIBRATED.moe_factor, small_tuned_factor=1.0)
"""The model as it was before these terms (no size term off A100, the large-MoE factor, no tuned end)."""


def _ask(question: str) -> dict:
    return ask_json(question)


def _row(row_id: str) -> validation_kinds.KRow:
    return next(r for r in validation_kinds.load_rows() if r.id == row_id)


def _before_hours(row_id: str) -> float:
    return validation_kinds.typical_hours(BEFORE, _row(row_id))


def test_shipped_constants_are_the_fit():
    """Size exponent 0.33, small-active MoE factor 0.49, tuned end ×0.4, no widening (two fit rows per
    kind, fewer than calibration.MIN_GROUP_RUNS): refitted from the data on every run of the tests."""
    assert validation_kinds.calibrate() == CALIBRATED
    assert (CALIBRATED.small_slope, CALIBRATED.fine_moe_factor, CALIBRATED.small_tuned_factor) == (
        0.33,
        0.49,
        0.4,
    )
    assert CALIBRATED.kind_wider == ()


def test_held_apart_rows_are_never_fitted():
    """Refitting without the held-apart rows or with them changed gives the same constants."""
    rows = validation_kinds.load_rows()
    held = {r.id for r in rows if r.held}
    assert held == {"nanogpt-gpt2-124m", "llmc-gpt2-124m-a100", "jetmoe-8b"}
    moved = [replace(r, gpu_hours=r.gpu_hours * 5) if r.held else r for r in rows]
    assert validation_kinds.calibrate(moved) == validation_kinds.calibrate(rows)


def test_smollm_135m_inside_the_interval_through_the_cli():
    """SmolLM-135M: 600B tokens on 64 H100 in about a day = 1,536 H100-hours (HF model card and
    discussion #13). Before: 626 likely, 1,003 at the high end — the issue's ×0.4 miss; now inside."""
    report_ = _ask("pretrain a 135M model on 600B tokens on 64 H100")["report"]
    hours = report_["gpu_hours"]
    assert hours["low"] <= 1536 <= hours["high"]
    assert hours["likely"] == pytest.approx(1536 / 1.27, rel=0.01)
    before = _before_hours("smollm-135m")
    assert before == pytest.approx(626, rel=0.01)
    assert before * CALIBRATED.band_high < 1536


def test_small_model_in_chinese_names_the_size_term():
    text = ask_text("135M 模型预训练 6000 亿 token，64 张 H100 要多久")
    assert "1,212 H100·时" in text
    assert "小于 1B 的稠密模型" in text and "SmolLM-135M" in text
    assert "下限是手工调优的小模型训练能达到的（如 llm.c）" in text


def test_tuned_small_run_reaches_the_low_end():
    """llm.c GPT-2 124M: 10B tokens in 45 minutes on 8 H100 = 6 H100-hours (modded-nanogpt README),
    inside the interval whose low end reaches tuned small runs (×0.4)."""
    hours = _ask("pretrain a 124M model on 10B tokens on 8 H100")["report"]["gpu_hours"]
    assert hours["low"] <= 6.0 <= hours["high"]
    assert hours["low"] == pytest.approx(hours["likely"] * CALIBRATED.small_tuned_factor)


def test_fine_grained_moe_inside_the_interval_through_the_cli():
    """Ling-mini-2.0: 1.43B active of 16.26B, FP8, 16,037 tokens/s per 80G GPU (Ling-V2 README) →
    346,414 GPU-hours for 20T tokens. Before: likely 182K, the issue's ×0.5; now 260K and inside."""
    reply = _ask(
        "pretrain an MoE with 16.26B total and 1.43B active parameters on 20T tokens in FP8 on 8 H800"
    )
    hours = reply["report"]["gpu_hours"]
    assert hours["low"] <= 346_414 <= hours["high"]
    assert hours["likely"] == pytest.approx(260_109, rel=0.01)
    assert 346_414 / _before_hours("ling-mini-2.0") == pytest.approx(1.90, abs=0.01)
    mfu = next(a for a in reply["assumptions"] if a["field"] == "mfu")
    assert "mfu_fine_moe" in mfu["also"]


def test_held_apart_moe_inside_the_interval():
    """JetMoE-8B (held apart): 2.2B active, 1.25T tokens, 30,000 H100-hours on 96 H100 (its paper)."""
    hours = _ask("pretrain an MoE with 8.5B total and 2.2B active parameters on 1.25T tokens on 96 H100")
    hours = hours["report"]["gpu_hours"]
    assert hours["low"] <= 30_000 <= hours["high"]


def test_terms_apply_where_the_data_says():
    """A100-class keeps Pythia's slope (no second size term); ≥ 1B and large MoE are unchanged."""
    m = CALIBRATED
    assert efficiency.likely_mfu(m, "a100", 0.135e9, False) == efficiency.likely_mfu(
        BEFORE, "a100", 0.135e9, False
    )
    assert efficiency.likely_mfu(m, "h100", 0.135e9, False) == pytest.approx(0.28 * 0.135**0.33)
    assert efficiency.likely_mfu(m, "h100", 1e9, False) == pytest.approx(0.28)
    assert efficiency.likely_mfu(m, "h100", 1.3e9, True) == pytest.approx(0.28 * 0.49)
    assert efficiency.likely_mfu(m, "h100", 21e9, True) == pytest.approx(0.28 * 0.7)
    assert efficiency.groups_of("h100", 0.5e9, False, False) == ("small", "h100", "tiny")
    assert "fine_moe" in efficiency.groups_of("h100", 2.4e9, True, False)


def test_ledger_texts_state_the_shipped_constants():
    assert f"(N/1B)^{CALIBRATED.small_slope:g}" in WHY_TEXTS["mfu_small"]
    assert (
        f"× {CALIBRATED.fine_moe_factor:g} instead of the large-MoE {CALIBRATED.moe_factor:g}"
        in (WHY_TEXTS["mfu_fine_moe"])
    )


def test_validate_reports_the_new_kinds_and_keeps_the_old_figures():
    text = report()
    assert "training time: small dense models (< 1B) and small-active MoE (< 3B active), GPU-hours" in text
    assert "held-apart rows inside the 80 % interval: 3/3" in text
    assert "fit rows inside the 80 % interval: 5/6" in text
    f = kind_figures()
    assert f.training_fit == (58, 63) and f.training_held == (42, 46)
    assert f.kinds_fit == (5, 6) and f.kinds_held == (3, 3)
