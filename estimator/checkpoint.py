"""Checkpoint storage of a training job (bytes): weights only and the full training state.
Split from :mod:`estimator.memory` (whose per-parameter figures it reads)."""

from __future__ import annotations

from estimator.built import checkpoint
from estimator.catalog import ModelSpec
from estimator.model_states import FULL_STATE_BYTES_PER_PARAM, trained_params
from estimator.models import Checkpoint
from estimator.optimizer_states import OPTIMIZER_BYTES_PER_PARAM, optimizer_bytes_per_param
from estimator.setup import TrainingSetup


def checkpoint_bytes(spec: ModelSpec, params: float, setup: TrainingSetup) -> Checkpoint:
    """Checkpoint storage: weights only (bf16 2 bytes per trained parameter: the whole model, or the
    adapters / trained layers / prefix) and the full training state: 16 B per trained parameter with
    mixed-precision AdamW (:data:`FULL_STATE_BYTES_PER_PARAM`); another optimizer or no fp32 master copy
    swaps AdamW's 12 B of states for its own (:func:`optimizer_bytes_per_param`, paged or not: the
    states are saved either way) — 8-bit AdamW 10 B, pure bf16 AdamW 8 B."""
    trained = trained_params(spec, params, setup)
    states = optimizer_bytes_per_param(setup.optimizer, setup.master_weights, paged=False)
    per_param = FULL_STATE_BYTES_PER_PARAM - OPTIMIZER_BYTES_PER_PARAM["adamw"] + states
    return checkpoint(2.0 * trained, per_param * trained)  # Checkpoint(weights=…, full_state=…)
