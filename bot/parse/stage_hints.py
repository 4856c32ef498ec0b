"""Stage hints the stage words miss (issue 24, round 5 zh): a method only fine-tuning has, and a
pre-training with adapters.

- **A method that is only ever a fine-tuning** ('ptv2 显存不够', 'P-Tuning v2 OOM', 'freeze 微调'
  without a stage word): the job trains, so its settings are read as a training run's before the
  stage is settled (a 'maxseqlen=512' of such a job is the sequence, not an engine's context limit).
  So is a training of LoRA or QLoRA adapters with no stage word (round 7: 'train_lora … 才能训练', 'train
  LoRA on one V100'): the weak hint '训练' / 'train' said pre-training, but adapters tune a model.
- **A pre-training with LoRA** ('lora 预训练 13B', 'LoRA pretraining a 13B model'): adapters train on a
  model that already exists (Hu et al. 2021, LoRA freezes pre-trained weights), so it is a continued
  pre-training, as '增量预训练' / '--stage pt --finetuning_type lora' already are.
"""

from __future__ import annotations

from bot.parse import lexicon as lx
from bot.parse.regex import rc
from bot.parse.settings import METHOD_WORDS
from bot.parse.words import explicit_stage

PRETRAINING_RE = rc(
    r"(?:增量|继续|持续|二次)?预训练(?!\s*(?:好|过|完)?\s*的?\s*(?:模型|权重|版本|底座|基座|checkpoint|model))"
    r"|pre[\s\-]?training(?!\s+(?:model|weights|checkpoint))"
)
"""Pre-training as a job ('lora 预训练 13B', 'LoRA pretraining'), not a pre-trained model ('在预训练模型上做
lora', 'a pretraining checkpoint')."""
TUNING_ONLY = ("ptuning", "freeze")
"""Methods of :data:`bot.parse.settings.METHOD_WORDS` that exist only as fine-tuning methods."""


def tuning_only_stage(stage: str | None, s: str) -> str | None:
    """'finetune' when no stage word is said (a weak hint such as '显存不够' may have given one) and
    ``s`` (normalized) names a method only fine-tuning has, else ``stage``."""
    if stage == "finetune" or explicit_stage(s) is not None:
        return stage
    found = False
    for pattern, method in METHOD_WORDS:  # a loop: a generator resumes a frame per word
        if method in TUNING_ONLY and pattern.search(s):
            found = True
            break
    if not found and stage == "pretrain" and not lx.NEGATED_LORA_RE.search(s):
        # round 7: a training ('训练', the weak hint) of adapters ('train_lora … 才能训练'): adapters train
        # on a model that exists, a fine-tuning unless pre-training is named (then lora_pretraining)
        found = bool(lx.LORA_RE.search(s) or lx.QLORA_RE.search(s))
    return "finetune" if found else stage


def lora_pretraining(stage: str | None, s: str) -> str | None:
    """'continued_pretrain' when ``s`` names pre-training (a stage word, not a hint) with LoRA or QLoRA
    not negated, else ``stage``."""
    if explicit_stage(s) != "pretrain" or not PRETRAINING_RE.search(s) or lx.NEGATED_LORA_RE.search(s):
        return stage
    return "continued_pretrain" if lx.LORA_RE.search(s) or lx.QLORA_RE.search(s) else stage
