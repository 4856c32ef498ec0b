"""A card not in the catalog in one machine with a catalog card (s24, issue 24): 'my machine: an RTX 3090
with 24 GB and an RTX 2060 SUPER with 8 GB', 'a 4090 + a 2080 Super (8GB) in my PC',
'我的电脑是一张 4090 加一张 2080 Super 8G'.

Before, the unknown card was named as another device (``unknown_other_device``: 'my MacBook / RTX 3090', a
device beside the card), so the machine's second card was not counted, and a memory written after it
('a 2080 Super (8GB)') was read as the catalog card's. A catalog rig (:mod:`bot.parse.mixed_rig`) sizes the
cards with the most memory and names each card with less as left out (``mixed_rig_largest``); an unknown card
has no catalog figures to size, so it is that: left out, named, when it is joined to the catalog card as a
part of the same machine — the joins and the owned-machine words of :mod:`bot.parse.mixed_rig` — and its
written memory is less than the card sized. Its memory is its own, never the catalog card's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.parse.mixed_rig import OPTIONS_RE, OWNED_MACHINE_RE, STRONG_JOIN_RE, WEAK_JOIN_RE
from bot.parse.normalize import UNKNOWN_GPU_MARK
from bot.parse.regex import rc

if TYPE_CHECKING:
    from bot.parse.gpus import GpuMention

_OWN_MEMORY_RE = rc(
    r"\s*(?:with\s+|[(（]\s*)?(?P<gib>\d{1,3}(?:\.\d+)?)\s*g(?:b|ib)?(?![a-z])\s*(?:of\s+vram)?[)）]?"
)
"""A memory right after a card ('with 8 GB', '(8gb)', '8G'): that card's memory, GiB as written."""


def _end(s: str, start: int) -> int:
    """The end of the masked name at ``start`` (its mark, then the spaces that hold its characters)."""
    end = start + 1
    while end < len(s) and s[end] in " \ue000":
        end += 1
    return end


def _joined(s: str, gap: str) -> bool:
    return bool(STRONG_JOIN_RE.search(gap) or (WEAK_JOIN_RE.search(gap) and OWNED_MACHINE_RE.search(s)))


def unknown_rig_memory(s: str, gpus: list[GpuMention]) -> float | None:
    """The memory (GiB) written after the unknown card of the masked, normalized ``s`` when that card is a
    part of one machine with a catalog card of ``gpus`` (a join that adds, or one that lists where the
    message owns a machine; never among options: 'or', 'vs', '还是'); None otherwise (no such card, no
    join, no memory written after it)."""
    at = s.find(UNKNOWN_GPU_MARK)
    if at < 0 or not gpus or OPTIONS_RE.search(s):
        return None
    own = _OWN_MEMORY_RE.match(s, _end(s, at))
    if own is None:
        return None
    before = [g for g in gpus if g.start < at]
    after = [g for g in gpus if g.start > at]
    joined = bool(before) and _joined(s, s[_end(s, max(g.start for g in before)) : at])
    joined = joined or (bool(after) and _joined(s, s[own.end() : min(g.start for g in after)]))
    return float(own.group("gib")) if joined else None


def memory_after_unknown(s: str) -> str | None:
    """The memory written right after the unknown card of the masked, normalized ``s`` ('Jetson Orin
    64GB': '64'), as written, or None (trial s29 #2)."""
    at = s.find(UNKNOWN_GPU_MARK)
    own = _OWN_MEMORY_RE.match(s, _end(s, at)) if at >= 0 else None
    return own.group("gib") if own else None
