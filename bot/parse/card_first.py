"""A card's count written after it with a star or an x ('A100*2 80GB', 'on one H100*8 node', 'L40S*4
48GB', '4090*2 微调', 'H100 x8'), as the count rules read it: the count first ('2x a100 80gb'), on the
normalized text (bot.parse.normalize.prepare, before the node forms of bot.parse.chat_forms).

s32 metamorphic sweep (family ``card_times``: ``python -m tests.metamorphic --family card_times``,
tests/data/metamorphic_census.md): '8x A100' was read, 'A100*8' not always: 'one H100*8 node' was one
card, 'L40S*4 48GB' read '4 48' as neither the count nor the memory. A star between a card name and a
count of 1–64 is the count of that card, as nvidia-smi-style inventories and cloud listings write it
('8*A100', 'A100*8': a multiplication, the same either way round). Not a memory ('8*40G', read by
bot.parse.count_forms ``written_products``: no card name before the star), not a product of two counts
('2*8 H100'), not a card with a memory right after the star ('A100*80G'). Not an Ascend 910B: '昇腾
910B2 × 2' has readers of its own (bot.parse.count_forms, the vendor counts: r25work zh25-033).
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

CARD_FIRST_RE = rc(
    r"(?<![\w.\-/])((?:nvidia\s+)?(?:rtx\s?)?(?:[ahlvbt]\d{2,3}[a-z]?|mi\d{3}x?|[2345]0[6-9]0(?:\s?ti)?))"
    r"(?:\s?[*×]\s?|\s?x\s?)(\d{1,2})(?![\d.]|\s?[*×x]\s?\d|\s?(?:g|gb|gib|t|tb)\b|\s?(?:张|块|台|卡|g\b))"
)
"""A card name, a star or x and a count of one or two digits (not a memory, not a second factor)."""


def card_first(s: str) -> str:
    """``s`` with each card count of :data:`CARD_FIRST_RE` written before its card ('h100*8' → '8x h100')."""
    return CARD_FIRST_RE.sub(_count_first, s)


def _count_first(m: re.Match[str]) -> str:
    count = int(m.group(2))
    return f"{count}x {m.group(1)}" if 0 < count <= 64 else m.group(0)
