"""The reply to a gradient accumulation asked with no model named (:mod:`bot.core.accumulation`, session
32 fixb #1): the formula on the user's figures, the accumulation at each micro-batch that divides the batch,
and the model asked for to say which micro-batch fits. Formats only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.accumulation import Accumulation
    from bot.render.dialect import Dialect, Format

FORMULA = N_(
    "Gradient accumulation = global batch ÷ (GPUs × micro-batch) = "
    "%(batch)s ÷ (%(gpus)s × micro-batch)%(on)s:"
)
"""The formula with their global batch and GPU count."""
ON_GPU = N_(" on %(gpus)s × %(gpu)s")
"""The card named."""
ROW = N_("• micro-batch %(micro)s → %(accumulation)s accumulation steps")
"""One micro-batch and the accumulation that reaches the batch."""
ASK_MODEL = N_(
    "Which micro-batch fits depends on the model and the sequence length: name the model (e.g. "
    "“Qwen2.5-7B, full fine-tuning, 2K sequences”) to get the micro-batch that fits and its accumulation."
)
"""No model named: the micro-batch cannot be chosen."""


def accumulation_text(acc: Accumulation, lang: str, fmt: Format | Dialect = "html") -> str:
    """The reply's lines (module doc); the same words in every dialect (no markup)."""
    on = translate(lang, ON_GPU, gpus=acc.gpus, gpu=acc.gpu) if acc.gpu else ""
    lines = [translate(lang, FORMULA, batch=acc.global_batch, gpus=acc.gpus, on=on)]
    lines += [translate(lang, ROW, micro=m, accumulation=a) for m, a in acc.rows]
    lines.append(translate(lang, ASK_MODEL))
    return "\n".join(lines)
