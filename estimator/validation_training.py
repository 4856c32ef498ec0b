"""Training time against MLPerf Training v3.0–v4.1 (issue 25, items 2 and 4): the scale-out exponent
and the tuned end of the interval, fitted apart from the rows they are checked on (pure; no I/O but
the packaged data).

Data: ``estimator/data/measured/mlperf_training.json`` (closed division, GPT-3 175B and Llama 2 70B
LoRA; see its README). Duplicates and power-measurement resubmissions are left out. MLPerf v5.0/v5.1
are not used.

HELD APART (chosen before any fit): the whole v4.1 round. Every fit uses v3.0, v3.1 and v4.0 only.

SCALE-OUT (``EfficiencyModel.scale_alpha``): within a *series* (same round, benchmark, submitter,
accelerator and precision, two or more GPU counts) the same job runs on more GPUs; the least-squares
slope of ln GPU-hours on ln GPUs, series means removed, on the GPT-3 175B series (hours-long jobs;
Llama 2 70B LoRA runs last minutes, where the fixed start-up work of each run dominates: their
slope, 0.16–0.45, is reported beside it, not fitted). Leave-one-series-out gives its error.

TUNED END (``EfficiencyModel.tuned_factor``): the median of reported ÷ typical (likely) GPU-hours over
the fit rounds' NVIDIA-class H100/H200/B200 rows (Megatron/NeMo, FP8: what tuned runs achieve), at the
rows' own GPU counts (:func:`estimator.efficiency.scale_factor`). The interval's low end reaches it.
"""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass
from importlib import resources
from typing import Any

from estimator import attention, catalog, compute, efficiency
from estimator.efficiency import CALIBRATED, EfficiencyModel

HELD_APART_ROUND = "v4.1"
"""The round kept out of every fit (chosen before fitting)."""

GPU_OF = {
    "H100": "H100-SXM5-80GB",
    "H200": "H200-SXM-141GB",
    "B200": "B200-HGX-180GB",
    "A100": "A100-SXM4-80GB",
    "L40S": "L40S",
}
"""MLPerf ``accelerator_model_name`` fragment → catalog id (TPU and Gaudi rows: series slope only)."""

BENCH = {"gpt3": (175e9, 6.0, 2048), "llama2_70b_lora": (68.98e9, 4.0, 8192)}
"""benchmark → (parameters, k in C = k·N·D, sequence length): GPT-3 175B pre-training (Brown et al.
2020), Llama 2 70B LoRA at 8,192 tokens (MLPerf's README; k = 4 for LoRA, estimator.compute)."""


@dataclass(frozen=True)
class MRow:
    round: str
    benchmark: str
    submitter: str
    accelerator: str
    gpu_id: str | None
    gpus: int
    precision: str
    tokens: float
    gpu_hours: float

    @property
    def held_apart(self) -> bool:
        return self.round == HELD_APART_ROUND

    @property
    def series(self) -> tuple[str, str, str, str, str]:
        return (self.round, self.benchmark, self.submitter.split("+")[0], self.accelerator, self.precision)

    @property
    def label(self) -> str:
        return f"{self.round} {self.benchmark} {self.submitter[:14]} {self.gpus}×{self.accelerator[-22:]}"


def load_rows(data: Any = None) -> list[MRow]:
    """The usable rows of ``mlperf_training.json`` (no duplicates, no flagged power resubmissions)."""
    if data is None:
        path = resources.files("estimator").joinpath("data", "measured", "mlperf_training.json")
        data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for r in data["rows"]:
        if r.get("duplicate") or r.get("flags") or r["benchmark"] not in BENCH:
            continue
        name = r["accelerator_model_name"]
        gpu = next((g for k, g in GPU_OF.items() if k in name), None)
        out.append(
            MRow(
                r["round"], r["benchmark"], r["submitter"], name, gpu, int(r["accelerator_count"]),
                r["precision"], float(r["tokens_mean"]), float(r["gpu_hours"]),
            )
        )  # fmt: skip
    return out


def series_of(rows: list[MRow]) -> dict[tuple[str, ...], list[MRow]]:
    """Rows grouped by series, only series with two or more GPU counts."""
    groups: dict[tuple[str, ...], list[MRow]] = {}
    for r in rows:
        groups.setdefault(r.series, []).append(r)
    return {k: v for k, v in groups.items() if len({r.gpus for r in v}) >= 2}


def slope(groups: dict[tuple[str, ...], list[MRow]]) -> float:
    """Least-squares slope of ln GPU-hours on ln GPUs with each series' means removed."""
    sxy = sxx = 0.0
    for rows in groups.values():
        mx = statistics.fmean(math.log(r.gpus) for r in rows)
        my = statistics.fmean(math.log(r.gpu_hours) for r in rows)
        sxy += sum((math.log(r.gpus) - mx) * (math.log(r.gpu_hours) - my) for r in rows)
        sxx += sum((math.log(r.gpus) - mx) ** 2 for r in rows)
    return sxy / sxx if sxx else 0.0


def slope_errors(groups: dict[tuple[str, ...], list[MRow]], alpha: float) -> list[float]:
    """|ln error| of each row's GPU-hours predicted from its series' smallest-count row at ``alpha``."""
    errors = []
    for rows in groups.values():
        base = min(rows, key=lambda r: (r.gpus, r.gpu_hours))
        for r in rows:
            if r is not base:
                predicted = base.gpu_hours * (r.gpus / base.gpus) ** alpha
                errors.append(abs(math.log(predicted / r.gpu_hours)))
    return errors


def fit_alpha(rows: list[MRow]) -> float:
    """The scale-out exponent: :func:`slope` of the GPT-3 175B series of ``rows``, to 0.01."""
    return round(slope(series_of([r for r in rows if r.benchmark == "gpt3"])), 2)


def typical_hours(model: EfficiencyModel, r: MRow) -> float | None:
    """The estimator's likely GPU-hours for the row's job on its GPUs (FP8 as stated; None for a card
    not in the catalog): k·N·D × attention beyond 8K / (peak × likely MFU × scale-out)."""
    if r.gpu_id is None:
        return None
    gpu = catalog.gpu(r.gpu_id)
    n, k, seq = BENCH[r.benchmark]
    fp8 = r.precision == "fp8" and bool(gpu.peak_tflops_fp8)
    mfu = efficiency.likely_mfu(model, gpu.mfu_class, n, False, fp8)
    shape = attention.shape_of(catalog.model("Llama-2-70B")) if seq > 8192 else None
    factor = attention.time_factor(shape, n, seq, k) if shape else 1.0
    flops = compute.training_flops(n, r.tokens, k) * factor
    hours = compute.gpu_hours(flops, gpu.peak_flops_16bit, mfu)
    ref = efficiency.reference_gpus(model, hours, gpu.gpus_per_node)
    return hours / efficiency.scale_factor(model, r.gpus, ref)


def tuned_rows(rows: list[MRow]) -> list[MRow]:
    """NVIDIA-class FP8 rows on H100/H200/B200 (Megatron/NeMo-derived: tuned runs)."""
    return [
        r
        for r in rows
        if r.precision == "fp8" and r.gpu_id in ("H100-SXM5-80GB", "H200-SXM-141GB", "B200-HGX-180GB")
    ]


def tuned_ratios(model: EfficiencyModel, rows: list[MRow]) -> list[float]:
    """Reported ÷ typical (likely) GPU-hours of the tuned rows of ``rows``."""
    return [r.gpu_hours / h for r in tuned_rows(rows) if (h := typical_hours(model, r))]


def fit_tuned(model: EfficiencyModel, rows: list[MRow]) -> float:
    """The tuned end: the ⌊0.1·(n+1)⌋-th smallest of the n tuned rows' reported ÷ typical GPU-hours
    (the low order statistic of an 80 % split-conformal interval, as :func:`estimator.calibration.interval`),
    rounded down to 0.01."""
    ratios = sorted(tuned_ratios(model, rows))
    k = max(1, math.floor(0.1 * (len(ratios) + 1)))
    return math.floor(ratios[k - 1] * 100) / 100


@dataclass(frozen=True)
class TrainingFigures:
    """What :func:`figures` measures (ln errors as factors; shares 0–1)."""

    alpha: float
    alpha_held: float
    alpha_loo: tuple[float, float]
    slope_fit_median: float
    slope_held_median: float
    tuned: float
    tuned_held: float
    inside_fit: tuple[int, int]
    inside_held: tuple[int, int]


def inside(model: EfficiencyModel, rows: list[MRow]) -> list[tuple[MRow, float, bool]]:
    """Each catalog row: reported ÷ typical GPU-hours and whether it lies in the 80 % interval."""
    out = []
    for r in rows:
        hours = typical_hours(model, r)
        if hours is None:
            continue
        gpu = catalog.gpu(r.gpu_id or "")
        n = BENCH[r.benchmark][0]
        low, high = efficiency.interval(
            model, efficiency.groups_of(gpu.mfu_class, n, False, r.precision == "fp8")
        )
        ratio = r.gpu_hours / hours
        out.append((r, ratio, low <= ratio <= high))
    return out


def _median_factor(errors: list[float]) -> float:
    return math.exp(statistics.median(errors)) if errors else math.nan


def figures(model: EfficiencyModel = CALIBRATED, data: Any = None) -> TrainingFigures:
    """The fit, leave-one-series-out and held-apart figures of the scale-out exponent and the tuned end."""
    rows = load_rows(data)
    fit_rows = [r for r in rows if not r.held_apart]
    held = [r for r in rows if r.held_apart]
    gpt3 = series_of([r for r in fit_rows if r.benchmark == "gpt3"])
    loo = [slope({k: v for k, v in gpt3.items() if k != key}) for key in gpt3]
    held_gpt3 = series_of([r for r in held if r.benchmark == "gpt3"])
    counted = [inside(model, fit_rows), inside(model, held)]
    return TrainingFigures(
        alpha=fit_alpha(fit_rows),
        alpha_held=fit_alpha(held),
        alpha_loo=(min(loo), max(loo)),
        slope_fit_median=_median_factor(slope_errors(gpt3, model.scale_alpha)),
        slope_held_median=_median_factor(slope_errors(held_gpt3, model.scale_alpha)),
        tuned=fit_tuned(model, fit_rows),
        tuned_held=fit_tuned(model, held),
        inside_fit=(sum(x for _, _, x in counted[0]), len(counted[0])),
        inside_held=(sum(x for _, _, x in counted[1]), len(counted[1])),
    )


def report_training(model: EfficiencyModel = CALIBRATED, data: Any = None) -> str:
    """The MLPerf Training section of ``sizing-bot validate``."""
    rows = load_rows(data)
    f = figures(model, data)
    lines = [
        "training time: MLPerf Training v3.0–v4.1 closed (GPT-3 175B, Llama 2 70B LoRA), GPU-hours",
        f"held apart (chosen before fitting): the {HELD_APART_ROUND} round; fitted on v3.0, v3.1, v4.0",
        f"{'row':<58}{'reported h':>11}{'typical h':>11}{'ratio':>7}  80 %  set",
    ]
    for r, ratio, ok in inside(model, rows):
        hours = r.gpu_hours / ratio
        where = "held-apart" if r.held_apart else "fit"
        lines.append(
            f"{r.label[:57]:<58}{r.gpu_hours:>11,.1f}{hours:>11,.1f}{ratio:>7.2f}  "
            f"{'in ' if ok else 'OUT'}   {where}"
        )
    lora = {f"{k[0]} {k[2]}": round(slope({k: v}), 2) for k, v in series_of(rows).items() if k[1] != "gpt3"}
    lines += [
        "ratio = reported / typical (the estimator's likely GPU-hours at the row's GPU count)",
        f"scale-out exponent alpha (GPU-hours ∝ GPUs^alpha beyond a job's reference count): shipped "
        f"{model.scale_alpha:g}; fitted on the fit rounds' GPT-3 series {f.alpha:g} (leave-one-series-out "
        f"{f.alpha_loo[0]:.3f}–{f.alpha_loo[1]:.3f}); the held-apart round alone gives {f.alpha_held:g}",
        f"  GPU-hours from each series' smallest system at the shipped alpha: median error "
        f"×{f.slope_fit_median:.3f} on fit series, ×{f.slope_held_median:.3f} on held-apart series",
        f"  Llama 2 70B LoRA series (minutes-long jobs, not fitted): slopes {lora}",
        f"tuned end (GPU-hours of tuned FP8 runs ÷ typical): shipped ×{model.tuned_factor:g}; fitted on the "
        f"fit rounds ×{f.tuned:g}; the held-apart round alone ×{f.tuned_held:g}",
        f"fit rows inside the 80 % interval: {f.inside_fit[0]}/{f.inside_fit[1]}"
        f" ({f.inside_fit[0] / f.inside_fit[1]:.0%})",
        f"held-apart rows inside the 80 % interval: {f.inside_held[0]}/{f.inside_held[1]}"
        f" ({f.inside_held[0] / f.inside_held[1]:.0%}; target ≥ 80 %)",
    ]
    return "\n".join(lines)
