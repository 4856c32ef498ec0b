"""Chart labels (msgids with {brace} placeholders, translated through the Babel catalogs)."""

from typing import Any

from bot.render.i18n import N_

CHART_LABELS: dict[str, str] = {
    "pretrain": N_("pre-training"),
    "continued_pretrain": N_("continued pre-training"),
    "full": N_("full fine-tune"),
    "lora": N_("LoRA fine-tune"),
    "qlora": N_("QLoRA fine-tune"),
    "inference": N_("serving"),
    "tokens": N_("{tokens} tokens"),
    "gpus_axis": N_("GPUs ({gpu})"),
    "days_axis": N_("Days (wall clock)"),
    "hours_axis": N_("Hours (wall clock)"),
    "minutes_axis": N_("Minutes (wall clock)"),
    "likely": N_("Likely (MFU {mfu})"),
    "band": N_("Range (MFU {low}–{high})"),
    "deadline": N_("Deadline: {days} days"),
    "deadline_assumed": N_("Deadline: {days} days (assumed)"),
    "meets": N_("{gpus} GPUs → {days} days"),
    "meets_deadline": N_("{gpus} GPUs → within {deadline} days (≈ {days})"),
    "yours": N_("Your {gpus} GPUs → {days} days"),
    "meets_hours": N_("{gpus} GPUs → {days} hours"),
    "meets_minutes": N_("{gpus} GPUs → {days} minutes"),
    "yours_hours": N_("Your {gpus} GPUs → {days} hours"),
    "yours_minutes": N_("Your {gpus} GPUs → {days} minutes"),
    "cost_title": N_("Total cost {low}–{high}"),
    "cost_formula": N_("{hours} GPU-hours × {price} per GPU-hour"),
    "cost_same": N_("Same for any GPU count:\nmore GPUs finish sooner, not cheaper"),
    "cost_varies": N_("GPU-hours differ by GPU count\n(recomputation, scale-out): see the table"),
    "fit_title": N_("{model} {stage} · {gpu}"),
    "min_gpus": N_("at least {n} GPUs"),
    "min_gpu": N_("fits on 1 GPU"),
    "no_fit": N_("does not fit"),
    "fits_on": N_("fits on {n} GPUs (at least {min} needed)"),
    "no_fit_on": N_("does not fit on {n} GPUs (at least {min} needed)"),
    "no_fit_on_one": N_("does not fit on 1 GPU (at least {min} needed)"),
    "no_fit_as_set": N_("does not fit on {gpus} as set\n{fix}"),
    "no_fit_as_set_min": N_("does not fit on {gpus} as set (at least {min} needed)\n{fix}"),
    "per_gpu": N_("One GPU\n(of {n})"),
    "gib_axis": N_("Memory per GPU (GiB) · {layout}"),
    "capacity": N_("{gpu}: {gib}"),
    "total": N_("Total {gib} ({share} of the card)"),
    "usable": N_("usable {gib}"),
    "serve_title": N_("{model} serving · {n} × {gpu}"),
    "context_axis": N_("Context per sequence (tokens)"),
    "seqs_axis": N_("Max concurrent sequences"),
    "fits_line": N_("Fits on {n} × {gpu} ({layout})"),
    "requested": N_("Requested: {conc} × {ctx}"),
    "requested_over": N_("Requested: {conc} × {ctx} (does not fit)"),
    "serve_box": N_("Weights {weights} ({fmt})\nKV cache {kv} ({conc} × {ctx})\nUsable per GPU {usable}"),
    "parts.weights": N_("weights"),
    "parts.gradients": N_("gradients"),
    "parts.optimizer": N_("optimizer"),
    "parts.adapters": N_("adapters"),
    "parts.activations": N_("activations"),
    "parts.logits": N_("logits"),
    "parts.overhead": N_("overhead"),
    "parts.reference": N_("reference model"),
    "parts.critic": N_("critic"),
    "parts.reward": N_("reward model"),
    "parts.zero_buffers": N_("ZeRO buckets"),
    "parts.layer_workspace": N_("recomputed layer"),
    "parts.gathered_weights": N_("gathered weights"),
    "parts.optimizer_step": N_("optimizer step"),
    "recompute.none": N_("no recompute"),
    "recompute.selective": N_("selective recompute"),
    "recompute.full": N_("full recompute"),
    "offload": N_("CPU offload"),
}
"""Label key → English msgid; the chart formats the translation with ``str.format``."""


def time_label(ctx: Any, key: str, gpus: int, days: float) -> str:
    """A point's label ('meets', 'yours') with its time in the unit the reply's text words it in
    (``Fmt.duration``: '39 minutes', not '0.027 days'; the nearest minute as ``duration.wall_time``; s40
    trial #18)."""
    figure, unit = ctx.f.duration(days)
    figure = ctx.f.int(max(1, round(days * 24 * 60))) if unit == "minutes" else figure
    return ctx.t(key if unit == "days" else f"{key}_{unit}", gpus=ctx.f.int(gpus), days=figure)
