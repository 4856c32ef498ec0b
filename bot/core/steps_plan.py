"""A pasted config's ``max_steps`` with no GPU count: the tokens follow from the plan's count (s19 item 8).

'max_steps: 3000, per_device_train_batch_size: 2, gradient_accumulation_steps: 8, cutoff_len: 2048' and no
GPU count: a step is micro-batch × accumulation × data-parallel GPUs sequences (Hugging Face
``TrainingArguments``: transformers training_args.py; TRL and LLaMA-Factory train through it), so the steps
cannot become samples without the data-parallel size. Before, the steps were named as not used
('steps_need_batch') and no time was given. Here the request is sized once to learn the plan's count (the
fewest GPUs that hold it: the memory plan's data-parallel degree), and the steps become samples on it; the
'used' item says which count was assumed and that the samples follow from it. The steps stay as they were
when a term is missing, or the data size or a GPU count is stated (:func:`bot.parse.steps.apply_steps`
reads those).
"""

from __future__ import annotations

import re

from bot.lazylog import lazy_logger
from bot.parse import ParseResult
from bot.parse.steps import MAX_STEPS_RE, read_steps
from estimator import estimate
from estimator.built import band
from estimator.models import Band, DaysRow, Note, Plan, SizingReport, SizingRequest
from estimator.shown_cost import billed_cost

log = lazy_logger(__name__)
HF_STEP_TOOLS = frozenset({"TRL", "LLaMA-Factory", "Unsloth"})
"""Trainers whose step is ``per_device_train_batch_size`` × ``gradient_accumulation_steps`` × data-parallel
GPUs (Hugging Face ``TrainingArguments``); a config's ``max_steps`` is one of them whatever the tool."""
_RL = frozenset({"grpo", "rloo", "ppo"})
ON_PLAN_TAIL = "other counts change the samples in proportion)"
"""The end of the 'used' item when the steps were timed on the plan's count (what :func:`table_on_steps`
looks for)."""
_ON_PLAN = re.compile(r": ([\d,]+) × .*\(no GPU count given: the plan's (\d+); " + re.escape(ON_PLAN_TAIL))


def steps_on_plan(parsed: ParseResult) -> ParseResult:
    """``parsed`` with a step count named for want of the batch ('steps_need_batch') read as samples on
    the plan's data-parallel degree when the micro-batch and the sequence length are known and no GPU
    count, data size or global batch is stated: ``num_samples`` = steps × micro × accumulation × DP (÷ the
    completions per prompt for GRPO/RLOO/PPO), and the item becomes 'steps_per_device', saying the count
    assumed. Unchanged otherwise (or when the request cannot be sized)."""
    item = next((u for u in parsed.unused_numbers if u[1] == "steps_need_batch"), None)
    req = parsed.request
    if item is not None and not req.batch_size:  # no per-device step: the estimator's batch (s33 #2)
        from bot.core.steps_default import steps_on_default_batch

        return steps_on_default_batch(parsed, item)
    if (
        item is None
        or req.gpu_count
        or req.tokens
        or req.num_samples
        or not req.batch_size
        or not req.seq_len
    ):
        return parsed
    keyed = MAX_STEPS_RE.match(item[0])
    if not keyed and req.training_tool not in HF_STEP_TOOLS:
        return parsed  # '1000 steps' in prose on another trainer: its step is not known to be per device
    steps = int(keyed[1]) if keyed else read_steps(item[0])[1]
    plan = sized_plan(req)[1]
    if not steps or plan is None:
        return parsed
    micro, accum = int(req.batch_size), int(req.gradient_accumulation or 1)
    per_prompt = int(req.num_generations or 1) if str(req.algorithm or "") in _RL else 1
    sequences = micro * accum * plan.dp
    if sequences % per_prompt:
        return parsed
    samples = steps * sequences // per_prompt
    gpus = plan.tp * plan.pp * plan.dp
    said = (
        f"{item[0]}: {steps:,} × {micro} per device × {accum} accumulation × {plan.dp} GPUs "
        f"(no GPU count given: the plan's {gpus}; {ON_PLAN_TAIL}"
    )
    said += f" ÷ {per_prompt} completions per prompt = {samples:,} prompts" if per_prompt > 1 else ""
    said += "" if per_prompt > 1 else f" = {samples:,} samples"
    unused = [(said, "steps_per_device") if u is item else u for u in parsed.unused_numbers]
    found = [*parsed.found, "num_samples"]
    request = req.model_copy(update={"num_samples": samples, "duration_asked": req.duration_asked})
    return parsed.model_copy(update={"request": request, "unused_numbers": unused, "found": found})


def sized_plan(req: SizingRequest) -> tuple[SizingReport | None, Plan | None]:
    """The request's report and its training plan (None, None where the estimator cannot size it: the
    steps stay named as not used; logged)."""
    try:
        report = estimate(req)
    except Exception:
        log.exception("estimator failed on %r", req)
        return None, None
    return report, report.memory.plan if report.memory is not None else None


def _scaled(h: Band, k: float) -> Band:
    return band(h.low * k, h.likely * k, h.high * k)


def table_on_steps(report: SizingReport, parsed: ParseResult) -> SizingReport:
    """``report`` with its GPUs → time table following the steps when the steps were timed on the plan's
    count (:func:`steps_on_plan`): a Hugging Face step is micro-batch × accumulation × data-parallel GPUs
    sequences, so with ``max_steps`` fixed a count of ``n`` GPUs trains n / plan's-count × the samples —
    its GPU-hours and cost × that ratio, its days about the plan's (the time a step stays ~constant).
    The 'samples_to_tokens' warning gains the steps and the count ('steps', 'gpus'), so the reply says
    the table keeps the steps. Unchanged without such an item or a table."""
    found = None
    for text, why in parsed.unused_numbers:
        if why == "steps_per_device":
            found = _ON_PLAN.search(text)
    if found is None or not report.days_table or report.gpu_hours is None:
        return report
    steps, plan = int(found[1].replace(",", "")), int(found[2])
    rows: list[DaysRow] = []
    for r in report.days_table:
        k = r.gpus / plan
        if k == 1:
            rows.append(r)
            continue
        hours = _scaled(r.gpu_hours or report.gpu_hours, k)
        cost = billed_cost(report.cost, hours, r.gpus)  # on the row's cards (s37)
        rows.append(r.model_copy(update={"days": _scaled(r.days, k), "gpu_hours": hours, "cost": cost}))
    notes = [
        Note(code=n.code, params={**n.params, "steps": steps, "gpus": plan})
        if n.code == "samples_to_tokens"
        else n
        for n in report.warnings
    ]
    update: dict[str, object] = {"days_table": rows, **_deadline_on(report, rows, plan)}
    update["warnings"] = notes + list(update.get("warnings", []))  # type: ignore[call-overload]
    return report.model_copy(update=update)


def _deadline_on(report: SizingReport, rows: list[DaysRow], plan: int) -> dict[str, object]:
    """The count for a deadline on the rows that keep the steps: the fewest GPUs whose days are within
    it; none are when the steps take longer on every count (more GPUs train more samples, not faster),
    then the plan's count (the samples' own) and the note 'steps_past_deadline' (the fastest row's
    hours and GPUs, the deadline's hours)."""
    deadline, gfd = report.request.deadline_days, report.gpus_for_deadline
    if not deadline or gfd is None:
        return {}
    within = [r.gpus for r in rows if r.days.likely <= deadline]
    if within:
        return {"gpus_for_deadline": min(within)}
    first = min(rows, key=lambda r: r.days.likely)
    said = {"hours": first.days.likely * 24, "gpus": first.gpus, "deadline": deadline * 24}
    return {"gpus_for_deadline": plan, "warnings": [Note(code="steps_past_deadline", params=said)]}
