"""The tokens/s rate as people write it (one job: the pattern and whether it is per GPU).

'3,000 tokens/s per GPU', '每卡 900 tokens/s', and Megatron's and Pai-Megatron-Patch's throughput label
'Tokens/GPU/Second' (``alibaba/Pai-Megatron-Patch`` issues 643 and 658: 'TGS', tokens per GPU per second),
where the GPU stands between the tokens and the seconds. Round 15 zh: '6000 Tokens/GPU/Second' was read as
6,000 training tokens (the dataset size) because the unit did not match.

A card whose name is a number, written after a word that names a card ('ollama run llama3:8b on 4090
tokens/s', 'on a 3090 tok/s', 'RTX 4090 tokens per second', '用 4090 tokens/s'), is the card the user asks
about, not a rate of 4,090 tokens/s (s34 fixa: the 4090 was dropped and the answer sized on an A100):
:func:`rate_search` skips it, so the GPU reader reads it.
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


_CARD_BEFORE_RE = rc(
    r"(?:\b(?:on|with|using|via|rtx|gtx|geforce|nvidia)|在|用|张|块)\s*"
    r"(?:(?:an?|one|my|the|single|\d+\s*(?:x|×)?)\s*)?$"
)
"""What stands before a card named by its number: 'on', 'on a', 'with my', 'on 2 x', 'RTX', '用', '一张'."""


def rate_search(s: str) -> re.Match[str] | None:
    """The first :data:`TPS_RE` rate in ``s`` whose number is not a card's name after a card word."""
    for m in TPS_RE.finditer(s):
        v = m.group("v").strip()
        before = s[max(0, m.start() - 16) : m.start()]
        if not (len(v) == 4 and v.isdigit() and _CARD_BEFORE_RE.search(before)):
            return m
        from bot.parse.gpus import is_gpu_name  # only for a four-digit rate after a card word

        if not is_gpu_name(v):
            return m
    return None


def per_gpu(m: re.Match[str]) -> bool:
    """Whether the tokens/s rate ``m`` (a :data:`TPS_RE` match) is written per GPU."""
    return bool(m.group("per") or m.group("mid"))
