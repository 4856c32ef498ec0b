"""A card's memory as a monitor shows it (issue 24, s14): 'Both cards show 23.6 GiB total', 'nvidia-smi
shows 79.2 GiB total on each', '两张卡都显示 23.6 GiB total'.

nvidia-smi prints each card's memory in its own row ('0MiB / 24564MiB'), and tools that summarise it
(nvtop, gpustat, ``torch.cuda.get_device_properties(i).total_memory``) call it the card's "total". A
figure a message says a card or the tool *shows* as "total", a little under a catalog card's memory (the
driver reserves some: 24 GB cards report 23.6–24.0 GiB), is each card's memory. Before, 'Both cards show
23.6 GiB total' was read as the two cards' memory together and sized two 11.8 GiB cards.
"""

from __future__ import annotations

from functools import cache

from bot.parse.regex import rc
from bot.parse.role_left import L_TOTAL_CAPACITY, R_TOTAL_CAPACITY
from estimator import catalog

L_SHOWN = rc(
    r"(?:\b(?:shows?|showing|shown|reports?|reporting|reported|lists?|says|display(?:s|ed)?)"
    r"|显示|报告|看到)\s*(?:(?:about|around|~|约|大约)\s*)?$"
)
"""A monitor's verb right before the figure: 'both cards show', 'nvidia-smi reports', '显示'."""
R_TOTAL = rc(r"^\s*(?:total\b|in\s+total\b|总量|总显存|总共)")
"""'total' right after the figure ('23.6 GiB total'): the column a monitor labels."""
SHORT_OF_CARD = 0.9
"""A reported total at least this share of a catalog card's memory (and not above it) is that card's."""


@cache
def _card_memories() -> tuple[float, ...]:
    return tuple(sorted({g.memory_gib for g in catalog.gpus().values() if g.gpu_memory_fraction is None}))


def shown_per_card(left: str, after: str, gib: float) -> bool:
    """Whether ``gib`` (a size in GiB, ``left``/``after`` the normalized text around it) is one card's
    memory a monitor shows as its "total": :data:`L_SHOWN` before it, :data:`R_TOTAL` after it, and
    within :data:`SHORT_OF_CARD` of a catalog card's memory."""
    if not (L_SHOWN.search(left[-24:]) and R_TOTAL.match(after)):
        return False
    return any(SHORT_OF_CARD * m <= gib <= m for m in _card_memories())


def per_card_total(left: str, after: str, gib: float) -> bool:
    """Whether a size said as a "total" is one card's memory: PyTorch's out-of-memory message ('39.59 GiB
    total capacity', :data:`bot.parse.role_left.L_TOTAL_CAPACITY`) or a monitor's (:func:`shown_per_card`)."""
    return bool(L_TOTAL_CAPACITY.search(left) or R_TOTAL_CAPACITY.match(after)) or shown_per_card(
        left, after, gib
    )
