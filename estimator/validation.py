"""`sizing-bot validate`: the estimator against published training runs (pure; the CLI reads files).

Runs every run with GPU-hours through the estimator using only what a user would type (model
size, tokens, GPU type — not the reported MFU) and gives run, GPU, reported GPU-hours, our likely
estimate, the ratio and whether the reported value lies in our band; then the median and
90th-percentile error factor and the band coverage, for the held-out runs, the fitted ones and all.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from estimator import catalog, compute
from estimator.calibration import Run, evaluate, split
from estimator.efficiency import CALIBRATED, likely_mfu


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
        runs.append(
            Run(
                id=r["id"], gpu_id=gpu.id, mfu_class=gpu.mfu_class,
                peak_flops=gpu.peak_flops_16bit, params_total=r["total_params_b"] * 1e9,
                params_active=active * 1e9 if active else None, tokens=r["training_tokens_b"] * 1e9,
                reported_gpu_hours=float(hours),
            )
        )
    return runs, skipped


def report(data: Any = None) -> str:
    """The validation table and summary as text (``data`` as for :func:`load_runs`)."""
    runs, skipped = load_runs(data)
    if not runs:
        return "no usable runs (need gpu_type in the catalog, training tokens and GPU-hours)"
    train, held = split(runs)
    held_ids = {r.id for r in held}
    model = CALIBRATED
    lines = [
        f"{'run':<24}{'GPU':<16}{'reported h':>13}{'ours (likely)':>15}{'ratio':>7}  band  set",
    ]
    for r in sorted(runs, key=lambda r: r.id):
        mfu = likely_mfu(model, r.mfu_class, r.n_compute, r.params_active is not None)
        ours = compute.gpu_hours(compute.training_flops(r.n_compute, r.tokens), r.peak_flops, mfu)
        ratio = ours / r.reported_gpu_hours
        inside = model.band_low <= r.reported_gpu_hours / ours <= model.band_high
        lines.append(
            f"{r.id:<24}{r.gpu_id:<16}{r.reported_gpu_hours:>13,.0f}{ours:>15,.0f}{ratio:>7.2f}  "
            f"{'in ' if inside else 'OUT'}   {'held-out' if r.id in held_ids else 'fit'}"
        )
    lines.append("")
    for name, subset in (("held-out", held), ("fitted", train), ("all", runs)):
        m = evaluate(model, subset)
        lines.append(
            f"{name:<9} runs {m.runs:>3}   median error ×{m.median_error:.2f}   "
            f"p90 error ×{m.p90_error:.2f}   band coverage {m.coverage:.0%}"
        )
    lines.append(f"band: ×{model.band_low:g}–×{model.band_high:g} of the likely GPU-hours "
                 f"(high/low = {model.band_high / model.band_low:.2f})")
    if skipped:
        lines.append(f"skipped {len(skipped)} runs without usable GPU-hours, GPU or tokens")
    return "\n".join(lines)
