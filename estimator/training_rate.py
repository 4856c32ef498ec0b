"""The training rate: the MFU band a training time uses and the peak it refers to — a throughput the
user measured, their MFU, or the calibrated model (:mod:`estimator.efficiency`), with FP8 training on
cards whose FP8 peak is faster. Split from :mod:`estimator.training` (which re-exports these names).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from estimator import compute, efficiency
from estimator.built import band, days_row
from estimator.built import cost as built_cost
from estimator.built import interval as built_interval
from estimator.catalog import GpuSpec
from estimator.ledger import Ledger
from estimator.models import Band, Cost, DaysRow, Method, Precision, PredictionInterval, SizingRequest
from estimator.reasons import Why

MFU = tuple[float, float, float]
"""(pessimistic, likely, optimistic) MFU."""


def measured_rate(req: SizingRequest, k: float, n: float | None) -> float | None:
    """Model FLOP/s per GPU the user measured: their TFLOPS, or k·N × their tokens per second per GPU
    (the same MFU definition as PaLM App. B: model FLOPs only, no recomputation). None if not given."""
    if req.achieved_tflops_per_gpu:
        return req.achieved_tflops_per_gpu * 1e12
    if req.tokens_per_second_per_gpu and n:
        return k * n * req.tokens_per_second_per_gpu
    return None


def training_peak(gpu: GpuSpec, fp8: bool) -> float:
    """Dense peak FLOP/s the MFU refers to: the FP8 tensor peak when training in FP8, else the 16-bit one."""
    return gpu.peak_tflops_fp8 * 1e12 if fp8 and gpu.peak_tflops_fp8 else gpu.peak_flops_16bit


MEASURED_MFU_PLAUSIBLE = (0.05, 0.65)
"""A measured throughput implying an MFU outside this range is used, with a note asking to check it:
published large runs report 20–55 % (PaLM 46 %, Llama 3 38–43 %, DeepSeek-V3 ~35 % of BF16 peak), tuned
small runs up to ~60 % (MosaicML/Megatron reports); below 5 % usually means a unit slip (TFLOPS per node,
tokens per second for the cluster)."""

QLORA_STEP_FACTOR = 1.39
"""Step time of LoRA over a 4-bit NF4 base (QLoRA) ÷ the same LoRA over a bf16 base: bitsandbytes
de-quantizes every frozen weight in each forward and backward pass (Dettmers et al. 2023, *QLoRA*, §3:
"we dequantize the storage data type to the computation data type"). Measured: LitGPT's
``config_hub/finetune/README.md`` table (Lightning-AI/litgpt; bf16, Alpaca2k, 1 × A10G, same epochs,
sequence length and micro-batch for ``lora.yaml`` and ``qlora.yaml``, ``--quantize bnb.nf4``):
Llama-2-7B 45.67 / 32.82 min = ×1.39, Mistral-7B 44.75 / 31.01 = ×1.44, Gemma-2B 12.91 / 9.41 = ×1.37;
×1.39 is the median of its nine same-setting pairs (×1.08 TinyLlama to ×2.05 Falcon-7B). Applied to the
calibrated MFU (:func:`_calibrated_rate`), never to a rate or MFU the user states. Dimensionless."""

QLORA_MEASURED_BITS = 4
"""The base width the factor was measured at (NF4); an 8-, 3- or 2-bit base (bitsandbytes LLM.int8, HQQ)
is said to be slower, not modelled: no public measurement against bf16 LoRA was found."""

QUANTIZED_BASE_PRECISION_BITS = {Precision.int8: 8, Precision.int4: 4, Precision.int3: 3, Precision.int2: 2}
"""The bit width of a quantized frozen base by the precision the user named (as
:data:`estimator.training_setup.QUANTIZED_PRECISION_BITS`)."""

FP8_MIN_PEAK_RATIO = 1.5
"""FP8 training is timed as such only on cards whose dense FP8 peak is at least 1.5× the BF16 peak (the
Hopper/Ada/Blackwell/MI300 ratio is 2×, NVIDIA and AMD datasheets): the calibrated FP8 factor comes
from Hopper runs (:mod:`estimator.efficiency`)."""


def fp8_training(req: SizingRequest, gpu: GpuSpec, ledger: Ledger) -> bool:
    """FP8 GEMMs when the user asks for FP8 ('FP8训练', 'fp8 mixed precision') on a card with FP8 tensor
    cores (Hopper, Ada, Blackwell, MI300: ``GpuSpec.has_fp8``); else bf16, with a note when FP8 was asked
    on a card without them (design §3.1: never FP8 on such a card)."""
    if req.precision != Precision.fp8:
        return False
    if not gpu.has_fp8 or gpu.generic:
        ledger.note("fp8_not_supported", gpu=gpu.name)
        return False
    if (gpu.peak_tflops_fp8 or 0) < FP8_MIN_PEAK_RATIO * (gpu.peak_tflops_bf16 or 0):
        # the FP8 factor was fitted on Hopper, where FP8 GEMMs run at twice the BF16 peak; a card whose
        # FP8 peak is no higher (Gaudi 3: 1,835 and 1,835 TFLOPS) gains nothing we can source
        ledger.note("fp8_no_faster", gpu=gpu.name)
        return False
    return True


INT8_MIN_PEAK_RATIO = 1.5
"""int8 training is timed as such only on cards whose dense INT8 tensor peak in the catalog is at least
1.5× the 16-bit one (Ampere/Hopper/Ada datasheets: 2×, GeForce 4×): SwitchBack's speed-up was measured
on such cards; a card without an INT8 peak in the catalog is never credited with one."""


def int8_training(req: SizingRequest, gpu: GpuSpec, ledger: Ledger) -> bool:
    """int8 matrix multiplications when the user trains the whole model in int8 ('int8 训练', 'int8
    training'), read as SwitchBack/Jetfire-style int8 GEMMs in the linear layers (not 8-bit optimizer
    states, which save memory only), on a card with an INT8 tensor-core peak in the catalog; else bf16,
    with a note."""
    if req.precision != Precision.int8 or (req.method or Method.full) != Method.full:
        return False
    sixteen = gpu.peak_tflops_bf16 or gpu.peak_tflops_fp16 or 0.0
    if gpu.generic or (gpu.peak_tops_int8 or 0.0) < INT8_MIN_PEAK_RATIO * sixteen:
        ledger.note("int8_not_supported", gpu=gpu.name)
        return False
    return True


def _interval_why(widened: list[str], tuned: bool, tuned_small: bool = False) -> Why:
    """The wording of the interval: reaching down to tuned runs (FP8 on H100-class; tiny models: llm.c),
    widened, or plain."""
    if tuned:
        return Why.mfu_interval_tuned
    if tuned_small:
        return Why.mfu_interval_tuned_small
    return Why.mfu_interval_wider if widened else Why.mfu_interval


class Rate(NamedTuple):
    """The MFU band a training time uses, the peak it is a share of, and what comes with it."""

    mfu: MFU
    peak: float
    """Dense peak FLOP/s per GPU the MFU refers to (:func:`training_peak`)."""
    calibrated: float | None = None
    """The calibrated likely MFU of ``peak``, next to a rate the user stated (comparison only)."""
    interval: PredictionInterval | None = None
    """The calibrated model's 80 % prediction interval of the GPU-hours (no stated rate)."""
    reference: float | None = None
    """The GPU count the likely MFU holds at (:func:`estimator.efficiency.reference_gpus`; calibrated
    rate with a known job size only): the scale-out term moves the time to other counts."""


def quantized_base_bits(req: SizingRequest) -> int | None:
    """Bits of a quantized frozen base: QLoRA (4 unless 8, 3 or 2 bits are stated), or LoRA / P-tuning
    over a base the user quantized (LLaMA-Factory ``quantization_bit``); None for a 16-bit base."""
    method = req.method or Method.full
    bits = QUANTIZED_BASE_PRECISION_BITS.get(req.precision) if req.precision else None
    if method == Method.full or (bits is None and method != Method.qlora):
        return None
    return bits or QLORA_MEASURED_BITS


def _qlora_slowdown(req: SizingRequest) -> tuple[float, list[Why], dict[str, float]]:
    """(divisor of the calibrated MFU, its reasons, their parameters) for a quantized frozen base:
    ÷ :data:`QLORA_STEP_FACTOR` at 4 bits, said as not modelled at other widths."""
    bits = quantized_base_bits(req)
    if bits is None:
        return 1.0, [], {}
    if bits != QLORA_MEASURED_BITS:
        return 1.0, [Why.mfu_quantized_base_unmodelled], {"bits": bits}
    return QLORA_STEP_FACTOR, [Why.mfu_qlora], {"qlora_factor": QLORA_STEP_FACTOR}


def eager_moe_slowdown(gpu: GpuSpec, n_active: float, n_total: float) -> float:
    """Divisor (≥ 1) of the calibrated MFU of an MoE whose experts run transformers' eager loop
    (:func:`estimator.training_tools.runs_eager_experts`): a step takes at least as long as a dense model
    of all ``n_total`` parameters on the same cards — the calibrated MFU of ``n_total`` dense parameters
    spread over the ``n_active`` FLOPs — instead of the calibrated MoE rate, which was fitted on
    grouped-GEMM pre-training runs (Megatron-style). Every public same-setup comparison found is at or
    beyond that floor: LLaMA-Factory#7921 (same data, config and cards, 5 epochs: Qwen3-30B-A3B ~4 h,
    QwQ-32B 2.5 h: ×1.6 the dense time), ms-swift#6061 (Qwen3-VL-30B-A3B 20+ days vs Qwen2.5-VL-32B 2
    days), LLaMA-Factory#8038 (GPU utilisation under 20 %). The floor, not those multiples: the slowdown
    depends on batch and expert count. Dimensionless."""
    model = efficiency.CALIBRATED
    moe = efficiency.likely_mfu(model, efficiency.class_of(gpu), n_active, True)
    dense = efficiency.likely_mfu(model, efficiency.class_of(gpu), n_total, False) * n_active / n_total
    return max(1.0, moe / dense) if dense > 0 else 1.0


def _calibrated_comparison(
    gpu: GpuSpec, n_active: float | None, moe: bool, fp8: bool, peak: float
) -> float | None:
    """The calibrated likely MFU (of ``peak``) next to the user's own rate, for comparison only."""
    if gpu.generic:
        return None
    likely = efficiency.likely_mfu(efficiency.CALIBRATED, efficiency.class_of(gpu), n_active or 7e9, moe, fp8)
    return likely * gpu.peak_flops_16bit / peak


def mfu_band(
    req: SizingRequest, gpu: GpuSpec, n_active: float | None, moe: bool, ledger: Ledger, k: float = 6.0
) -> MFU:
    """(pessimistic, likely, optimistic) MFU of :func:`training_rate`."""
    return training_rate(req, gpu, n_active, moe, ledger, k).mfu


def training_rate(
    req: SizingRequest,
    gpu: GpuSpec,
    n_active: float | None,
    moe: bool,
    ledger: Ledger,
    k: float = 6.0,
    tokens: float | None = None,
    eager_total: float | None = None,
) -> Rate:
    """(pessimistic, likely, optimistic) MFU of the peak the time uses (``Rate.peak``: the FP8 peak
    when training in FP8, :func:`training_peak`). A measured throughput (TFLOPS or tokens/s per GPU)
    gives the MFU it implies — one value, no band, the calibrated MFU kept only as a comparison
    (``Rate.calibrated``) — unless it exceeds the card's peak (then it is set aside, with a note);
    a user's MFU (of the 16-bit peak, as MFU is usually quoted) comes next; else the calibrated model
    (:mod:`estimator.efficiency`) with its 80 % prediction interval (``Rate.interval``), scaled out to
    the user's GPU count when the job (``tokens``) and the count are known (:func:`_scale_out`).
    ``eager_total``: an MoE's total parameters when its experts run transformers' eager loop
    (:func:`eager_moe_slowdown`)."""
    fp8 = fp8_training(req, gpu, Ledger())  # the note is recorded once, on the calibrated path below
    peak = training_peak(gpu, fp8)
    rate = measured_rate(req, k, n_active)
    if rate is not None:
        implied = rate / peak
        if implied <= 1.0 or gpu.generic:  # a generic card's peak is a placeholder: the rate is what counts
            ledger.assume("mfu", round(implied, 4), Why.measured_throughput, tflops=round(rate / 1e12, 1))
            if not gpu.generic and not MEASURED_MFU_PLAUSIBLE[0] <= implied <= MEASURED_MFU_PLAUSIBLE[1]:
                ledger.note(
                    "measured_mfu_unusual", mfu=round(implied, 4), tflops=round(rate / 1e12, 1), k=round(k, 2)
                )  # k: the FLOPs per parameter per token it was converted at (s12 B3: 4 for LoRA)
            return Rate(
                (implied, implied, implied), peak, _calibrated_comparison(gpu, n_active, moe, fp8, peak)
            )
        ledger.note("measured_above_peak", tflops=round(rate / 1e12, 1), peak=round(peak / 1e12, 1))
    if req.mfu:
        if not 0.1 <= req.mfu <= 0.6:
            ledger.note("mfu_outside_band", mfu=req.mfu)
        sixteen = gpu.peak_flops_16bit
        return Rate(
            (req.mfu, req.mfu, req.mfu), sixteen, _calibrated_comparison(gpu, n_active, moe, False, sixteen)
        )
    flops = k * (n_active or 0.0) * (tokens or 0.0)
    return _calibrated_rate(req, gpu, n_active, moe, ledger, flops, eager_total if moe else None)


def _scale_out(
    req: SizingRequest, gpu: GpuSpec, likely_16bit: float, flops: float, ledger: Ledger
) -> tuple[float, float | None]:
    """(multiplier on the likely MFU, the job's reference count): the scale-out term
    (:func:`estimator.efficiency.scale_factor`) for the user's GPU count against the count that
    finishes this job (``flops``, k·N·D) in a whole run's typical duration
    (:func:`estimator.efficiency.reference_gpus`); (1, None) without a job size, 1 without a count or
    at or below the reference (no ledger line then)."""
    model = efficiency.CALIBRATED
    if flops <= 0:
        return 1.0, None
    hours = flops / (gpu.peak_flops_16bit * likely_16bit * 3600.0)
    reference = efficiency.reference_gpus(model, hours, gpu.gpus_per_node)
    factor = efficiency.scale_factor(model, req.gpu_count, reference)
    if factor < 1.0:
        ledger.assume(
            "scale_out", round(factor, 3), Why.mfu_scale_out, gpus=req.gpu_count,
            reference=round(reference), days=model.ref_days, alpha=model.scale_alpha,
        )  # fmt: skip
    return factor, reference


def at_count(hours: Band, gpus: int, given: int | None, reference: float | None) -> Band:
    """``hours`` (GPU-hours on ``given`` GPUs, or at the reference when None) moved to ``gpus`` GPUs
    by the scale-out term (:func:`estimator.efficiency.scale_factor`); unchanged without a reference."""
    if reference is None:
        return hours
    model = efficiency.CALIBRATED
    f = efficiency.scale_factor(model, given, reference) / efficiency.scale_factor(model, gpus, reference)
    return band(hours.low * f, hours.likely * f, hours.high * f)


def days_rows(hours: Band, counts: list[int], given: int | None, reference: float | None) -> list[DaysRow]:
    """The GPUs ↔ days rows: ``hours`` moved to each count (:func:`at_count`) and spread over its GPUs
    (:func:`estimator.compute.days_on`) — the same operations, on plain floats, one row a count."""
    low, likely, high = hours.low, hours.likely, hours.high
    rows = []
    for c in counts:
        if reference is None:
            lo, li, hi = low, likely, high
        else:  # at_count: the scale-out factor of the given count over this one (efficiency.scale_factor)
            alpha = efficiency.CALIBRATED.scale_alpha
            at_given = 1.0 if not given or given <= reference else (given / reference) ** -alpha
            f = at_given / (1.0 if not c or c <= reference else (c / reference) ** -alpha)
            lo, li, hi = low * f, likely * f, high * f
        rows.append(days_row(c, band(lo / c / 24.0, li / c / 24.0, hi / c / 24.0)))
    return rows


def deadline_gpus(hours: Band, days: float, per_node: int, given: int | None, reference: float | None) -> int:
    """GPUs (whole nodes) finishing the job within ``days`` when more GPUs also cost more GPU-hours:
    beyond the reference count, H·(n/ref)^α / (24·n) ≤ days ⇔ n ≥ (H·ref^−α / (24·days))^(1/(1−α)),
    H the GPU-hours at the reference (:func:`at_count`)."""
    base = at_count(hours, 1, given, reference).likely  # one GPU: at or below any reference
    need = compute.gpus_for_deadline(base, days, per_node)
    if reference is None or need <= reference:
        return need
    alpha = efficiency.CALIBRATED.scale_alpha
    n = (base * reference**-alpha / (24.0 * days)) ** (1.0 / (1.0 - alpha))
    return compute.round_to_nodes(math.ceil(n - 1e-9), per_node)


def _slowdowns(
    req: SizingRequest, gpu: GpuSpec, n: float, eager_total: float | None
) -> tuple[float, list[Why], dict[str, float]]:
    """(divisor of the calibrated MFU, its reasons, their parameters): a quantized base
    (:func:`_qlora_slowdown`) times transformers' eager MoE loop (:func:`eager_moe_slowdown`)."""
    slower, why, params = _qlora_slowdown(req)
    eager = eager_moe_slowdown(gpu, n, eager_total) if eager_total else 1.0
    if eager > 1.0:
        eager_params = {"eager_factor": round(eager, 1), "total_b": round(eager_total / 1e9, 1)}
        return slower * eager, [*why, Why.mfu_eager_moe], {**params, **eager_params}
    return slower, why, params


def _calibrated_rate(
    req: SizingRequest,
    gpu: GpuSpec,
    n_active: float | None,
    moe: bool,
    ledger: Ledger,
    flops: float = 0.0,
    eager_total: float | None = None,
) -> Rate:
    """The calibrated model's MFU band (:mod:`estimator.efficiency`) of the peak the time uses, scaled
    out to the user's GPU count (:func:`_scale_out`), its ledger lines, and its prediction interval."""
    fp8 = fp8_training(req, gpu, ledger)
    peak = training_peak(gpu, fp8)
    model = efficiency.CALIBRATED
    n = n_active or 7e9
    likely_16bit = efficiency.likely_mfu(model, efficiency.class_of(gpu), n, moe, fp8)
    if not fp8 and int8_training(req, gpu, ledger):
        likely_16bit *= model.int8_factor
        ledger.assume(
            "training_precision", Precision.int8.value, Why.int8_training,
            factor=model.int8_factor, peak_tops=gpu.peak_tops_int8,
        )  # fmt: skip
    slower, quantized, quantized_params = _slowdowns(req, gpu, n, eager_total)
    factor, reference = _scale_out(req, gpu, likely_16bit / slower, flops, ledger)
    likely_16bit *= factor / slower
    groups = efficiency.groups_of(efficiency.class_of(gpu), n, moe, fp8)
    low, likely, high = efficiency.mfu_band(model, likely_16bit * gpu.peak_flops_16bit / peak, groups)
    why, also = efficiency.explain(model, efficiency.class_of(gpu), n, moe)
    if fp8:
        also = [*also[:-1], Why.mfu_fp8, *also[-1:]] if also else [Why.mfu_fp8]
        ledger.assume(
            "training_precision", Precision.fp8.value, Why.fp8_training,
            factor=model.fp8_factor, peak_tflops=gpu.peak_tflops_fp8, mfu_bf16=round(likely_16bit, 4),
        )  # fmt: skip
    also = [*also, *quantized]
    ledger.assume("mfu", round(likely, 4), why, also=also, **quantized_params)
    lo_factor, hi_factor = efficiency.interval(model, groups)
    widened = [g for g, _ in model.wider if g in groups]
    tuned = lo_factor == model.tuned_factor
    tuned_small = "tiny" in groups and lo_factor == model.small_tuned_factor
    wording = {} if tuned or tuned_small else {"widened": ", ".join(widened) or None}
    ledger.assume(
        "mfu_band",
        f"{low:.3f}–{high:.3f}",
        _interval_why(widened, tuned, tuned_small),
        low=round(lo_factor, 3),
        high=round(hi_factor, 3),
        runs=model.interval_runs,
        loo_coverage=model.loo_coverage,
        **wording,
    )
    interval = built_interval(  # PredictionInterval(...), built without validating again
        level=0.8,
        low_factor=lo_factor,
        high_factor=hi_factor,
        runs=model.interval_runs,
        loo_coverage=model.loo_coverage,
        widened_for=widened,
    )
    return Rate((low, likely, high), peak, None, interval, reference)


def priced_rows(
    rows: list[DaysRow], hours: Band, cost: Cost | None, mfu: Band | None = None
) -> list[DaysRow]:
    """The GPUs ↔ days rows of :func:`days_rows`, each whose count runs the job in other GPU-hours than
    ``hours`` (the scale-out term of :func:`at_count`: beyond the reference count the same job costs
    more GPU-hours) with those GPU-hours (its GPUs × its days × 24) and their ``cost`` at the same price
    range, billed as ``cost`` is (whole GPU-hours, :func:`estimator.compute.billed_gpu_hours`); the
    other rows as they are. So a quoted count's GPU-hours and money are its own GPUs × hours (trial s23
    #4: '6.9K A100-hours: about 40 GPUs for 8.3 days' billed 6,945 h where 40 × 8.3 × 24 = 7,968 h): the
    headline and cost line read a row's own (:func:`estimator.shown_cost.cost_on`). With ``mfu`` (the MFU
    band behind ``hours``) each such row carries its own band, ``mfu`` × hours ÷ its GPU-hours (GPU-hours =
    C ÷ (peak × MFU × 3,600): same FLOPs, more GPU-hours, less MFU), which its GPU-hours line quotes."""
    out = []
    for row in rows:
        d, n = row.days, row.gpus
        if row.gpu_hours is not None or abs(d.likely * n * 24.0 - hours.likely) <= 1e-6 * hours.likely:
            out.append(row)  # its count runs the job in the answer's own GPU-hours: nothing to build
            continue
        own = band(d.low * n * 24.0, d.likely * n * 24.0, d.high * n * 24.0)
        priced = None
        if cost is not None:  # billed on its n cards, each its first hour (s37: 16 cards billed 4 hours)
            billed = compute.billed_gpu_hours(own.likely, n)
            priced = built_cost(
                low=billed * cost.price_low,
                high=billed * cost.price_high,
                low_with_mfu=compute.billed_gpu_hours(own.low, n) * cost.price_low,
                high_with_mfu=compute.billed_gpu_hours(own.high, n) * cost.price_high,
                currency=cost.currency,
                price_low=cost.price_low,
                price_high=cost.price_high,
                billed_gpu_hours=billed,
                price_source=cost.price_source,
            )  # fmt: skip (estimator.shown_cost.billed_cost inline: a frame less a row, the estimate's calls)
        r = hours.likely / own.likely
        at_n = band(mfu.low * r, mfu.likely * r, mfu.high * r) if mfu is not None else None
        out.append(row.model_copy(update={"gpu_hours": own, "cost": priced, "mfu": at_n}))
    return out
