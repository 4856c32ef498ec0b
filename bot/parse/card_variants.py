"""A card's variant written in brackets before its memory (s32 trial): 'MLU370 (X8) with 48 GB', '4 张
MLU370（X8）48G', 'Gaudi 3 (HL-325L) with 128 GB'. Before, the bracket stood between the card and its memory
('x8' read as a count), so the memory was left unread and an unknown card went unsized. The variant is
written glued to the name as vendors write it ('MLU370-X8', Cambricon's product name) or, for a part number
('HL-325L'), beside it; an unknown card then keeps its name with that memory (a generic card).
"""

from __future__ import annotations

import re

VARIANT_RE = re.compile(
    r"(?<=[a-z0-9])\s*\(\s*(?:(?P<short>[a-z]{1,2}\d{1,3}[a-z]?)|(?P<part>[a-z]{1,4}-\d{2,4}[a-z]?|sxm\d?|pcie|nvl|oam))\s*\)"
    r"(?=\s*(?:,\s*)?(?:with\s+|each\s+|每张\s*|单卡\s*)?(?:\d{1,3}(?:\.\d)?\s*(?:gb|gib|g)\b|\d{1,3}(?:\.\d)?\s*g(?![a-z])))"
)
"""A bracketed variant ('(x8)', '(hl-325l)') right after a name and right before a memory ('with 48 gb',
'48g'), in the normalized text (brackets half-width)."""


def _glued(m: re.Match[str]) -> str:
    return f"-{m.group('short')} " if m.group("short") else f" {m.group('part')} "


def card_variants(s: str) -> str:
    """``s`` with each bracketed card variant before a memory written as part of the name (module doc)."""
    return VARIANT_RE.sub(_glued, s) if VARIANT_RE.search(s) else s
