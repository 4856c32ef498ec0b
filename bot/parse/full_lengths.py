"""A sequence length written in full before the job ('Llama3-70B 8192 全参数微调', '做 131072 的推理'): the
same length in thousands, as the readers read '8k 全参数微调' (bot.parse.roles ``R_SEQ_JOB``).

s31 metamorphic sweep (tests/metamorphic.py, family ``k_lengths``): '8k' before the job was the sequence
length, '8192' there was a number no word named. Only the lengths model configs use (powers of two from
2,048 to 262,144: max_position_embeddings, vLLM's --max-model-len examples), only right before a job
word, never after a batch or step word ('global batch 4096 训练' is a batch).
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

FULL_LENGTH_RE = rc(
    r"(?<![\w.,\-=:/])(2048|4096|8192|16384|32768|65536|131072|262144)(?=\s*(?:的\s*)?"
    r"(?:dpo|sft|全参|全量|lora|qlora|长文本|微调|训练|推理|部署|inference\b|serving\b))"
)
"""A power-of-two length written in full right before a job word (the words of ``R_SEQ_JOB``)."""
_COUNTED_BEFORE_RE = rc(r"(?:batch|bs|steps?|iters?|samples?|步|条|样本|批)[\s_\-:=]*$")
"""A batch, step or sample word right before the number: the number is that, not a length."""


def _thousands(m: re.Match[str]) -> str:
    if _COUNTED_BEFORE_RE.search(m.string[max(0, m.start() - 16) : m.start()]):
        return m.group(0)
    return f"{int(m.group(1)) // 1024}k"


def in_thousands(s: str) -> str:
    """``s`` with each length of :data:`FULL_LENGTH_RE` written in binary thousands ('8192' → '8k')."""
    return FULL_LENGTH_RE.sub(_thousands, s)
