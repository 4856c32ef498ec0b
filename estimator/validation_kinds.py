"""Small dense models (< 1B) and small-active MoE (issue 25, item 2): their own efficiency terms, fitted
on runs gathered for them, with a part held apart from every fit (pure; no I/O but the packaged data).

Data: ``estimator/data/measured/small_moe_runs.json`` (each row's source and how its GPU-hours were
read or derived are in the file). Issue 25 found the calibrated model ×0.34 optimistic for a 135M model
and ×0.5 for fine-grained MoE with under 1B non-embedding active parameters; the published whole runs
behind :mod:`estimator.calibration` have no dense run below 1B off A100-class cards and no MoE below 3B
active, so these terms leave every figure there unchanged.

HELD APART (by a rule on what the rows are, set before any constant was fitted — the rows' ratios
under the old model were known): the A100-class small rows (nanoGPT, llm.c on A100) —
A100-class keeps the seed's size rule (Pythia's slope), so they check it and the interval without
informing any fit — and the one coarse-expert MoE (JetMoE-8B: 8 experts, top-2), which checks that the
MoE term carries from fine-grained experts to small-active MoE in general.

SIZE TERM (``EfficiencyModel.small_slope``): dense models below 1B on cards other than A100-class get MFU
× (N / 1B)^s; s minimises the mean |ln(reported / typical GPU-hours)| of the fit part's *typical* small
rows over :data:`SLOPE_GRID` (ties: the least biased), as :func:`estimator.calibration.fit` does.

SMALL-ACTIVE MoE FACTOR (``EfficiencyModel.fine_moe_factor``): the same fit over :data:`MOE_GRID` on the
fit part's MoE rows, replacing the MoE factor (0.7, fitted on Phi-3.5-MoE and DeepSeek-V2) below 3B
active parameters.

TUNED END (``EfficiencyModel.small_tuned_factor``): the ⌊0.1·(n+1)⌋-th smallest (at least the smallest)
reported ÷ typical GPU-hours of the fit part's *tuned* small rows (llm.c, nanochat), rounded down to
0.01, as :func:`estimator.validation_training.fit_tuned` does for MLPerf: the interval's low end for tiny
models reaches it.

INT8 TRAINING (``EfficiencyModel.int8_factor``): the geometric mean, to 0.01, of the end-to-end int8 ÷
bf16 training speed-ups measured by the fit part of ``int8_speedups`` (SwitchBack's 13–25 %); Jetfire's
×1.42 (INT8 data flow through every operator, one transformer block) is held apart: its GPU-hours would
lie at 1.19 / 1.42 of ours, checked against the interval's low end.

INTERVAL (``EfficiencyModel.kind_wider``): each kind's log-interval is widened by its fit rows' mean
|leave-one-out ln residual| over the pooled one of the published runs (the locally weighted conformal
scale of :func:`estimator.calibration.interval`), when above 1 and the kind has at least
:data:`estimator.calibration.MIN_GROUP_RUNS` fit rows — as for the published runs' groups. With two fit
rows per kind today neither is widened; ``sizing-bot validate`` prints the scale they would give.
"""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

from estimator import catalog, compute, efficiency
from estimator.efficiency import CALIBRATED, EfficiencyModel

SLOPE_GRID: tuple[float, ...] = tuple(round(0.01 * i, 2) for i in range(61))
"""Searched size exponents 0–0.60 (0: no size term, as before issue 25)."""

MOE_GRID: tuple[float, ...] = tuple(round(0.30 + 0.01 * i, 2) for i in range(51))
"""Searched small-active MoE factors 0.30–0.80 (0.7: the large-MoE factor)."""


@dataclass(frozen=True)
class KRow:
    """One gathered run, reduced to what a user would type plus the GPU-hours the source gives."""

    id: str
    kind: str
    """'small' (dense, < 1B) or 'moe' (small-active MoE)"""
    role: str
    """'typical' or 'tuned'"""
    held: bool
    gpu_id: str
    mfu_class: str
    peak_flops: float
    params: float
    """active parameters for an MoE, all parameters for a dense model"""
    tokens: float
    gpu_hours: float
    gpus: int
    fp8: bool


def load_rows(data: Any = None) -> list[KRow]:
    """The rows of ``small_moe_runs.json`` whose GPU is in the catalog."""
    if data is None:
        path = resources.files("estimator").joinpath("data", "measured", "small_moe_runs.json")
        data = json.loads(path.read_text(encoding="utf-8"))
    gpus = catalog.gpus()
    out = []
    for r in data["rows"]:
        gpu = gpus.get(r["gpu_type"])
        if gpu is None:
            continue
        params = (r.get("active_params_b") or r["total_params_b"]) * 1e9
        out.append(
            KRow(
                r["id"], r["kind"], r["role"], r["set"] == "held", gpu.id, gpu.mfu_class,
                gpu.peak_flops_16bit, params, r["training_tokens_b"] * 1e9, float(r["gpu_hours"]),
                int(r["gpu_count"]), r.get("precision") == "fp8" and gpu.has_fp8,
            )
        )  # fmt: skip
    return out


def typical_hours(model: EfficiencyModel, r: KRow) -> float:
    """The estimator's likely GPU-hours for the row's job on its GPUs: 6·N·D / (16-bit peak × likely
    MFU × scale-out), as :func:`estimator.calibration.estimated_hours`."""
    mfu = efficiency.likely_mfu(model, r.mfu_class, r.params, r.kind == "moe", r.fp8)
    hours = compute.gpu_hours(compute.training_flops(r.params, r.tokens), r.peak_flops, mfu)
    reference = efficiency.reference_gpus(model, hours)
    return hours / efficiency.scale_factor(model, r.gpus, reference)


def _log_ratio(model: EfficiencyModel, r: KRow) -> float:
    """ln(reported / typical GPU-hours): > 0 when the run took longer than we say."""
    return math.log(r.gpu_hours / typical_hours(model, r))


def _fit_rows(rows: list[KRow], kind: str) -> list[KRow]:
    """The fit part's typical rows of ``kind`` that the kind's term applies to (no A100-class small)."""
    return [
        r
        for r in rows
        if r.kind == kind and r.role == "typical" and not r.held and (kind == "moe" or r.mfu_class != "a100")
    ]


def _best(model: EfficiencyModel, name: str, grid: tuple[float, ...], rows: list[KRow]) -> EfficiencyModel:
    """``model`` with ``name`` set to the grid value of least mean |ln ratio| on ``rows``, then least
    |mean ln ratio| (an even number of rows leaves a range of minimisers), then the first."""
    if not rows:
        return model

    def score(m: EfficiencyModel) -> tuple[float, float]:
        logs = [_log_ratio(m, r) for r in rows]
        return round(statistics.fmean(abs(x) for x in logs), 12), round(abs(statistics.fmean(logs)), 12)

    return min((replace(model, **{name: v}) for v in grid), key=score)


def fit(rows: list[KRow], model: EfficiencyModel = CALIBRATED) -> EfficiencyModel:
    """The size exponent on the typical small rows, the small-active MoE factor on the MoE rows (both
    of the rows given: pass the fit part), then the tuned end on the tuned small rows."""
    model = _best(model, "small_slope", SLOPE_GRID, _fit_rows(rows, "small"))
    model = _best(model, "fine_moe_factor", MOE_GRID, _fit_rows(rows, "moe"))
    tuned = sorted(math.exp(_log_ratio(model, r)) for r in rows if r.role == "tuned" and not r.held)
    if tuned:
        k = max(1, math.floor(0.1 * (len(tuned) + 1)))
        model = replace(model, small_tuned_factor=math.floor(tuned[k - 1] * 100) / 100)
    return model


def _int8_data(data: Any = None) -> list[dict]:
    if data is None:
        path = resources.files("estimator").joinpath("data", "measured", "small_moe_runs.json")
        data = json.loads(path.read_text(encoding="utf-8"))
    return list(data.get("int8_speedups", []))


def fit_int8(data: Any = None) -> float:
    """The int8 factor: the geometric mean of the fit part's measured speed-ups, to 0.01."""
    fit_part = [r["speedup"] for r in _int8_data(data) if r["set"] == "fit"]
    return round(math.exp(statistics.fmean(math.log(x) for x in fit_part)), 2)


def int8_lines(model: EfficiencyModel = CALIBRATED, data: Any = None) -> list[str]:
    """The int8 factor's line of ``sizing-bot validate``: shipped, refitted, leave-one-out errors and
    the held-apart rows' GPU-hours ÷ ours against the interval."""
    rows = _int8_data(data)
    fit_part = [r["speedup"] for r in rows if r["set"] == "fit"]
    loo = [x / math.exp(statistics.fmean(math.log(y) for y in fit_part if y is not x)) for x in fit_part]
    held = []
    for r in (r for r in rows if r["set"] == "held"):
        ratio = model.int8_factor / r["speedup"]
        low, high = efficiency.interval(model, ())
        where = "in" if low <= ratio <= high else "OUT"
        held.append(f"{r['id']} ×{r['speedup']:g}: GPU-hours ×{ratio:.2f} of ours, {where}")
    return [
        f"int8 training factor (int8 GEMMs ÷ bf16 speed): shipped ×{model.int8_factor:g}, refitted "
        f"×{fit_int8(data):g} on {', '.join(f'×{x:g}' for x in fit_part)}; leave-one-out error "
        f"{', '.join(f'×{max(e, 1 / e):.2f}' for e in loo)}; held apart: {'; '.join(held) or 'none'}"
    ]


def loo_residuals(rows: list[KRow], kind: str, model: EfficiencyModel = CALIBRATED) -> dict[str, float]:
    """ln(reported / typical) of each fit row of ``kind`` under the model refitted without it."""
    chosen = _fit_rows(rows, kind)
    out = {}
    for r in chosen:
        others = [o for o in rows if o is not r]
        out[r.id] = _log_ratio(fit(others, model), r)
    return out


def pooled_scatter() -> float:
    """Mean |leave-one-out ln residual| of the comparable published runs (the pool of
    :func:`estimator.calibration.interval`)."""
    from estimator.calibration import loo_residuals as corpus_loo
    from estimator.validation import load_runs

    runs = [r for r in load_runs()[0] if r.comparable]
    return statistics.fmean(abs(x) for x in corpus_loo(runs).values())


def scatter_ratios(rows: list[KRow], model: EfficiencyModel = CALIBRATED) -> dict[str, tuple[float, int]]:
    """group → (mean |leave-one-out ln residual| of the kind's fit rows / the pooled one, fit rows)."""
    pooled = pooled_scatter()
    out = {}
    for kind, group in (("moe", "fine_moe"), ("small", "tiny")):
        residuals = loo_residuals(rows, kind, model)
        if residuals:
            out[group] = (statistics.fmean(abs(x) for x in residuals.values()) / pooled, len(residuals))
    return out


def kind_wider(rows: list[KRow], model: EfficiencyModel = CALIBRATED) -> tuple[tuple[str, float], ...]:
    """(group, scale) for each kind whose fit rows scatter more than the pool, with at least
    :data:`estimator.calibration.MIN_GROUP_RUNS` fit rows (module docstring)."""
    from estimator.calibration import MIN_GROUP_RUNS

    ratios = scatter_ratios(rows, model)
    return tuple((g, round(r, 2)) for g, (r, n) in ratios.items() if r > 1.0 and n >= MIN_GROUP_RUNS)


def calibrate(rows: list[KRow] | None = None, model: EfficiencyModel = CALIBRATED) -> EfficiencyModel:
    """The shipped constants of this module: :func:`fit` on every row not held apart, the interval's
    widening from their leave-one-out residuals."""
    rows = load_rows() if rows is None else rows
    fitted = fit([r for r in rows if not r.held], model)
    wider = kind_wider([r for r in rows if not r.held], model)
    return replace(fitted, kind_wider=wider, int8_factor=fit_int8())


def groups(r: KRow) -> tuple[str, ...]:
    """The interval groups of a row (:func:`estimator.efficiency.groups_of`)."""
    return efficiency.groups_of(r.mfu_class, r.params, r.kind == "moe", r.fp8)


def inside(model: EfficiencyModel, rows: list[KRow]) -> list[tuple[KRow, float, bool]]:
    """Each row: reported ÷ typical GPU-hours and whether it lies in the 80 % interval."""
    out = []
    for r in rows:
        ratio = math.exp(_log_ratio(model, r))
        low, high = efficiency.interval(model, groups(r))
        out.append((r, ratio, low <= ratio <= high))
    return out


def report_kinds(model: EfficiencyModel = CALIBRATED, data: Any = None) -> str:
    """The 'small models and small-active MoE' section of ``sizing-bot validate``."""
    rows = load_rows(data)
    refit = calibrate(rows, model)
    before = replace(
        model, small_slope=0.0, fine_moe_factor=model.moe_factor, small_tuned_factor=1.0, kind_wider=()
    )
    lines = [
        "training time: small dense models (< 1B) and small-active MoE (< 3B active), GPU-hours",
        "held apart (a rule on what the rows are): A100-class small rows; the coarse-expert MoE (JetMoE)",
        f"{'row':<22}{'GPU':<16}{'role':<8}{'reported h':>11}{'typical h':>11}{'ratio':>7}"
        f"{'before':>8}  80 %  set",
    ]
    was = {r.id: ratio for r, ratio, _ in inside(before, rows)}
    for r, ratio, ok in inside(model, rows):
        lines.append(
            f"{r.id:<22}{r.gpu_id:<16}{r.role:<8}{r.gpu_hours:>11,.1f}{r.gpu_hours / ratio:>11,.1f}"
            f"{ratio:>7.2f}{was[r.id]:>8.2f}  {'in ' if ok else 'OUT'}   {'held-apart' if r.held else 'fit'}"
        )
    lines += ["ratio = reported / typical (the estimator's likely GPU-hours); before = without these terms"]
    lines += _constant_lines(model, refit, rows)
    lines += int8_lines(model, data)
    return "\n".join(lines)


def _inside_count(model: EfficiencyModel, rows: list[KRow], held: bool) -> tuple[int, int]:
    """(inside the interval, rows) of the held-apart part or of the fit part."""
    results = [ok for r, _, ok in inside(model, rows) if r.held == held]
    return sum(results), len(results)


def _constant_lines(model: EfficiencyModel, refit: EfficiencyModel, rows: list[KRow]) -> list[str]:
    """Each constant: shipped, refitted here, leave-one-out errors; the inside counts."""
    fit_part = [r for r in rows if not r.held]

    def loo(kind: str) -> str:
        res = loo_residuals(fit_part, kind, model)
        return ", ".join(f"{k} ×{math.exp(abs(v)):.2f}" for k, v in res.items()) or "none"

    fit_in, held_in = _inside_count(model, rows, False), _inside_count(model, rows, True)
    scatter = ", ".join(f"{g} ×{r:.2f} ({n} rows)" for g, (r, n) in scatter_ratios(fit_part, model).items())
    shipped, refitted = dict(model.kind_wider) or "none", dict(refit.kind_wider) or "none"
    return [
        f"size exponent below 1B (not A100-class): shipped {model.small_slope:g}, refitted "
        f"{refit.small_slope:g}; leave-one-out error {loo('small')}",
        f"small-active MoE factor: shipped {model.fine_moe_factor:g}, refitted {refit.fine_moe_factor:g} "
        f"(large MoE: {model.moe_factor:g}); leave-one-out error {loo('moe')}",
        f"tuned end for tiny models (tuned ÷ typical GPU-hours): shipped ×{model.small_tuned_factor:g}, "
        f"refitted ×{refit.small_tuned_factor:g}",
        f"interval widening: shipped {shipped}, refitted {refitted} (leave-one-out scatter over the "
        f"pooled one: {scatter}; a kind needs 3 fit rows to widen)",
        f"fit rows inside the 80 % interval: {fit_in[0]}/{fit_in[1]}",
        f"held-apart rows inside the 80 % interval: {held_in[0]}/{held_in[1]}",
    ]


def shares(model: EfficiencyModel = CALIBRATED) -> tuple[tuple[int, int], tuple[int, int]]:
    """(inside, rows) on the fit part and on the held-apart part (the per-kind summary)."""
    rows = load_rows()
    return _inside_count(model, rows, False), _inside_count(model, rows, True)
