"""A fine-tuning tool used to load a model and generate with it (s32-gen, a stage implied): 'loading
Qwen3-30B-A3B in Unsloth with load_in_4bit=True … the generate takes 357 s', '用 Unsloth 加载模型生成很慢'.
Naming a fine-tuning tool says fine-tuning (bot.parse.stack_words.fine_tuning_tool_named) unless the job
is a generation and nothing trains: Unsloth's ``FastLanguageModel.for_inference`` and the
``model.generate`` of a Transformers model (transformers/generation/utils.py ``GenerationMixin.generate``)
are inference, and what they hold in memory is the weights and the KV cache, not a training state."""

from __future__ import annotations

from bot.parse.regex import rc
from bot.parse.stack_words import TRAINING_WORD_RE, fine_tuning_tool_named
from bot.parse.words import explicit_stage

GENERATION_RE = rc(
    r"(?<![a-z_])generat(?:e|es|ed|ing|ion)\b(?![\s\-_]*(?:config|dataset|data)\b)|\.generate\(|for_inference"
    r"|(?:生成|推理)(?!数据|样本)"
)
"""Generating with the model ('generate', 'generation', 'model.generate(', 'for_inference', '生成', '推理'),
not a generated dataset ('generation dataset', '生成数据')."""
TRAINS_RE = rc(
    r"\b(?:sft|lora|qlora|dpo|grpo|ppo|rlhf|epochs?|optimizer|gradient|backward|learning[\s_]*rate|lr)\b|训|优化器"
)
"""Words of a training run beside the tool's name, which the generation does not undo."""


def generating_with_tool(s: str) -> bool:
    """Whether ``s`` (normalized) names a fine-tuning tool, generates with the model (:data:`GENERATION_RE`)
    and says nothing of a training (no stage word, :data:`bot.parse.stack_words.TRAINING_WORD_RE`,
    :data:`TRAINS_RE`)."""
    if GENERATION_RE.search(s) is None or TRAINING_WORD_RE.search(s) or TRAINS_RE.search(s):
        return False
    return explicit_stage(s) is None and fine_tuning_tool_named(s)
