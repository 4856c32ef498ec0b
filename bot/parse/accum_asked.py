"""A batch size said beside a question for the gradient accumulation that reaches it (s32-gen, issue 24
item 4: global batch = micro-batch × accumulation × data-parallel size): 'batch size 256 on 4 A100, how much
gradient accumulation?', '要 batch size 128，8 卡，梯度累积设多少'. The accumulation is what the asker looks
for, so the batch is the one a whole step holds over every GPU (the global batch; Hugging Face
``TrainingArguments``: total train batch size = per_device_train_batch_size × gradient_accumulation_steps ×
world size, transformers/trainer.py ``_inner_training_loop``); before, it was sized as 256 sequences on each
GPU. The micro-batch stays at its default and the plan gives the accumulation that reaches the batch."""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

_ACCUM = (
    r"(?:gradient|grad)[\s_\-]*accum\w*(?:[\s_\-]*steps?)?|accumulation[\s_\-]*steps?"
    r"|梯度累[积加](?:步数|次数)?"
)
_BETWEEN = r"(?:(?:value|number|amount|steps?|of|for|the|should|would|do|does|is|i|we|my)\s+){0,3}"
ACCUM_ASKED_RE = rc(
    rf"(?:how\s+(?:much|many)|what|which)\s+{_BETWEEN}(?:{_ACCUM})"
    rf"|(?:{_ACCUM})\s*(?:should|do|would|must|shall|to\s+(?:use|set)|needed|required)\b[^.?!。？?\d,]{{0,25}}[?？]"
    rf"|(?:{_ACCUM})[^.?!。？?\d,]{{0,12}}(?:多少|几|怎么|如何)"
)
"""A question for the accumulation, with no number of it said ('how much gradient accumulation', 'what
gradient_accumulation_steps', 'grad accum steps should I use?', '梯度累积要设多少',
'gradient_accumulation_steps 该设几')."""


def batch_for_accumulation(f: dict[str, Any], s: str, accumulated: bool) -> bool:
    """Move ``f``'s batch_size to global_batch when ``s`` (normalized) asks for the accumulation
    (:data:`ACCUM_ASKED_RE`), none was stated (``accumulated``) and no global batch is set; True when
    moved. A batch said per GPU is the caller's to exclude."""
    if accumulated or f.get("global_batch") or not f.get("batch_size") or ACCUM_ASKED_RE.search(s) is None:
        return False
    f["global_batch"], f["batch_size"] = f["batch_size"], None
    return True
