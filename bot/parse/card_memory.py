"""Memory sizes sold as per-card modifications: a figure equal to one of these, written beside the card,
is one card's memory even when it also equals count × the stock memory ("2张4090 48G": two 48 GB cards,
not 2 × 24 GB). Other cards keep the total reading ("2x RTX 3090 48GB" = two 24 GB cards)."""

from __future__ import annotations

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
