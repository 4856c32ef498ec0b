"""A memory's key with its size word before the value (s38-gen, issue 24): '显存大小 24G', '显存容量为
24GB', '总显存大小 320G', 'VRAM size 24GB' are written '显存 24G', 'vram 24GB', the forms the memory rules
read (:mod:`bot.parse.memory_forms`, :mod:`bot.parse.role_left`). Before, the size word between the key and
the value left the number unread. Called from :mod:`bot.parse.count_forms` where the text has a size word."""

from __future__ import annotations

from bot.parse.regex import rc

SIZE_WORD_RE = rc(
    r"(显存|内存|运存|(?<![a-z])(?:vram|ram|memory))\s*(?:的\s*)?(?:大小|容量|size|capacity)\s*(?:[:：=]|为|是|有|约|大约|大概|is|of)?\s*"
    r"(?=\d{1,5}(?:\.\d+)?\s*(?:gb|gib|g|tb|tib|t|mb|mib|m)(?![a-z]))"
)
"""A memory key, its size word ('大小', '容量'; '的' between), an assignment word, then a value with its
unit: the key and the value are kept, the size word dropped. s38-rev: an English key is a word of its own
('program size 24MB' holds no 'ram size')."""


def drop_size_word(s: str) -> str:
    """The normalized text ``s`` with each memory key's size word dropped ('内存大小 64G' → '内存 64G')."""
    return SIZE_WORD_RE.sub(r"\1 ", s)
