"""The tokens/s rate as people write it (one job: the pattern and whether it is per GPU).

'3,000 tokens/s per GPU', '每卡 900 tokens/s', and Megatron's and Pai-Megatron-Patch's throughput label
'Tokens/GPU/Second' (``alibaba/Pai-Megatron-Patch`` issues 643 and 658: 'TGS', tokens per GPU per second),
where the GPU stands between the tokens and the seconds. Round 15 zh: '6000 Tokens/GPU/Second' was read as
6,000 training tokens (the dataset size) because the unit did not match.

A card whose name is a number, written after a word that names a card ('ollama run llama3:8b on 4090
tokens/s', 'on a 3090 tok/s', 'RTX 4090 tokens per second', '用 4090 tokens/s'), is the card the user asks
about, not a rate of 4,090 tokens/s (s34 fixa: the 4090 was dropped and the answer sized on an A100):
:data:`TPS_RE` does not match it (:data:`CARD_BEFORE`), so the GPU reader reads it.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

CARD_NUMBERS = (
    "3050",
    "3060",
    "3070",
    "3080",
    "3090",
    "4060",
    "4070",
    "4080",
    "4090",
    "5070",
    "5080",
    "5090",
)
"""The catalog's cards whose name is a number (estimator/data/gpus.toml: GeForce RTX; a test keeps the two
alike)."""
_CARD_WORDS = (
    r"\bon\s",
    r"\bon\sa\s",
    r"\bon\san\s",
    r"\bon\smy\s",
    r"\bon\sone\s",
    r"\bon\sthe\s",
    r"\bwith\s",
    r"\bwith\sa\s",
    r"\bwith\smy\s",
    r"\busing\s",
    r"\busing\sa\s",
    r"\brtx\s",
    r"\brtx",
    r"\bgtx\s",
    r"\bgeforce\s",
    r"\bnvidia\s",
    r"\dx\s",
    r"×\s",
    r"×",
    "用",
    r"用\s",
    "在",
    r"在\s",
    "张",
    r"张\s",
    "块",
    r"块\s",
)
CARD_BEFORE = (
    r"(?!(?:" + "|".join(f"(?<={w})" for w in _CARD_WORDS) + r")(?:" + "|".join(CARD_NUMBERS) + r")\b)"
)
"""Not a card's number after a word that names a card ('on 4090', 'RTX 4090', '2x 3090', '用4090'): each
lookbehind of a fixed width, so the rate's pattern needs no Python call to skip it."""
NUM = r"(?<![a-z0-9.])" + CARD_BEFORE + r"(?P<v>\d+(?:,\d{3})*(?:\.\d+)?\s*[km]?)"
"""A number with its thousands commas and a k/m suffix, captured as ``v`` (not a card's: CARD_BEFORE)."""

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
