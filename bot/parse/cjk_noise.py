"""Random CJK characters are no question either (session 14 fresh-user trial #5): 10,000 characters drawn
from U+4E00–U+9FFF were answered '100M bf16 推理…' (from 十, 九 and 万 in the noise). :mod:`bot.parse.noise`
refuses random Latin letters by their letter frequencies; this module does the same for CJK text.

Chinese prose is full of a few characters: in Jun Da's Modern Chinese Character Frequency List (2004,
a 193-million-character corpus) the most frequent, 的, alone is about 4 % of running text, and the
twenty of :data:`COMMON_CJK` together are about 15–20 %. Characters drawn at random from the 20,992 of
the CJK Unified Ideographs block hit those twenty with chance 20 / 20,992 ≈ 0.1 %. A message of at least
:data:`CJK_MIN` CJK characters under :data:`COMMON_SHARE_MIN` of them common, naming no catalog model or
card and no word of the domain (:data:`DOMAIN_WORDS_RE`), is noise.
"""

from __future__ import annotations

import re

from bot.parse.regex import compile_pattern

COMMON_CJK = "的一是不了在人有我他这个们中来上大为和国"
"""The twenty most frequent characters of Jun Da's list, in its order."""
CJK_MIN = 200
"""Fewer CJK characters are too few to judge (and a short question is read as it is)."""
COMMON_SHARE_MIN = 0.02
"""Below this share of its CJK characters among :data:`COMMON_CJK`, CJK text is random: prose is near
0.15 (a terse technical question still above 0.05), random ideographs near 0.001."""
_CJK_RE = compile_pattern(r"[\u4e00-\u9fff]")
DOMAIN_WORDS_RE = compile_pattern(
    r"训练|推理|部署|微调|显存|显卡|并发|上下文|模型|参数|算力|服务器|张卡|几张|多少|多久|token|gpu|lora",
    re.I,
)
"""Words of the domain (a job, a card, a unit, a question): a message with one is read as it is."""


def cjk_random(text: str) -> bool:
    """Whether ``text`` has at least :data:`CJK_MIN` CJK ideographs, under :data:`COMMON_SHARE_MIN` of
    them among :data:`COMMON_CJK`, and no word of :data:`DOMAIN_WORDS_RE`."""
    if len(text) < CJK_MIN:
        return False
    cjk = len(_CJK_RE.findall(text))
    if cjk < CJK_MIN:
        return False
    common = sum(map(text.count, COMMON_CJK))  # counted in C: a message can be 10,000 characters
    return common < COMMON_SHARE_MIN * cjk and DOMAIN_WORDS_RE.search(text) is None
