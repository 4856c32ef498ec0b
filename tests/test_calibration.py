"""The calibrated MFU model and its 80 % prediction interval: reproducible from the repo, and accurate on
runs it was not fitted on (leave-one-out and a fixed held-out split)."""

import json
import math
from dataclasses import replace

import pytest

from estimator.calibration import (
    calibrate,
    evaluate,
    evaluate_held_out,
    evaluate_loo,
    fit,
    interval,
    loo_residuals,
    split,
)
from estimator.efficiency import CALIBRATED, likely_mfu
from estimator.validation import load_runs, report


@pytest.fixture(scope="module")
def all_runs():
    usable, _ = load_runs()
    return usable


@pytest.fixture(scope="module")
def runs(all_runs):
    return [r for r in all_runs if r.comparable]


@pytest.fixture(scope="module")
def residuals(runs):
    return loo_residuals(runs)


def test_comparable_runs_and_the_two_left_out(all_runs, runs):
    """37 runs with GPU-hours in the catalog's GPUs; Llama 3.2 1B/3B are pruned and distilled from Llama
    3.1 8B/70B on 'up to 9T' tokens (model card): not comparable 6ND pre-training runs."""
    assert len(all_runs) == 37 and len(runs) == 35
    assert {r.id for r in all_runs if not r.comparable} == {"llama32-1b", "llama32-3b"}


def test_fp8_and_long_context_runs_are_read_as_such(runs):
    by_id = {r.id: r for r in runs}
    assert {r.id for r in runs if r.fp8} == {
        "deepseek-v3", "deepseek-v3-context-extension", "llama4-scout", "llama4-maverick",
    }  # fmt: skip
    assert all(r.time_factor == 1.0 for r in runs if r.id != "deepseek-v3-context-extension")
    # V3's 32K and 128K phases (62.9B tokens each), MLA: 3·61·2·(s/2)·128·(192+128) FLOPs per token over
    # 6 × 37e9; beyond 8K the time grows by (1 + a(s)) / (1 + a(8K)): (2.106/1.276 + 5.425/1.276) / 2
    ext = by_id["deepseek-v3-context-extension"]

    def a(s):
        return 3 * 61 * s * 128 * 320 / (6 * 37e9)

    expected = ((1 + a(32768)) + (1 + a(131072))) / 2 / (1 + a(8192))
    assert ext.time_factor == pytest.approx(expected, rel=1e-9)
    assert ext.time_factor == pytest.approx(2.95, abs=0.01)


def test_split_is_fixed_and_holds_out_a_third(runs):
    train, held = split(runs)
    assert len(train) == 22 and len(held) == 13
    assert {r.id for r in held} == {
        "deepseek-v3", "gpt3-175b", "llama1-33b", "llama1-65b", "llama2-13b", "llama2-7b", "llama3-70b",
        "llama3-8b", "llama4-maverick", "palm-540b", "pythia-70m", "smollm3-3b", "tinyllama-1.1b",
    }  # fmt: skip


def test_calibrate_reproduces_the_shipped_constants(runs):
    assert calibrate(runs) == CALIBRATED


def test_fitted_factors(runs):
    """Dense H100-class 28 %, MoE × 0.7, FP8 × 1.35 (refitted with the scale-out term of issue 25: each
    run at its own GPU count): inside the ×1.1–×1.5 measured end to end on Hopper (torchao README;
    PyTorch float8 blog Table 1)."""
    m = fit(runs)
    assert (m.h100_mfu, m.moe_factor, m.fp8_factor) == (0.28, 0.7, 1.35)
    assert 1.1 <= m.fp8_factor <= 1.5


def test_leave_one_out_meets_the_issue_targets(runs, residuals):
    """Issue #15: leave-one-out coverage of the 80 % interval ≥ 80 %, median error ≤ ×1.15."""
    m = evaluate_loo(runs, residuals)
    assert m.runs == 35
    assert m.coverage >= 0.80
    assert m.median_error <= 1.15
    assert CALIBRATED.loo_coverage == pytest.approx(m.coverage, abs=0.005)


def test_interval_is_the_conformal_order_statistics_of_the_residuals(runs, residuals):
    """n = 35: the ⌊0.1·36⌋ = 3rd and ⌈0.9·36⌉ = 33rd smallest scores (residual / group scale)."""
    iv = interval(runs, residuals)
    scale = dict(iv.wider)
    scores = sorted(residuals[r.id] / (scale.get("fp8", 1.0) if r.fp8 else 1.0) for r in runs)
    assert iv.low == pytest.approx(math.exp(scores[2]), abs=5e-4)
    assert iv.high == pytest.approx(math.exp(scores[32]), abs=5e-4)
    assert [g for g, _ in iv.wider] == []  # with the scale-out term no group scatters more than the pool


def test_held_out_split_still_meets_issue_6_targets(runs):
    """Calibrated on the 22 training runs of the fixed split, on the 13 held out: median ≤ ×1.25, p90 ≤ ×1.8
    (issue #6); the interval's coverage there is stated, not a target (77 %)."""
    _, m = evaluate_held_out(runs)
    assert m.median_error <= 1.25
    assert m.p90_error <= 1.8
    assert m.coverage >= 0.75


def test_in_sample_coverage_and_error(runs):
    m = evaluate(CALIBRATED, runs)
    assert m.coverage >= 0.80
    assert m.median_error <= 1.15


def test_beats_the_flat_40pct_rule_on_all_runs(runs):
    """The seed's flat 40 % (30–50 % band) is off by a median ×1.4 on these runs."""
    flat = replace(CALIBRATED, h100_mfu=0.4, a100_size_slope=0.0, v100_mfu=0.4, other_mfu=0.4, moe_factor=1.0,
                   fp8_factor=1.0, band_low=0.8, band_high=4 / 3, wider=())  # fmt: skip
    ours, seed = evaluate(CALIBRATED, runs), evaluate(flat, runs)
    assert seed.median_error > 1.3
    assert ours.median_error < seed.median_error
    assert ours.coverage > seed.coverage


def test_seed_value_kept_for_7b_on_a100():
    assert likely_mfu(CALIBRATED, "a100", 7e9, False) == pytest.approx(0.40)
    assert likely_mfu(CALIBRATED, "a100", 70e9, False) == pytest.approx(0.40)
    assert likely_mfu(CALIBRATED, "a100", 1e9, False) < 0.40


def test_validate_report_prints_table_coverage_and_width():
    text = report()
    assert "llama2-7b" in text and "deepseek-v3-context-extension" in text
    assert "leave-one-out  runs  35" in text and "80 % interval coverage 86%" in text
    assert "held-out" in text and "width high/low ×2.10" in text
    assert "FP8 on H100-class: ×0.280–×1.604" in text and "excluded as not comparable" in text


def test_validate_accepts_another_file(tmp_path):
    f = tmp_path / "runs.json"
    f.write_text('{"runs": [{"id": "x", "gpu_type": "A100-SXM4-80GB", "total_params_b": 7, '
                 '"training_tokens_b": 1000, "reported_gpu_hours": 93483}, '
                 '{"id": "y", "gpu_type": "A100-SXM4-80GB", "total_params_b": 13, '
                 '"training_tokens_b": 1000, "reported_gpu_hours": 190000}, '
                 '{"id": "z", "gpu_type": "H100-SXM5-80GB", "total_params_b": 8, '
                 '"training_tokens_b": 1000, "reported_gpu_hours": 50000}]}')  # fmt: skip
    text = report(json.loads(f.read_text()))
    assert "x " in text and "1.00" in text


def test_cli_validate(capsys):
    from bot.cli import main

    assert main(["validate"]) == 0
    assert "80 % interval coverage" in capsys.readouterr().out
    assert main(["validate", "--runs", "/nonexistent/runs.json"]) == 2
