"""Which price range a GPU variant gets (issue 24: an A100 40GB was priced at the A100 80GB's rate).

A family can have several price entries in ``data/prices.toml``, each with the catalog ids of the
variants its source quoted (``gpus``; empty when the source names no variant). A card takes, in the
asked currency, the range quoted for its own id, else the family's range for no named variant, else
another variant's range — and then the reply says whose range it is.
"""

from __future__ import annotations

from typing import NamedTuple

from estimator import catalog
from estimator.catalog import GpuSpec, PriceEntry
from estimator.models import Currency


class VariantPrice(NamedTuple):
    """A range per GPU-hour for one card: (low, high) in the asked currency, its entry, and the names
    of the other variants it was quoted for (empty when it is the card's own or the whole family's)."""

    low: float
    high: float
    entry: PriceEntry
    borrowed_from: tuple[str, ...]


def _span(entry: PriceEntry, currency: Currency) -> tuple[float, float] | None:
    low, high = (
        (entry.cny_low, entry.cny_high) if currency == Currency.CNY else (entry.usd_low, entry.usd_high)
    )
    return (low, high) if low is not None and high is not None else None


_FOUND: dict[tuple[str, str, Currency], tuple[object, object, VariantPrice | None]] = {}
""":func:`variant_price`'s answers by (card id, family, currency), each with the price entries and the
card catalog it was read from (``catalog.price_entries()``, ``catalog.gpus()``: cached, so the same
objects until reloaded): a training answer asks 1–3 times, ~55k instructions a scan of the 16 entries'
fields (issue 23 item 7). Catalog cards' id and family only (an unknown card's are as typed: not kept)."""


def variant_price(gpu: GpuSpec, currency: Currency) -> VariantPrice | None:
    """The range for ``gpu`` in ``currency``: its own variant's, else its family's for no named
    variant, else another variant's (``borrowed_from`` then names that variant's cards, catalog names);
    None when the family has no range in that currency."""
    entries, cards = catalog.price_entries(), catalog.gpus()
    key = (gpu.id, gpu.family, currency)
    kept = _FOUND.get(key)
    if kept is not None and kept[0] is entries and kept[1] is cards:
        return kept[2]
    found = _scanned(gpu, currency, entries)
    card = cards.get(gpu.id)
    if card is not None and card.family == gpu.family:  # a catalog card's (the scan reads only these two)
        _FOUND[key] = (entries, cards, found)
    return found


def _scanned(gpu: GpuSpec, currency: Currency, every: tuple[PriceEntry, ...]) -> VariantPrice | None:
    """:func:`variant_price`'s scan of the price entries ``every``."""
    entries = [e for e in every if e.family == gpu.family]
    own = [e for e in entries if gpu.id in e.gpus]
    family_wide = [e for e in entries if not e.gpus]
    others = [e for e in entries if e.gpus and gpu.id not in e.gpus]
    for group, borrowed in ((own, False), (family_wide, False), (others, True)):
        for entry in group:
            span = _span(entry, currency)
            if span is None:
                continue
            names = tuple(_card_name(i) for i in entry.gpus) if borrowed else ()
            return VariantPrice(span[0], span[1], entry, names)
    return None


def _card_name(gpu_id: str) -> str:
    spec = catalog.gpus().get(gpu_id)
    return spec.name.removeprefix("NVIDIA ") if spec else gpu_id
