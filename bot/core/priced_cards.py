"""Which cards 'the cheapest card to serve …' compares (trial s27 #2).

'cheapest card to run Mistral 7B inference for a chatbot with ~10 users' compared only the A100, H100 and
H200 (bot.parse.which_cards.SERVING_CARDS) and named the A100 the cheapest, though an RTX 4090 or an L40S
holds that load for a fraction of its rent; in Chinese the H200, which has no CNY price, made the reply
open with 'no lowest-cost verdict'. A question asking the cheapest card with no card named
(:data:`bot.parse.which_cards.CHEAPEST_ASKED`) now compares every card of the price catalog
(``estimator/data/prices.toml``) that has a range of its own in the reply's currency, one a memory class
(the cheapest hourly range of each size of memory: two 80 GB cards hold the same load), of the first
card's vendor (the runtime sized: vLLM on CUDA), the cheapest classes first, at most
``limit`` of them besides the first card. :func:`bot.core.serving_rank.cheapest_of` then names the one
whose month costs least among those that hold the load at ≥ 25 tokens/s a sequence. The catalog's cards
priced only in the other currency are not compared; they are named in one line after the verdict
(:func:`unpriced_cards`), never in its place. A card that cannot run the weights as stated is not compared
(:func:`runs_weights`, s29 trial #5: a V100 was the cheapest for an AWQ model on SGLang).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.parse.which_cards import CHEAPEST_ASKED
from estimator import catalog
from estimator.gpu_spec import GpuSpec
from estimator.money_kinds import Currency
from estimator.request import Precision
from estimator.serving import runs_fp8_weight_only
from estimator.variant_prices import variant_price

if TYPE_CHECKING:
    from bot.parse import ParseResult
    from estimator.models import SizingReport


_KEPT: list[tuple[object, object, tuple[GpuSpec, ...]]] = []
"""The last :func:`_price_cards` answer and the catalog objects it was read from (the price entries and the
GPU table, both cached by :mod:`estimator.catalog`): the same catalog, the same cards (s35-sptail: the
list compared every card with every other by pydantic ``__eq__``, ~240 calls an answer that asks the
cheapest card, twice an answer)."""


def _price_cards() -> tuple[GpuSpec, ...]:
    """One card per price entry (the entry's first listed card, else its family's usual variant), in the
    order of ``prices.toml``; read again only when the catalog's entries or GPU table are new objects."""
    entries, table = catalog.price_entries(), catalog.gpus()
    if _KEPT and _KEPT[0][0] is entries and _KEPT[0][1] is table:
        return _KEPT[0][2]
    cards: list[GpuSpec] = []
    seen: set[str] = set()  # catalog ids: one GpuSpec per id (catalog.gpus keys), so equal specs share one
    for entry in entries:
        spec = table.get(entry.gpus[0]) if entry.gpus else catalog.default_gpu_for_family(entry.family)
        if spec is not None and spec.id not in seen:
            seen.add(spec.id)
            cards.append(spec)
    _KEPT[:] = [(entries, table, tuple(cards))]
    return _KEPT[0][2]


def _own_range(card: GpuSpec, currency: Currency) -> tuple[float, float] | None:
    """``card``'s own range per GPU-hour in ``currency`` (not one borrowed from another variant), or None."""
    found = variant_price(card, currency)
    return None if found is None or found.borrowed_from else (found.low, found.high)


PERSONAL_ROOM = 0.9
"""The share of a personal card's memory the weights may take for it to be compared as a server's card:
vLLM's default ``gpu_memory_utilization`` (vllm/config/cache.py, 0.9). A model whose weights need more
would be sized on it as a quantized llama.cpp model for one user (estimator.serving's personal machine),
not the load the others carry: only small models are compared on an RTX 4090."""


BEFORE_TURING = frozenset({"Volta", "Pascal", "Maxwell", "Kepler"})
"""NVIDIA generations below compute capability 7.5, where AWQ's kernels do not run: vLLM
vllm/model_executor/layers/quantization/awq.py ``AWQConfig.get_min_capability`` returns 75 ("The AWQ
kernel only supports Turing or newer GPUs"), as does SGLang's python/sglang/srt/layers/quantization/awq.py;
vLLM checks it when it loads the model (``_verify_quantization`` via ``get_min_capability``)."""


def runs_weights(card: GpuSpec, precision: Precision | None, awq: bool) -> bool:
    """Whether ``card`` runs weights of ``precision`` (``awq``: an AWQ checkpoint named) on vLLM/SGLang:
    FP8 needs FP8 tensor cores or Ampere's weight-only FP8 Marlin kernels
    (:func:`estimator.serving.runs_fp8_weight_only`); AWQ needs compute capability 7.5
    (:data:`BEFORE_TURING`)."""
    if precision is Precision.fp8 and not card.has_fp8 and not runs_fp8_weight_only(card):
        return False
    return not (awq and card.generation in BEFORE_TURING)


def priced_cards(
    first: str,
    currency: Currency,
    limit: int,
    weights_bytes: float = 0.0,
    weights: tuple[Precision | None, bool] = (None, False),
) -> list[str]:
    """Card ids to compare with ``first`` (the card sized first, a catalog id) for the cheapest serving
    card in ``currency``: the price catalog's cards of ``first``'s vendor with a range of their own in
    ``currency`` (a personal card only when ``weights_bytes``, the model's weights in bytes, fit in
    :data:`PERSONAL_ROOM` of its memory), the cheapest (middle of the range) of each memory class (GiB,
    rounded) other than ``first``'s, cheapest first, at most ``limit``; ``weights``: the precision and
    whether an AWQ checkpoint was named, each card able to run them (:func:`runs_weights`)."""
    spec = catalog.resolve_gpu(first)
    if spec is None:
        return []
    best: dict[int, tuple[float, str]] = {}
    others: list[tuple[float, str]] = []
    for card in _price_cards():
        small = not card.personal or weights_bytes <= PERSONAL_ROOM * card.memory_gib * 2**30
        small = small and runs_weights(card, *weights)
        span = _own_range(card, currency) if card.vendor == spec.vendor and small else None
        size = round(card.memory_gib)
        if span is None or size == round(spec.memory_gib):
            continue
        middle = (span[0] + span[1]) / 2
        if size in best and middle >= best[size][0]:
            others.append((middle, card.id))
            continue
        if size in best:
            others.append(best[size])
        best[size] = (middle, card.id)
    # a class's cheapest per hour first; where ``limit`` leaves room, its others too (s34 #2: the RTX 3090
    # priced beside the RTX 4090 must not hide the faster card that holds a load the 3090 is too slow for)
    ranked = [card for _, card in sorted(best.values())]
    return (ranked + [card for _, card in sorted(others)])[:limit]


def unpriced_cards(compared: list[str], currency: Currency | None) -> list[str]:
    """The price catalog's cards of the first compared card's vendor with no range of their own in
    ``currency`` (priced only in the other one: an H200 in CNY, an H20 in USD) and of a memory class none of
    ``compared`` (catalog ids, the first card first) has, by catalog id: named as not compared."""
    specs = [s for s in map(catalog.resolve_gpu, compared) if s is not None]
    if not specs or currency is None:
        return []
    sizes = {round(s.memory_gib) for s in specs}
    out: list[str] = []
    for card in _price_cards():
        size = round(card.memory_gib)
        if card.vendor == specs[0].vendor and size not in sizes and _own_range(card, currency) is None:
            out.append(card.id)
            sizes.add(size)
    return out


AWQ_RE = re.compile(r"(?<![a-z])awq(?![a-z])", re.I)
"""An AWQ checkpoint named ('Qwen2.5-7B-Instruct-AWQ', '--quantization awq', 'AWQ 量化')."""


def with_priced_cards(parsed: ParseResult, report: SizingReport, limit: int) -> ParseResult:
    """``parsed`` comparing :func:`priced_cards` (in ``report``'s currency, beside its card) instead of the
    common serving cards, when the question asks the cheapest card (:data:`CHEAPEST_ASKED`); else
    ``parsed`` (the same object)."""
    req = report.request
    if CHEAPEST_ASKED not in parsed.notes or req.gpu is None or req.currency is None:
        return parsed
    weights = report.inference.weights_bytes if report.inference is not None else 0.0
    awq = req.precision is Precision.int4 and AWQ_RE.search(parsed.normalized or "") is not None
    cards = priced_cards(req.gpu, req.currency, limit, weights, (req.precision, awq))
    return parsed.model_copy(update={"gpu_alternatives": cards}) if cards else parsed
