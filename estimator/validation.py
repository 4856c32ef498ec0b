"""`sizing-bot validate`: the estimator against published training runs (pure; the CLI reads files).

Runs every run with GPU-hours through the estimator using only what a user would type (model
size, tokens, GPU type, FP8 or not, sequence length beyond 8K — not the reported MFU) and gives run,
GPU, reported GPU-hours, our likely estimate, the ratio, whether the reported value lies in our 80 %
interval, and the leave-one-out ratio (the run predicted by a model fitted without it); then the
median and 90th-percentile error factor and the interval's coverage on leave-one-out, on a fixed
held-out split (fitted on the rest) and on all runs, next to the interval's width. Then the
fine-tuning memory section (:mod:`estimator.validation_memory`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from typing import Any

from estimator import attention, catalog
from estimator.architecture import shape_for_size
from estimator.calibration import (
    Run,
    estimated_hours,
    evaluate,
    evaluate_held_out,
    evaluate_loo,
    loo_residuals,
    run_groups,
    split,
)
from estimator.efficiency import CALIBRATED, interval
from estimator.validation_kinds import report_kinds
from estimator.validation_kinds import shares as kinds_shares
from estimator.validation_memory import TARGET_INSIDE, cases
from estimator.validation_memory import evaluate as evaluate_memory
from estimator.validation_memory import report as memory_report
from estimator.validation_serving import report_serving, shipped_shares
from estimator.validation_training import figures as mlperf_figures
from estimator.validation_training import report_training


def shipped_runs() -> Any:
    """The published runs shipped in the package (``estimator/data/training_runs.json``, a copy of the
    project corpus), parsed."""
    text = resources.files("estimator").joinpath("data", "training_runs.json").read_text(encoding="utf-8")
    return json.loads(text)


def load_runs(data: Any = None) -> tuple[list[Run], list[str]]:
    """Runs usable for validation (GPU in the catalog, tokens and GPU-hours known), and the ids skipped.

    ``data``: a parsed ``training_runs.json`` (``{"runs": [...]}`` or a list); default :func:`shipped_runs`.
    Raises KeyError / TypeError / ValueError for a malformed one.
    """
    if data is None:
        data = shipped_runs()
    runs: list[Run] = []
    skipped: list[str] = []
    gpus = catalog.gpus()
    for r in data["runs"] if isinstance(data, dict) else data:
        hours = r.get("reported_gpu_hours") or r.get("derived_gpu_hours")
        gpu = gpus.get(r.get("gpu_type") or "")
        if not hours or gpu is None or not r.get("training_tokens_b") or not r.get("total_params_b"):
            skipped.append(r.get("id", "?"))
            continue
        active = r.get("active_params_b")
        total = r["total_params_b"] * 1e9
        tokens = r["training_tokens_b"] * 1e9
        runs.append(
            Run(
                id=r["id"],
                gpu_id=gpu.id,
                mfu_class=gpu.mfu_class,
                peak_flops=gpu.peak_flops_16bit,
                params_total=total,
                params_active=active * 1e9 if active else None,
                tokens=tokens,
                reported_gpu_hours=float(hours),
                fp8=is_fp8(r.get("precision")),
                time_factor=_time_factor(r, (active * 1e9) if active else total, tokens),
                comparable=r.get("comparable", True) is not False,
                gpus=r.get("gpu_count"),
            )
        )
    return runs, skipped


MIN_RUNS = 4
"""Fewer comparable runs than this: no leave-one-out or held-out figures (nothing to fit on)."""


def is_fp8(precision: str | None) -> bool:
    """A run whose GEMMs ran in FP8: its precision field starts with 'fp8' ('fp8 mixed (…)')."""
    return bool(precision) and str(precision).lower().startswith("fp8")


def _time_factor(r: dict, n_active: float, tokens: float) -> float:
    """A run's attention beyond the calibration context (:func:`estimator.attention.time_factor`):
    ``seq_len`` one value or one per phase (``phase_tokens_b`` tokens each, else equal shares); the
    attention shape from ``catalog_model``, else the generic shape of its size. 1.0 without seq_len."""
    seqs = r.get("seq_len")
    if not seqs:
        return 1.0
    seqs = seqs if isinstance(seqs, list) else [seqs]
    phases = r.get("phase_tokens_b") or [tokens / 1e9 / len(seqs)] * len(seqs)
    spec = catalog.models().get(r.get("catalog_model") or "") or shape_for_size(n_active)
    shape = attention.shape_of(spec)
    weighted = sum(attention.time_factor(shape, n_active, s) * t for s, t in zip(seqs, phases, strict=True))
    return weighted / sum(phases)


def _tags(run: Run) -> str:
    tags = [t for t, on in (("FP8", run.fp8), (f"attn×{run.time_factor:.2f}", run.time_factor != 1.0)) if on]
    return " ".join(tags)


def report(data: Any = None) -> str:
    """The validation table and summary as text (``data`` as for :func:`load_runs`)."""
    runs, skipped = load_runs(data)
    if not runs:
        return "no usable runs (need gpu_type in the catalog, training tokens and GPU-hours)"
    comparable = [r for r in runs if r.comparable]
    model = CALIBRATED
    residuals = loo_residuals(comparable) if len(comparable) >= MIN_RUNS else {}
    train, held = split(comparable)
    held_ids = {r.id for r in held}
    lines = [
        "training time: published whole runs (estimator/data/training_runs.json), GPU-hours",
        f"{'run':<31}{'GPU':<16}{'reported h':>12}{'ours (likely)':>15}{'ratio':>7}{'LOO':>7}"
        "  80 %  set       notes",
    ]
    for r in sorted(runs, key=lambda r: r.id):
        ours = estimated_hours(model, r)
        low, high = interval(model, run_groups(r))
        inside = low <= r.reported_gpu_hours / ours <= high
        loo = f"{ours / r.reported_gpu_hours:.2f}" if r.comparable else ""
        if r.id in residuals:
            loo = f"{1 / math.exp(residuals[r.id]):.2f}"
        where = "held-out" if r.id in held_ids else "fit" if r.comparable else "excluded"
        lines.append(
            f"{r.id:<31}{r.gpu_id:<16}{r.reported_gpu_hours:>12,.0f}{ours:>15,.0f}"
            f"{ours / r.reported_gpu_hours:>7.2f}{loo:>7}  {'in ' if inside else 'OUT'}   "
            f"{where:<10}{_tags(r)}"
        )
    lines.append("")
    lines.append("ratio = ours / reported; LOO = the same with the model refitted without that run")
    rows = []
    held_model = None
    if residuals:
        rows.append(
            (
                "leave-one-out",
                evaluate_loo(comparable, residuals),
                "each run vs a model and interval fitted without it",
            )
        )
    if len(train) >= MIN_RUNS and held:
        held_model, held_metrics = evaluate_held_out(comparable)
        rows.append(("held-out", held_metrics, f"fitted on the other {len(train)} runs (fixed split)"))
    rows.append(("all runs", evaluate(model, comparable), "the shipped model, in-sample"))
    for name, m, how in rows:
        lines.append(
            f"{name:<14} runs {m.runs:>3}   median error ×{m.median_error:.3f}   "
            f"p90 error ×{m.p90_error:.2f}   80 % interval coverage {m.coverage:.0%}   ({how})"
        )
    lines.append(
        f"80 % interval: ×{model.band_low:g}–×{model.band_high:g} of the likely GPU-hours "
        f"(width high/low ×{model.band_high / model.band_low:.2f}; "
        f"from {len(comparable)} leave-one-out residuals)"
    )
    for group, scale in model.wider:
        low, high = interval(model, (group,))
        lines.append(
            f"  wider for {group} runs (scatter ×{scale:g} the pooled): ×{low:.3f}–×{high:.3f} "
            f"(width ×{high / low:.2f})"
        )
    low, high = interval(model, ("fp8", "h100"))
    lines.append(
        f"  FP8 on H100-class: ×{low:.3f}–×{high:.3f}, the low end what tuned runs reach (MLPerf, below)"
    )
    if held_model is not None:
        lines.append(f"held-out split's own interval: ×{held_model.band_low:g}–×{held_model.band_high:g}")
    excluded = [r for r in runs if not r.comparable]
    if excluded:
        lines.append(f"excluded as not comparable (see their records): {', '.join(r.id for r in excluded)}")
    if skipped:
        lines.append(f"skipped {len(skipped)} runs without usable GPU-hours, GPU or tokens")
    lines += ["", *_sections()]
    return "\n".join(lines)


def _sections() -> list[str]:
    """The sections after the published runs': MLPerf Training, small models and small-active MoE,
    fine-tuning memory, serving speed, and the per-kind summary, blank lines between them."""
    parts = [report_training(), report_kinds(), memory_report(), report_serving(), "\n".join(summary_lines())]
    return "\n\n".join(parts).split("\n")


@dataclass(frozen=True)
class KindFigures:
    """Done-when figures per kind, as (inside, rows) on the fit data and on the held-apart data."""

    memory_fit: tuple[int, int]
    memory_held: tuple[int, int]
    training_fit: tuple[int, int]
    training_held: tuple[int, int]
    serving_fit: tuple[int, int]
    serving_held: tuple[int, int]
    kinds_fit: tuple[int, int] = (0, 0)
    """small models and small-active MoE (:mod:`estimator.validation_kinds`), inside the interval"""
    kinds_held: tuple[int, int] = (0, 0)


def kind_figures() -> KindFigures:
    """Fine-tuning memory inside its band, training GPU-hours inside the 80 % interval (published runs'
    fixed split + MLPerf Training; held apart: the split's held-out runs and the v4.1 round), serving
    tokens/s within ×1.3 (held apart: five submitters) — each on the fit part and the held-apart part."""
    results = [evaluate_memory(c) for c in cases()[0]]
    memory = [[r.inside for r in results if r.case.held == held] for held in (False, True)]
    runs = [r for r in load_runs()[0] if r.comparable]
    train, held_runs = split(runs)
    in_fit = evaluate(CALIBRATED, train).coverage
    _, held_metrics = evaluate_held_out(runs)
    mlperf = mlperf_figures()
    serving_fit, serving_held = shipped_shares()
    corpus_fit = round(in_fit * len(train))
    corpus_held = round(held_metrics.coverage * len(held_runs))
    kinds_fit, kinds_held = kinds_shares()
    return KindFigures(
        memory_fit=(sum(memory[0]), len(memory[0])),
        memory_held=(sum(memory[1]), len(memory[1])),
        training_fit=(corpus_fit + mlperf.inside_fit[0], len(train) + mlperf.inside_fit[1]),
        training_held=(corpus_held + mlperf.inside_held[0], len(held_runs) + mlperf.inside_held[1]),
        serving_fit=serving_fit,
        serving_held=serving_held,
        kinds_fit=kinds_fit,
        kinds_held=kinds_held,
    )


def summary_lines() -> list[str]:
    """The per-kind summary closing ``sizing-bot validate`` (issue 25's done-when figures)."""
    f = kind_figures()

    def share(pair: tuple[int, int]) -> str:
        return f"{pair[0]:>3}/{pair[1]:<3} ({pair[0] / pair[1]:.0%})"

    return [
        "summary per kind (held-apart data is never fitted on)      fit data           held-apart data",
        f"fine-tuning memory: measured GiB inside the band         {share(f.memory_fit)}   "
        f"{share(f.memory_held)}  target ≥ {TARGET_INSIDE:.0%}",
        f"training time: GPU-hours inside the 80 % interval        {share(f.training_fit)}   "
        f"{share(f.training_held)}  target ≥ 80%",
        f"serving speed: tokens/s within ×1.3                      {share(f.serving_fit)}   "
        f"{share(f.serving_held)}  target ≥ 80%",
        f"  of training time: small (< 1B) and small-active MoE runs {share(f.kinds_fit)}   "
        f"{share(f.kinds_held)}  (not in the training line above)",
    ]
