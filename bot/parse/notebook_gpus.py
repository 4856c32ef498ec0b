"""A notebook platform's GPU read as the one card it gives (session 31 trial: 'Unsloth fine-tune Gemma 3
27B on a free Colab T4?' was sized on 2 × T4 with ZeRO-3).

A Colab notebook runs on one GPU (the free tier's is one T4: Google Colab FAQ, 'What resources are offered
as part of Colab?'), and so does a Kaggle notebook with one accelerator (Kaggle's 'GPU T4 x2' option is
two T4s, written with its count, which is read as such). So a card named with the platform and no count
is one card: written '1 x <card>', as a cloud instance is spelled out as its GPUs
(bot.parse.instances.spell_out_instances).
"""

from __future__ import annotations

import re

_CARDS = r"(t4|p100|l4|a100|v100|k80|p4)(?![a-z0-9])(?!\s*(?:gpus?\s*)?(?:[x×*]\s*\d|s\b))"
_PLATFORM_THEN_CARD_RE = re.compile(
    r"(?<![\w.])((?:google\s*)?(?:colab|kaggle)(?:\s*(?:free|pro\+?|notebooks?|笔记本|gpu))?"
    r"(?:\s*(?:'s|’s|的|上|里|上的|里的)\s*)?(?:\s*(?:free|免费|一张|单张|single|a|an)\s*)?\s*)" + _CARDS
)
_CARD_ON_PLATFORM_RE = re.compile(
    r"(?<![\dx×*\s])(\s*)"
    + _CARDS
    + r"(?=\s*(?:gpu\s*)?(?:on|in|at|from)\s+(?:an?\s+|the\s+)?(?:free\s+)?(?:google\s+)?(?:colab|kaggle))"
)
"""The card before the platform ('a T4 on free Colab'): no count before it."""


def notebook_gpus(s: str) -> str:
    """The lower-cased, normalized ``s`` with a card named beside Colab or Kaggle and no count written as
    one card ('free colab t4' → 'free colab 1 x t4'); ``s`` unchanged otherwise. Call only when 'colab'
    or 'kaggle' is in ``s``."""
    s = _PLATFORM_THEN_CARD_RE.sub(lambda m: f"{m.group(1)} 1 x {m.group(2)}", s)
    return _CARD_ON_PLATFORM_RE.sub(lambda m: f"{m.group(1)}1 x {m.group(2)}", s)
