"""A memory total whose unit the sentence said once, before it (round 23, issue 24 item 4: counts,
hardware and meaning): '70b at 4 bits is about 35 gigabytes, and the GPUs have 192 in total' — the 192 is
gigabytes of GPU memory, the unit carried from the amount just before it; it was unread (named as a bare
number) and the cards were sized at their catalog memory only. Written '192gb in total', the form the
memory rules read as the cards' total (:mod:`bot.parse.memory_forms`).

Only after the GPUs (or cards, VRAM, GPU memory) as the subject and 'have' / 'has' / 'give' / 'add up to',
and only when a memory amount with its unit stands earlier in the same sentence ('35gb'): 'the GPUs have 8
in total' in a sentence with no memory unit is a count of cards, left to the count rules.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

CARRIED_TOTAL_RE = rc(
    r"\b(?:the\s+|my\s+|our\s+|these\s+|all\s+)?(?:gpus|cards|vram|gpu\s+memory)\s+"
    r"(?:have|has|give|gives|offer|add\s+up\s+to)\s+(?:about\s+|roughly\s+|around\s+)?"
    r"(?P<n>\d{2,4})\s+(?=in\s+total\b|total\b|altogether\b)"
)
"""'the GPUs have 192 in total', 'the cards add up to 96 altogether' (normalized text): no unit after the
number."""
_UNIT_BEFORE_RE = re.compile(r"(?<![a-z0-9.])\d+(?:\.\d+)?\s*(?:gb|gib|g)\b(?![^.?!;]*[.?!;])")
"""A memory amount with its unit earlier in the same sentence (no sentence end after it), never a card's
mark ('a10g')."""


def carried_unit_total(s: str) -> str:
    """``s`` (normalized) with a unitless total of the cards' memory written with the unit its sentence
    said before it ('the gpus have 192gb in total'); unchanged when no such total is there."""

    def unit(m: re.Match[str]) -> str:
        if _UNIT_BEFORE_RE.search(s, max(0, m.start() - 160), m.start()) is None:
            return m.group(0)
        return f"{m.group(0).rstrip()}gb "

    return CARRIED_TOTAL_RE.sub(unit, s)
