"""Fit and evaluate the end-to-end MFU model on published training runs, and its 80 % prediction
interval (pure; no I/O).

The runs (``estimator/data/training_runs.json``: the project's corpus plus the FP8 and long-context runs
of issue #15) that are *comparable* — whole pre-training runs (or stages) with a known token count — are
fitted by :func:`fit`, in stages, each minimising the mean |log(reported / estimated GPU-hours)| of its
own runs over a grid (:data:`GRID`): the H100-class level on the dense bf16 H100/H800 runs, then the MoE
factor on the bf16 MoE runs, then the FP8 factor on the FP8 runs. The A100-class rule (the seed's 40 %
at 7B and up, Pythia's slope below), V100 and the uncalibrated classes are fixed.

The interval (:func:`interval`) is the split-conformal interval of the leave-one-out residuals
(:func:`loo_residuals`: each run predicted by a model refitted without it; Vovk et al. 2005; Barber,
Candès, Ramdas & Tibshirani 2021, *Predictive inference with the jackknife+*, Ann. Statist. 49(1)):
with n residuals sorted, the k_lo = ⌊0.1·(n+1)⌋-th and k_hi = ⌈0.9·(n+1)⌉-th, so that under
exchangeability a new comparable run falls inside with probability ≥ 80 %. Groups whose runs scatter
more than the rest (FP8, MoE, small models, H100-class: mean |log residual| above the pooled one, ≥ 3
runs) get their log-interval widened by that ratio (locally weighted conformal scores; Lei, G'Sell,
Rinaldo, Tibshirani & Wasserman 2018, *Distribution-free predictive inference for regression*, JASA
113, §5.2). ``sizing-bot validate`` prints the coverage on leave-one-out and on a fixed held-out split
(:func:`split`); ``tests/test_calibration.py`` refits and checks the shipped constants
(:data:`estimator.efficiency.CALIBRATED`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from estimator import compute
from estimator.efficiency import (
    CALIBRATED,
    GROUPS,
    EfficiencyModel,
    groups_of,
    likely_mfu,
    reference_gpus,
    scale_factor,
)
from estimator.efficiency import interval as interval_factors

GRID: dict[str, tuple[float, ...]] = {
    "h100_mfu": tuple(round(0.20 + 0.01 * i, 2) for i in range(15)),
    "moe_factor": tuple(round(0.50 + 0.05 * i, 2) for i in range(11)),
    "fp8_factor": tuple(round(1.00 + 0.05 * i, 2) for i in range(13)),
}
"""Searched values: H100-class MFU 20–34 %; MoE factor 0.5–1.0; FP8 factor 1.0–1.6 (end-to-end FP8/BF16
speed-ups measured on Hopper are ×1.1–×1.5: torchao README, PyTorch float8 blog Table 1; ×2 is the FP8
peak, never reached end to end: DeepSeek-V3 §3.3.1)."""

LEVEL = 0.8
"""Coverage of the prediction interval."""

MIN_GROUP_RUNS = 3
"""A group needs this many runs before its own scatter widens its interval."""


@dataclass(frozen=True)
class Run:
    """One published run, reduced to what a user would type plus the reported GPU-hours."""

    id: str
    gpu_id: str
    mfu_class: str
    """the GPU's efficiency class (``GpuSpec.mfu_class``): the split's strata"""
    peak_flops: float
    params_total: float
    params_active: float | None
    tokens: float
    reported_gpu_hours: float
    fp8: bool = False
    """FP8 GEMMs (DeepSeek-V3's framework, Llama 4): the MFU gets the FP8 factor"""
    time_factor: float = 1.0
    """attention beyond the calibration context (:func:`estimator.attention.time_factor`); 1 up to 8K"""
    comparable: bool = True
    """False: shown by ``sizing-bot validate`` but not fitted nor in the interval (the data says why)"""
    gpus: int | None = None
    """GPUs the run used, when its record states it: the scale-out term
    (:func:`estimator.efficiency.scale_factor`)"""

    @property
    def n_compute(self) -> float:
        return self.params_active or self.params_total


def split(runs: list[Run]) -> tuple[list[Run], list[Run]]:
    """The fixed, stratified split: within each accelerator generation, runs ordered by
    (parameters, id); every third one from the first (positions 0, 3, 6, …: ⌈n/3⌉ of each
    generation, so at least a third overall) is held out of the fit.
    Stratifying keeps every generation on both sides (a plain hash split can put all of one
    lab's H100 runs on one side). Returns (train, held_out)."""
    train: list[Run] = []
    test: list[Run] = []
    by_gen: dict[str, list[Run]] = {}
    for r in runs:
        by_gen.setdefault(r.mfu_class, []).append(r)
    for gen in sorted(by_gen):
        for i, r in enumerate(sorted(by_gen[gen], key=lambda r: (r.n_compute, r.id))):
            (test if i % 3 == 0 else train).append(r)
    return train, test


def estimated_hours(model: EfficiencyModel, run: Run) -> float:
    """Likely GPU-hours for ``run`` under ``model``: 6·N·D / (peak × MFU × scale-out) (estimator.compute;
    :func:`estimator.efficiency.scale_factor` at the run's GPUs against its reference count)."""
    mfu = likely_mfu(model, run.mfu_class, run.n_compute, run.params_active is not None, run.fp8)
    flops = compute.training_flops(run.n_compute, run.tokens) * run.time_factor
    hours = compute.gpu_hours(flops, run.peak_flops, mfu)
    return hours / scale_factor(model, run.gpus, reference_gpus(model, hours))


def _log_ratio(model: EfficiencyModel, run: Run) -> float:
    """ln(reported / estimated GPU-hours): > 0 when the run took longer than we say."""
    return math.log(run.reported_gpu_hours / estimated_hours(model, run))


def _best(candidates: list[EfficiencyModel], runs: list[Run], fallback: EfficiencyModel) -> EfficiencyModel:
    """The candidate with the least mean |log ratio| on ``runs`` (a median fit: L1 on the log scale);
    among equals — an even number of runs leaves a range of minimisers — the least biased one (mean
    log ratio closest to 0), then the first. ``fallback`` when there are no runs to fit."""
    if not runs:
        return fallback

    def score(m: EfficiencyModel) -> tuple[float, float]:
        logs = [_log_ratio(m, r) for r in runs]
        return round(statistics.fmean(abs(x) for x in logs), 12), round(abs(statistics.fmean(logs)), 12)

    return min(candidates, key=score)


def fit(train: Sequence[Run]) -> EfficiencyModel:
    """The staged grid fit (module docstring): H100-class level on the dense bf16 H100-class runs, the
    MoE factor on the bf16 MoE runs, the FP8 factor on the FP8 runs. Interval fields are left as in
    :data:`CALIBRATED` (see :func:`calibrate`)."""
    model = CALIBRATED
    stages: list[tuple[str, Callable[[Run], bool]]] = [
        ("h100_mfu", lambda r: r.mfu_class == "h100" and r.params_active is None and not r.fp8),
        ("moe_factor", lambda r: r.params_active is not None and not r.fp8),
        ("fp8_factor", lambda r: r.fp8),
    ]
    for name, chosen in stages:
        runs = [r for r in train if chosen(r)]
        model = _best([replace(model, **{name: v}) for v in GRID[name]], runs, model)
    return model


def loo_residuals(runs: Sequence[Run]) -> dict[str, float]:
    """ln(reported / estimated) of each run under the model refitted without it (leave-one-out)."""
    out = {}
    for i, run in enumerate(runs):
        out[run.id] = _log_ratio(fit([*runs[:i], *runs[i + 1 :]]), run)
    return out


def _order_statistic(values: list[float], k: int) -> float:
    """The k-th smallest (1-based) value; ±inf beyond the ends (too few runs for the level)."""
    if k < 1:
        return -math.inf
    if k > len(values):
        return math.inf
    return sorted(values)[k - 1]


@dataclass(frozen=True)
class Interval:
    """An 80 % prediction interval as factors on the likely GPU-hours, and the groups widened."""

    low: float
    high: float
    wider: tuple[tuple[str, float], ...] = ()
    runs: int = 0


def interval(runs: Sequence[Run], residuals: dict[str, float], level: float = LEVEL) -> Interval:
    """The conformal interval of the residuals (module docstring): per-group scales (mean |r| of the
    group / pooled mean |r|, when above 1 and the group has ≥ :data:`MIN_GROUP_RUNS` runs), scores
    r / scale, and their k_lo-th and k_hi-th order statistics as ln-factors."""
    pooled = statistics.fmean(abs(residuals[r.id]) for r in runs)
    wider = []
    for group in GROUPS:
        members = [r for r in runs if group in run_groups(r)]
        if len(members) >= MIN_GROUP_RUNS:
            ratio = statistics.fmean(abs(residuals[r.id]) for r in members) / pooled
            if ratio > 1.0:
                wider.append((group, round(ratio, 2)))
    scales = dict(wider)
    scores = [residuals[r.id] / _scale(run_groups(r), scales) for r in runs]
    n = len(scores)
    alpha = 1.0 - level
    k_lo, k_hi = math.floor(alpha / 2 * (n + 1)), math.ceil((1 - alpha / 2) * (n + 1))
    low, high = _order_statistic(scores, k_lo), _order_statistic(scores, k_hi)
    return Interval(round(math.exp(low), 3), round(math.exp(high), 3), tuple(wider), n)


def _scale(groups: Sequence[str], scales: dict[str, float]) -> float:
    return max([1.0, *(scales.get(g, 1.0) for g in groups)])


def run_groups(run: Run) -> tuple[str, ...]:
    """The interval groups a run belongs to (:func:`estimator.efficiency.groups_of`)."""
    return groups_of(run.mfu_class, run.n_compute, run.params_active is not None, run.fp8)


def calibrate(runs: Sequence[Run]) -> EfficiencyModel:
    """The shipped model: :func:`fit` on all comparable runs, with the interval of their
    leave-one-out residuals."""
    model = fit(runs)
    residuals = loo_residuals(runs)
    iv = interval(runs, residuals)
    coverage = evaluate_loo(runs, residuals).coverage
    return replace(
        model, band_low=iv.low, band_high=iv.high, wider=iv.wider, interval_runs=iv.runs,
        loo_coverage=round(coverage, 2),
    )  # fmt: skip


@dataclass(frozen=True)
class Metrics:
    runs: int
    median_error: float
    p90_error: float
    coverage: float


def _metrics(log_ratios: list[float], inside: list[bool]) -> Metrics:
    if not log_ratios:
        return Metrics(0, math.nan, math.nan, math.nan)
    errors = sorted(math.exp(abs(x)) for x in log_ratios)
    p90 = errors[min(len(errors) - 1, math.ceil(0.9 * len(errors)) - 1)]
    return Metrics(len(errors), statistics.median(errors), p90, sum(inside) / len(inside))


def evaluate(model: EfficiencyModel, runs: Sequence[Run]) -> Metrics:
    """Error factor max(est/rep, rep/est) under ``model``: median and 90th percentile; the share of
    runs whose reported GPU-hours lie inside the model's interval."""
    logs = [_log_ratio(model, r) for r in runs]
    inside = []
    for r, x in zip(runs, logs, strict=True):
        low, high = interval_factors(model, run_groups(r))
        inside.append(low <= math.exp(x) <= high)
    return _metrics(logs, inside)


def evaluate_loo(runs: Sequence[Run], residuals: dict[str, float] | None = None) -> Metrics:
    """Leave-one-out: each run's error under the model refitted without it, and whether it falls in
    the interval built from the other runs' leave-one-out residuals."""
    residuals = residuals if residuals is not None else loo_residuals(runs)
    inside = []
    for i, run in enumerate(runs):
        others = [*runs[:i], *runs[i + 1 :]]
        iv = interval(others, residuals)
        model = replace(CALIBRATED, band_low=iv.low, band_high=iv.high, wider=iv.wider)
        low, high = interval_factors(model, run_groups(run))
        inside.append(math.log(low) <= residuals[run.id] <= math.log(high))
    return _metrics([residuals[r.id] for r in runs], inside)


def evaluate_held_out(runs: Sequence[Run]) -> tuple[EfficiencyModel, Metrics]:
    """The fixed split (:func:`split`): calibrate on its training part, evaluate on the held-out part."""
    train, held = split(list(runs))
    model = calibrate(train)
    return model, evaluate(model, held)
