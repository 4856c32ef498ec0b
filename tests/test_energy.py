"""estimator.energy: a run's kWh on the user's own card at NVIDIA's board power (GeForce specification pages:
RTX 3090 350 W, RTX 4090 450 W), and estimator.efficiency.scaled_gpu_hours (catalog peaks A800 312, H100 SXM
989.4 TFLOPS; calibrated likely MFU A100-class 0.40, H100-class 0.28)."""

from __future__ import annotations

import pytest

from estimator import catalog, efficiency, energy


def test_run_kwh_is_board_power_times_gpu_hours() -> None:
    assert energy.run_kwh("RTX 3090", 10.0, 20.0) == (3.5, 7.0)  # 350 W × 10 h = 3.5 kWh
    assert energy.run_kwh("RTX 4090", 1.0, 2.0) == (0.5, 0.9)  # 450 W: 0.45 → 0.5, 0.9 kWh
    assert energy.run_kwh("A100", 10.0, 20.0) is None  # not a card someone runs at home: no figure


def test_scaled_gpu_hours_across_generations() -> None:
    gpus = catalog.gpus()
    a800, h100 = gpus["A800-80GB"], gpus["H100-SXM5-80GB"]
    hours = efficiency.scaled_gpu_hours(160.0, a800, h100, 14.7e9)
    assert hours == pytest.approx(160 * 312 / 989.4 / (0.28 / 0.40), rel=1e-3)  # ≈ 72.1 H100-hours
    assert efficiency.scaled_gpu_hours(160.0, a800, a800, 14.7e9) == pytest.approx(160.0)
