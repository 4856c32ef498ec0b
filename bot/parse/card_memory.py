"""Memory sizes sold as per-card modifications: a figure equal to one of these, written beside the card,
is one card's memory even when it also equals count × the stock memory ("2张4090 48G": two 48 GB cards,
not 2 × 24 GB). Other cards keep the total reading ("2x RTX 3090 48GB" = two 24 GB cards)."""

from __future__ import annotations

import re

MODDED_MEMORY_GIB: dict[str, frozenset[float]] = {
    "RTX-4090": frozenset({48.0}),
    "RTX-4090D": frozenset({48.0}),
    "RTX-2080-Ti": frozenset({22.0}),
}
"""GiB per card of the Chinese-market memory-modded cards (doubled GDDR chips): RTX 4090/4090D 48 GB and
RTX 2080 Ti 22 GB (estimator/data/gpus.toml notes of RTX-4090D and RTX-2080-Ti: not official SKUs)."""


def modded_size(gpu_id: str, memory_gib: float) -> bool:
    """Whether ``memory_gib`` is the memory of a modified ``gpu_id`` card sold as such (per card)."""
    return any(abs(memory_gib - m) < 1 for m in MODDED_MEMORY_GIB.get(gpu_id, ()))


TOTAL_FACTOR = 1.5
"""A memory written beside one card that is at least this many times the largest memory any variant of
that card has is the memory of several of them together. A judgment, not a fit: well above the largest
variant (a GB figure is 7.4 % above its GiB; a modified card's memory is checked apart, :func:`modded_size`)
and below two of the largest variant (2×), the smallest total of several."""


def beyond_one_card(gpu_id: str, memory_gib: float, variants: list[float]) -> bool:
    """Whether ``memory_gib``, written beside the card ``gpu_id`` with no count ('A100 (160GB)', 'H100
    640GB'), is more than one such card has (``variants``: the GiB of each catalog variant of its family)
    and so the total of several: sized as the total memory, never as one card of that memory (issue 24,
    round 4). A modified card's memory (:func:`modded_size`) stays per card."""
    if not variants or modded_size(gpu_id, memory_gib):
        return False
    return memory_gib >= TOTAL_FACTOR * max(variants)


def written_as_setting(text: str, memory_gib: float) -> bool:
    """Whether ``memory_gib`` is written as a plain memory setting in ``text`` ('显存: 48GB', 'VRAM: 48GB';
    not '单卡显存: 48G'): the memory of the machine as a hardware line gives it, so with several stock cards
    named it is their total when it equals count × the card's memory (s9 trial: '2张4090 显存: 48GB' is two
    24 GB cards, not two modified 48 GB ones)."""
    from bot.parse.memory_forms import KEY_MEMORY_RE  # a late import: the pattern is only needed here

    low = text.lower()
    return any(
        m.group("key") in ("显存", "vram") or m.group("key").startswith("gpu")
        for m in KEY_MEMORY_RE.finditer(low)
        if abs(float(m.group("n")) - memory_gib) < 1
    ) or any(abs(float(m["n"] or m["m"]) - memory_gib) < 1 for m in _MEMORY_THEN_KEY_RE.finditer(low))


_MEMORY_THEN_KEY_RE = re.compile(
    r"(?<![\d.])(?P<n>\d{2,3})\s*(?:gb|gib|g)\s*(?:of\s+)?(?:total\s+|combined\s+)?"
    r"(?:vram|显存|gpu[\s_\-]*mem(?:ory)?)(?!\s*(?:each|per|apiece))"
    r"|(?<![\d.])(?P<m>\d{2,3})\s*(?:gb|gib|g)\s*(?:in\s+total|total|combined|总共|合计)"
)
"""The same memory written before its key ('2x4090 48GB VRAM', '2张3090 48G显存', '48GB of VRAM', '48GB
total'): the machine's video memory, so with several stock cards it is their total (s34 fixa); not '48GB
VRAM each'."""
