"""Which named card a GPU count counts, and whether a stated memory is per card or the cards' total
(step 4 of the parse, :mod:`bot.parse.field_steps`)."""

from __future__ import annotations

from typing import Any

from bot.parse.gpus import GpuMention, family_memory, unified
from bot.parse.regex import rc
from estimator import catalog

COUNTED_GPU_GAP = 16
"""Characters between a GPU count and the card it counts ("两张 16G 的 T4", "8 x NVIDIA A100")."""


def counted_gpu(gpus: list[GpuMention], count_end: int | None, count_ends: list[int]) -> GpuMention:
    """The card the user has when several are named: the first, unless it comes bare (no count, no
    memory of its own) and the GPU count counts a later one ("作者用 V100 … 我只有两张 16G 的 T4": the
    T4s)."""
    first = gpus[0]
    if count_end is None or first.memory_gib:
        return first
    for end in count_ends:  # loops, not any()/next() of a generator: no generator frame a parse
        if counts(end, first):
            return first
    for g in gpus:
        if counts(count_end, g):
            return g
    return first


def nearest_is(count_end: int, gpus: list[GpuMention], same: list[GpuMention]) -> bool:
    """Whether the card a count counts (the nearest after it, within the gap) is one of ``same``: '要 4 张
    A100。我想用 H100' — the 4 counts the A100, never the H100 beyond it."""
    after = [g for g in gpus if counts(count_end, g)]
    return bool(after) and min(after, key=lambda g: g.start) in same


def counts(count_end: int, gpu: GpuMention) -> bool:
    return 0 <= gpu.start - count_end <= COUNTED_GPU_GAP


def per_card_memory(gpus: list[GpuMention], memory: float | None, count: float, raw: str) -> float | None:
    """The memory per card stated, or None when it is the cards' total ("2x RTX 3090 48GB": two 24 GB cards);
    a modified card's memory ("4090 魔改 48G", "2张4090 48G") is per card, unless a setting ("显存: 48GB")."""
    if not gpus or memory is None or gpus[0].memory_per_card_stated or count < 2:
        return memory
    from bot.parse.card_memory import modded_size, written_as_setting

    if modded_size(gpus[0].gpu_id, memory) and not written_as_setting(raw, memory):
        return memory
    per_card = catalog.gpu(gpus[0].gpu_id).memory_gib
    total = abs(count * per_card - memory) < 1 and abs(per_card - memory) >= 1
    return None if total else memory


def over_card(steps: Any, gpus: list[GpuMention], memory: float) -> float | None:
    """The memory per card ``memory`` (GiB) for the card ``steps.f["gpu"]`` (``steps``: the
    :class:`bot.parse.field_steps.FieldSteps` parsing), or None when it is above what any catalog variant
    of that card has (a stock card, not a modified one, and the memory not written on the card's name as in
    'H20 141G'): the card's own memory is sized and the number named in ``steps.named_unused`` as
    ``over_card`` (review of s17: one 4090 with 'the node's 128GB of GPU memory' was sized as a 128 GB 4090
    and said to fit). Only a memory above 24 GB is checked: a machine's or a box's total, the case met."""
    if not gpus or gpus[0].memory_gib or gpus[0].memory_per_card_stated:
        return memory
    gpu, named = steps.f.get("gpu"), steps.named_unused
    if gpu is None or unified(gpu):
        return memory
    from bot.parse.card_memory import modded_size

    if memory <= family_memory(gpu) + 1 or modded_size(gpu, memory):
        return memory
    text = f"{memory:g} GB"
    named[:] = [n for n in named if n != (text, "cards_total")]
    named.append((text, "over_card"))
    return None


OWN_MEMORY_GAP = 40
"""Characters from a card's name to the memory said of it ('8 V100s with 16GB memory each': 17)."""


def own_memory(chosen: GpuMention, gpus: list[GpuMention], mem_role: Any, s: str = "") -> float | None:
    """The memory stated right after the card sized, with no other card named between ('trained on 8 x 3090;
    can it run on 8 V100s with 16GB memory each?'): that card's (round 24: with two cards named, it was
    dropped in silence); s47 round 43, the memory of the kind of card listed ('Tesla T4、RTX 3050 这种 8GB
    显存的卡', 'cards like these with 8GB', ``s`` the parsed message): every listed card's, the one sized
    too (:data:`CLASS_BEFORE_RE`; before, dropped in silence); else None. ``mem_role``: the first ``gpu_mem``
    role (bot.parse.roles), or None."""
    if mem_role is None:
        return None
    at = mem_role.tok.start
    before = [g for g in gpus if g.start < at]
    if before and max(before, key=lambda g: g.start) is chosen and at - chosen.start <= OWN_MEMORY_GAP:
        return mem_role.value
    if chosen in before and s and CLASS_BEFORE_RE.search(s, max(0, at - 12), at):
        return mem_role.value
    return None


CLASS_BEFORE_RE = rc(r"(?:这种|这类|这些|这样的|之类的?|等|such|like\s+these|like\s+that)\s*(?:的|with)?\s*$")
"""A kind-of-card word right before a memory after a card list ('… 这种 8GB 显存的卡', '… and such, 8GB')."""
