"""The calibrated MFU model: reproducible from the repo, and accurate on runs it was not fitted on."""

import json

import pytest

from estimator.calibration import evaluate, fit, split
from estimator.efficiency import CALIBRATED, likely_mfu
from estimator.validation import load_runs, report


@pytest.fixture(scope="module")
def runs():
    usable, _ = load_runs()
    return usable


def test_split_is_fixed_and_fits_on_at_most_two_thirds(runs):
    train, held = split(runs)
    assert len(runs) == 32
    assert len(train) == 20 and len(held) == 12
    assert len(train) <= 2 * len(runs) / 3
    assert {r.id for r in held} == {
        "deepseek-llm-67b", "gpt3-175b", "llama1-33b", "llama1-65b", "llama2-13b", "llama2-7b",
        "llama32-1b", "palm-540b", "phi-3-mini-apr2024", "phi-4", "pythia-70m", "tinyllama-1.1b",
    }  # fmt: skip


def test_fit_reproduces_the_shipped_constants(runs):
    train, _ = split(runs)
    assert fit(train) == CALIBRATED


def test_held_out_accuracy_meets_the_targets(runs):
    """Issue #6: on runs not used for fitting, median error ≤ 1.25 and p90 ≤ 1.8 (met: ×1.11, ×1.51).
    Band coverage is 67 % held out (target 80 %, not met — see the issue note), 81 % on all runs;
    asserted here as a floor so a regression shows."""
    _, held = split(runs)
    m = evaluate(CALIBRATED, held)
    assert m.median_error <= 1.25
    assert m.p90_error <= 1.8
    assert m.coverage >= 0.66
    assert evaluate(CALIBRATED, runs).coverage >= 0.80
    assert CALIBRATED.band_high / CALIBRATED.band_low <= 2.0 + 1e-9


def test_beats_the_flat_40pct_rule_on_all_runs(runs):
    """The seed's flat 40 % (30–50 % band) is off by a median ×1.4 on these runs."""
    from dataclasses import replace

    flat = replace(CALIBRATED, h100_mfu=0.4, h100_size_slope=0.0, a100_size_slope=0.0, v100_mfu=0.4,
                   other_mfu=0.4, band_low=0.8, band_high=4 / 3)  # fmt: skip
    ours, seed = evaluate(CALIBRATED, runs), evaluate(flat, runs)
    assert seed.median_error > 1.3
    assert ours.median_error < seed.median_error
    assert ours.coverage > seed.coverage


def test_seed_value_kept_for_7b_on_a100():
    assert likely_mfu(CALIBRATED, "a100", 7e9, False) == pytest.approx(0.40)
    assert likely_mfu(CALIBRATED, "a100", 70e9, False) == pytest.approx(0.40)
    assert likely_mfu(CALIBRATED, "a100", 1e9, False) < 0.40


def test_validate_report_prints_table_and_summary():
    text = report()
    assert "llama2-7b" in text and "held-out" in text and "band coverage" in text


def test_validate_accepts_another_file(tmp_path):
    f = tmp_path / "runs.json"
    f.write_text('{"runs": [{"id": "x", "gpu_type": "A100-SXM4-80GB", "total_params_b": 7, '
                 '"training_tokens_b": 1000, "reported_gpu_hours": 93483}]}')  # fmt: skip
    text = report(json.loads(f.read_text()))
    assert "x " in text and "1.00" in text


def test_cli_validate(capsys):
    from bot.cli import main

    assert main(["validate"]) == 0
    assert "band coverage" in capsys.readouterr().out
    assert main(["validate", "--runs", "/nonexistent/runs.json"]) == 2
