"""One currency in a comparison table, and the cheapest among the options priced (trial s18 #3).

'对比 H100、H200、MI300X、RTX 6000 Ada 部署 Llama 3.3 70B' priced the H100 in ¥ (a domestic rental list) and
the H200 and MI300X in US$ (no ¥ list: :func:`estimator.ledger.price_range` borrows the other currency), in
one table; and with the RTX 6000 Ada unpriced no option was called cheapest. The table's currency is the one
most options are priced in (ties: the first option's, the conversation's); an option priced in the other is
sized again in that currency (its catalog range in it: ``request.currency``) and, when it has none, shown
without a price and named (:func:`bot.render.compare.unpriced_line`). The cheapest is chosen among the options
priced in the table's currency when two or more are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeVar

from bot.core.cheapest import cheapest_index
from bot.parse import ParseResult
from estimator import catalog
from estimator.models import SizingReport, SizingRequest
from estimator.money_kinds import Currency

T = TypeVar("T")


def cost_currency(report: SizingReport) -> Currency | None:
    """The currency of ``report``'s cost (per million output tokens when serving), None when unpriced."""
    if report.inference is not None:
        c = report.inference.cost_per_million_tokens
        return c.currency if c is not None else None
    return report.cost.currency if report.cost is not None else None


def table_currency(reports: Sequence[SizingReport]) -> Currency | None:
    """The currency most of ``reports`` are priced in (ties: the first priced one's); None when none is."""
    found = [c for c in map(cost_currency, reports) if c is not None]
    if not found:
        return None
    if found.count(found[0]) == len(found):  # one currency (most answers): no Counter's frames (s41-speed)
        return found[0]
    counts = Counter(found)
    return max(counts, key=lambda c: (counts[c], -found.index(c)))


def one_currency(
    done: list[tuple[SizingReport, T]],
    requests: list[SizingRequest],
    size: Callable[[SizingRequest], tuple[SizingReport, T] | None],
) -> list[tuple[SizingReport, T]]:
    """``done`` (each option's report, sized from ``requests`` in the same order) with every option priced
    in another currency than :func:`table_currency`'s sized again in it (``size``), kept as it was when it
    has no price there."""
    table = table_currency([r for r, _ in done])
    if table is None or all(cost_currency(r) in (None, table) for r, _ in done):
        return done
    out = []
    for (report, extra), req in zip(done, requests, strict=True):
        again = (
            size(req.model_copy(update={"currency": table}))
            if cost_currency(report) not in (None, table)
            else None
        )
        out.append(again if again is not None and cost_currency(again[0]) == table else (report, extra))
    return out


def priced_cheapest(
    reports: list[SizingReport], families: list[str] | None = None, said_price: bool = False
) -> int | None:
    """:func:`bot.core.offer.cheapest_index` among the options priced in the table's currency when two or
    more are (an unpriced RTX 6000 Ada no longer hides the cheapest of the others): its index in
    ``reports``. None when the message stated a price (``said_price``) that only some options are priced
    at (:func:`own_price_only`: the others at the catalog's range; session 19)."""
    if said_price and own_price_only(reports):
        return None  # '对比 A100 和 A800，每卡每小时 10 元': ¥10 on the A100 against the A800's ¥12–28
    table = table_currency(reports)
    if any(cost_currency(r) not in (None, table) for r in reports):
        return None  # a price in another currency cannot be compared (no exchange rate): no winner, say why
    kept = [i for i, r in enumerate(reports) if cost_currency(r) == table and table is not None]
    if len(kept) == len(reports) or len(kept) < 2:
        return cheapest_index(reports, families)
    best = cheapest_index([reports[i] for i in kept], families)
    return kept[best] if best is not None else None


def own_price_only(reports: list[SizingReport]) -> bool:
    """Whether some of ``reports`` are priced at a stated price per GPU-hour and others are not (a price
    said for the first card does not carry over: :func:`bot.core.pipeline.on_gpu`)."""
    stated = [r.request.price_per_gpu_hour is not None for r in reports]
    return any(stated) and not all(stated)


NOT_COMPARED = "not_compared"
"""The reason of a card named for comparison beyond the most one answer sizes (bot.core.pipeline)."""


def not_compared(parsed: ParseResult, gpus: list[str]) -> ParseResult:
    """``parsed`` with each card of ``gpus`` (named for comparison, beyond the most one answer sizes) named
    as not compared (``not_compared``): never dropped in silence."""
    if not gpus:
        return parsed
    items = [(catalog.gpus()[g].family if g in catalog.gpus() else g, NOT_COMPARED) for g in gpus]
    return parsed.model_copy(update={"unused_numbers": [*parsed.unused_numbers, *items]})


CARD_UNSIZED = "card_unsized"


def unsized_cards(parsed: ParseResult) -> ParseResult:
    """s42 round 38 zh: ``parsed`` of an answer that sized nothing (no model size yet) with each other
    card the message names ('用 910B 训练 VideoMind 要多久？能用 A100 40G 吗？') named as not sized, with the
    memory said with it or its catalog memory in GiB (``card_unsized``): the cards a comparison would size
    are never dropped in silence (docs/design.md §8). Unchanged when there is none or a model's size is
    known."""
    if not parsed.gpu_alternatives or parsed.request.params_total is not None or parsed.model_family_only:
        return parsed
    cards, items = catalog.gpus(), []
    for g in parsed.gpu_alternatives:  # the memory said with it, else its catalog memory ('A100 40G')
        memory = parsed.gpu_alternative_memory.get(g) or (cards[g].memory_gib if g in cards else None)
        name = cards[g].family if g in cards else g
        items.append((f"{name} ({memory:g} GB)" if memory else name, CARD_UNSIZED))
    return parsed.model_copy(update={"unused_numbers": [*parsed.unused_numbers, *items]})


def same_cost(a: object, b: object) -> bool:
    """Whether two costs (``Cost`` or ``inference.cost_per_million_tokens``) are the same range
    (``low``, ``high``) in the same ``currency``."""
    keys = ("low", "high", "currency")
    return all(getattr(a, k, None) == getattr(b, k, None) for k in keys)


def serving_tied(reports: list[SizingReport], best: int) -> list[SizingReport]:
    """The serving options whose cost per million output tokens is the same as option ``best``'s (itself
    included; session 19: the first of equal ones was called cheapest): the verdict a comparison's tie line
    says (bot.render.compare.tie_line, moved here by the review of session 19); [] when ``best`` has no
    such cost or none ties with it."""
    c = reports[best].inference.cost_per_million_tokens if reports[best].inference else None
    if c is None:
        return []
    tied = [
        r for r in reports if r.inference is not None and same_cost(r.inference.cost_per_million_tokens, c)
    ]
    return tied if len(tied) > 1 else []
