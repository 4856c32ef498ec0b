"""End-to-end MFU to expect for a training run: a small calibrated model instead of a flat 40 %.

likely MFU = base(accelerator generation, model size) × (MoE factor if MoE)

Classes are the catalog's ``GpuSpec.mfu_class`` (data, with the GPU):

* A100-class (A100, A800): 40 % at 7B and above — the seed's rule, kept exact (Llama 2 7B–70B on
  A100 imply 35–51 %: Touvron et al. 2023, Table 2) — × (N / 7B)^0.09 below 7B (Pythia on A100:
  22 % at 70M to 33 % at 6.9B, Biderman et al. 2023: log(33/22) / log(6.9B/70M) ≈ 0.09).
* H100-class (H100, H800, H200, H20, B200, GB200): a lower plateau, fitted: 28 % from 30B up, × (N/30B)^0.1
  below (Llama 3 70B on H100 ≈ 26–28 %, Nemotron-4 15B 29 %, Phi-4 25 %, Llama 3 8B 16 %: Dubey et
  al. 2024 Table 4; Abdin et al. 2024; NVIDIA 2024).
* V100: 21 % (GPT-3 on V100, PaLM §4 Table 3). Consumer cards and others (TPU, Ascend, AMD, L40S…):
  30 % (PaLM on TPU v4 implies 30 %; the seed's low end) — not calibrated, stated as such.
* MoE: × 0.9 on the active-parameter MFU, fitted (Llama 4 Maverick 27 %, Phi-3.5-MoE 19 % of the
  BF16 peak).

Free parameters (H100 plateau, its size reference and slope, MoE factor; then the band) were
fitted by :func:`estimator.calibration.fit` on the training part of a fixed split of
``training_runs.json`` stratified by accelerator generation (20 of 32 runs) and checked on the
held-out 12 (``sizing-bot validate``): held-out median error ×1.11, 90th percentile ×1.51, band
coverage 67 % (all runs: ×1.15, ×1.60, 81 %; leave-one-out: ×1.19, ×1.67, 78 %).
GPU-hours = 6·N·D / (peak × MFU); the band is [likely × 0.847, likely × 1.694] GPU-hours (ratio 2):
it leans towards more hours because whole runs include restarts, ablations and evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass

from estimator.reasons import Why

BAND_RATIO = 2.0
"""Widest high/low GPU-hours band allowed (issue #6: ratio ≤ 2)."""



@dataclass(frozen=True)
class EfficiencyModel:
    """Parameters of the MFU model (fractions of the dense 16-bit peak; sizes in parameters)."""

    a100_mfu: float = 0.40
    a100_size_ref: float = 7e9
    a100_size_slope: float = 0.09
    h100_mfu: float = 0.28
    h100_size_ref: float = 30e9
    h100_size_slope: float = 0.1
    v100_mfu: float = 0.21
    other_mfu: float = 0.30
    moe_factor: float = 0.9
    band_low: float = 0.847
    band_high: float = 1.694


CALIBRATED = EfficiencyModel()
"""Values reproduced by ``estimator.calibration.fit`` on the fixed training split (tested)."""


def likely_mfu(model: EfficiencyModel, mfu_class: str, params: float, moe: bool) -> float:
    """Likely end-to-end MFU (0–1) for a run of ``params`` (active) parameters on GPUs of ``mfu_class``
    (the catalog's ``GpuSpec.mfu_class``: 'a100', 'h100', 'v100', 'consumer' or 'other')."""
    gen = mfu_class
    if gen == "a100":
        mfu = model.a100_mfu * min(1.0, (params / model.a100_size_ref) ** model.a100_size_slope)
    elif gen == "h100":
        mfu = model.h100_mfu * min(1.0, (params / model.h100_size_ref) ** model.h100_size_slope)
    elif gen == "v100":
        mfu = model.v100_mfu
    else:
        mfu = model.other_mfu
    return mfu * (model.moe_factor if moe else 1.0)


def mfu_band(model: EfficiencyModel, likely: float) -> tuple[float, float, float]:
    """(pessimistic, likely, optimistic) MFU matching the GPU-hours band."""
    return likely / model.band_high, likely, likely / model.band_low


def explain(model: EfficiencyModel, mfu_class: str, params: float, moe: bool) -> tuple[Why, list[Why]]:
    """Why this MFU: the rule for the class (and size) and the further reasons (MoE, calibration);
    keys of :class:`estimator.reasons.Why`, worded in the ledger by the bot."""
    also = [Why.mfu_moe] if moe else []
    if mfu_class == "a100":
        why = Why.mfu_a100_small if params < model.a100_size_ref else Why.mfu_a100
    elif mfu_class == "h100":
        why = Why.mfu_h100
    elif mfu_class == "v100":
        why = Why.mfu_v100
    else:
        return Why.mfu_uncalibrated, also
    return why, [*also, Why.mfu_calibrated]
