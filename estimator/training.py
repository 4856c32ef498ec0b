"""The training branch of :func:`estimator.sizing.estimate`: compute, time, cost, memory and plan. C = k·N·D
(:mod:`estimator.compute`), GPU-hours at a calibrated MFU (:mod:`estimator.efficiency`), cost from a dated
price range, memory per GPU and the layout (:mod:`estimator.memory`), the inverse questions (what a budget
or GPUs × days buys). Returns a typed :class:`TrainingResult`; every default is in the ledger."""

from __future__ import annotations

from estimator import attention, compute, defaults, rl_reference, rollout, training_plan
from estimator.architecture import shape_for_size
from estimator.budget_check import budget_without_price, check_budget
from estimator.built import band, cost
from estimator.catalog import GpuSpec, ModelSpec
from estimator.copying import replace
from estimator.duration_check import without_impossible_duration
from estimator.ledger import Ledger, PriceRange, price_range
from estimator.model_states import trained_params
from estimator.models import Algorithm, Band, Cost, DaysRow, Method, Rollout, SizingRequest, Stage
from estimator.quoted_layout import quoted_count
from estimator.reasons import Why
from estimator.resolve import Resolved
from estimator.setup import TrainingSetup
from estimator.shown_cost import per_card
from estimator.training_deadline import (
    Fields,
    _budget_hours,
    _days,
    _deadline_table,
    _largest_for_budget,
    _table_counts,
)
from estimator.training_plan import PlanParts as PlanParts
from estimator.training_plan import _note_recompute_chosen as _note_recompute_chosen
from estimator.training_plan import layout_time, memory_and_plan
from estimator.training_rate import FP8_MIN_PEAK_RATIO as FP8_MIN_PEAK_RATIO
from estimator.training_rate import MEASURED_MFU_PLAUSIBLE as MEASURED_MFU_PLAUSIBLE
from estimator.training_rate import MFU, deadline_gpus, training_rate
from estimator.training_rate import Rate as Rate
from estimator.training_rate import fp8_training as fp8_training
from estimator.training_rate import measured_rate as measured_rate
from estimator.training_rate import mfu_band as mfu_band
from estimator.training_rate import training_peak as training_peak
from estimator.training_result import TrainingResult as TrainingResult
from estimator.training_setup import QUANTIZED_PRECISION_BITS as QUANTIZED_PRECISION_BITS
from estimator.training_setup import SetupParts as SetupParts
from estimator.training_setup import _seq_len, assume_tokens_per_sample, samples_at_cap, training_setup
from estimator.training_tools import runs_eager_experts, tool_method
from estimator.vision import text_params


def size_training(req: SizingRequest, r: Resolved, ledger: Ledger, shrink: float = 1.0) -> TrainingResult:
    """Size a training job: compute and time when there is data (or a budget, or GPUs × days, or a
    known duration), memory and the layout when there is a model. ``shrink``: a budget's largest model
    × it (s49 trial #3, :func:`_budget_size_over`)."""
    asked, mark = req, (len(ledger.assumptions), len(ledger.notes))  # a budget's size sized again: from here
    out = TrainingResult(params=r.params, spec=r.spec)
    req = rollout.with_prompt(req, ledger)  # RL with only the completion's length: TRL's prompt 512
    out.method = tool_method(req, r.stage, ledger)
    algorithm = req.algorithm or Algorithm.sft
    tokens = _training_tokens(req, r.stage, ledger)
    pretraining = r.stage in (Stage.pretrain, Stage.continued_pretrain) and not req.hours  # a run's time: s18
    if tokens is None and req.duration_asked and pretraining and (r.active or r.params) and not req.budget:
        n = r.active or r.params or 0.0  # 'how long to train a 7B on 8 H100', no data: D = 20·N, assumed
        tokens = ledger.assume(
            "tokens", defaults.CHINCHILLA_TOKENS_PER_PARAM.value * n, Why.tokens_chinchilla_assumed
        )
        ledger.note("tokens_assumed_chinchilla", tokens=tokens)
    elif tokens is None and req.duration_asked and not (req.budget or req.hours or req.deadline_days):
        ledger.note("duration_needs_data")  # fine-tuning: no rule of thumb for the data, ask for it
    sized = _params_from_data(req, r.gpu, tokens, _k(out, algorithm, req)[0], out, ledger, shrink)
    if sized is not None:
        out = replace(out, params=sized[0], spec=sized[1])
    k, why, params = _k(out, algorithm, req)  # freeze-tuning's k needs the shape: after the size is known
    out.flops_formula = f"{k:.3g}ND"
    if k != 6.0:
        ledger.assume("flops_per_param_token", round(k, 3), why, **params)

    mfu, price, deadline = None, None, req.deadline_days
    timed = not r.gpu.generic or measured_rate(req, k, text_params(r.active, out)) is not None
    if r.gpu.generic and not timed and (tokens is not None or req.budget or req.hours):
        ledger.note("generic_gpu_no_time", gpu=r.gpu.name)
    req = without_impossible_duration(req, r, tokens, k, out.params, ledger)  # '1 hour' for 2T tokens
    if req.hours:
        price = price_range(req, r.gpu, ledger) if timed else None
        out.currency = price[2] if price else None
        out = replace(out, **_known_duration(req, r, tokens, k, price, out, ledger))
    elif timed and (tokens is not None or req.budget or (req.gpu_count and req.deadline_days)):
        eager = out.params if r.active is not None and runs_eager_experts(req, r.stage) else None
        rate = training_rate(
            req, r.gpu, text_params(r.active, out), r.active is not None, ledger, k, tokens, eager
        )
        mfu, out.peak_flops, out.mfu_calibrated, out.gpu_hours_interval, out.scale_reference = rate
        price = price_range(req, r.gpu, ledger)
        out.currency = price[2] if price else None
        deadline = deadline or ledger.assume("deadline_days", *assumed_deadline(req))
        out.deadline_days, out.mfu_likely = deadline, mfu[1]
    if tokens is None and mfu is not None:
        out = replace(out, **_inverse(req, r, k, mfu, price, deadline or assumed_deadline(req)[0], out))
    if tokens is not None and out.params is not None and mfu is not None:
        out = replace(out, **_compute_time_cost(req, r, tokens, k, mfu, price, out, ledger))
    elif tokens is not None and out.params is not None and out.flops is None:  # FLOPs without time
        out.flops = compute.training_flops(text_params(r.active, out), tokens, k)
        out.pf_days, out.tokens = compute.pf_days(out.flops), tokens
    if out.flops is not None and out.spec is not None:
        out = replace(out, **_attention(req, r, tokens or 0.0, k, out))
    if out.spec is not None and out.params is not None:
        out = replace(out, **_memory_and_layout(req, r, out, algorithm, deadline, ledger))
    out = replace(out, **layout_time(req, out, k, ledger, r.gpu))
    if out.method_comparison or (out.memory and out.memory.fits_requested is False and req.gpu_count):
        from estimator.method_hours import timed_alternatives, timed_method_rows  # used: start-up (s26)

        rows = timed_method_rows(req, out, algorithm, ledger)  # each method's hours as the plan runs (s18)
        out = timed_alternatives(req, replace(out, method_comparison=rows), algorithm)  # s35 fixd #4
    if out.gpu_hours is not None and not req.hours:
        table = _deadline_table(req, r.gpu, out, deadline or assumed_deadline(req)[0], ledger)
        out = replace(out, **quoted_count(req, r, out, table, ledger))  # the plan on the quoted count
    if out.cost is not None and mfu is not None and tokens is not None and not req.hours:
        least = out.memory.min_gpus if out.memory is not None else None  # never fewer GPUs than fit
        check_budget(req, training_plan.shown_cost(out), ledger, least, out)  # the headline count's cost
    if out.gpu_hours is not None and ledger.notes:
        _tiny_job_as_shown(out.gpu_hours.likely, ledger)
    if req.budget and (over := _budget_size_over(req, out, ledger)) and shrink > MIN_SHRINK:
        del ledger.assumptions[mark[0] :], ledger.notes[mark[1] :]
        return size_training(asked, r, ledger, shrink / over)
    return out


MIN_SHRINK = 0.3
"""The smallest share of a budget's largest model (its count-free inverse) sized again (s49 trial #3): the
cost falls a bit faster than the size (less recompute, fewer GPUs), so one or two passes settle it."""


def _budget_size_over(req: SizingRequest, out: TrainingResult, ledger: Ledger) -> float | None:
    """The quoted cost at the middle of the price range ÷ the budget when a budget's largest model
    (``budget_max_params``) costs more than the budget as the reply prices it, else None (s49 trial #3: the
    size is solved at the count-free MFU, but the plan it needs — full recompute, the scale-out to the GPUs
    quoted — can cost more: '$5,000 … 332B … Over budget: $5,391 – $12,579'; the size is then shrunk by
    that ratio and sized again)."""
    if "budget_max_params" not in [n.code for n in ledger.notes] or out.cost is None:
        return None
    cost = training_plan.shown_cost(out)
    if cost is None or not req.budget or (req.currency and req.currency != cost.currency):
        return None
    over = (cost.low + cost.high) / 2 / req.budget
    return over if over > 1.001 else None


def _tiny_job_as_shown(gpu_hours: float, ledger: Ledger) -> None:
    """The ``tiny_job`` note at the GPU-hours the answer shows, after the layout's slowdowns (full
    recomputation's extra forward, the pipeline bubble: :func:`estimator.training_plan._slower_fields`).
    Trial s43 q17_en: headline 1.3 GPU-hours, the note '约 0.87 卡·时', the figure before recomputation's
    ×1.5 for LoRA (C = 4ND, + 2ND for the recomputed forward). The note stays: the job was found tiny."""
    for i, n in enumerate(ledger.notes):
        if n.code == "tiny_job" and n.params.get("gpu_hours") != gpu_hours:
            shown = n.model_copy(update={"params": {**n.params, "gpu_hours": gpu_hours}})
            ledger.notes = [*ledger.notes[:i], shown, *ledger.notes[i + 1 :]]
            return


def _memory_and_layout(
    req: SizingRequest,
    r: Resolved,
    out: TrainingResult,
    algorithm: Algorithm,
    deadline: float | None,
    ledger: Ledger,
) -> Fields:
    """The setup (:func:`estimator.training_setup.training_setup`), memory and layout
    (:func:`estimator.training_plan.memory_and_plan`) and the method comparison."""
    assert out.spec is not None and out.params is not None
    parts = training_setup(req, r.stage, out.spec, out.params, out.method or Method.full, algorithm, ledger)
    fields: Fields = dict(seq_len=parts.seq_len, batch_size=parts.batch_size, global_batch=parts.global_batch)
    fields |= {"checkpoint_bytes": parts.checkpoint, "sample_tokens": parts.sample_tokens}
    cluster = None  # lay out the cluster the deadline needs (memory may raise it below)
    if req.gpu_count is None and out.gpu_hours is not None:
        days = deadline or assumed_deadline(req)[0]
        cluster = deadline_gpus(out.gpu_hours, days, r.gpu.gpus_per_node, None, out.scale_reference)
    plan = memory_and_plan(req, r, parts.setup, out.spec, out.params, cluster, parts.global_batch, ledger)
    fields |= {"memory": plan.memory, "feasible": plan.feasible, "feasible_reason": plan.feasible_reason}
    if req.methods:  # timed later
        from estimator.methods import method_rows

        fields["method_comparison"] = method_rows(req, out.spec, out.params, r.gpu, parts.setup)
    return fields


def assumed_deadline(req: SizingRequest) -> tuple[float, Why]:
    """Days assumed when the question states no deadline and the answer needs one: the chat's default
    (``deadline_default_days``, from /settings) or the one-month planning window
    (:data:`estimator.defaults.DEADLINE_DAYS`), with the ledger's reason."""
    if req.deadline_default_days:
        return req.deadline_default_days, Why.chat_settings
    return defaults.DEADLINE_DAYS.value, defaults.DEADLINE_DAYS.why


def _k(out: TrainingResult, algorithm: Algorithm, req: SizingRequest) -> tuple[float, Why, dict[str, str]]:
    """k in C = k·N·D for the method (:func:`estimator.compute.flops_per_param_token`); freeze-tuning:
    a forward pass over all weights (2) and a backward pass over the trained layers only (4 per
    trained parameter): k = 2 + 4·N_trained/N."""
    method, ref = out.method or Method.full, algorithm == "sft" or rl_reference.has_reference(req, algorithm)
    k = compute.flops_per_param_token(method == Method.full, str(algorithm), ref)  # StrEnum: no frames
    why = Why.flops_per_param_token if ref else Why.flops_no_reference  # the tool's own KL key named
    why = Why.flops_no_reference_ppo if why == Why.flops_no_reference and algorithm == "ppo" else why
    if method == Method.freeze and out.spec is not None and out.params:
        setup = TrainingSetup(method=method)
        share = trained_params(out.spec, out.params, setup) / out.params
        k, why = k - 2.0 + 4.0 * share, Why.flops_freeze
    trained = {"trained": "all" if method == Method.full else "adapters"}  # whose derivation (s43 #4)
    return k, why, trained if ref else trained | rl_reference.no_reference_params(req)


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
    return replace(out, **_known_duration(req, r, None, 6.0, price, out, ledger))


def _known_duration(
    req: SizingRequest,
    r: Resolved,
    tokens: float | None,
    k: float,
    price: PriceRange | None,
    out: TrainingResult,
    ledger: Ledger,
) -> Fields:
    """A wall-clock duration the user knows ('6 hours on one H100', '2台8卡H800跑了36小时'):
    GPU-hours = GPUs × hours, their cost, and the MFU it implies when the model and data are known."""
    hours = req.hours or 0.0
    gpus = req.gpu_count or int(ledger.assume("gpu_count", 1, Why.known_duration_one_gpu))
    gpu_hours = gpus * hours
    band = Band(low=gpu_hours, likely=gpu_hours, high=gpu_hours)
    days = DaysRow(gpus=gpus, days=Band(low=hours / 24, likely=hours / 24, high=hours / 24))
    fields: Fields = {"gpu_hours": band, "days": days, "days_table": [days]}
    ledger.note("known_duration", gpu_count=gpus, hours=hours, gpu_hours=gpu_hours)
    if tokens is not None and out.params is not None:
        flops = compute.training_flops(text_params(r.active, out), tokens, k)
        fields |= {"flops": flops, "pf_days": compute.pf_days(flops), "tokens": tokens}
        if not r.gpu.generic:
            implied = flops / (gpu_hours * compute.SECONDS_PER_HOUR * r.gpu.peak_flops_16bit)
            fields["mfu"] = Band(low=implied, likely=implied, high=implied)
            fields["peak_flops"] = r.gpu.peak_flops_16bit
            ledger.note("implied_mfu", mfu=round(implied, 4))
    if price:
        fields["cost"] = cost = _cost(gpu_hours, band, price)
        if gpus > cost.billed_gpu_hours:  # each card pays its first whole hour (s35-fixa #1)
            fields["cost"] = cost = per_card(cost, band, gpus)
        check_budget(req, cost, ledger)
    elif not r.gpu.generic:
        budget_without_price(req, band, r.gpu.family, ledger)
    return fields


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
            per = samples_at_cap(req, ledger)  # an upper bound for the time, said (issue 24)
        else:
            per = assume_tokens_per_sample(req, stage, ledger)  # the average sample (time)
        n = req.num_samples * rollout.sequences_per_prompt(req)  # RL: G completions of each prompt
        if req.samples_are_pairs and (req.algorithm == Algorithm.dpo or req.reward_model):  # chosen, rejected
            tokens = n * PAIR_SEQUENCES * per * epochs
            ledger.note("pairs_to_tokens", num_samples=n, tokens_per_sample=per, epochs=epochs, tokens=tokens)
            return tokens
        tokens = n * per * epochs
        ledger.note("samples_to_tokens", num_samples=n, tokens_per_sample=per, epochs=epochs, tokens=tokens)
        return tokens
    return None


def _params_from_data(
    req: SizingRequest,
    gpu: GpuSpec,
    tokens: float | None,
    k: float,
    out: TrainingResult,
    ledger: Ledger,
    shrink: float = 1.0,
) -> tuple[float, ModelSpec] | None:
    """No model named but a data size: (parameters, a generic shape of that size) of the largest model
    the budget trains on it, else of the compute-optimal size for the data (D = 20·N); None otherwise,
    and for fine-tuning data (that stage, or samples): the model exists, the data says nothing of its size,
    unless the question asks the largest model its budget fine-tunes on it (``largest_asked``, s35 #1)."""
    tuned = req.stage == Stage.finetune and not (req.largest_asked and req.budget)
    if out.params is not None or tokens is None or tuned or req.num_samples is not None:
        return None
    if req.budget:
        largest = _largest_for_budget(req, gpu, tokens, k)
        if largest is not None:
            largest *= shrink  # the plan's cost over the budget (s49 trial #3, _budget_size_over)
            params = ledger.assume("params_total", largest, Why.budget_max_params)
            spec = shape_for_size(largest)
            price = price_range(req, gpu, Ledger())
            currency = price[2].value if price else None
            ledger.note(
                "budget_max_params", budget=req.budget, currency=currency, tokens=tokens, params_total=largest
            )
            return params, spec
    params = ledger.assume(
        "params_total", tokens / defaults.CHINCHILLA_TOKENS_PER_PARAM.value, Why.compute_optimal_size
    )
    return params, shape_for_size(params)


def _hours_band(flops: float, peak: float, mfu: MFU) -> Band:
    low_mfu, likely_mfu, high_mfu = mfu
    hours = compute.gpu_hours
    return band(hours(flops, peak, high_mfu), hours(flops, peak, likely_mfu), hours(flops, peak, low_mfu))


def _scaled(values: Band, factor: float) -> Band:
    return band(values.low * factor, values.likely * factor, values.high * factor)


def _inverse(
    req: SizingRequest,
    r: Resolved,
    k: float,
    mfu: MFU,
    price: PriceRange | None,
    deadline: float,
    out: TrainingResult,
) -> Fields:
    """A budget or GPUs × days and no data size: the GPU-hours it buys, the tokens it trains a named
    model on, or the largest compute-optimal model."""
    hours = _budget_hours(req, price, deadline)
    if hours is None:
        return {}
    peak = out.peak_flops or r.gpu.peak_flops_16bit
    flops = _scaled(hours, peak * mfu[1] * compute.SECONDS_PER_HOUR)
    need = compute.gpus_for_deadline(hours.likely, deadline, r.gpu.gpus_per_node)
    table = [_days(hours, c) for c in _table_counts(need)]  # how long the bought hours take
    fields: Fields = {"budget_gpu_hours": hours, "days_table": table}
    n = text_params(r.active, out)
    if n:
        slower = _long_context_factor(req, r, out, k)  # attention beyond 8K: fewer tokens per FLOP
        fields["tokens_for_budget"] = _scaled(flops, 1 / (k * n * slower))
    else:
        largest = compute.compute_optimal_params(flops.likely, flops_per_param_token=k)
        fields |= {"max_params_for_budget": largest, "chinchilla_tokens": compute.chinchilla_tokens(largest)}
    return fields


def _compute_time_cost(
    req: SizingRequest,
    r: Resolved,
    tokens: float,
    k: float,
    mfu: MFU,
    price: PriceRange | None,
    out: TrainingResult,
    ledger: Ledger,
) -> Fields:
    """C = k·N·D, GPU-hours at the MFU band (beyond the calibration context, × the attention factor:
    :func:`_long_context_factor`), PF-days, Chinchilla, and the cost of the likely hours."""
    params = out.params or 0.0
    flops = compute.training_flops(text_params(r.active, out) or params, tokens, k)
    peak = out.peak_flops or r.gpu.peak_flops_16bit
    roll = _rollouts(req, r, out, tokens, k, ledger)  # RL generation: decode-timed, out of the MFU part
    timed = flops - (roll[1] if roll else 0.0)
    hours = _hours_band(timed * _long_context_factor(req, r, out, k), peak, mfu)
    fields: Fields = {"flops": flops, "pf_days": compute.pf_days(flops), "tokens": tokens}
    if roll:
        hours, fields["rollout"] = rollout.with_rollout(hours, roll[0])
    fields["gpu_hours"] = hours
    fields["mfu"] = None if r.gpu.generic else band(mfu[0], mfu[1], mfu[2])  # Band(low=…, likely=…, high=…)
    if r.active:
        ledger.note("moe_active_params", params_active=r.active, params_total=params)
    if r.stage == Stage.pretrain:
        fields["chinchilla_tokens"] = chinchilla = compute.chinchilla_tokens(params)
        if tokens < chinchilla:
            ledger.note("below_chinchilla", tokens=tokens, chinchilla_tokens=chinchilla)
    if hours.likely < 1:
        ledger.note("tiny_job", gpu_hours=hours.likely)
    if price:
        fields["cost"] = _cost(hours.likely, hours, price)  # its budget check: after the layout's time
    elif not r.gpu.generic:
        budget_without_price(req, hours, r.gpu.family, ledger)
    return fields


def _rollouts(
    req: SizingRequest, r: Resolved, out: TrainingResult, tokens: float, k: float, ledger: Ledger
) -> tuple[Rollout, float] | None:
    """The RL rollouts (:func:`estimator.rollout.rollout_part`); none when the user's measured rate sets
    the time (it includes the generation) or without a model shape."""
    if out.spec is None or not out.params or measured_rate(req, k, text_params(r.active, out)) is not None:
        return None
    return rollout.rollout_part(req, out.spec, out.params, r.active, r.gpu, tokens, ledger)


_ADAPTERS = (Method.lora, Method.qlora, Method.ptuning)  # a tuple made once (enum loads are slow in 3.11)


def _attention_passes(out: TrainingResult, k: float, req: SizingRequest) -> float:
    """Forward-pass equivalents of the attention matmuls (:func:`estimator.attention.passes_for`)."""
    adapters = out.method in _ADAPTERS  # None (full training) is not one
    return attention.passes_for(k, adapters, 2 if req.algorithm == Algorithm.ppo else 1)


def _long_context_factor(req: SizingRequest, r: Resolved, out: TrainingResult, k: float) -> float:
    """The time's multiplier for attention beyond the calibration runs' 8K context
    (:func:`estimator.attention.time_factor`); 1.0 at 8K and below, without a shape, and when the
    user's measured throughput sets the time (it already includes the attention)."""
    n = text_params(r.active, out)
    if out.spec is None or not n or measured_rate(req, k, n) is not None:
        return 1.0
    shape, seq = attention.shape_of(out.spec), _seq_len(req, r.stage, out.spec)
    return attention.time_factor(shape, n, seq, k, _attention_passes(out, k, req))


def _attention(req: SizingRequest, r: Resolved, tokens: float, k: float, out: TrainingResult) -> Fields:
    """``flops_with_attention`` = k·N·D + the causal attention FLOPs at the sequence length
    (:func:`estimator.attention.flops_per_token`), and the attention's share of it."""
    if out.spec is None or out.flops is None or not tokens:
        return {}
    seq = _seq_len(req, r.stage, out.spec)
    per_token = attention.flops_per_token(attention.shape_of(out.spec), seq, _attention_passes(out, k, req))
    extra = per_token * tokens
    total = out.flops + extra
    return {"flops_with_attention": total, "attention_share": extra / total}


def _cost(gpu_hours: float, band: Band, price: PriceRange) -> Cost:
    """GPU-hours billed in whole hours × the price range; the wider range spans the hours band."""
    low, high, currency, source = price
    billed = compute.billed_gpu_hours(gpu_hours)
    return cost(  # Cost(...), built without validating again
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
