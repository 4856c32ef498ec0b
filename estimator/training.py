"""The training branch of :func:`estimator.sizing.estimate`: compute, time, cost, memory and plan.

Pre-training, continued pre-training and fine-tuning: C = k·N·D (:mod:`estimator.compute`), GPU-hours
at a calibrated MFU (:mod:`estimator.efficiency`), cost from a dated price range, memory per GPU and
the parallel layout (:mod:`estimator.memory`), and the inverse questions (what a budget or GPUs ×
days buys). Returns a typed :class:`TrainingResult`; every default is recorded in the ledger.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from estimator import attention, compute, defaults, efficiency
from estimator.architecture import shape_for_size
from estimator.catalog import GpuSpec, ModelSpec
from estimator.ledger import Ledger, PriceRange, beyond_window, price_range
from estimator.memory import LORA_ALL_LINEAR, QUANTIZED_BASE_BITS, checkpoint_bytes, trained_params
from estimator.methods import method_rows, with_least
from estimator.models import (
    Algorithm,
    Band,
    Checkpoint,
    Cost,
    Currency,
    DaysRow,
    Memory,
    Method,
    MethodRow,
    OptimizerChoice,
    Precision,
    PredictionInterval,
    Recompute,
    SizingRequest,
    Stage,
)
from estimator.plan import HEADROOM, MAX_GPUS_SEARCHED, least_memory_plan, memory_with_batch, training_memory
from estimator.reasons import Why, Word
from estimator.resolve import Resolved
from estimator.setup import TrainingSetup
from estimator.verdicts import training_verdict

HUGE_GPUS = 100_000
"""Beyond this a 'huge job' note is shown: the largest published clusters are ~100k GPUs (xAI
Colossus, 2024); Llama 3 405B used 16k H100 (Dubey et al. 2024 §3.3)."""
HUGE_DAYS = 3650
"""Beyond ten years of wall-clock time the plan is not a plan: say so."""

QUANTIZED_PRECISION_BITS: dict[Precision | None, int] = {
    Precision.int8: 8,
    Precision.int4: 4,
    Precision.int3: 3,
    Precision.int2: 2,
}
"""The bit width a quantized-base precision names (QLoRA's base, LLaMA-Factory ``quantization_bit``)."""

MFU = tuple[float, float, float]
"""(pessimistic, likely, optimistic) MFU."""


@dataclass
class TrainingResult:
    """What the training branch adds to the report (SI units), and the request fields it filled."""

    method: Method | None = None
    params: float | None = None
    spec: ModelSpec | None = None
    tokens: float | None = None
    currency: Currency | None = None
    deadline_days: float | None = None
    mfu_likely: float | None = None
    seq_len: int | None = None
    batch_size: int | None = None
    global_batch: int | None = None
    """target sequences per optimizer step (the user's, or the stage's default)"""
    flops: float | None = None
    flops_formula: str | None = None
    flops_with_attention: float | None = None
    attention_share: float | None = None
    pf_days: float | None = None
    gpu_hours: Band | None = None
    gpu_hours_interval: PredictionInterval | None = None
    mfu: Band | None = None
    peak_flops: float | None = None
    mfu_calibrated: float | None = None
    days: DaysRow | None = None
    days_table: list[DaysRow] = field(default_factory=list)
    gpus_for_deadline: int | None = None
    cost: Cost | None = None
    chinchilla_tokens: float | None = None
    memory: Memory | None = None
    method_comparison: list[MethodRow] = field(default_factory=list)
    checkpoint_bytes: Checkpoint | None = None
    feasible: str | None = None
    feasible_reason: str | None = None
    max_params_for_budget: float | None = None
    tokens_for_budget: Band | None = None
    budget_gpu_hours: Band | None = None

    def filled(self) -> dict[str, object]:
        """The request fields this branch filled in (None = left as the user said)."""
        values = {
            "method": self.method,
            "params_total": self.params,
            "tokens": self.tokens,
            "currency": self.currency,
            "deadline_days": self.deadline_days,
            "mfu": self.mfu_likely,
            "seq_len": self.seq_len,
            "batch_size": self.batch_size,
        }
        return {k: v for k, v in values.items() if v is not None}

    def report_fields(self) -> dict[str, object]:
        """The SizingReport fields this branch computed."""
        names = (
            "flops", "flops_formula", "flops_with_attention", "attention_share", "pf_days", "gpu_hours",
            "gpu_hours_interval", "mfu", "peak_flops", "mfu_calibrated", "days", "days_table",
            "gpus_for_deadline", "cost", "chinchilla_tokens", "memory", "method_comparison",
            "checkpoint_bytes", "feasible", "feasible_reason", "max_params_for_budget", "tokens_for_budget",
            "budget_gpu_hours",
        )  # fmt: skip
        return {n: getattr(self, n) for n in names}


def size_training(req: SizingRequest, r: Resolved, ledger: Ledger) -> TrainingResult:
    """Size a training job: compute and time when there is data (or a budget, or GPUs × days, or a
    known duration), memory and the layout when there is a model."""
    out = TrainingResult(params=r.params, spec=r.spec)
    out.method = _method(req, r.stage, ledger)
    algorithm = req.algorithm or Algorithm.sft
    tokens = _training_tokens(req, r.stage, ledger)
    pretraining = r.stage in (Stage.pretrain, Stage.continued_pretrain)
    if tokens is None and req.duration_asked and pretraining and (r.active or r.params) and not req.budget:
        # "how long to train a 7B on 8 H100" with no data size: Chinchilla's D = 20·N, said as assumed
        n = r.active or r.params or 0.0
        tokens = ledger.assume(
            "tokens", defaults.CHINCHILLA_TOKENS_PER_PARAM.value * n, Why.tokens_chinchilla_assumed
        )
        ledger.note("tokens_assumed_chinchilla", tokens=tokens)
    _params_from_data(req, r.gpu, tokens, _k(out, algorithm)[0], out, ledger)
    k, why = _k(out, algorithm)  # freeze-tuning's k needs the shape: after the size is known
    out.flops_formula = f"{k:.3g}ND"
    if k != 6.0:
        ledger.assume("flops_per_param_token", round(k, 3), why)

    mfu = price = None
    deadline = req.deadline_days
    timed = not r.gpu.generic or measured_rate(req, k, r.active or out.params) is not None
    if r.gpu.generic and not timed and (tokens is not None or req.budget or req.hours):
        ledger.note("generic_gpu_no_time", gpu=r.gpu.name)
    if req.hours:
        price = price_range(req, r.gpu, ledger) if timed else None
        out.currency = price[2] if price else None
        _known_duration(req, r, tokens, k, price, out, ledger)
    elif timed and (tokens is not None or req.budget or (req.gpu_count and req.deadline_days)):
        mfu = mfu_band(req, r.gpu, r.active or out.params, r.active is not None, ledger, k, out)
        price = price_range(req, r.gpu, ledger)
        out.currency = price[2] if price else None
        deadline = deadline or ledger.assume("deadline_days", *assumed_deadline(req))
        out.deadline_days, out.mfu_likely = deadline, mfu[1]
    if tokens is None and mfu is not None:
        _inverse(req, r, k, mfu, price, deadline or assumed_deadline(req)[0], out)
    if tokens is not None and out.params is not None and mfu is not None:
        _compute_time_cost(req, r, tokens, k, mfu, price, out, ledger)
    elif tokens is not None and out.params is not None and out.flops is None:  # FLOPs without time
        out.flops = compute.training_flops(r.active or out.params, tokens, k)
        out.pf_days, out.tokens = compute.pf_days(out.flops), tokens
    if out.flops is not None and out.spec is not None:
        _attention(req, r, tokens or 0.0, k, out)
    setup = _setup(req, r.stage, out, algorithm, ledger)
    if setup is not None and out.spec is not None and out.params is not None:
        _memory_and_plan(req, r, setup, out, deadline, ledger)
        if req.methods:
            out.method_comparison = method_rows(req, out.spec, out.params, r.gpu, setup)
    if out.gpu_hours is not None and not req.hours:
        _deadline_table(req, r.gpu, out, deadline or assumed_deadline(req)[0], ledger)
    return out


def assumed_deadline(req: SizingRequest) -> tuple[float, Why]:
    """Days assumed when the question states no deadline and the answer needs one: the chat's default
    (``deadline_default_days``, from /settings) or the one-month planning window
    (:data:`estimator.defaults.DEADLINE_DAYS`), with the ledger's reason."""
    if req.deadline_default_days:
        return req.deadline_default_days, Why.chat_settings
    return defaults.DEADLINE_DAYS.value, defaults.DEADLINE_DAYS.why


def _k(out: TrainingResult, algorithm: Algorithm) -> tuple[float, Why]:
    """k in C = k·N·D for the method (:func:`estimator.compute.flops_per_param_token`); freeze-tuning:
    a forward pass over all weights (2) and a backward pass over the trained layers only (4 per
    trained parameter): k = 2 + 4·N_trained/N."""
    method = out.method or Method.full
    k = compute.flops_per_param_token(method == Method.full, algorithm.value)
    why = Why.flops_per_param_token
    if method == Method.freeze and out.spec is not None and out.params:
        setup = TrainingSetup(method=method)
        share = trained_params(out.spec, out.params, setup) / out.params
        k, why = k - 2.0 + 4.0 * share, Why.flops_freeze
    return k, why


def measured_rate(req: SizingRequest, k: float, n: float | None) -> float | None:
    """Model FLOP/s per GPU the user measured: their TFLOPS, or k·N × their tokens per second per GPU
    (the same MFU definition as PaLM App. B: model FLOPs only, no recomputation). None if not given."""
    if req.achieved_tflops_per_gpu:
        return req.achieved_tflops_per_gpu * 1e12
    if req.tokens_per_second_per_gpu and n:
        return k * n * req.tokens_per_second_per_gpu
    return None


def rented_hours(
    req: SizingRequest, r: Resolved, ledger: Ledger, serving_gpus: int | None = None
) -> TrainingResult:
    """GPU-hours and their cost for a known duration, whatever the job ('served for 36 hours'); a
    serving answer without a stated count bills the GPUs it needs (``serving_gpus``)."""
    out = TrainingResult()
    if serving_gpus and not req.gpu_count:
        count = int(ledger.assume("gpu_count", serving_gpus, Why.known_duration_serving_gpus))
        req = req.model_copy(update={"gpu_count": count})
    price = None if r.gpu.generic else price_range(req, r.gpu, ledger)
    if r.gpu.generic:
        ledger.note("generic_gpu_no_time", gpu=r.gpu.name)
    out.currency = price[2] if price else None
    _known_duration(req, r, None, 6.0, price, out, ledger)
    return out


def _known_duration(
    req: SizingRequest,
    r: Resolved,
    tokens: float | None,
    k: float,
    price: PriceRange | None,
    out: TrainingResult,
    ledger: Ledger,
) -> None:
    """A wall-clock duration the user knows ('6 hours on one H100', '2台8卡H800跑了36小时'):
    GPU-hours = GPUs × hours, their cost, and the MFU it implies when the model and data are known."""
    hours = req.hours or 0.0
    gpus = req.gpu_count or int(ledger.assume("gpu_count", 1, Why.known_duration_one_gpu))
    gpu_hours = gpus * hours
    out.gpu_hours = Band(low=gpu_hours, likely=gpu_hours, high=gpu_hours)
    out.days = DaysRow(gpus=gpus, days=Band(low=hours / 24, likely=hours / 24, high=hours / 24))
    out.days_table = [out.days]
    ledger.note("known_duration", gpu_count=gpus, hours=hours, gpu_hours=gpu_hours)
    if tokens is not None and out.params is not None:
        out.flops = compute.training_flops(r.active or out.params, tokens, k)
        out.pf_days, out.tokens = compute.pf_days(out.flops), tokens
        if not r.gpu.generic:
            implied = out.flops / (gpu_hours * compute.SECONDS_PER_HOUR * r.gpu.peak_flops_16bit)
            out.mfu = Band(low=implied, likely=implied, high=implied)
            out.peak_flops = r.gpu.peak_flops_16bit
            ledger.note("implied_mfu", mfu=round(implied, 4))
    if price:
        out.cost = _cost(gpu_hours, out.gpu_hours, price)
        _check_budget(req, out.cost, ledger)


def _method(req: SizingRequest, stage: Stage, ledger: Ledger) -> Method:
    if stage == Stage.finetune and req.method is None:
        return Method(ledger.assume("method", Method.full.value, Why.method_full))
    return req.method or Method.full


PAIR_SEQUENCES = 2
"""Sequences per DPO preference pair: the prompt with the chosen response and with the rejected one, both
run through the policy and the reference model (Rafailov et al. 2023, eq. 7; TRL ``DPOTrainer``
concatenates chosen and rejected into one batch). The stated length is taken per sequence."""


def _training_tokens(req: SizingRequest, stage: Stage, ledger: Ledger) -> float | None:
    """D per run: tokens × epochs, or samples × tokens per sample × epochs (tokens per sample: the
    user's, else their sequence length — packed or padded to it, an upper bound — else 512); DPO pairs
    count two sequences each (:data:`PAIR_SEQUENCES`)."""
    epochs = req.epochs
    if epochs is None and stage == Stage.finetune and (req.tokens or req.num_samples):
        epochs = ledger.assume("epochs", defaults.EPOCHS_FINETUNE.value, defaults.EPOCHS_FINETUNE.why)
    epochs = epochs or 1
    if req.tokens:
        return req.tokens * epochs
    if req.num_samples:
        if req.tokens_per_sample:
            per = req.tokens_per_sample
        elif req.seq_len:  # "2048-token sequences, 50k samples": each sample as long as the stated sequence
            per = ledger.assume("tokens_per_sample", req.seq_len, Why.samples_at_seq_len)
        else:
            per = ledger.assume(
                "tokens_per_sample", defaults.TOKENS_PER_SAMPLE.value, defaults.TOKENS_PER_SAMPLE.why
            )
        n = req.num_samples
        if req.samples_are_pairs and req.algorithm == Algorithm.dpo:  # a chosen and a rejected sequence each
            tokens = n * PAIR_SEQUENCES * per * epochs
            ledger.note("pairs_to_tokens", num_samples=n, tokens_per_sample=per, epochs=epochs, tokens=tokens)
            return tokens
        tokens = n * per * epochs
        ledger.note("samples_to_tokens", num_samples=n, tokens_per_sample=per, epochs=epochs, tokens=tokens)
        return tokens
    return None


def _params_from_data(
    req: SizingRequest, gpu: GpuSpec, tokens: float | None, k: float, out: TrainingResult, ledger: Ledger
) -> None:
    """No model named but a data size: the largest model the budget trains on it, else the
    compute-optimal size for the data (D = 20·N)."""
    if out.params is not None or tokens is None:
        return
    if req.budget:
        largest = _largest_for_budget(req, gpu, tokens, k)
        if largest is not None:
            out.params = ledger.assume("params_total", largest, Why.budget_max_params)
            out.spec = shape_for_size(largest)
            price = price_range(req, gpu, Ledger())
            currency = price[2].value if price else None
            ledger.note(
                "budget_max_params", budget=req.budget, currency=currency, tokens=tokens, params_total=largest
            )
            return
    out.params = ledger.assume(
        "params_total", tokens / defaults.CHINCHILLA_TOKENS_PER_PARAM.value, Why.compute_optimal_size
    )
    out.spec = shape_for_size(out.params)


def training_peak(gpu: GpuSpec, fp8: bool) -> float:
    """Dense peak FLOP/s the MFU refers to: the FP8 tensor peak when training in FP8, else the 16-bit one."""
    return gpu.peak_tflops_fp8 * 1e12 if fp8 and gpu.peak_tflops_fp8 else gpu.peak_flops_16bit


MEASURED_MFU_PLAUSIBLE = (0.05, 0.65)
"""A measured throughput implying an MFU outside this range is used, with a note asking to check it:
published large runs report 20–55 % (PaLM 46 %, Llama 3 38–43 %, DeepSeek-V3 ~35 % of BF16 peak), tuned
small runs up to ~60 % (MosaicML/Megatron reports); below 5 % usually means a unit slip (TFLOPS per node,
tokens per second for the cluster)."""

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


def _calibrated_comparison(
    gpu: GpuSpec, n_active: float | None, moe: bool, fp8: bool, peak: float, out: TrainingResult | None
) -> None:
    """The calibrated likely MFU (of ``peak``) next to the user's own rate, for comparison only."""
    if out is not None and not gpu.generic:
        likely = efficiency.likely_mfu(efficiency.CALIBRATED, gpu.mfu_class, n_active or 7e9, moe, fp8)
        out.mfu_calibrated = likely * gpu.peak_flops_16bit / peak


def mfu_band(
    req: SizingRequest,
    gpu: GpuSpec,
    n_active: float | None,
    moe: bool,
    ledger: Ledger,
    k: float = 6.0,
    out: TrainingResult | None = None,
) -> MFU:
    """(pessimistic, likely, optimistic) MFU of the peak the time uses (``out.peak_flops``: the FP8 peak
    when training in FP8, :func:`training_peak`). A measured throughput (TFLOPS or tokens/s per GPU)
    gives the MFU it implies — one value, no band, the calibrated MFU kept only as a comparison
    (``out.mfu_calibrated``) — unless it exceeds the card's peak (then it is set aside, with a note);
    a user's MFU (of the 16-bit peak, as MFU is usually quoted) comes next; else the calibrated model
    (:mod:`estimator.efficiency`) with its 80 % prediction interval (``out.gpu_hours_interval``)."""
    fp8 = fp8_training(req, gpu, Ledger())  # the note is recorded once, on the calibrated path below
    peak = training_peak(gpu, fp8)
    rate = measured_rate(req, k, n_active)
    if rate is not None:
        implied = rate / peak
        if implied <= 1.0 or gpu.generic:  # a generic card's peak is a placeholder: the rate is what counts
            ledger.assume("mfu", round(implied, 4), Why.measured_throughput, tflops=round(rate / 1e12, 1))
            if not gpu.generic and not MEASURED_MFU_PLAUSIBLE[0] <= implied <= MEASURED_MFU_PLAUSIBLE[1]:
                ledger.note("measured_mfu_unusual", mfu=round(implied, 4), tflops=round(rate / 1e12, 1))
            _calibrated_comparison(gpu, n_active, moe, fp8, peak, out)
            if out is not None:
                out.peak_flops = peak
            return implied, implied, implied
        ledger.note("measured_above_peak", tflops=round(rate / 1e12, 1), peak=round(peak / 1e12, 1))
    if req.mfu:
        if not 0.1 <= req.mfu <= 0.6:
            ledger.note("mfu_outside_band", mfu=req.mfu)
        _calibrated_comparison(gpu, n_active, moe, False, gpu.peak_flops_16bit, out)
        if out is not None:
            out.peak_flops = gpu.peak_flops_16bit
        return req.mfu, req.mfu, req.mfu
    fp8 = fp8_training(req, gpu, ledger)
    model = efficiency.CALIBRATED
    n = n_active or 7e9
    likely_16bit = efficiency.likely_mfu(model, gpu.mfu_class, n, moe, fp8)
    groups = efficiency.groups_of(gpu.mfu_class, n, moe, fp8)
    low, likely, high = efficiency.mfu_band(model, likely_16bit * gpu.peak_flops_16bit / peak, groups)
    why, also = efficiency.explain(model, gpu.mfu_class, n, moe)
    if fp8:
        also = [*also[:-1], Why.mfu_fp8, *also[-1:]] if also else [Why.mfu_fp8]
        ledger.assume(
            "training_precision", Precision.fp8.value, Why.fp8_training,
            factor=model.fp8_factor, peak_tflops=gpu.peak_tflops_fp8, mfu_bf16=round(likely_16bit, 4),
        )  # fmt: skip
    ledger.assume("mfu", round(likely, 4), why, also=also)
    lo_factor, hi_factor = efficiency.interval(model, groups)
    widened = [g for g, _ in model.wider if g in groups]
    ledger.assume(
        "mfu_band",
        f"{low:.3f}–{high:.3f}",
        Why.mfu_interval_wider if widened else Why.mfu_interval,
        low=round(lo_factor, 3),
        high=round(hi_factor, 3),
        runs=model.interval_runs,
        loo_coverage=model.loo_coverage,
        widened=", ".join(widened) or None,
    )
    if out is not None:
        out.peak_flops = peak
        out.gpu_hours_interval = PredictionInterval(
            level=0.8,
            low_factor=lo_factor,
            high_factor=hi_factor,
            runs=model.interval_runs,
            loo_coverage=model.loo_coverage,
            widened_for=widened,
        )
    return low, likely, high


def _hours_band(flops: float, peak: float, mfu: MFU) -> Band:
    low_mfu, likely_mfu, high_mfu = mfu
    return Band(
        low=compute.gpu_hours(flops, peak, high_mfu),
        likely=compute.gpu_hours(flops, peak, likely_mfu),
        high=compute.gpu_hours(flops, peak, low_mfu),
    )


def _days(hours: Band, gpus: int) -> DaysRow:
    return DaysRow(
        gpus=gpus,
        days=Band(
            low=compute.days_on(hours.low, gpus),
            likely=compute.days_on(hours.likely, gpus),
            high=compute.days_on(hours.high, gpus),
        ),
    )


def _table_counts(anchor: int) -> list[int]:
    """GPU counts for the GPUs ↔ days table: powers of two around the anchor (136 → 64…512)."""
    base = 2 ** max(0, int(math.log2(max(1, anchor))))
    return sorted({max(1, base // 2), base, base * 2, base * 4})


def _scaled(band: Band, factor: float) -> Band:
    return Band(low=band.low * factor, likely=band.likely * factor, high=band.high * factor)


def _inverse(
    req: SizingRequest,
    r: Resolved,
    k: float,
    mfu: MFU,
    price: PriceRange | None,
    deadline: float,
    out: TrainingResult,
) -> None:
    """A budget or GPUs × days and no data size: the GPU-hours it buys, the tokens it trains a named
    model on, or the largest compute-optimal model."""
    hours = _budget_hours(req, price, deadline)
    if hours is None:
        return
    out.budget_gpu_hours = hours
    peak = out.peak_flops or r.gpu.peak_flops_16bit
    flops = _scaled(hours, peak * mfu[1] * compute.SECONDS_PER_HOUR)
    need = compute.gpus_for_deadline(hours.likely, deadline, r.gpu.gpus_per_node)
    out.days_table = [_days(hours, c) for c in _table_counts(need)]  # how long the bought hours take
    n = r.active or out.params
    if n:
        slower = _long_context_factor(req, r, out, k)  # attention beyond 8K: fewer tokens per FLOP
        out.tokens_for_budget = _scaled(flops, 1 / (k * n * slower))
    else:
        out.max_params_for_budget = compute.compute_optimal_params(flops.likely, flops_per_param_token=k)
        out.chinchilla_tokens = compute.chinchilla_tokens(out.max_params_for_budget)


def _compute_time_cost(
    req: SizingRequest,
    r: Resolved,
    tokens: float,
    k: float,
    mfu: MFU,
    price: PriceRange | None,
    out: TrainingResult,
    ledger: Ledger,
) -> None:
    """C = k·N·D, GPU-hours at the MFU band (beyond the calibration context, × the attention factor:
    :func:`_long_context_factor`), PF-days, Chinchilla, and the cost of the likely hours."""
    params = out.params or 0.0
    flops = compute.training_flops(r.active or params, tokens, k)
    peak = out.peak_flops or r.gpu.peak_flops_16bit
    hours = _hours_band(flops * _long_context_factor(req, r, out, k), peak, mfu)
    out.flops, out.pf_days, out.gpu_hours = flops, compute.pf_days(flops), hours
    out.mfu = None if r.gpu.generic else Band(low=mfu[0], likely=mfu[1], high=mfu[2])
    out.tokens = tokens
    if r.active:
        ledger.note("moe_active_params", params_active=r.active, params_total=params)
    if r.stage == Stage.pretrain:
        out.chinchilla_tokens = compute.chinchilla_tokens(params)
        if tokens < out.chinchilla_tokens:
            ledger.note("below_chinchilla", tokens=tokens, chinchilla_tokens=out.chinchilla_tokens)
    if hours.likely < 1:
        ledger.note("tiny_job", gpu_hours=hours.likely)
    if price:
        out.cost = _cost(hours.likely, hours, price)
        _check_budget(req, out.cost, ledger)  # sized to the middle: the range may still exceed it


def _seq_len(req: SizingRequest, stage: Stage) -> int:
    """The training sequence length (recorded by :func:`_setup`): the user's; in fine-tuning on samples
    of a stated length ('10万条数据每条1k token'), that length, one sample per sequence; else the stage's
    default. Pre-training packs documents into sequences, so a document length is not one."""
    if req.seq_len:
        return int(req.seq_len)
    if stage == Stage.finetune and req.tokens_per_sample and req.num_samples:
        return int(req.tokens_per_sample)
    default = defaults.SEQ_LEN_FINETUNE if stage == Stage.finetune else defaults.SEQ_LEN_PRETRAIN
    return int(default.value)


def _attention_passes(out: TrainingResult, k: float, req: SizingRequest) -> float:
    """Forward-pass equivalents of the attention matmuls (:func:`estimator.attention.passes_for`)."""
    adapters = (out.method or Method.full) in (Method.lora, Method.qlora, Method.ptuning)
    return attention.passes_for(k, adapters, 2 if req.algorithm == Algorithm.ppo else 1)


def _long_context_factor(req: SizingRequest, r: Resolved, out: TrainingResult, k: float) -> float:
    """The time's multiplier for attention beyond the calibration runs' 8K context
    (:func:`estimator.attention.time_factor`); 1.0 at 8K and below, without a shape, and when the
    user's measured throughput sets the time (it already includes the attention)."""
    n = r.active or out.params
    if out.spec is None or not n or measured_rate(req, k, n) is not None:
        return 1.0
    shape = attention.shape_of(out.spec)
    return attention.time_factor(shape, n, _seq_len(req, r.stage), k, _attention_passes(out, k, req))


def _attention(req: SizingRequest, r: Resolved, tokens: float, k: float, out: TrainingResult) -> None:
    """``flops_with_attention`` = k·N·D + the causal attention FLOPs at the sequence length
    (:func:`estimator.attention.flops_per_token`), and the attention's share of it."""
    if out.spec is None or out.flops is None or not tokens:
        return
    seq = _seq_len(req, r.stage)
    per_token = attention.flops_per_token(attention.shape_of(out.spec), seq, _attention_passes(out, k, req))
    extra = per_token * tokens
    out.flops_with_attention = out.flops + extra
    out.attention_share = extra / out.flops_with_attention


def _cost(gpu_hours: float, band: Band, price: PriceRange) -> Cost:
    """GPU-hours billed in whole hours × the price range; the wider range spans the hours band."""
    low, high, currency, source = price
    billed = compute.billed_gpu_hours(gpu_hours)
    return Cost(
        low_with_mfu=compute.billed_gpu_hours(band.low) * low,
        high_with_mfu=compute.billed_gpu_hours(band.high) * high,
        low=billed * low,
        high=billed * high,
        currency=currency,
        price_low=low,
        price_high=high,
        billed_gpu_hours=billed,
        price_source=source,
    )


def _setup(
    req: SizingRequest, stage: Stage, out: TrainingResult, algorithm: Algorithm, ledger: Ledger
) -> TrainingSetup | None:
    """What is trained and how (sequence, micro-batch, LoRA rank and targets, quantized base, ZeRO
    stage, recompute, optimizer), each as the user stated it, else a recorded default."""
    if out.spec is None or out.params is None:
        return None
    method = out.method or Method.full
    seq_default = defaults.SEQ_LEN_FINETUNE if stage == Stage.finetune else defaults.SEQ_LEN_PRETRAIN
    seq = _seq_len(req, stage)
    beyond_window(out.spec, seq, ledger, stated=bool(req.seq_len) and stage != Stage.pretrain)
    if not req.seq_len:  # "10万条数据每条1k token": sequences of that length (fine-tuning)
        from_samples = stage == Stage.finetune and req.tokens_per_sample and req.num_samples
        ledger.assume("seq_len", seq, Why.seq_from_samples if from_samples else seq_default.why)
    mb = req.batch_size or int(
        ledger.assume("micro_batch", defaults.MICRO_BATCH.value, defaults.MICRO_BATCH.why)
    )
    adapters = method in (Method.lora, Method.qlora)
    rank = req.lora_rank or int(defaults.LORA_RANK.value)
    if adapters and req.lora_rank is None:
        ledger.assume("lora_rank", rank, defaults.LORA_RANK.why)
    if adapters and not req.lora_targets:
        ledger.assume("lora_targets", LORA_ALL_LINEAR, defaults.LORA_TARGETS.why)
    freeze_layers = req.freeze_layers or int(defaults.FREEZE_LAYERS.value)
    if method == Method.freeze and req.freeze_layers is None:
        ledger.assume("freeze_layers", freeze_layers, defaults.FREEZE_LAYERS.why)
    prefix = req.prefix_tokens or int(defaults.PREFIX_TOKENS.value)
    if method == Method.ptuning and req.prefix_tokens is None:
        ledger.assume("prefix_tokens", prefix, defaults.PREFIX_TOKENS.why)
    if req.recompute == Recompute.none:
        ledger.assume("recompute", Recompute.none.value, Why.recompute_flash)
    if req.optimizer is None:
        ledger.assume("optimizer", _optimizer_word(method, req.pure_bf16).value, Why.optimizer)
    ledger.assume("overhead", Word.context_and_fragmentation.value, Why.runtime_overhead)
    out.seq_len, out.batch_size = seq, mb
    out.global_batch = _global_batch(req, stage, seq, ledger)
    eight_bit = req.optimizer in (OptimizerChoice.adamw_8bit, OptimizerChoice.paged_adamw_8bit)
    setup = TrainingSetup(
        method=method,
        algorithm=algorithm,
        seq_len=seq,
        micro_batch=mb,
        lora_rank=rank,
        lora_targets=tuple(req.lora_targets) if req.lora_targets else None,
        base_bits=_base_bits(req, method, ledger),
        offload=bool(req.offload) and method == Method.full,
        master_weights=not req.pure_bf16,
        zero_stage=req.zero_stage,
        recompute=req.recompute.value if req.recompute else None,  # type: ignore[arg-type]
        freeze_layers=freeze_layers,
        prefix_tokens=prefix,
        optimizer="adamw8bit" if eight_bit else "adamw",
        paged_optimizer=req.optimizer == OptimizerChoice.paged_adamw_8bit,
        tp=req.tp if _layout_possible(req) else None,
        pp=req.pp if _layout_possible(req) else None,
    )
    out.checkpoint_bytes = checkpoint_bytes(out.spec, out.params, setup)
    return setup


def _layout_possible(req: SizingRequest) -> bool:
    """A stated TP × PP fits within the user's GPUs (else the search chooses; the interpretation says)."""
    return not req.gpu_count or (req.tp or 1) * (req.pp or 1) <= req.gpu_count


def _optimizer_word(method: Method, pure_bf16: bool | None) -> Word:
    """How the trained parameters are optimized, as the ledger words it."""
    if pure_bf16:
        return Word.adamw_pure_bf16
    if method in (Method.freeze, Method.ptuning):
        return Word.adamw_fp32_trainable
    return Word.adamw if method == Method.full else Word.adamw_adapters


def _base_bits(req: SizingRequest, method: Method, ledger: Ledger) -> float | None:
    """Bits per weight of a quantized frozen base: QLoRA (NF4 unless 8, 3 or 2 bits are stated), or
    LoRA / P-tuning over a base the user quantized (LLaMA-Factory ``quantization_bit``). 8 and 4 bits
    run on bitsandbytes, 3 and 2 on HQQ (LLaMA-Factory docs); the ledger names which."""
    bits = QUANTIZED_PRECISION_BITS.get(req.precision) if req.precision else None
    if method == Method.full or (bits is None and method != Method.qlora):
        return None
    bits = bits or 4
    backend = Word.bitsandbytes if bits in (8, 4) else Word.hqq
    ledger.assume("quantization", backend.value, Why.quantized_base, bits=bits)
    return QUANTIZED_BASE_BITS[bits]


def _global_batch(req: SizingRequest, stage: Stage, seq_len: int, ledger: Ledger) -> int:
    """Sequences per optimizer step: the user's, else ~4M tokens for pre-training (Llama 2 §2.2) or
    128 sequences for fine-tuning (Alpaca; :mod:`estimator.defaults`). The plan turns it into
    gradient accumulation (:func:`estimator.plan.with_batch`)."""
    given = getattr(req, "global_batch", None)
    if given:
        return int(given)
    if stage == Stage.finetune:
        d = defaults.GLOBAL_BATCH_FINETUNE
        return int(ledger.assume("global_batch", int(d.value), d.why))
    d = defaults.GLOBAL_BATCH_TOKENS_PRETRAIN
    sequences = max(1, round(d.value / seq_len))
    return int(ledger.assume("global_batch", sequences, d.why, tokens=d.value, seq_len=seq_len))


def _memory_and_plan(
    req: SizingRequest,
    r: Resolved,
    setup: TrainingSetup,
    out: TrainingResult,
    deadline: float | None,
    ledger: Ledger,
) -> None:
    """Memory per GPU, the fewest GPUs, the layout at the user's (or the deadline's) count, the verdict."""
    assert out.spec is not None and out.params is not None
    gpu = r.gpu
    plan_gpus = req.gpu_count
    if plan_gpus is None and out.gpu_hours is not None:
        # lay out the cluster the deadline needs (memory may raise it below)
        plan_gpus = compute.gpus_for_deadline(
            out.gpu_hours.likely, deadline or assumed_deadline(req)[0], gpu.gpus_per_node
        )
    mem = training_memory(
        out.spec,
        out.params,
        gpu,
        setup,
        requested_gpus=plan_gpus,
        with_alternatives=r.stage == Stage.finetune,
        with_recommended=r.stage == Stage.finetune,  # dropped below for pre-training: not computed
    )
    if req.gpu_count is None and plan_gpus is not None and mem.fits_requested is False and mem.min_gpus:
        # the deadline's count is below the fewest that fit: lay out on the fewest, in whole nodes
        plan_gpus = compute.round_to_nodes(max(plan_gpus, mem.min_gpus), gpu.gpus_per_node)
        mem = training_memory(
            out.spec, out.params, gpu, setup, requested_gpus=plan_gpus,
            with_alternatives=r.stage == Stage.finetune, with_recommended=r.stage == Stage.finetune,
        )  # fmt: skip
    if req.gpu_count is None:
        mem = mem.model_copy(update={"fits_requested": None})
    else:  # an adapter method laid out to communicate least: the least memory on these GPUs, too
        mem = with_least(out.spec, out.params, gpu, setup, mem)
    if r.stage != Stage.finetune:  # pre-training size follows the deadline, not memory comfort
        mem = mem.model_copy(
            update={"recommended_gpus": None, "recommended_plan": None, "recommended_per_gpu_bytes": None}
        )
    if out.global_batch:
        mem = memory_with_batch(mem, out.global_batch)
        given = getattr(req, "global_batch", None)
        plan = mem.plan
        if given and plan is not None and plan.global_batch_sequences != given:
            ledger.note(
                "global_batch_adjusted",
                global_batch=given,
                adjusted=plan.global_batch_sequences,
                micro_batch=plan.micro_batch,
                gradient_accumulation=plan.gradient_accumulation,
                dp=plan.dp,
            )
    out.memory = mem
    out.feasible, out.feasible_reason = training_verdict(req, out.spec, out.params, gpu, setup, mem)
    if mem.min_gpus is None and (setup.zero_stage is not None or setup.recompute is not None):
        ledger.note("no_fit_stated", gpus_searched=MAX_GPUS_SEARCHED)  # the user's setting is the cause
    elif mem.min_gpus is None:
        ledger.note("no_fit", gpus_searched=MAX_GPUS_SEARCHED)
    if mem.fits_requested is False and mem.min_gpus is not None:
        ledger.note("does_not_fit_requested", gpu_count=req.gpu_count, min_gpus=mem.min_gpus)
    elif mem.fits_requested is not False and mem.per_gpu_bytes > HEADROOM * mem.usable_bytes:
        ledger.note("memory_tight", ratio=round(mem.per_gpu_bytes / mem.usable_bytes, 3))
    _note_recompute_chosen(out.spec, out.params, gpu, setup, mem, ledger)
    if gpu.personal and (mem.min_gpus or 0) > 1:
        ledger.note("consumer_no_nvlink", gpu=gpu.family)
    if mem.plan is not None and mem.plan.pp > 1:
        m = mem.plan.gradient_accumulation or 1  # micro-batches per step through the pipeline
        ledger.note("pp_bubble", pp=mem.plan.pp, micro_batches=m, bubble=round((mem.plan.pp - 1) / m, 4))


def _note_recompute_chosen(
    spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, mem: Memory, ledger: Ledger
) -> None:
    """When the user chose no recompute mode and the plan turns on full recompute (gradient
    checkpointing) to fit, say so with the figure without it on the same GPUs (issue 14: a figure that
    drops as the sequence grows must say why). Without it = the layout needing the least memory with
    activations kept (selective recompute, FlashAttention)."""
    plan, n = mem.plan, mem.plan_gpus
    if setup.recompute is not None or plan is None or plan.recompute != "full" or not n:
        return
    if mem.fits_requested is False:  # the layout does not fit anyway: "to fit" would be untrue
        return
    found = least_memory_plan(spec, params, gpu, n, replace(setup, recompute="selective"))
    if found is None:
        return
    without = sum(found[1].values())
    ledger.note(
        "recompute_chosen",
        gpu_count=n,
        per_gpu_gib=mem.per_gpu_bytes / 2**30,
        without_gib=without / 2**30,
    )


def _deadline_table(
    req: SizingRequest, gpu: GpuSpec, out: TrainingResult, deadline: float, ledger: Ledger
) -> None:
    """GPUs for the deadline (whole nodes, at least the fewest that fit), the GPUs ↔ days table, the
    days on the user's count, and the notes on missed deadlines and huge jobs."""
    hours = out.gpu_hours
    assert hours is not None
    mem = out.memory
    need = compute.gpus_for_deadline(hours.likely, deadline, gpu.gpus_per_node)
    if mem is not None and mem.min_gpus:
        need = compute.round_to_nodes(max(need, mem.min_gpus), gpu.gpus_per_node)
    out.gpus_for_deadline = need
    counts = sorted(set(_table_counts(need)) | {need})
    if mem is not None and mem.min_gpus:  # a row the job doesn't fit on would mislead
        counts = [c for c in counts if c >= mem.min_gpus]
    if req.gpu_count:
        out.days = _days(hours, req.gpu_count)
        counts = sorted(set(counts) | {req.gpu_count})
        took = out.days.days.likely
        if req.deadline_days and took > req.deadline_days * 1.05:  # the user's cards miss the date
            if req.deadline_days < 1:  # "within 2 hours": in hours, not 0.083 days
                ledger.note(
                    "deadline_missed_hours",
                    gpu_count=req.gpu_count,
                    hours_taken=took * 24,
                    deadline_hours=req.deadline_days * 24,
                    gpus=need,
                )
            else:
                ledger.note(
                    "deadline_missed",
                    gpu_count=req.gpu_count,
                    days=took,
                    deadline_days=req.deadline_days,
                    gpus=need,
                )
    out.days_table = [_days(hours, c) for c in counts]
    days_on_given = out.days.days.likely if out.days else deadline
    if need > HUGE_GPUS or days_on_given > HUGE_DAYS:
        ledger.note("huge_job", gpus=need, days=days_on_given)


def _check_budget(req: SizingRequest, cost: Cost, ledger: Ledger) -> None:
    """A budget given next to a data size is a question: "is it enough?" — say so either way. The
    verdict is on the likely GPU-hours at the price range; "within" also names the cost of a run at the
    low end of the MFU range when that would exceed the budget (``cost_high_band``)."""
    if not req.budget or (req.currency and req.currency != cost.currency):
        return
    params = {
        "budget": req.budget,
        "cost_low": cost.low,
        "cost_high": cost.high,
        "currency": cost.currency.value,
    }
    if cost.low > req.budget:
        ledger.note("over_budget", **params)
    elif cost.high <= req.budget:
        if cost.high_with_mfu and cost.high_with_mfu > req.budget:  # a slow run would not be
            params["cost_high_band"] = cost.high_with_mfu
        ledger.note("within_budget", **params)
    else:
        ledger.note("budget_borderline", **params)


def _largest_for_budget(req: SizingRequest, gpu: GpuSpec, tokens: float, k: float) -> float | None:
    """The largest model the budget trains on ``tokens`` ("$50K, 1T tokens: how big?"): N with
    k·N·D = budget ÷ price × 3600 × peak × MFU, at the middle price and the likely MFU. MFU depends on
    the model size, so this starts at D/20 and settles in a few steps. None without a price."""
    scratch = Ledger()  # the real ledger gets the MFU and price of the final size later
    n = tokens / defaults.CHINCHILLA_TOKENS_PER_PARAM.value
    for _ in range(4):
        price = price_range(req, gpu, scratch)
        hours = _budget_hours(req, price, defaults.DEADLINE_DAYS.value)
        if hours is None or not req.budget or not price:
            return None
        rate = TrainingResult()
        mfu = mfu_band(req, gpu, n, False, scratch, k, rate)[1]
        peak = rate.peak_flops or gpu.peak_flops_16bit
        n = compute.flops_for_gpu_hours(hours.likely, peak, mfu) / (k * tokens)
    return n


def _budget_hours(req: SizingRequest, price: PriceRange | None, deadline: float) -> Band | None:
    """GPU-hours a budget buys (low at the high price), or GPUs × deadline × 24; with both, the smaller
    (8 GPUs for two weeks use 2,688 GPU-hours, however large the budget)."""
    gpus_days = None
    if req.gpu_count and req.deadline_days:
        h = float(req.gpu_count * deadline * 24)
        gpus_days = Band(low=h, likely=h, high=h)
    if req.budget and price:
        low, high, _, _ = price
        bought = Band(low=req.budget / high, likely=req.budget / ((low + high) / 2), high=req.budget / low)
        return gpus_days if gpus_days is not None and gpus_days.likely < bought.likely else bought
    return gpus_days
