"""The tokens/s rate as people write it (one job: the pattern and whether it is per GPU).

'3,000 tokens/s per GPU', '每卡 900 tokens/s', and Megatron's and Pai-Megatron-Patch's throughput label
'Tokens/GPU/Second' (``alibaba/Pai-Megatron-Patch`` issues 643 and 658: 'TGS', tokens per GPU per second),
where the GPU stands between the tokens and the seconds. Round 15 zh: '6000 Tokens/GPU/Second' was read as
6,000 training tokens (the dataset size) because the unit did not match.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

NUM = r"(?<![a-z0-9.])(?P<v>\d+(?:,\d{3})*(?:\.\d+)?\s*[km]?)"
"""A number with its thousands commas and a k/m suffix, captured as ``v``."""

TPS_RE = rc(
    NUM
    + r"\s*(?:tokens?|toks?|词元)\s*(?P<mid>/\s*(?:gpu|卡|card|device)\s*(?=/)|per\s+gpu\s+(?=per\s+sec))?"
    r"(?:/\s*s(?:ec(?:ond)?)?|per\s+sec(?:ond)?|每秒)"
    r"\s*(?P<per>(?:/|per|each|每)\s*(?:gpu|卡|card|device)|每卡|单卡)?"
)
"""A tokens/s rate: per GPU when the unit says so after the seconds (``per``: '/GPU', 'per GPU', '每卡') or
between the tokens and the seconds (``mid``: 'Tokens/GPU/Second', 'tokens per GPU per second')."""


def per_gpu(m: re.Match[str]) -> bool:
    """Whether the tokens/s rate ``m`` (a :data:`TPS_RE` match) is written per GPU."""
    return bool(m.group("per") or m.group("mid"))
