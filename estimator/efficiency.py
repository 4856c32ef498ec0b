"""End-to-end MFU to expect for a training run, and the 80 % prediction interval around its time.

likely MFU = base(accelerator generation, model size) × (MoE factor if MoE) × (FP8 factor if FP8)

Classes are the catalog's ``GpuSpec.mfu_class`` (data, with the GPU):

* A100-class (A100, A800): 40 % at 7B and above — the seed's rule, kept exact (Llama 2 7B–70B on
  A100 imply 35–43 %: 6·N·2T over Touvron et al. 2023, Table 2's GPU-hours at 312 TFLOPS) —
  × (N / 7B)^0.09 below 7B (Pythia on A100: 22 % at 70M to 33 % at 6.9B, Biderman et al. 2023:
  log(33/22) / log(6.9B/70M) ≈ 0.09).
* H100-class (H100, H800, H200, H20, B200, GB200): one level, fitted on the dense bf16 H100/H800 runs
  (28 % with the scale-out term, 26 % without it: Llama 3 70B 28 %, Llama 3.1 405B 33 %, Nemotron-4
  15B 29 %, Phi-4 24 %, SmolLM3 26 %, Llama 3 8B 16 %, DeepSeek LLM 67B 38 %; Dubey et al. 2024;
  NVIDIA 2024; Abdin et al. 2024; DeepSeek-AI 2024).
  These runs show no size trend, so there is none.
* V100: 21 % (GPT-3 on V100, PaLM §4 Table 3). Consumer cards and others (TPU, Ascend, AMD, L40S…):
  30 % (PaLM on TPU v4 implies 30 %; the seed's low end) — not calibrated, stated as such.
* AMD CDNA3 (MI300X, :func:`class_of`): no whole published run to calibrate on, but published training
  comparisons put its per-GPU training throughput at or below the H100's — MLPerf Training v5.0 (June
  2025, Llama 2 70B LoRA, one 8-GPU node: MI300X slightly behind H100; AMD's own post: the MI325X, the
  same CDNA3 compute with more memory, up to 8 % ahead of H200) and SemiAnalysis's "MI300X vs H100 vs
  H200 Benchmark Part 1: Training" (Dec 2024: below H100 on AMD's public stable software). At equal
  throughput the MFU is the H100-class level × the ratio of the dense BF16 peaks, 989.4 / 1,307.4
  (:data:`CDNA3_PARITY`): ≈ 21 %, not the 30 % default that made 256 MI300X finish a 13B pre-training 1.4×
  sooner than 256 H100 on peak alone (s41 trial #9). Still not calibrated: said as such.
* MoE: × the MoE factor on the active-parameter MFU, fitted on the bf16 MoE runs (Phi-3.5-MoE 19 %,
  DeepSeek-V2 21 % of the BF16 peak): all-to-all traffic and small expert GEMMs.
* FP8 (GEMMs in FP8 on cards with FP8 tensor cores, when asked): × the FP8 factor, fitted on the FP8
  runs (DeepSeek-V3 35 % of the BF16 peak on H800, Llama 4 Scout 23 % and Maverick 27 % on H100).
  Measured end-to-end FP8/BF16 speed-ups on Hopper are ×1.1–×1.5 (torchao README: ×1.25 at 8B on 8
  GPUs, ×1.5 at 405B on 512; PyTorch "Training using float8 and FSDP2" Table 1: ×1.18–×1.52), not the
  ×2 of the FP8 peak: attention, communication and the non-GEMM work stay in 16-bit (DeepSeek-V3
  §3.3.1). Expressed against the FP8 peak: likely MFU × peak_bf16 / peak_fp8.

The free parameters (H100-class level, MoE and FP8 factors) are fitted by
:func:`estimator.calibration.fit`; the interval is the split-conformal interval of the leave-one-out
residuals (:func:`estimator.calibration.interval`): 80 % of comparable published runs, each predicted
by a model fitted without it, fell within [likely × band_low, likely × band_high] GPU-hours; groups
whose runs scatter more get a wider log-interval (``wider``). ``sizing-bot validate`` prints the
figures: 35 comparable runs; leave-one-out median error ×1.119, p90 ×1.51, interval coverage 86 %
(in-sample 89 %); on the fixed held-out split ×1.142, ×1.51, 85 %.

Issue 25 adds, from MLPerf Training v3.0–v4.0 (v4.1 held apart; :mod:`estimator.validation_training`):
the scale-out term — the same job spread over more GPUs than its reference count (the count finishing
it in ``ref_days`` at the likely MFU, at least one node) loses MFU × (GPUs / reference)^−alpha, alpha
fitted on the GPT-3 175B series (:func:`scale_factor`; each published run is fitted at its own GPU
count) — and the tuned end: for FP8 on H100-class cards the interval's low end reaches
``tuned_factor`` × the likely GPU-hours, what Megatron/NeMo FP8 runs achieve; the likely value stays
a typical whole run's.

Issue 25 also gives small models and small-active MoE their own terms (:mod:`estimator.validation_kinds`,
on ``estimator/data/measured/small_moe_runs.json``, a part held apart): dense models below 1B on cards
other than A100-class × (N / 1B)^small_slope (SmolLM-135M took about a day on 64 H100 for 600B tokens:
the model without it was ×0.41 optimistic); MoE below 3B active × fine_moe_factor instead of the
large-MoE factor (OLMoE-1B-7B, Ling-mini-2.0: ×0.5 optimistic without it); and for tiny models the
interval's low end reaches what hand-tuned small runs achieve (llm.c, nanochat: small_tuned_factor).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from estimator.reasons import Why

if TYPE_CHECKING:
    from estimator.catalog import GpuSpec

GROUPS: tuple[str, ...] = ("fp8", "moe", "small", "h100")
"""Groups of runs whose interval may be wider (:func:`groups_of`)."""

SMALL_PARAMS = 3e9
"""Below this (active) size a run is 'small' for the interval's groups (Pythia, TinyLlama)."""

TINY_PARAMS = 1e9
"""Below this size a dense model is 'tiny' (issue 25): its own size term on cards other than A100-class
(:data:`EfficiencyModel.small_slope`) and an interval reaching down to tuned small runs (llm.c)."""

SMALL_ACTIVE_MOE = 3e9
"""Below this active size an MoE is 'small-active' (OLMoE 1.3B, Ling-mini-2.0 1.43B, JetMoE 2.2B
active): small expert GEMMs, all-to-all per token as for a large MoE — its own factor
(:data:`EfficiencyModel.fine_moe_factor`) instead of the MoE factor fitted on large MoE runs."""


@dataclass(frozen=True)
class EfficiencyModel:
    """Parameters of the MFU model (fractions of the dense 16-bit peak; sizes in parameters) and of
    its 80 % prediction interval (factors on the likely GPU-hours)."""

    a100_mfu: float = 0.40
    a100_size_ref: float = 7e9
    a100_size_slope: float = 0.09
    h100_mfu: float = 0.28
    v100_mfu: float = 0.21
    other_mfu: float = 0.30
    moe_factor: float = 0.7
    fp8_factor: float = 1.35
    band_low: float = 0.764
    band_high: float = 1.604
    wider: tuple[tuple[str, float], ...] = ()
    """groups whose log-interval is widened, and by how much (their runs' scatter / the pooled one)"""
    interval_runs: int = 35
    """comparable published runs behind the interval"""
    loo_coverage: float = 0.86
    """share of them inside the interval built without them (``sizing-bot validate``, leave-one-out)"""
    scale_alpha: float = 0.12
    """scale-out exponent: GPU-hours × (GPUs / reference GPUs)^alpha beyond the reference count
    (:func:`scale_factor`); fitted on the MLPerf Training v3.0–v4.0 GPT-3 175B series
    (:mod:`estimator.validation_training`)"""
    ref_days: float = 22.0
    """whole runs' typical duration, days: the reference count of a job is the one finishing it in
    this many days at the likely MFU (:func:`reference_gpus`); the median duration of the comparable
    published runs that state their GPU count (``estimator/data/training_runs.json``)"""
    small_slope: float = 0.33
    """below :data:`TINY_PARAMS` on cards other than A100-class (whose Pythia slope already covers small
    models), dense: MFU × (N / 1B)^small_slope; fitted on typical small runs (SmolLM-135M on 64 H100,
    SmolLM2-70M on one L40S; :mod:`estimator.validation_kinds`)"""
    small_tuned_factor: float = 0.4
    """GPU-hours of a tuned small run (llm.c, nanochat: hand-tuned kernels) ÷ the typical (likely)
    GPU-hours: the interval's low end for tiny dense models reaches it (:mod:`estimator.validation_kinds`)"""
    fine_moe_factor: float = 0.49
    """× on the MFU of an MoE below :data:`SMALL_ACTIVE_MOE` active parameters, instead of
    ``moe_factor``; fitted on OLMoE-1B-7B (H100) and Ling-mini-2.0 (FP8) measured throughputs
    (:mod:`estimator.validation_kinds`)"""
    kind_wider: tuple[tuple[str, float], ...] = ()
    """groups of :mod:`estimator.validation_kinds` ('tiny', 'fine_moe') whose log-interval is widened:
    the leave-one-out scatter of their fit rows over the pooled scatter of the published runs"""
    int8_factor: float = 1.19
    """× on the bf16 rate for int8 training — int8 matrix multiplications in the linear layers, on cards
    with an INT8 tensor-core peak in the catalog: the geometric mean of SwitchBack's measured 13–25 %
    end-to-end speed-up over bf16 (Wortsman et al. 2023, CLIP ViT-Huge; :mod:`estimator.validation_kinds`)"""
    tuned_factor: float = 0.28
    """GPU-hours of a tuned run (MLPerf-class: Megatron/NeMo with FP8 on H100-class) ÷ the typical
    (likely) GPU-hours: the interval's low end reaches it (:func:`interval`); fitted on the MLPerf
    Training v3.0–v4.0 NVIDIA-class rows (:mod:`estimator.validation_training`)"""


CDNA3_PARITY = 989.4 / 1307.4
"""The H100 SXM's dense BF16 peak ÷ the MI300X's (NVIDIA H100 datasheet 1,979 TFLOPS with sparsity → 989.4
dense; AMD MI300X datasheet 1,307.4 dense): the MFU on CDNA3 at the H100's per-GPU training throughput
(MLPerf Training v5.0, SemiAnalysis Dec 2024: at or below it; module doc)."""


def class_of(gpu: GpuSpec) -> str:
    """The efficiency class of ``gpu``: its catalog ``mfu_class``, or 'cdna3' for an uncalibrated card of
    AMD's CDNA3 generation (``generation`` 'CDNA3': MI300X), timed at the H100's per-GPU throughput (module
    doc)."""
    if gpu.mfu_class == "other" and gpu.generation == "CDNA3":
        return "cdna3"
    return gpu.mfu_class


CALIBRATED = EfficiencyModel()
"""Values reproduced by ``estimator.calibration.calibrate`` on the comparable runs (tested)."""


def likely_mfu(model: EfficiencyModel, mfu_class: str, params: float, moe: bool, fp8: bool = False) -> float:
    """Likely end-to-end MFU (0–1, of the dense 16-bit peak) for a run of ``params`` (active) parameters
    on GPUs of ``mfu_class`` (the catalog's ``GpuSpec.mfu_class``: 'a100', 'h100', 'v100', 'consumer' or
    'other'; 'cdna3' from :func:`class_of`), MoE or not, with FP8 GEMMs or not."""
    if mfu_class == "a100":
        mfu = model.a100_mfu * min(1.0, (params / model.a100_size_ref) ** model.a100_size_slope)
    elif mfu_class == "h100":
        mfu = model.h100_mfu
    elif mfu_class == "v100":
        mfu = model.v100_mfu
    elif mfu_class == "cdna3":  # the H100's throughput per GPU on a larger peak (CDNA3_PARITY)
        mfu = model.h100_mfu * CDNA3_PARITY
    else:
        mfu = model.other_mfu
    if not moe and mfu_class != "a100" and params < TINY_PARAMS:
        mfu *= (params / TINY_PARAMS) ** model.small_slope
    if moe:
        mfu *= model.fine_moe_factor if params < SMALL_ACTIVE_MOE else model.moe_factor
    return mfu * (model.fp8_factor if fp8 else 1.0)


def generation_ratio(old_class: str, new_class: str, params: float, moe: bool = False) -> float:
    """The likely MFU on cards of ``new_class`` ÷ that on ``old_class`` (catalog ``GpuSpec.mfu_class``) for
    the same job of ``params`` (active) parameters: what an MFU measured on one generation becomes on another
    (A100-class 0.40 → H100-class 0.28 for a 7B+ dense job: × 0.7). Published whole runs reach a lower MFU
    on H100-class cards than on A100-class ones (``estimator/data/training_runs.json``, design §3.2), so a
    user's own run is carried over by this ratio, not at its raw value (s17 design review #5)."""
    old = likely_mfu(CALIBRATED, old_class, params, moe)
    return likely_mfu(CALIBRATED, new_class, params, moe) / old if old > 0 else 1.0


def scaled_gpu_hours(gpu_hours: float, old: GpuSpec, new: GpuSpec, params: float) -> float | None:
    """GPU-hours on ``new`` cards of a job that took ``gpu_hours`` on ``old`` ones at the MFU that run
    reached (the same model, method and data; trial s17-2 #4): gpu_hours × old dense 16-bit peak ÷ new peak
    ÷ :func:`generation_ratio` (catalog peaks: 8 A800 × 20 h = 160 × 312 ÷ 989.4 ÷ 0.7 ≈ 72.1 H100-hours).
    None when a card has no 16-bit peak."""
    if not old.peak_flops_16bit or not new.peak_flops_16bit:
        return None
    ratio = generation_ratio(old.mfu_class, new.mfu_class, params)
    return gpu_hours * old.peak_flops_16bit / new.peak_flops_16bit / ratio


def groups_of(mfu_class: str, params: float, moe: bool, fp8: bool) -> tuple[str, ...]:
    """The interval groups (:data:`GROUPS`) a run or a question belongs to."""
    out = []
    if fp8:
        out.append("fp8")
    if moe:
        out.append("moe")
    if params < SMALL_PARAMS:
        out.append("small")
    if mfu_class == "h100":
        out.append("h100")
    if not moe and params < TINY_PARAMS:
        out.append("tiny")
    if moe and params < SMALL_ACTIVE_MOE:
        out.append("fine_moe")
    return tuple(out)


def interval(model: EfficiencyModel, groups: tuple[str, ...]) -> tuple[float, float]:
    """(low, high) factors on the likely GPU-hours: the 80 % prediction interval, widened for the
    groups in ``model.wider`` (the largest of their scales: ln-factors × scale); for FP8 on H100-class
    cards the low end reaches down to a tuned run's (``model.tuned_factor``: Megatron/NeMo FP8, MLPerf)
    — the likely value is where a typical whole run lands. No tuned 16-bit rows exist in MLPerf
    Training v3.0–v4.1, so a 16-bit job's low end stays the conformal one. Tiny dense models (issue 25):
    the low end reaches a tuned small run's (``model.small_tuned_factor``: llm.c, nanochat)."""
    widen = {**dict(model.wider), **dict(model.kind_wider)}
    scale = max([1.0, *(widen.get(g, 1.0) for g in groups)])
    low = math.exp(math.log(model.band_low) * scale)
    if "fp8" in groups and "h100" in groups:
        low = min(low, model.tuned_factor)
    if "tiny" in groups:
        low = min(low, model.small_tuned_factor)
    return low, math.exp(math.log(model.band_high) * scale)


def reference_gpus(model: EfficiencyModel, likely_gpu_hours: float, gpus_per_node: int = 8) -> float:
    """The GPU count a job's likely MFU holds at: the count finishing it in ``model.ref_days`` days
    (whole runs are sized so; :data:`EfficiencyModel.ref_days`), at least one node."""
    return max(float(gpus_per_node), likely_gpu_hours / (24.0 * model.ref_days))


def scale_factor(model: EfficiencyModel, gpus: int | None, reference: float) -> float:
    """Multiplier (≤ 1) on the MFU of a job run on ``gpus`` GPUs when ``reference`` would be its
    natural count (:func:`reference_gpus`): (gpus / reference)^−alpha above it, 1 at or below it and
    when the count is not stated. Strong scaling: the same job on more GPUs leaves less work per GPU
    per step while the communication and the fixed per-run work stay (MLPerf Training GPT-3 175B:
    512 → 10,752 H100 loses ×1.36–1.41 in GPU-hours; alpha = :data:`EfficiencyModel.scale_alpha`)."""
    if not gpus or gpus <= reference:
        return 1.0
    return (gpus / reference) ** -model.scale_alpha


def mfu_band(
    model: EfficiencyModel, likely: float, groups: tuple[str, ...] = ()
) -> tuple[float, float, float]:
    """(pessimistic, likely, optimistic) MFU matching the GPU-hours interval."""
    low, high = interval(model, groups)
    return likely / high, likely, likely / low


def explain(model: EfficiencyModel, mfu_class: str, params: float, moe: bool) -> tuple[Why, list[Why]]:
    """Why this MFU: the rule for the class (and size) and the further reasons (MoE, calibration);
    keys of :class:`estimator.reasons.Why`, worded in the ledger by the bot."""
    also = [Why.mfu_fine_moe if params < SMALL_ACTIVE_MOE else Why.mfu_moe] if moe else []
    if not moe and mfu_class != "a100" and params < TINY_PARAMS:
        also = [Why.mfu_small]
    if mfu_class == "a100":
        why = Why.mfu_a100_small if params < model.a100_size_ref else Why.mfu_a100
    elif mfu_class == "h100":
        why = Why.mfu_h100
    elif mfu_class == "v100":
        why = Why.mfu_v100
    elif mfu_class == "cdna3":
        return Why.mfu_cdna3, also
    else:
        return Why.mfu_uncalibrated, also
    return why, [*also, Why.mfu_calibrated]
