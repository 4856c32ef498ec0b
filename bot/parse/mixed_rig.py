"""A machine of different cards, each named once and joined as parts of one rig ('an RTX 5090 plus an RTX
3080', 'a 4090 and a 3090 in one box', 'RTX 4090 + RTX 3090', '一张 4090 加一张 3090', '4090 和 3090 各一张').

Before (round 11, en11-012: 'With an RTX 5090 plus an RTX 3080 … can I fit …'), the first card was sized
alone, one card, and the second card was dropped: the rig's count and half its memory were lost. The sizing
has one card type per request, so a rig of N cards is sized as N of the card with the least memory (each card
holds its share of the layers: llama.cpp ``--tensor-split``, vLLM and DeepSpeed shard evenly, so the smallest
card bounds the share), and every other card is named as not sized on its own (reason ``mixed_rig``).

A rig is two or more distinct catalog cards, no count written for any of them, each next one joined to the
one before by a word that adds (+, plus, alongside, together with, 加, 加上, 再加, 搭配) or, where the
message owns a machine ('I have', 'my', 'rig', 'box', '我的', '机器', '电脑里装了'), a word that lists (and,
with, &, 和, 与, 跟, 还有, 、), with at most an article or a singular measure word; never when the message
weighs options ('or', 'vs', 'versus', 'compare', '还是', '或者', '对比', '比较', '相比'):
:mod:`bot.parse.option_counts`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.parse.regex import rc
from estimator import catalog

if TYPE_CHECKING:
    from bot.parse.gpus import GpuMention

_ARTICLE = r"\s*(?:\b(?:an?|one|another|a\s+single)\b|一张|一块|一个|一台|另一张|另一块)?\s*$"
_BRACKET = r"^\s*(?:[(（][^()（）]{0,16}[)）]\s*)?,?\s*"
STRONG_JOIN_RE = rc(
    _BRACKET + r"(?:\+|\bplus\b|\balongside\b|\btogether\s+with\b|加上?|再加上?|搭配)" + _ARTICLE
)
"""A join that adds a card to a machine ('+', 'plus', 'alongside', '加', '搭配'): a rig by itself."""
WEAK_JOIN_RE = rc(_BRACKET + r"(?:&|\band\b|\bwith\b|和|与|跟|还有|、)" + _ARTICLE)
"""A join that lists ('and', 'with', '和', '与', '、'): a rig only where the message owns a machine."""
OWNED_MACHINE_RE = rc(
    r"\b(?:i|we)\s+(?:have|own|got|use|run)\b|\b(?:i|we)'ve\s+got\b|\bmy\b|\bour\b|\brig\b|\bbox\b"
    r"|\bmachine\b|\bworkstation\b|\bpc\b|\bcomputer\b|\bdesktop\b|我有|我的|我们的|机器|电脑|主机|装了|插了|插在"
)
"""Words that own one machine ('I have', 'my rig', 'in one box', '我的机器', '电脑里装了'): then listed cards
are its parts; without them 'on an A100 and an H100' lists cards tried or asked about, not one machine."""
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
            gap = s[_end(s, chain[-1].start) : nxt.start]
            joined = STRONG_JOIN_RE.search(gap) or (WEAK_JOIN_RE.search(gap) and OWNED_MACHINE_RE.search(s))
            if nxt.gpu_id == chain[-1].gpu_id or not joined:
                break
            chain.append(nxt)
        if len(chain) > 1:
            return chain
    return None


def smallest(cards: list[GpuMention]) -> GpuMention:
    """The card of the rig with the least memory (its stated memory, else the catalog's): the one sized."""
    return min(cards, key=lambda g: g.memory_gib or catalog.gpu(g.gpu_id).memory_gib)
