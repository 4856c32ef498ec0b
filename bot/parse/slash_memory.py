"""Two memories with a slash between them, outside nvidia-smi's table (s36-gen2, issue 24 item 2).

nvidia-smi's Memory-Usage column writes the memory in use, a slash, then the card's memory ('23643MiB /
24576MiB'), and :data:`bot.parse.memory_beside.USED_OF_RE` reads a slash so. A slash between two memories
is that only in an nvidia-smi context (MiB, its table's '|', its name) or beside a word of use or of a
total ('20GB / 24GB used', '显存占用 20G / 24G'); otherwise it offers two options ('12G / 24G 够吗', 'is a
12GB / 24GB card enough'): the first is sized, the other written 'othermemory N' and named as another
setup, as :func:`bot.parse.memory_beside.alt_memories` does for '12G 或 24G'. Before, '12G / 24G 够吗' was
rewritten '12g in use, with 24 gb each'.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

SLASH_PAIR_RE = rc(
    r"(?<![\d.])(?P<n>\d{1,3}(?:\.\d+)?)\s*(?:gib|gb|g)\s*/\s*(?P<m>\d{1,3}(?:\.\d+)?)\s*(?:gib|gb|g)\b"
    r"(?!\s*/)"
)
"""'12G / 24G', '12GB/24GB': two memories in GB with a slash (never MiB: nvidia-smi's unit), not a third
after them ('8G/16G/24G' is a list, left as it was)."""
USE_WORD_RE = rc(
    r"nvidia-smi|memory-usage|\||\b(?:used|usage|in\s+use|occupied|allocated|reserved|total|consum\w*|show\w*)\b"
    r"|占用|已用|用了|使用|已经|总(?:共|显存|量)?|显示"
)
"""What makes a slash used / total: nvidia-smi's name, column or table rule, or a word of use or total."""
_CARD_WORD_RE = rc(r"\s*(?:的\s*)?(?:显存|显卡|卡|vram|memory|cards?|gpus?)")
"""A card or memory word after the pair ('12G / 24G 的显卡', 'a 12GB / 24GB card')."""


def _first(m: re.Match[str]) -> str:
    """The first memory, called the card's ('12g vram') when no card or memory word follows the pair (a bare
    '12GB / 24GB enough?' asks about a card's memory)."""
    word = "" if _CARD_WORD_RE.match(m.string, m.end()) else " vram"
    return f"{m.group('n')}g{word}"


def slash_options(s: str) -> str:
    """``s`` with each :data:`SLASH_PAIR_RE` pair outside a use context written as its first memory and an
    'othermemory N' mark after the text (the caller's gate has seen a slash)."""
    if USE_WORD_RE.search(s):
        return s
    others = [m.group("m") for m in SLASH_PAIR_RE.finditer(s)]
    if not others:
        return s
    s = SLASH_PAIR_RE.sub(_first, s)
    return s + "".join(f" 。 othermemory {n}" for n in others)
