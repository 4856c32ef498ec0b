"""A machine of different cards, each named once and joined as parts of one rig ('an RTX 5090 plus an RTX
3080', 'a 4090 and a 3090 in one box', 'RTX 4090 + RTX 3090', '一张 4090 加一张 3090', '4090 和 3090 各一张').

Before (round 11, en11-012: 'With an RTX 5090 plus an RTX 3080 … can I fit …'), the first card was sized
alone, one card, and the second card was dropped. The sizing has one card type per request, so a rig is
sized as the k cards that hold the most as k equal shares: k of the card whose memory, times the number of
the rig's cards with at least that memory, is largest (:func:`rig_choice`). That is exact for an even split
(vLLM, SGLang and TensorRT-LLM tensor parallelism, ZeRO/FSDP shards) and a floor for llama.cpp (and Ollama,
built on it), whose default split is by each device's free memory (src/llama-model.cpp, "default split, by
free memory"; ``--tensor-split`` sets other proportions): never less than the largest card alone. The cards
sized as a smaller one are named with reason ``mixed_rig``, those left out with ``mixed_rig_largest``.
Session 19: with llama.cpp or Ollama named (:data:`LAYER_SPLIT`) and cards of different memory, every card
counts and their summed memory is sized as equal shares (``mixed_rig_sum``: a 4090 plus a 3060 12GB → 2 ×
18 GiB); with no engine named the floor above stays.

A rig is two or more distinct catalog cards, no count written for any of them, each next one joined to the
one before by a word that adds (+, plus, alongside, together with, 加, 加上, 再加, 搭配) or, where the
message owns a machine ('I have', 'my', 'rig', 'box', '我的', '机器', '电脑里装了'), a word that lists (and,
with, &, 和, 与, 跟, 还有, 、), with at most an article or a singular measure word; never when the message
weighs options ('or', 'vs', 'versus', 'compare', '还是', '或者', '对比', '比较', '相比'):
:mod:`bot.parse.option_counts`.
"""

from __future__ import annotations

from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING

from bot.parse.regex import rc
from estimator import catalog

if TYPE_CHECKING:
    from bot.parse.gpus import GpuMention

_ID = attrgetter("gpu_id")
_SECOND = itemgetter(1)
_ARTICLE = (
    r"\s*(?:\b(?:an?|one|another|a\s+single)\b|\b1\s*[x×]?|一张|一块|一个|一台|另一张|另一块|1\s*[张块])?\s*$"
)
_BRACKET = r"^\s*(?:[(（][^()（）]{0,16}[)）]\s*)?,?\s*"
STRONG_JOIN_RE = rc(
    _BRACKET + r"(?:\+|\bplus\b|\balongside\b|\btogether\s+with\b|加上?|再加上?|搭配)" + _ARTICLE
)
"""A join that adds a card to a machine ('+', 'plus', 'alongside', '加', '搭配'): a rig by itself."""
WEAK_JOIN_RE = rc(_BRACKET + r"(?:&|\band\b|\bwith\b|和|与|跟|还有|、)" + _ARTICLE)
"""A join that lists ('and', 'with', '和', '与', '、'): a rig only where the message owns a machine."""
COUNTED_NEXT_RE = rc(_BRACKET + r"[,，]?\s*(?:一张|一块|另一张|另一块|1\s*[张块])\s*$")
"""Cards listed by their counts alone ('一张4090一张3090', trial s20-2 #3): a rig where the message owns a
machine, as a listing join is."""
OWNED_MACHINE_RE = rc(
    r"\b(?:i|we)\s+(?:have|own|got|use|run)\b|\b(?:i|we)'ve\s+got\b|\bmy\b|\bour\b|\brig\b|\bbox\b"
    r"|\bmachine\b|\bworkstation\b|\bpc\b|\bcomputer\b|\bdesktop\b|我有|我的|我们的|机器|电脑|主机|装了|插了|插在"
)
"""Words that own one machine ('I have', 'my rig', 'in one box', '我的机器', '电脑里装了'): then listed cards
are its parts; without them 'on an A100 and an H100' lists cards tried or asked about, not one machine."""
OPTIONS_RE = rc(
    r"\bor\b|\bvs\.?(?![a-z])|\bversus\b|\bcompar|还是|或者|或是|对比|比较|相比"
    r"|\beach\b|\btypes?\b|\bkinds?\b|各|分别|(?:[两二三四五六七八九几多]|\d)\s*种"
)
"""Words that weigh options, or list kinds of card each sized apart ('how many of each', '三种卡',
'分别要几张': :mod:`bot.parse.gpu_kinds`): then the cards are alternatives, never one machine. Session 33:
'种' only after a count ('三种卡', '多种'): '这种不同型号的 GPU' (this kind of rig) weighs no options."""


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
            weak = WEAK_JOIN_RE.search(gap) or COUNTED_NEXT_RE.search(gap)
            joined = STRONG_JOIN_RE.search(gap) or (weak and OWNED_MACHINE_RE.search(s))
            if nxt.gpu_id == chain[-1].gpu_id or not joined:
                break
            chain.append(nxt)
        if len(chain) > 1:
            return chain
    return None


_N = r"(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|一|两|二|三|四|五|六|七|八)"
"""A card count in digits or words (s33: 'one RTX 4090 plus two RTX 3090s', '两张 3090 和一张 A6000')."""
_WORD_COUNTS = {
    **{w: i for i, w in enumerate(("one", "two", "three", "four", "five", "six", "seven", "eight"), 1)},
    **{w: i for i, w in enumerate("一二三四五六七八", 1)},
    "两": 2,
}
COUNTED_JOIN_RE = rc(
    _BRACKET + r"(?:\+|\bplus\b|\balongside\b|\btogether\s+with\b|加上?|再加上?|搭配"
    r"|(?P<weak>&|\band\b|和|与|跟|还有|[,，、;；]))"
    rf"\s*{_N}\s*(?:[x×]|张|块)?\s*$"
)
"""A join that adds cards with their count ('plus 3', '+ 2x', '加 3 张', s33: 'plus two', '和一张'): the
second part of a counted rig; a listing join ('and', '和', s48: a comma or '、' before the next card's count,
'一张 4090、一张 3090、两张 T4') only where the cards are one machine or work together (:data:`TOGETHER_RE`,
or an owned machine of at most :data:`HOST_CARDS` cards)."""
TOGETHER_RE = rc(
    r"一起|一块儿|同时用|together|\bcombined\b|合起来|不同型号|\bmixed\s+(?:gpus|cards)"
    r"|\bmy\b|\brig\b|\bbox\b|\bmachine\b|\bworkstation\b|\bpc\b|\bcomputer\b|\bdesktop\b|我的|机器|电脑|主机|装了|插了"
    r"|用[^，。,;；？?]{0,24}和[^，。,;；？?]{0,24}(?:跑|推理|训练|微调|部署|运行)"
)
"""Words that put listed cards to work as one ('一起推理', 'together', '不同型号的 GPU', 'mixed GPUs') or
in one machine ('my', 'rig', 'box', '我的', '机器'), or '用 … 和 …' before a job ('用 3 张 4090 和
1 张 3090 跑 Qwen2.5-32B': one rig used together, s33 fix-b); not 'we have' alone ('We have 8 H100s and
2 A100s': a fleet)."""
_COUNT_BEFORE_RE = rc(rf"(?<![\d.a-z])(?<!第){_N}\s*(?:[x×]|张|块)?\s*$")
"""A count right before the first card ('1 A100', '2x 3090', '1 张 A100', s33: 'two', '两张')."""


def _count(text: str) -> int:
    """A count of :data:`_N` as a number."""
    return int(text) if text.isdigit() else _WORD_COUNTS[text]


HOST_CARDS = 8
"""The most cards one host holds: an 8-GPU server (NVIDIA DGX/HGX H100 and A100: 8 GPUs a node; the catalog's
``gpus_per_node``). Listed cards of an owned machine ('I have', '我有': :data:`OWNED_MACHINE_RE`) are one rig
only up to this many ('We have 8 H100s and 2 A100s' is a fleet; s48)."""


def _listing_ok(s: str, total: int) -> bool:
    """Whether a listing join ('and', ',', '和', '、') joins parts of one machine: the cards work together
    (:data:`TOGETHER_RE`), or the message owns a machine (:data:`OWNED_MACHINE_RE`) and the cards listed fit
    in one host (at most :data:`HOST_CARDS`)."""
    return bool(TOGETHER_RE.search(s)) or (total <= HOST_CARDS and bool(OWNED_MACHINE_RE.search(s)))


def counted_rig(s: str, gpus: list[GpuMention]) -> list[GpuMention] | None:
    """The cards of one rig written with their counts ('splitting over 1 A100 plus 3 4090s', '2 张 3090 加
    2 张 4060Ti', s48: 'one 4090 24GB, one 3090 24GB and two T4 16GB', '一张 4090、一张 3090、两张 T4'), each
    mention repeated by its count, or None: two or more distinct cards, each next one added to the one before
    by a join with its own count (:data:`COUNTED_JOIN_RE`; a listing join, which lists options as often as
    parts, only per :func:`_listing_ok`), no option word (s26). Before session 48 only two distinct cards
    were read, so a third card became an alternative sized apart.
    Every card counts in :func:`rig_choice` (4 × a 4090's 24 GB hold more than one A100's 80 GB as equal
    shares)."""
    if len(set(map(_ID, gpus))) < 2 or OPTIONS_RE.search(s):
        return None
    fleet = False  # a listing already read as a fleet: no later part of it is one machine
    for i, first in enumerate(gpus[:-1]):
        chain: list[tuple[GpuMention, int]] = []
        seen, prev, weak_at = {first.gpu_id}, first, -1
        for nxt in gpus[i + 1 :]:
            if nxt.gpu_id in seen:
                break
            joined = COUNTED_JOIN_RE.search(s[_end(s, prev.start) : nxt.start])
            if joined is None:
                break
            if weak_at < 0 and joined.group("weak"):
                weak_at = len(chain)
            chain.append((nxt, _count(joined.group("n"))))
            seen.add(nxt.gpu_id)
            prev = nxt
        if not chain:
            continue
        before = _COUNT_BEFORE_RE.search(s[max(0, first.start - 8) : first.start])
        counts = [_count(before.group("n")) if before else 1, *map(_SECOND, chain)]
        if weak_at >= 0 and (fleet or not _listing_ok(s, sum(counts))):
            fleet = True  # 'We have 8 H100s, 4 A100s and 2 L40S': never its last two as one machine
            chain, counts = chain[:weak_at], counts[: weak_at + 1]  # 'on two A100s and one H100'
        if chain:
            break
    else:
        return None
    if min(counts) <= 0 or max(counts) > 16:
        return None
    out = [first] * counts[0]
    for (card, _), n in zip(chain, counts[1:], strict=True):
        out += [card] * n
    return out


def machine_rig(s: str, gpus: list[GpuMention], uncounted: bool) -> list[GpuMention] | None:
    """The cards of one machine in ``gpus``, or None: the cards joined with no count (:func:`rig_cards`, read
    only where ``uncounted``: no count was read, or one for each card), else those written with their counts
    (:func:`counted_rig`); s48: the counted reading where it holds more distinct cards ('一张 4090、一张
    3090、两张 T4': all three, where the uncounted one stops at the first count it meets)."""
    rig = rig_cards(s, gpus) if uncounted else None
    held = len(set(map(_ID, rig))) if rig else 0
    if len(gpus) < 2 or held == len(set(map(_ID, gpus))):
        return rig  # every card already in the rig: no counted reading can hold more (no call)
    counted = counted_rig(s, gpus)
    return counted if counted and len(set(map(_ID, counted))) > held else rig


def smallest(cards: list[GpuMention]) -> GpuMention:
    """The card of the rig with the least memory (its stated memory, else the catalog's): the one sized."""
    return min(cards, key=lambda g: g.memory_gib or catalog.gpu(g.gpu_id).memory_gib)


EVEN_SPLIT = frozenset({"vLLM", "SGLang", "TensorRT-LLM"})
"""Engines whose tensor parallelism gives each card an equal share of the model."""
LAYER_SPLIT = frozenset({"llama.cpp", "Ollama"})
"""Engines that split layers by each card's free memory (llama.cpp src/llama.cpp ``llama_model_load``
→ ``llama_model::load_tensors``: "default split, by free memory", ``ggml_backend_dev_memory`` per device;
``--tensor-split`` sets other proportions; Ollama schedules layers per GPU by free memory too,
llm/memory.go): the rig holds the sum of its cards' memory (session 19, trial 19b)."""


def layer_split_memory(rig: list[GpuMention], runtime: str | None) -> float | None:
    """Each card's share (GiB) of the rig's summed memory when ``runtime`` splits layers by free memory
    (:data:`LAYER_SPLIT`: a 4090 plus a 3060 12GB on Ollama → 2 × 18 GiB = 36 GiB), else None."""
    if runtime not in LAYER_SPLIT or len({_memory(g) for g in rig}) == 1:  # same memory: each card's own
        return None
    return round(sum(map(_memory, rig)) / len(rig), 2)


def layer_split_bandwidth(rig: list[GpuMention], runtime: str | None) -> float | None:
    """The rig's decode bandwidth (GB/s) when ``runtime`` splits layers by free memory over cards of
    different memory (:func:`layer_split_memory`): each card reads its share of the layers (its memory ÷
    the sum) at its own bandwidth, the cards in turn, so 1 ÷ Σ(share ÷ bandwidth); else None (s20 #1)."""
    if layer_split_memory(rig, runtime) is None:
        return None
    total = sum(map(_memory, rig))
    seconds = sum(_memory(g) / total / (catalog.gpu(g.gpu_id).memory_bandwidth_gbps or 1e-9) for g in rig)
    return round(1.0 / seconds, 1)


def _memory(g: GpuMention) -> float:
    return g.memory_gib or catalog.gpu(g.gpu_id).memory_gib


def rig_choice(
    rig: list[GpuMention], runtime: str | None, stage: str | None
) -> tuple[GpuMention, int, dict[str, str]]:
    """The card sized for a rig of different cards, how many of it (k), and {other card's gpu_id: reason}:
    the k cards with the most memory as k equal shares (k × the least of them is largest, so never less than
    the largest card alone). A tie goes to more cards for an even split (:data:`EVEN_SPLIT`, or a training
    job with no engine named), else to fewer, larger cards; cards of the same memory to the one with less
    memory bandwidth ('a 4090 plus a 3090': 2 × RTX 3090, 936 vs 1,008 GB/s: a rig runs at its slower
    card's pace; session 18). Review of session 16."""
    if (
        runtime in LAYER_SPLIT and len({_memory(g) for g in rig}) > 1
    ):  # s19: layers split by free memory: every card counted, the sum sized
        top = max(rig, key=lambda g: (_memory(g), -catalog.gpu(g.gpu_id).memory_bandwidth_gbps))
        return top, len(rig), {g.gpu_id: "mixed_rig_sum" for g in rig if g.gpu_id != top.gpu_id}
    even = runtime in EVEN_SPLIT or (runtime is None and stage not in (None, "inference"))

    def held(g: GpuMention) -> tuple[float, int, float]:
        k = sum(_memory(o) >= _memory(g) for o in rig)  # cards of equal memory: the slower is sized (s18)
        return k * _memory(g), k if even else -k, -catalog.gpu(g.gpu_id).memory_bandwidth_gbps

    chosen = max(rig, key=held)
    k = sum(_memory(o) >= _memory(chosen) for o in rig)
    why = {g.gpu_id: "mixed_rig" if _memory(g) >= _memory(chosen) else "mixed_rig_largest" for g in rig}
    why.pop(chosen.gpu_id)
    return chosen, k, why
