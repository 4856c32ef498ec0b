"""Steps asked with no batch stated ('8 张 A100 全参微调 Qwen2.5-7B，跑一千步要多久', 'how long for 500
steps'): the time of those steps on the global batch and sequence length the estimator assumes (s33 #2).

An optimizer step trains one global batch: tokens per step = global batch (sequences) × sequence length,
and its compute is 6 · N · tokens per step (Kaplan et al. 2020 §2.1; the estimator's C = 6ND), so the
steps asked are steps × global batch × sequence length tokens, timed as any data size is. Before, such a
count was named as not used ('steps_need_batch') and no time was given. The batch and length are the ones
the estimator assumes for the job (estimator.training_setup._global_batch: 128 sequences for fine-tuning,
~4M tokens for pre-training; verl's ``data.train_batch_size`` default of 1,024 prompts × rollout.n only
when verl is named (verl/trainer/config/ppo_trainer.yaml; estimator.rollout.VERL_TRAIN_BATCH_SIZE), a
named TRL / ms-swift GRPO its per-device step × the GPUs, any other GRPO the fine-tuning 128; the stage's
default length), said in its assumptions; the 'used' item says the product and which of the two factors
were assumed (s33 fix A: 'both assumed' was said when the user's gradient accumulation made the batch).
A stated micro-batch (the Hugging Face trainers' per-device step: :mod:`bot.core.steps_plan`) or data size
leaves the count as it was.
"""

from __future__ import annotations

from bot.core.steps_plan import sized_plan
from bot.parse import ParseResult
from bot.parse.steps import read_steps
from estimator.models import Stage

_REASONS = {
    (True, True): "steps_default_batch",
    (False, True): "steps_default_length",
    (True, False): "steps_default_global",
    (False, False): "steps_stated_batch",
}
"""The 'used' item's reason by (global batch assumed, sequence length assumed): only what was assumed is
said to be (bot.render.ignored_texts)."""


def steps_on_default_batch(parsed: ParseResult, item: tuple[str, str]) -> ParseResult:
    """``parsed`` with the step count ``item`` (named for want of the batch) read as tokens: steps ×
    the global batch × the sequence length the estimator assumes for this request, the item becoming
    'steps_default_batch' with that product. Unchanged when a micro-batch or data size is stated, the
    job is not training, or the request cannot be sized."""
    req = parsed.request
    if req.batch_size or req.tokens or req.num_samples or req.stage not in (Stage.finetune, Stage.pretrain):
        return parsed
    steps = read_steps(item[0])[1]
    report, plan = sized_plan(req)  # None, None where the estimator cannot size it: the steps stay named
    seq = report.request.seq_len if report is not None else None
    if not steps or plan is None or not plan.global_batch_sequences or not seq:
        return parsed
    batch = int(plan.global_batch_sequences)
    tokens = steps * batch * int(seq)
    said = f"{item[0]}: {steps:,} × {batch:,} × {int(seq):,} = {tokens:,} token"  # 'token' in both languages
    assumed = {a.field for a in report.assumptions}
    reason = _REASONS["global_batch" in assumed, "seq_len" in assumed]
    if req.gradient_accumulation and "global_batch" not in assumed and "micro_batch" in assumed:
        # their accumulation × an assumed micro-batch: 'your global batch' was half stated (s34 #7)
        reason = "steps_accum_batch_length" if "seq_len" in assumed else "steps_accum_batch"
    unused = [(said, reason) if u is item else u for u in parsed.unused_numbers]
    request = req.model_copy(update={"tokens": float(tokens)})
    found = [*parsed.found, "tokens"]
    return parsed.model_copy(update={"request": request, "unused_numbers": unused, "found": found})
