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

from bot.lazylog import lazy_logger
from bot.parse import ParseResult
from bot.parse.steps import MAX_STEPS_RE, read_steps
from estimator import estimate

log = lazy_logger(__name__)
HF_STEP_TOOLS = frozenset({"TRL", "LLaMA-Factory"})
"""Trainers whose step is ``per_device_train_batch_size`` × ``gradient_accumulation_steps`` × data-parallel
GPUs (Hugging Face ``TrainingArguments``); a config's ``max_steps`` is one of them whatever the tool."""
_RL = frozenset({"grpo", "rloo", "ppo"})


def steps_on_plan(parsed: ParseResult) -> ParseResult:
    """``parsed`` with a step count named for want of the batch ('steps_need_batch') read as samples on
    the plan's data-parallel degree when the micro-batch and the sequence length are known and no GPU
    count, data size or global batch is stated: ``num_samples`` = steps × micro × accumulation × DP (÷ the
    completions per prompt for GRPO/RLOO/PPO), and the item becomes 'steps_per_device', saying the count
    assumed. Unchanged otherwise (or when the request cannot be sized)."""
    item = next((u for u in parsed.unused_numbers if u[1] == "steps_need_batch"), None)
    req = parsed.request
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
    try:
        report = estimate(req)
    except Exception:  # a request the estimator cannot size: the steps stay named as not used
        log.exception("estimator failed on %r", req)
        return parsed
    plan = report.memory.plan if report.memory is not None else None
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
        f"(no GPU count given: the plan's {gpus}; other counts change the samples in proportion)"
    )
    said += f" ÷ {per_prompt} completions per prompt = {samples:,} prompts" if per_prompt > 1 else ""
    said += "" if per_prompt > 1 else f" = {samples:,} samples"
    unused = [(said, "steps_per_device") if u is item else u for u in parsed.unused_numbers]
    found = [*parsed.found, "num_samples"]
    request = req.model_copy(update={"num_samples": samples, "duration_asked": req.duration_asked})
    return parsed.model_copy(update={"request": request, "unused_numbers": unused, "found": found})
