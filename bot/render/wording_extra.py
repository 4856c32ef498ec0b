"""Wording of notes kept apart from :mod:`bot.render.wording` (which merges them into its NOTE_MESSAGES)
to keep that module within the 500-line limit: the RL rollout engine's (estimator.rollout) and the
machines the user stated (estimator.resolve)."""

from __future__ import annotations

from bot.render.i18n import N_
from bot.render.note_codes import NoteCode

EXTRA_NOTE_MESSAGES: dict[NoteCode, str] = {
    NoteCode.machines_as_stated: N_(
        "Laid out on your machines of %(gpus_per_node)s GPUs, not the %(catalog_per_node)s-GPU nodes of "
        "%(gpu)s servers: tensor parallelism stays inside one machine, and data or pipeline parallelism "
        "spans the machines over their network."
    ),
    NoteCode.rollout_tp_too_small: N_(
        "The rollout engine's TP %(tp)s does not hold the model: ≈ %(per_gpu_bytes)s per GPU for its share "
        "of the 16-bit weights and of one sequence's KV cache, more than the %(usable_bytes)s vLLM may use "
        "of each %(gpu)s (gpu_memory_utilization %(share)s), so the engine would not start. TP "
        "%(fits_tp)s holds them; any rollout time here is for it."
    ),
    NoteCode.pipeline_never_fits: N_(
        "No pipeline of these GPUs holds the model: even %(pp)s stages of TP %(tp)s, one layer each, leave "
        "no room for it once each stage's own reserve is taken. Choose a card with more memory or lighter "
        "weights (FP8, int4)."
    ),
}
"""Notes on the machines, the rollout engine's layout and a serving pipeline that never fits."""

EXTRA_FIELD_LABELS: dict[str, str] = {
    "rollout_gpu_memory_utilization": N_("Rollout engine's GPU share"),
    "recompute_time_fewest": N_("Full recomputation on the fewest GPUs"),
    "offload_time": N_("CPU offload"),
}
"""Assumption labels merged into :data:`bot.render.wording.FIELD_LABELS` (its 500-line limit)."""
OFFLOAD_UNTIMED = N_(
    "Borderline: it relies on CPU offload — about %(host)s of host RAM per node for the optimizer "
    "states, and slower steps (give the data size to have the time with it)."
)
"""The offload verdict when no time is sized (:data:`bot.render.wording.BORDERLINE_REASONS` 'offload')."""
