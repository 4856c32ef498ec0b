"""Lines under the headline that say what the headline assumed or what a stated setting does (s33-left2 #1).

- **The stage assumed** (:data:`bot.parse.personal_training.FINETUNE_ASSUMED`): '7B 能在一张 4090 上训吗'
  is sized as a fine-tuning; the headline's first lines say so and how to ask for a pre-training.
- **Gradient accumulation stated on a training whose memory is the question** ('用梯度累积 16 能在一张
  4090 上训吗'): accumulation sums the gradients of micro-batches run one after another, so the memory each
  GPU holds is one micro-batch's activations, whatever the number of steps accumulated (Hugging Face
  transformers docs, "Methods and tools for efficient training on a single GPU" § Gradient accumulation:
  it increases the effective batch size "beyond the limitations imposed by the GPU's memory capacity",
  at the cost of speed). The verdict the user asked for — it does not make the job fit — is said under the
  headline when the job does not fit the user's GPUs, with the plan's micro-batch and the sequences per
  optimizer step.
- **A time asked of a training whose headline count is below the count it recommends** ('LLaMA-Factory 训练
  Qwen2.5-7B 10万条数据 要多久': about 2 GPUs for 3.5 hours, 8 recommended): the time on the recommended
  GPUs too (the days table's row for that count, as the headline's own time), in minutes under an hour,
  hours under 48, days from 48 hours up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.describe import gpu_names
from bot.render.duration import wall_time
from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.answer import Answer

FINETUNE_ASSUMED = "finetune_assumed"
"""The parse note (bot.parse.personal_training.FINETUNE_ASSUMED; not imported: that module loads late)."""
ACCUMULATION_STATED = "accumulation_stated"
"""The parse note for a stated gradient accumulation on a training (bot.parse.stage_steps)."""
TIME_ASKED = "time_asked"
"""The parse note for a time asked ('要多久', 'how long'; bot.parse.stage_steps)."""
DAYS_FROM_HOURS = 48
"""From this many hours up the time on the recommended GPUs is said in days (s33-left2 #3)."""
STAGE_LINE = N_(
    "Sized as fine-tuning: training a model on your own %(gpu)s means tuning a released one; say "
    "pre-training and its tokens to size that instead."
)
ACCUMULATION_LINE = N_(
    "Gradient accumulation %(steps)s does not lower the memory: each GPU holds one micro-batch of "
    "%(micro)s at a time; accumulation only makes each step's batch %(batch)s sequences."
)

RECOMMENDED_LINE = N_("On the %(gpus)s GPUs recommended: %(time)s.")


def assumed_head(text: str, answer: Answer) -> str:
    """``text`` (a rendered reply) with the lines above, when their parse notes are set, added to its
    first paragraph (the headline block); unchanged otherwise."""
    report, notes, lang = answer.report, answer.parsed.notes, answer.lang
    if report is None or report.memory is None:
        return text
    lines = []
    if FINETUNE_ASSUMED in notes and report.request.stage == "finetune":
        lines.append(translate(lang, STAGE_LINE, gpu=gpu_names(report)[0]))
    plan = report.memory.plan
    if (
        ACCUMULATION_STATED in notes
        and report.memory.fits_requested is False
        and plan
        and plan.gradient_accumulation
    ):
        f = fmt_for(lang)
        batch = f.int(plan.global_batch_sequences)
        steps, micro = f.int(plan.gradient_accumulation), f.int(plan.micro_batch)
        lines.append(translate(lang, ACCUMULATION_LINE, steps=steps, micro=micro, batch=batch))
    if TIME_ASKED in notes and (line := _recommended_time(answer)):
        lines.append(line)
    if not lines:
        return text
    head, sep, rest = text.partition("\n\n")
    return "\n".join([head, *lines]) + (sep + rest if sep else "")


def _recommended_time(answer: Answer) -> str | None:
    """The time on the memory's recommended GPU count when the headline sized fewer (no count nor deadline
    stated), from the days table's row for it; None otherwise."""
    report, f = answer.report, fmt_for(answer.lang)
    said, n = answer.parsed.request, report.gpus_for_deadline
    rec = report.memory.recommended_gpus if report.memory is not None else None
    if not n or not rec or rec <= n or said.gpu_count or said.deadline_days or report.days is not None:
        return None
    days = next((r.days.likely for r in report.days_table or [] if r.gpus == rec), None)
    if days is None:
        return None
    hours = days * 24
    time = wall_time(hours, f.lang) or (
        translate(f.lang, N_("about %(days)s days"), days=f.days(days))
        if hours >= DAYS_FROM_HOURS
        else translate(f.lang, N_("about %(hours)s hours"), hours=f.hours(hours))
    )
    return translate(f.lang, RECOMMENDED_LINE, gpus=f.int(rec), time=time)
