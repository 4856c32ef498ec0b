"""A card's memory said as an upper bound before the card's words (round 21 zh, issue 24): '8G 以下的 GPU
显存能运行吗', '12G 以内的显卡能跑吗', '16GB 之内的卡'. The asker has a card of at most that memory in mind;
the sizing is for a card of exactly that memory, as '显存 8G 以下' (the memory written after its key) already
was. Before, a bound between the number and its key joined nothing and the number was named as unread.

Only an upper bound (以下, 以内, 之内) followed by a card's word (显存, 显卡, 卡, GPU): '需要 8G 以上的显存'
is a need, never the card's (:data:`bot.parse.memory_forms.MEMORY_NEED_RE`), and '8G 以下的模型' no card.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

BOUND_MEMORY_RE = rc(
    r"(?<![\d.])(?P<n>\d{1,3}(?:\.\d+)?)\s*g(?:b|ib)?\s*(?:以下|以内|之内)\s*(?:的)?\s*"
    r"(?P<card>(?:gpu|nvidia)?\s*(?:显存|显卡|卡)|gpu(?![a-z]))"
)
"""'8g 以下的 gpu 显存', '12g 以内的显卡', '16gb 之内的卡', '8g 以下的 gpu' (normalized, lower case)."""
GATE_RE = re.compile(r"\d\s*g(?:b|ib)?\s*(?:以下|以内|之内)")
"""The cue every such memory holds: searched by the caller (bot.parse.count_forms), so a message without
one costs no Python call (the parse-call budget, tests/test_parse_render_speed.py)."""


def _as_card_memory(m: re.Match[str]) -> str:
    """'8g 以下的 gpu 显存' → '8g 显存', '12g 以内的显卡' → '12g 显存的显卡' (forms the card rules read)."""
    card = m.group("card").strip()
    tail = "" if card.endswith("显存") else f"的{card}"
    return f"{m.group('n')}g 显存{tail}"


def bound_memory(s: str) -> str:
    """The normalized text ``s`` with each card memory said as an upper bound written as the memory (see the
    module docstring; called when :data:`GATE_RE` finds the cue)."""
    return BOUND_MEMORY_RE.sub(_as_card_memory, s)
