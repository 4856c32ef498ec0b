"""Issue 25: training time from tuned to typical and scaling with the GPU count (estimator.efficiency's
scale-out term and tuned end, fitted by estimator.validation_training on MLPerf Training v3.0–v4.0 and
checked on v4.1), serving per card through ``sizing-bot ask``, and the done-when figures of
``sizing-bot validate`` per kind."""

from __future__ import annotations

import itertools
import subprocess
import sys

import pytest
from cli_run import ask_json

from estimator import catalog
from estimator.efficiency import CALIBRATED
from estimator.models import Precision
from estimator.serving_speed import FITTED, decode_speed
from estimator.validation import kind_figures
from estimator.validation_training import figures, load_rows

GPT3_JOB = "pretrain GPT-3 175B on 1.2B tokens with {n} H100 in FP8"
"""MLPerf Training's GPT-3 175B job: ≈ 1.2 B tokens from the checkpoint to the target (README there)."""


def _ask(question: str) -> dict:
    return ask_json(question)["report"]


@pytest.fixture(scope="module")
def mlperf():
    return figures()


def test_cli_gpu_hours_grow_with_the_gpu_count_from_8_to_10000():
    """The same job on more GPUs costs more GPU-hours (the issue: 1,055 H100-hours on 512, 3,584 and
    10,752 GPUs alike before); from 512 to 10,752 MLPerf's records lose ×1.36–1.41, the fitted
    alpha 0.12 gives (10,752 / 512)^0.12 = ×1.44."""
    hours = {}
    for n in (8, 64, 512, 4096, 10000, 10752):
        hours[n] = _ask(GPT3_JOB.format(n=n))["gpu_hours"]["likely"]
    series = [hours[n] for n in (8, 64, 512, 4096, 10000)]
    assert all(a < b for a, b in itertools.pairwise(series)), series
    assert hours[10752] / hours[512] == pytest.approx((10752 / 512) ** 0.12, rel=1e-6)
    assert 1.3 <= hours[10752] / hours[512] <= 1.5


def test_cli_fp8_interval_reaches_tuned_runs_and_holds_mlperfs_records():
    """FP8 on 512 H100: the optimistic end is what tuned FP8 runs reach, 35–45 % of the FP8 peak (MLPerf
    v4.0 NVIDIA 512 × H100: 41 %), the likely figure a typical run's; the records 433 h (v4.0 NVIDIA) and
    548 h (v3.0 NVIDIA) lie inside the GPU-hours interval."""
    training = _ask(GPT3_JOB.format(n=512))
    mfu, hours = training["mfu"], training["gpu_hours"]
    assert 0.35 <= mfu["high"] <= 0.45
    assert mfu["likely"] < 0.169  # below the flat 16.9 % of the FP8 peak: 512 GPUs for an 8-GPU job
    assert hours["low"] <= 433 <= hours["high"] and hours["low"] <= 548 <= hours["high"]


def test_scale_out_exponent_is_fitted_on_the_fit_rounds_and_checked_on_v41(mlperf):
    """alpha = the GPT-3 175B series' slope of ln GPU-hours on ln GPUs over v3.0–v4.0 (0.12, shipped);
    leave-one-series-out 0.105–0.122; v4.1 (held apart) alone gives 0.13, and its GPU-hours follow from
    each series' smallest system within a median ×1.06."""
    assert mlperf.alpha == CALIBRATED.scale_alpha == 0.12
    assert 0.10 <= mlperf.alpha_loo[0] <= mlperf.alpha_loo[1] <= 0.13
    assert mlperf.alpha_held == pytest.approx(0.13, abs=0.005)
    assert mlperf.slope_held_median <= 1.1


def test_tuned_end_is_fitted_on_the_fit_rounds_and_holds_v41(mlperf):
    """The tuned factor is the conformal low order statistic of the fit rounds' tuned rows (0.28), and
    the held-apart v4.1 rows fall inside the interval: 31 of 33."""
    assert mlperf.tuned == CALIBRATED.tuned_factor == 0.28
    assert mlperf.inside_held == (31, 33)
    assert not any(r.round in ("v5.0", "v5.1") for r in load_rows())


def test_done_when_figures_per_kind():
    """Issue 25's done-when on held-apart data: fine-tuning memory inside the band ≥ 70 % (48/68),
    training inside the 80 % interval ≥ 80 % (published runs' held-out split 11/13 + MLPerf v4.1 31/33),
    serving within ×1.3 ≥ 80 % (27/32).

    Session 21 (fixa): ZeRO now shards the LoRA/QLoRA adapters' states as DeepSpeed does
    (estimator.adapter_states); the fit rows improve 81 → 83 of 101, but two held-apart ZeRO-3 rows of
    70B-class models (Qwen-72B LoRA r64 on 4 GPUs, Llama-2-70B QLoRA on 2) now fall under their
    measurement by ~10 GB: a ZeRO-3 cost of those runs the model does not have (the unsharded adapters
    had covered it by accident). Memory held apart is 47/68 = 69.1 %: the 70 % target is NOT met and
    is asserted as measured, so a change that moves it fails here (see the session 21 closing note).

    Session 22 (fixa): ZeRO-3 gathers a frozen LoRA/QLoRA base like a full model's weights (it shards
    every parameter): up to ``stage3_max_live_parameters`` (1e9) stored elements live on a rank
    (estimator.transients.gathered_weights; DeepSpeed partitioned_param_coordinator.py). Two held-apart
    rows come inside (Qwen-72B LoRA r64 s512 ×4: 50.7 GB under 49.3 → 51.4; Llama-2-70B QLoRA ×2:
    34.1 under 33.3 → 34.4); 49/68 = 72.1 % meets the 70 % target; the fit rows stay 83/101."""
    f = kind_figures()
    assert f.memory_held == (49, 68) and f.memory_held[0] / f.memory_held[1] >= 0.70  # s22 (docstring)
    assert f.training_held == (42, 46) and f.training_held[0] / f.training_held[1] >= 0.80
    assert f.serving_held == (27, 32) and f.serving_held[0] / f.serving_held[1] >= 0.80


def test_cli_validate_reports_every_kind_fit_and_held_apart():
    out = subprocess.run(
        [sys.executable, "-m", "bot.cli", "validate"], capture_output=True, text=True, timeout=300, check=True
    ).stdout
    for line in (
        "training time: published whole runs",
        "training time: MLPerf Training v3.0–v4.1",
        "fine-tuning memory (estimator/data/measured/finetune_memory.json",
        "serving speed: MLPerf Inference v4.1",
        "summary per kind",
        "held-apart rows inside the 80 % interval: 31/33",
        "scale-out exponent alpha",
        "shipped (estimator.serving_speed.FITTED): MFU 0.675, bandwidth share 0.50",
    ):
        assert line in out, line


def test_cli_8_h200_serve_llama2_70b_fp8_faster_than_8_h100():
    """``sizing-bot ask``: at the same load both are memory-bound and the step reads the same bytes, so
    H200 is faster by its bandwidth, 4.8 / 3.35 TB/s = ×1.43; it also holds more sequences."""
    h200 = _ask("serve Llama-2-70B FP8 on 8 H200")["inference"]
    h100 = _ask("serve Llama-2-70B FP8 on 8 H100")["inference"]
    s200, s100 = h200["decode_tokens_per_s"], h100["decode_tokens_per_s"]
    assert (s200["bound"], s100["bound"], s200["batch"]) == ("memory", "memory", s100["batch"])
    assert s200["aggregate"] > s100["aggregate"]
    assert s200["aggregate"] / s100["aggregate"] == pytest.approx(4800 / 3350, rel=1e-6)
    assert h200["max_concurrency"] > h100["max_concurrency"]


def test_compute_roofline_of_fp8_serving_uses_the_fp8_peak_on_both_cards():
    """At a batch that makes decode compute-bound, tokens/s = FP8 peak × the fitted MFU × TP / (2·N):
    1,978.9 TFLOPS on both H100 and H200 (datasheets), twice the 16-bit rate."""
    spec = catalog.model("Llama-2-70B")
    n = spec.params_total
    for gpu_id in ("H100-SXM5-80GB", "H200-SXM-141GB"):
        gpu = catalog.gpu(gpu_id)
        fp8 = decode_speed(spec, n, n, gpu, 1, 1.0, 0.0, 4096, Precision.fp8)
        bf16 = decode_speed(spec, n, n, gpu, 1, 1.0, 0.0, 4096, Precision.bf16)
        assert fp8.bound == "compute"
        assert fp8.aggregate == pytest.approx(1978.9e12 * FITTED.decode_mfu / (2 * n))
        assert fp8.aggregate == pytest.approx(2 * bf16.aggregate, rel=1e-3)


def test_cli_8_h200_trains_at_least_as_fast_as_8_h100_and_faster_where_recompute_is_dropped():
    """Issue 25: H200's 141 GB changes the layout. Qwen2.5-14B full fine-tuning at 8K on 8 GPUs: H100
    needs full recomputation to fit, H200 keeps the activations (selective), so H100 pays one more
    forward pass, (6 + 2) / 6 of the time (Korthikanti et al. 2022 §5). Llama-3-70B LoRA at 32K needs
    full recomputation on both: the same time (k = 4: (4 + 2) / 4 on both). s36 left #1: 14B, was 32B,
    whose full fine-tune now runs ZeRO-3 data parallelism with full recompute on both cards (the layout the
    Hugging Face stacks run; H200 kept it by Megatron's TP before)."""
    faster = {}
    for gpu in ("H100", "H200"):
        report = _ask(f"full fine-tune Qwen2.5-14B on 1B tokens with 8 {gpu}, seq 8192")
        faster[gpu] = (report["memory"]["plan"]["recompute"], report["gpu_hours"]["likely"])
    assert (faster["H100"][0], faster["H200"][0]) == ("full", "selective")
    assert faster["H100"][1] == pytest.approx(faster["H200"][1] * 8 / 6, rel=1e-9)
    same = {}
    for gpu in ("H100", "H200"):
        report = _ask(f"LoRA fine-tune Llama-3-70B on 1B tokens with 8 {gpu}, seq 32768")
        same[gpu] = (report["memory"]["plan"]["recompute"], report["gpu_hours"]["likely"])
    assert same["H100"][0] == same["H200"][0] == "full"
    assert same["H200"][1] <= same["H100"][1] and same["H200"][1] == pytest.approx(same["H100"][1], rel=1e-9)
