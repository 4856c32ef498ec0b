"""'推理' said of reasoning, not of serving (round 14 of the real questions, Chinese: '用 OpenR 做 7B 推理模型
结合 7B PRM 的 RL 训练', '训练一个 7B 的推理模型'): Chinese writes reasoning and inference with one word,
推理. As a noun's modifier ('推理模型' — a reasoning model such as o1 or DeepSeek-R1; '推理能力', '推理任务',
'推理链', '推理数据') or after a kind of thinking ('数学推理', '逻辑推理', '多步推理', '长链推理') it names
reasoning; the job is then said by the other words of the message (训练, 微调, GRPO, 部署, or a weak hint
such as 显存). The English words are distinct ('reasoning model') and need no rule.

:func:`without_reasoning` is applied where a stage is read from words (:mod:`bot.parse.words`), behind the
literal gate '推理' in the message.
"""

from __future__ import annotations

from bot.parse.regex import rc

REASONING_RE = rc(
    r"推理\s*(?=(?:大)?模型|能力|任务|数据集?|题|链|过程|步骤|路径|轨迹|样本|长度|token|rl\b|强化)"
    r"|(?:数学|逻辑|复杂|多步|长链|长思维链|深度|因果|常识|代码|视觉|多模态)\s*推理"
)
"""推理 naming reasoning: before a noun it modifies (模型, 能力, 任务, 数据, 链 …) or after a kind of
thinking (数学推理, 逻辑推理 …). Not '推理 Qwen-7B', '模型推理', '推理需要多少显存', '推理服务', '推理速度':
serving."""


def without_reasoning(s: str) -> str:
    """``s`` (normalized) with 推理 said of reasoning blanked, so that it is no serving word."""
    return REASONING_RE.sub("  ", s) if "推理" in s else s
