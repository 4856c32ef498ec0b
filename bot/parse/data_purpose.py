"""Data generated for a later training run: what the data is for, not a training job (s46 trial #1).

'Generating 100M tokens of synthetic data with Llama 3.1 405B on 16 H100s for distillation — how long?'
and '用 Qwen2.5-72B 生成 5000 万 token 的蒸馏数据，8 张 H100 要多久' run the teacher over prompts: an
offline batch that decodes the tokens said (:mod:`estimator.batch_work`). Their training words ('for
distillation', '蒸馏数据', 'synthetic training data') name the data's purpose; before, any training word
beside the tokens made them a run's data and the answer a pre-training on 100M tokens.
A training job said beside them ('then SFT the 8B on it', '再蒸馏到 7B', 'fine-tune on 100M tokens of
synthetic data') keeps them training data: only the purpose phrases (:data:`DATA_PURPOSE_RE`) are set
aside, and only when tokens are generated (:data:`GENERATION_CUES`). C substring tests gate the one search.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.parse.regex import rc

GENERATION_CUES = ("generat", "synthes", "生成", "合成")
"""Words of data being produced by a model (their ``in`` test gates :func:`training_job_said`)."""
DATA_PURPOSE_RE = rc(
    r"\b(?:for|to\s+use\s+for|used\s+for|to\s+be\s+used\s+for)\s+(?:(?:knowledge|model|a)\s+)?"
    r"(?:distill\w*|training|fine-?\s?tuning|sft)\b"
    r"|\b(?:synthetic|distill\w*|training|sft|fine-?\s?tuning)\s+(?:training\s+)?"
    r"(?:data(?:set)?s?|corpus|corpora|samples|examples|tokens)\b"
    r"|(?:用于|用来|拿来|供)\s*(?:做|给)?\s*(?:模型|小模型)?\s*(?:蒸馏|训练|微调|sft)"
    r"|(?:蒸馏|训练|微调|sft|合成)\s*(?:用的|用|的)?\s*(?:数据集?|语料|样本)"
)
"""A training word naming what generated data is for: 'for distillation', 'for training (an 8B)',
'synthetic data', 'distillation data', 'SFT samples'; '用于蒸馏', '用来训练 7B 模型', '蒸馏数据',
'训练用的数据', '合成数据', 'SFT 语料'. A job said as a verb ('then SFT the 8B', '再蒸馏到 7B') is outside
them."""


def training_job_said(s: str, cues: Iterable[str]) -> bool:
    """Whether a training word of ``cues`` is in the normalized ``s`` outside the phrases that only say what
    generated data is for (:data:`DATA_PURPOSE_RE`; set aside only when a word of :data:`GENERATION_CUES`
    is in ``s``). ``cues``: the caller's training words (C ``in`` tests)."""
    cues = tuple(cues)
    if not any(map(s.__contains__, cues)):
        return False
    if not any(map(s.__contains__, GENERATION_CUES)):
        return True
    rest = DATA_PURPOSE_RE.sub(" ", s)
    return any(map(rest.__contains__, cues))
