"""A training tool's stage key written in prose or a pasted command line ('--stage pt', 'stage: sft',
'rl: dpo'): the stage it names, as a pasted config's ``stage`` is read (round 3 of the real questions:
'对 Qwen-14B 做预训练：--stage pt --finetuning_type lora' was sized as a fine-tuning because of the word in
``finetuning_type``). LLaMA-Factory's ``pt`` trains the weights of ``model_name_or_path`` further: a
continued pre-training (:data:`bot.parse.configs.training.STAGES`)."""

from __future__ import annotations

from bot.parse.configs.training import STAGES
from bot.parse.regex import rc

STAGE_KEY_RE = rc(r"(?<![a-z_])(?:--stage|stage\s*[:=])\s*(?P<v>[a-z]+)\b")
"""'--stage pt', 'stage: sft', 'stage=dpo'."""


def stage_key(s: str) -> tuple[str, str | None] | None:
    """(stage, algorithm) named by a stage key in the normalized text ``s``, else None."""
    if "stage" not in s:
        return None
    m = STAGE_KEY_RE.search(s)
    return STAGES.get(m.group("v")) if m else None
