"""SizingRequest → SizingReport: fill stated defaults, then size compute, memory and serving.

Pure and deterministic: the same request always gives the same report. Every value the user
did not give is recorded as an Assumption with its source.
"""

from __future__ import annotations

import math

from estimator import catalog, compute, defaults, efficiency
from estimator.architecture import shape_for_size
from estimator.catalog import GpuSpec, ModelSpec
from estimator.ledger import Ledger, price_range
from estimator.memory import (
    HEADROOM,
    MAX_GPUS_SEARCHED,
    TrainingSetup,
    best_plan_for,
    checkpoint_bytes,
    training_memory,
)
from estimator.models import (
    Algorithm,
    Band,
    Cost,
    DaysRow,
    Memory,
    Method,
    SizingReport,
    SizingRequest,
    Stage,
)
from estimator.serving import requested_count, size_serving

SHAPE_SOURCE = (
    "Llama-style shape interpolated from the catalog's dense Llama/Qwen releases "
    "(estimator.architecture.shape_for_size)"
)
BUDGET_SIZE_SOURCE = (
    "the largest model the budget trains on this data: N = budget ÷ price × peak × MFU × 3600 ÷ (6·D)"
)
APPLE_CONFIG_SOURCE = (
    "the chip you named with the memory you named; bandwidth and compute of its top configuration "
    "(smaller M3/M4 Max configurations have less bandwidth: decode may be slower)"
)
TRAINING_STAGES = (Stage.pretrain, Stage.continued_pretrain, Stage.finetune)
HUGE_GPUS = 100_000
"""Beyond this a 'huge job' note is shown: the largest published clusters are ~100k GPUs (xAI
Colossus, 2024); Llama 3 405B used 16k H100 (Dubey et al. 2024 §3.3)."""
HUGE_DAYS = 3650
"""Beyond ten years of wall-clock time the plan is not a plan: say so."""


def _resolve_gpu(req: SizingRequest, ledger: Ledger) -> GpuSpec:
    """The catalog GPU asked for; a card of the stated memory ('24G的卡'); else the default."""
    if req.gpu and req.gpu in catalog.gpus():
        spec = catalog.gpu(req.gpu)
        mem = req.gpu_memory_gib
        if spec.gpu_memory_fraction and mem and abs(mem - spec.memory_gib) >= 1:
            # Apple silicon comes in several memory sizes: the chip with the memory the user named
            spec = spec.model_copy(
                update={
                    "id": f"{spec.id.rsplit('-', 1)[0]}-{mem:g}GB",
                    "name": f"{spec.family} {mem:g}G",  # as the reply names cards: "M2 Ultra 64G"
                    "memory_gib": float(mem),
                    # Metal's default working set: 3/4 of 64 GB and up, 2/3 below (llama.cpp logs:
                    # 21,845 MB of 32 GB, 73,728 MB of 96 GB; ggml-org/llama.cpp#2011, #3213)
                    "gpu_memory_fraction": 0.75 if mem >= 64 else 2 / 3,
                }
            )
            ledger.assume("gpu", spec.id, APPLE_CONFIG_SOURCE)
        return spec
    if req.gpu:
        ledger.note("unknown_gpu_assumed", gpu=req.gpu)
    if req.gpu_memory_gib:
        match = catalog.gpu_with_memory(req.gpu_memory_gib)
        if match is not None:
            ledger.assume("gpu", match.id, "the fastest catalog card with the memory you named")
            return match
        base = catalog.gpu(defaults.DEFAULT_GPU)
        generic = base.model_copy(
            update={
                "id": f"GPU-{req.gpu_memory_gib:g}GB",
                "name": f"GPU {req.gpu_memory_gib:g} GiB",
                "family": f"{req.gpu_memory_gib:g} GiB GPU",
                "memory_gib": req.gpu_memory_gib,
            }
        )
        ledger.assume(
            "gpu", generic.id, f"a {req.gpu_memory_gib:g} GiB card; compute and bandwidth of {base.id}"
        )
        return generic
    default = catalog.gpu(defaults.DEFAULT_GPU)
    ledger.assume("gpu", default.id, defaults.DEFAULT_GPU_SOURCE)
    return default


def _resolve_model(
    req: SizingRequest, ledger: Ledger
) -> tuple[ModelSpec | None, float | None, float | None]:
    """Catalog spec (or an interpolated shape), total and active params. Params may stay None."""
    spec = catalog.models().get(req.model) if req.model else None
    total = req.params_total or (spec.params_total if spec else None)
    active = req.params_active or (spec.params_active if spec else None)
    if spec is not None and total and abs(total - spec.params_total) <= 0.2 * spec.params_total:
        # "Qwen2.5-7B" names a size; the release has 7.61B: size with the exact count
        if total != spec.params_total:
            ledger.assume("params_total", spec.params_total, f"{spec.name}: {spec.source}")
        total, active = spec.params_total, spec.params_active or active
    if spec is None and total is not None:
        spec = shape_for_size(active or total)
        ledger.assume("architecture", spec.id, SHAPE_SOURCE)
    return spec, total, active


def _stage(req: SizingRequest, ledger: Ledger) -> Stage:
    if req.stage:
        return req.stage
    if req.tokens or req.budget or req.num_samples:
        return ledger.assume(
            "stage", Stage.pretrain.value, "tokens or a budget were given: a training question"
        )
    return Stage(ledger.assume("stage", Stage.inference.value, "no data size given: sized as serving"))


def _mfu_band(
    req: SizingRequest, gpu: GpuSpec, n_active: float | None, moe: bool, ledger: Ledger
) -> tuple[float, float, float]:
    """(pessimistic, likely, optimistic) MFU. A user's MFU overrides the calibrated model."""
    if req.mfu:
        if not 0.1 <= req.mfu <= 0.6:
            ledger.note("mfu_outside_band", mfu=req.mfu)
        return req.mfu, req.mfu, req.mfu
    model = efficiency.CALIBRATED
    n = n_active or 7e9
    likely = efficiency.likely_mfu(model, gpu.mfu_class, n, moe)
    low, likely, high = efficiency.mfu_band(model, likely)
    ledger.assume("mfu", round(likely, 4), efficiency.explain(model, gpu.mfu_class, n, moe))
    ledger.assume(
        "mfu_band",
        f"{low:.2f}–{high:.2f}",
        f"calibrated band: ×{model.band_low:g}–×{model.band_high:g} of the likely GPU-hours "
        "(coverage: 67 % (held-out published runs), 81 % (all 32 runs); sizing-bot validate)",
    )
    return low, likely, high


def _hours_band(flops: float, peak: float, mfu: tuple[float, float, float]) -> Band:
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


def _table_counts(anchor: int, per_node: int) -> list[int]:
    """GPU counts for the GPUs ↔ days table: powers of two around the anchor (136 → 64…512)."""
    base = 2 ** max(0, int(math.log2(max(1, anchor))))
    return sorted({max(1, base // 2), base, base * 2, base * 4})


def _training_tokens(req: SizingRequest, stage: Stage, ledger: Ledger) -> float | None:
    """D per run: tokens × epochs, or samples × tokens per sample × epochs."""
    epochs = req.epochs
    if epochs is None and stage == Stage.finetune and (req.tokens or req.num_samples):
        epochs = ledger.assume("epochs", defaults.EPOCHS_FINETUNE.value, defaults.EPOCHS_FINETUNE.source)
    epochs = epochs or 1
    if req.tokens:
        return req.tokens * epochs
    if req.num_samples:
        per = req.tokens_per_sample or ledger.assume(
            "tokens_per_sample", defaults.TOKENS_PER_SAMPLE.value, defaults.TOKENS_PER_SAMPLE.source
        )
        tokens = req.num_samples * per * epochs
        ledger.note("samples_to_tokens", num_samples=req.num_samples, tokens_per_sample=per, tokens=tokens)
        return tokens
    return None


def estimate(req: SizingRequest) -> SizingReport:
    """Size the job described by ``req``.

    Raises nothing for any valid SizingRequest; quantities that cannot be computed are None.
    """
    ledger = Ledger()
    stage = _stage(req, ledger)
    gpu = _resolve_gpu(req, ledger)
    spec, params, active = _resolve_model(req, ledger)
    if gpu.peak_tflops_bf16 is None and stage != Stage.inference:  # a training concern (loss scaling)
        ledger.note("gpu_no_bf16", gpu=gpu.family)
    filled: dict = {"stage": stage, "gpu": gpu.id, "params_total": params, "params_active": active}
    report: dict = {"gpu_name": gpu.name, "model_name": spec.name if req.model and spec else None}

    if stage == Stage.inference:
        if spec is None or params is None:
            return _finish(req, filled, report, ledger)
        size_serving(req, spec, params, active, gpu, ledger, filled, report)
        return _finish(req, filled, report, ledger)

    # Training stages
    method = req.method
    if stage == Stage.finetune and method is None:
        method = Method(
            ledger.assume(
                "method", Method.full.value, "full-parameter fine-tuning unless LoRA/QLoRA is named"
            )
        )
    method = method or Method.full
    filled["method"] = method
    algorithm = req.algorithm or Algorithm.sft
    k = compute.flops_per_param_token(method == Method.full, algorithm.value)
    report["flops_formula"] = f"{k:g}ND"
    if k != 6.0:
        ledger.assume(
            "flops_per_param_token",
            k,
            "derived: LoRA/QLoRA need no weight gradients for frozen weights (4ND); "
            "DPO/GRPO/PPO add reference, reward and generation forward passes (2ND each)",
        )

    tokens = _training_tokens(req, stage, ledger)
    if params is None and tokens is not None and req.budget:
        largest = _largest_for_budget(req, gpu, tokens, k)
        if largest is not None:
            params = ledger.assume("params_total", largest, BUDGET_SIZE_SOURCE)
            spec = shape_for_size(params)
            filled["params_total"] = params
            price = price_range(req, gpu, Ledger())
            currency = price[2].value if price else None
            ledger.note(
                "budget_max_params", budget=req.budget, currency=currency, tokens=tokens, params_total=params
            )
    if params is None and tokens is not None:
        params = ledger.assume(
            "params_total",
            tokens / defaults.CHINCHILLA_TOKENS_PER_PARAM.value,
            "compute-optimal size for this data: N = D / 20 (Hoffmann et al. 2022)",
        )
        spec = shape_for_size(params)
        filled["params_total"] = params

    # Time, price and deadline matter only when there is compute to size (data, budget or GPUs × days)
    peak = gpu.peak_flops_16bit
    mfu = price = None
    deadline = req.deadline_days
    if tokens is not None or req.budget or (req.gpu_count and req.deadline_days):
        mfu = _mfu_band(req, gpu, active or params, active is not None, ledger)
        price = price_range(req, gpu, ledger)
        if price:
            filled["currency"] = price[2]
        deadline = deadline or ledger.assume(
            "deadline_days", defaults.DEADLINE_DAYS.value, defaults.DEADLINE_DAYS.source
        )
        filled |= {"deadline_days": deadline, "mfu": mfu[1]}

    # Inverse questions: a budget or GPUs × days, no data size
    if tokens is None and mfu is not None:
        hours_budget = _budget_hours(req, price, deadline)
        if hours_budget is not None:
            report["budget_gpu_hours"] = hours_budget
            flops_budget = Band(
                low=compute.flops_for_gpu_hours(hours_budget.low, peak, mfu[1]),
                likely=compute.flops_for_gpu_hours(hours_budget.likely, peak, mfu[1]),
                high=compute.flops_for_gpu_hours(hours_budget.high, peak, mfu[1]),
            )
            n_for_flops = active or params
            # how long the bought GPU-hours take on a few cluster sizes
            need = compute.gpus_for_deadline(hours_budget.likely, deadline, gpu.gpus_per_node)
            report["days_table"] = [_days(hours_budget, c) for c in _table_counts(need, gpu.gpus_per_node)]
            if n_for_flops:
                report["tokens_for_budget"] = Band(
                    low=flops_budget.low / (k * n_for_flops),
                    likely=flops_budget.likely / (k * n_for_flops),
                    high=flops_budget.high / (k * n_for_flops),
                )
            else:
                report["max_params_for_budget"] = compute.compute_optimal_params(
                    flops_budget.likely, flops_per_param_token=k
                )
                report["chinchilla_tokens"] = compute.chinchilla_tokens(report["max_params_for_budget"])

    if tokens is not None and params is not None and mfu is not None:
        n = active or params
        flops = compute.training_flops(n, tokens, k)
        hours = _hours_band(flops, peak, mfu)
        report |= {
            "flops": flops,
            "pf_days": compute.pf_days(flops),
            "gpu_hours": hours,
            "mfu": Band(low=mfu[0], likely=mfu[1], high=mfu[2]),
        }
        filled["tokens"] = tokens
        if active:
            ledger.note("moe_active_params", params_active=active, params_total=params)
        if stage == Stage.pretrain:
            chin = compute.chinchilla_tokens(params)
            report["chinchilla_tokens"] = chin
            if tokens < chin:
                ledger.note("below_chinchilla", tokens=tokens, chinchilla_tokens=chin)
        if hours.likely < 1:
            ledger.note("tiny_job", gpu_hours=hours.likely)
        if price:
            low, high, currency, source = price
            billed = compute.billed_gpu_hours(hours.likely)
            report["cost"] = Cost(
                low_with_mfu=compute.billed_gpu_hours(hours.low) * low,
                high_with_mfu=compute.billed_gpu_hours(hours.high) * high,
                low=billed * low,
                high=billed * high,
                currency=currency,
                price_low=low,
                price_high=high,
                billed_gpu_hours=billed,
                price_source=source,
            )
            _check_budget(req, report["cost"], ledger)  # sized to the middle: the range may still exceed it

    setup = None
    if spec is not None and params is not None:
        seq_default = defaults.SEQ_LEN_FINETUNE if stage == Stage.finetune else defaults.SEQ_LEN_PRETRAIN
        seq = req.seq_len or int(ledger.assume("seq_len", seq_default.value, seq_default.source))
        mb = req.batch_size or int(
            ledger.assume("micro_batch", defaults.MICRO_BATCH.value, defaults.MICRO_BATCH.source)
        )
        rank = defaults.LORA_RANK.value
        if method in (Method.lora, Method.qlora):
            ledger.assume("lora_rank", rank, defaults.LORA_RANK.source)
        ledger.assume(
            "optimizer",
            "AdamW (mixed precision, 16 B/param)"
            if method == Method.full
            else ("AdamW on adapters" if method == Method.lora else "paged 8-bit AdamW on adapters"),
            "ZeRO (Rajbhandari et al. 2020) §3; QLoRA (Dettmers et al. 2023) §2",
        )
        ledger.assume(
            "overhead",
            "1 GiB + 8 %",
            f"{defaults.CUDA_CONTEXT_BYTES.source}; {defaults.FRAGMENTATION.source}",
        )
        setup = TrainingSetup(
            method=method,
            algorithm=algorithm,
            seq_len=seq,
            micro_batch=mb,
            lora_rank=int(rank),
            offload=bool(req.offload) and method == Method.full,
        )
        report["checkpoint_bytes"] = checkpoint_bytes(spec, params, method, int(rank))
        filled |= {"seq_len": seq, "batch_size": mb}

    mem = None
    hours = report.get("gpu_hours")
    if setup is not None:
        plan_gpus = req.gpu_count
        if plan_gpus is None and hours is not None:
            # lay out the cluster the deadline needs (memory may raise it below)
            plan_gpus = compute.gpus_for_deadline(hours.likely, deadline, gpu.gpus_per_node)
        mem = training_memory(
            spec, params, gpu, setup, requested_gpus=plan_gpus, with_alternatives=stage == Stage.finetune
        )
        if req.gpu_count is None:
            mem = mem.model_copy(update={"fits_requested": None})
        if stage != Stage.finetune:  # pre-training size follows the deadline, not memory comfort
            mem = mem.model_copy(
                update={"recommended_gpus": None, "recommended_plan": None, "recommended_per_gpu_bytes": None}
            )
        report["memory"] = mem
        report["feasible"], report["feasible_reason"] = _training_verdict(req, spec, params, gpu, setup, mem)
        if mem.min_gpus is None:
            ledger.note("no_fit", gpus_searched=MAX_GPUS_SEARCHED)
        if mem.fits_requested is False:
            ledger.note("does_not_fit_requested", gpu_count=req.gpu_count, min_gpus=mem.min_gpus)
        elif mem.per_gpu_bytes > HEADROOM * mem.usable_bytes:
            ledger.note("memory_tight", ratio=round(mem.per_gpu_bytes / mem.usable_bytes, 3))
        if gpu.personal and (mem.min_gpus or 0) > 1:
            ledger.note("consumer_no_nvlink", gpu=gpu.family)
        if mem.plan is not None and mem.plan.pp > 1:
            ledger.note("pp_bubble", pp=mem.plan.pp)

    if hours is not None:
        need = compute.gpus_for_deadline(hours.likely, deadline, gpu.gpus_per_node)
        if mem is not None and mem.min_gpus:
            need = compute.round_to_nodes(max(need, mem.min_gpus), gpu.gpus_per_node)
        report["gpus_for_deadline"] = need
        counts = sorted(set(_table_counts(need, gpu.gpus_per_node)) | {need})
        if mem is not None and mem.min_gpus:  # a row the job doesn't fit on would mislead
            counts = [c for c in counts if c >= mem.min_gpus]
        if req.gpu_count:
            report["days"] = _days(hours, req.gpu_count)
            counts = sorted(set(counts) | {req.gpu_count})
            took = report["days"].days.likely
            if req.deadline_days and took > req.deadline_days * 1.05:  # the user's cards miss the date
                ledger.note(
                    "deadline_missed",
                    gpu_count=req.gpu_count,
                    days=took,
                    deadline_days=req.deadline_days,
                    gpus=need,
                )
        report["days_table"] = [_days(hours, c) for c in counts]
        days_on_given = report["days"].days.likely if req.gpu_count else deadline
        if need > HUGE_GPUS or days_on_given > HUGE_DAYS:
            ledger.note("huge_job", gpus=need, days=days_on_given)
    return _finish(req, filled, report, ledger)


def _training_verdict(
    req: SizingRequest, spec: ModelSpec, params: float, gpu: GpuSpec, setup: TrainingSetup, mem: Memory
) -> tuple[str | None, str | None]:
    """('yes' / 'borderline' / 'no', reason) for the user's GPU count; (None, None) without one.

    yes: a layout fits with ≥ 10 % headroom. borderline: it fits only above 90 % of the card
    ('tight'); or only at the upper end of a stated range ('range_upper_end'); or only thanks to CPU
    offload (≈ 12 B/param of host RAM and slow steps, ZeRO-Offload §4: 'offload'); or a QLoRA base
    too big for one card must be sharded (FSDP-QLoRA: works with recent tooling, fiddly:
    'sharded_4bit_base'). no: nothing fits on that many GPUs.
    """
    count = requested_count(req)
    if count is None:
        return None, None
    if mem.fits_requested:
        if mem.per_gpu_bytes > HEADROOM * mem.usable_bytes:
            return "borderline", "tight"
        if setup.offload:
            return "borderline", "offload"
        plan = mem.plan
        if plan is not None and setup.method == Method.qlora:
            base_on_one_gpu = mem.breakdown.get("weights", 0) * plan.tp * plan.pp
            base_on_one_gpu *= plan.dp if plan.zero_stage >= 3 else 1
            if base_on_one_gpu > HEADROOM * mem.usable_bytes:
                return "borderline", "sharded_4bit_base"
        return "yes", None
    if req.gpu_count_max and best_plan_for(spec, params, gpu, req.gpu_count_max, setup):
        return "borderline", "range_upper_end"
    return "no", None


def _check_budget(req: SizingRequest, cost: Cost, ledger: Ledger) -> None:
    """A budget given next to a data size is a question: "is it enough?" — say so either way."""
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
        mfu = _mfu_band(req, gpu, n, False, scratch)[1]
        n = compute.flops_for_gpu_hours(hours.likely, gpu.peak_flops_16bit, mfu) / (k * tokens)
    return n


def _budget_hours(req: SizingRequest, price, deadline: float) -> Band | None:
    """GPU-hours a budget buys (low at the high price), or GPUs × deadline × 24."""
    if req.budget and price:
        low, high, _, _ = price
        return Band(low=req.budget / high, likely=req.budget / ((low + high) / 2), high=req.budget / low)
    if req.gpu_count and req.deadline_days:
        h = float(req.gpu_count * deadline * 24)
        return Band(low=h, likely=h, high=h)
    return None


def _finish(req: SizingRequest, filled: dict, report: dict, ledger: Ledger) -> SizingReport:
    values = req.model_dump()
    values.update({k: v for k, v in filled.items() if v is not None})
    return SizingReport(
        request=SizingRequest.model_validate(values),
        assumptions=ledger.assumptions,
        warnings=ledger.notes,
        **report,
    )
