"""A machine of different cards, each named once and joined as parts of one rig ('an RTX 5090 plus an RTX
3080', 'a 4090 and a 3090 in one box', 'RTX 4090 + RTX 3090', '一张 4090 加一张 3090', '4090 和 3090 各一张').

Before (round 11, en11-012: 'With an RTX 5090 plus an RTX 3080 … can I fit …'), the first card was sized
alone, one card, and the second card was dropped: the rig's count and half its memory were lost. The sizing
has one card type per request, so a rig of N cards is sized as N of the card with the least memory (each card
holds its share of the layers: llama.cpp ``--tensor-split``, vLLM and DeepSpeed shard evenly, so the smallest
card bounds the share), and every other card is named as not sized on its own (reason ``mixed_rig``).

A rig is two or more distinct catalog cards, no count written for any of them, each next one joined to the
one before by a word that adds (plus, and, with, alongside, together with, +, &, 和, 加, 加上, 再加, 还有,
与, 跟, 搭配, 、) and at most an article or a singular measure word; never when the message weighs options
('or', 'vs', 'versus', 'compare', '还是', '或者', '对比', '比较', '相比'): :mod:`bot.parse.option_counts`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.parse.regex import rc
from estimator import catalog

if TYPE_CHECKING:
    from bot.parse.gpus import GpuMention

RIG_JOIN_RE = rc(
    r"^\s*(?:[(（][^()（）]{0,16}[)）]\s*)?,?\s*"
    r"(?:\+|&|\bplus\b|\band\b|\bwith\b|\balongside\b|\btogether\s+with\b|和|加上?|再加上?|还有|与|跟|搭配|、)"
    r"\s*(?:\b(?:an?|one|another|a\s+single)\b|一张|一块|一个|一台|另一张|另一块)?\s*$"
)
"""What joins two cards of one rig: an adding word and at most an article or singular measure word."""
OPTIONS_RE = rc(
    r"\bor\b|\bvs\.?(?![a-z])|\bversus\b|\bcompar|还是|或者|或是|对比|比较|相比"
    r"|\beach\b|\btypes?\b|\bkinds?\b|各|分别|种"
)
"""Words that weigh options, or list kinds of card each sized apart ('how many of each', '三种卡',
'分别要几张': :mod:`bot.parse.gpu_kinds`): then the cards are alternatives, never one machine."""


def _end(s: str, start: int) -> int:
    """The end of the masked card name at ``start`` (the mask is spaces and U+E000)."""
    end = start
    while end < len(s) and s[end] in " \ue000":
        end += 1
    return end


def rig_cards(s: str, gpus: list[GpuMention]) -> list[GpuMention] | None:
    """The cards of one rig in ``gpus`` (mentions in text order of the masked, normalized ``s``), or None.
    Only called when no GPU count was read; a cheap check first (two distinct cards, no option word)."""
    if len({g.gpu_id for g in gpus}) < 2 or OPTIONS_RE.search(s):
        return None
    for i, first in enumerate(gpus[:-1]):
        chain = [first]
        for nxt in gpus[i + 1 :]:
            if nxt.gpu_id == chain[-1].gpu_id or not RIG_JOIN_RE.search(
                s[_end(s, chain[-1].start) : nxt.start]
            ):
                break
            chain.append(nxt)
        if len(chain) > 1:
            return chain
    return None


def smallest(cards: list[GpuMention]) -> GpuMention:
    """The card of the rig with the least memory (its stated memory, else the catalog's): the one sized."""
    return min(cards, key=lambda g: g.memory_gib or catalog.gpu(g.gpu_id).memory_gib)
