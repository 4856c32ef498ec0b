"""The card count from the user's own per-card ceiling, with no model named (session 30 fixe #1).

'L40S 单卡能扛的并发不到 40，要支持 200 并发需要几张卡', 'one L40S handles under 40 concurrent, how many for
200?': the user measured what one card holds (the number set aside as ``per_card_load``,
:mod:`bot.parse.per_card_load`) and gives the load to reach. No model is named, so nothing is sized from
a model: the answer is their measurement scaled, ⌈load ÷ per card⌉ cards, a floor when the ceiling was
said as 'under' / '不到' (a margin is wise), and the model is asked for to check each card's memory."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.parse.regex import rc

if TYPE_CHECKING:
    from bot.parse import ParseResult

UNDER_RE = rc(
    r"(?i)(?:不到|低于|少于|不足|不超过|最多|至多|顶多|\bunder|\bless\s+than|\bbelow|\bfewer\s+than|\bat\s+most"
    r"|\bup\s+to|\bmax(?:imum)?)\s*(?:能?(?:撑|扛|跑|支持|承载)(?:得了|住)?)?\s*(?:about|around|约|大约|大概)?\s*$"
)
"""Words right before the ceiling that make it a bound ('不到 40', 'under 40', '最多撑 30'): a floor."""


@dataclass(frozen=True, slots=True)
class CeilingCards:
    """⌈load ÷ per_card⌉ cards of ``gpu`` (None: no card named) for the user's measured ``per_card``."""

    per_card: int
    load: int
    cards: int
    under: bool
    gpu: str | None


def ceiling_cards(parsed: ParseResult) -> CeilingCards | None:
    """The count from the user's own ceiling (module doc), or None: a model (name, size or config) is
    named, no load, or not exactly one whole per-card ceiling above zero below the load."""
    req = parsed.request
    if req.concurrency is None or req.model or req.params_total or req.architecture or parsed.out_of_scope:
        return None
    said = [text for text, why in parsed.unused_numbers if why == "per_card_load"]
    if len(said) != 1:
        return None
    try:
        per_card = float(said[0].replace(",", ""))
    except ValueError:
        return None
    load = req.concurrency
    if not per_card.is_integer() or not 0 < per_card < load:
        return None
    s, at = parsed.normalized, _number_at(parsed.normalized, said[0])
    under = at > 0 and UNDER_RE.search(s, max(0, at - 16), at) is not None
    gpu = None
    if req.gpu:
        from bot.core.actions import gpu_label  # 'L40S', 'A100 40G'

        gpu = gpu_label(req.gpu)
    return CeilingCards(int(per_card), int(load), math.ceil(load / per_card), under, gpu)


def _number_at(s: str, number: str) -> int:
    """Where ``number`` stands alone in ``s`` (not the '40' of 'L40S'), or -1."""
    at = s.find(number)
    while at >= 0 and (
        (at > 0 and (s[at - 1].isalnum() or s[at - 1] == "."))
        or (at + len(number) < len(s) and (s[at + len(number)].isalnum() and s[at + len(number)].isascii()))
    ):
        at = s.find(number, at + 1)
    return at
