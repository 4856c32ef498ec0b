"""One card named by its memory and a plain noun, with a singular determiner or a possessive: 'on my 40GB
GPU', 'a 24 GB card', 'one 48GB graphics card', 'this 16GB video card', '我的 40G 显卡', '一块 24G 的显卡'.

Before (round 11, en11-038: 'CUDA out of memory on my 40GB GPU'), a card named by a catalog name with an
article was one card (:data:`bot.parse.words.ARTICLE_GPU_RE`), but a card named only by memory and the
word GPU or card left the count unread, and the reply asked for a count the user had given. The whole axis
is read: English's singular determiners and possessives (a, an, one, single, my, our, this, the) and
Chinese's singular measure words and possessive (一张, 一块, 单张, 单块, 这张, 这块, 我的); the nouns GPU,
card, graphics card, video card, 显卡, 卡. A plural noun ('my 40GB GPUs') or a question asking how many is
never one card (the caller checks :data:`bot.parse.words.ASKS_COUNT_RE`).
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

ONE_MEMORY_CARD_RE = rc(
    r"\b(?:an?|one|single|my|our|this|the)\s+(?:single\s+)?\d{1,3}(?:\.\d)?\s*-?\s*g(?:b|ib)?\s+"
    r"(?:of\s+)?(?:v?ram\s+)?(?:gpu|card|graphics\s+card|video\s+card)\b(?!s\b|\s*(?:clusters?|nodes?|servers?))"
    r"|(?:我的|一张|一块|单张|单块|这张|这块)\s*\d{1,3}\s*g(?:b|ib)?\s*(?:显存)?\s*的?\s*(?:显卡|卡|gpu)"
)
"""One card named by its memory: determiner or possessive, the memory (GB, GiB, G), the noun."""


def one_memory_card(text: str) -> bool:
    """Whether ``text`` (normalized, lower-case) names one card by its memory and a plain noun ('on my 40GB
    GPU', '我的 40G 显卡'). Gated by the nouns' literals, so a message without them costs one scan."""
    if "gpu" not in text and "card" not in text and "卡" not in text:
        return False
    return bool(ONE_MEMORY_CARD_RE.search(text))


_ONE_CARD_BEFORE_RE = rc(r"\b(?:an?|one|single|my|our|this)\s+(?:[\w.\-]+\s+){1,3}$")
"""A singular determiner, then the card's name (one to three words) up to its noun: 'on an nvidia l40s ' of
'on an NVIDIA L40S GPU 48GB' (round 19 en)."""


def each_of(m: re.Match[str]) -> str:
    """' each' after a card word's memory rewritten 'gpu with 48 gb' (:mod:`bot.parse.memory_forms`), or
    '' when the noun is singular and one card is named before it ('an NVIDIA L40S GPU 48GB', 'my A100 card
    40GB'): one card of that memory, as 'an L40S GPU with 48 GB' is read. Round 19 en: the rewrite's 'each'
    made the article's one card read as a card per machine ('with an A100 each'): the count was dropped."""
    singular = m.group("w") in ("gpu", "card")
    one = singular and _ONE_CARD_BEFORE_RE.search(m.string, max(0, m.start() - 48), m.start())
    return "" if one else " each"
