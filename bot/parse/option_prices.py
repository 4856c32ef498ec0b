"""Each compared card's own price per GPU-hour ('H100 at $2.49/GPU-hour vs A100 80GB at $1.19/GPU-hour',
'A100 每卡每小时 7 元，H800 每卡每小时 15 元', 'H100 $2.49, A100 $1.19').

A question that weighs two cards, each with its price written after it, states each card's price, not
two values of one setting: trial s19b #1 priced the H100 at the A100's $1.19 and named '2.49' as 'a
second value for the same setting'. Each price written after a card (no other card between) prices that
card: the headline card's goes on the request, each other card's on ``ParseResult.gpu_alternative_prices``
(sized by :func:`bot.core.pipeline.on_gpu`). One price alone keeps its reading (the first card's only,
no cheapest verdict: :func:`bot.core.compare_currency.own_price_only`); so does a pair of prices that
one card holds both of, or prices in two currencies (one request has one currency)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.parse.regex import rc

if TYPE_CHECKING:
    from bot.parse.gpus import GpuMention

_GAP = 40
"""The most characters from a card's name to the price written after it ('A100 80GB at $')."""
_BETWEEN_RE = rc(r"[;；。!?！？\n]|\bvs\.?(?![a-z])|\bor\b|还是|或者|对比|比较")
"""What ends a card's clause before a price: a sentence end or the word that weighs the next option."""


_CLAUSE_RE = rc(r"[,，、:：]")
"""A comma or colon between a card and the one price: the price is the message's, not that card's
('对比 A100 和 A800 部署 Qwen2.5-7B，每卡每小时 10 元')."""


def _owner(s: str, at: int, gpus: list[GpuMention]) -> int | None:
    """The index in ``gpus`` of the card written last before position ``at`` within :data:`_GAP`
    characters and in the same clause; None when there is none."""
    before = [i for i, g in enumerate(gpus) if g.start < at]
    if not before:
        return None
    i = max(before, key=lambda k: gpus[k].start)
    gap = s[gpus[i].start : at]
    return i if at - gpus[i].start <= _GAP and not _BETWEEN_RE.search(gap) else None


def _bare(s: str, r: Any, gpus: list[GpuMention]) -> bool:
    """Whether a budget-read amount is a bare price written right after a card ('H100 $2.49, A100 $1.19
    per GPU-hour': the unit is said once, after the last): under 100 (market prices ~0.1-100 a GPU-hour)
    and within 12 characters of the card."""
    i = _owner(s, r.tok.start, gpus)
    return i is not None and r.value < 100 and r.tok.start - gpus[i].start <= 12


def option_prices(p: Any, gpus: list[GpuMention]) -> None:
    """:func:`_own_prices`; then cards rented at a price each, none counted, are each compared at the count
    it needs (``count_asked``), not one personal card (s38 fixt2 #1: '4090 2元/小时 和 A800 6元/小时
    哪个更划算 LoRA 微调 32B' sized one RTX 4090, which does not hold the job, and priced no 4090s)."""
    _own_prices(p, gpus)
    if p.__dict__.get("_option_prices") and p.f.get("price_per_gpu_hour") and not p.f.get("gpu_count"):
        p.f["count_asked"] = True


def _own_prices(p: Any, gpus: list[GpuMention]) -> None:
    """Give each card named its own price when two or more prices are stated, each after a different card,
    in a message that compares (:data:`bot.parse.option_counts.COMPARE_CUE_RE`): the headline card's
    (``p.f['gpu']``) price in ``p.f['price_per_gpu_hour']``, the others in ``p._option_prices`` (GPU id →
    price in the request's currency), every price marked used. Leaves ``p`` as it was otherwise."""
    prices = [r for r in p.roles if r.role == "price" or (r.role == "budget" and _bare(p.s, r, gpus))]
    from bot.parse.respective_prices import respective_prices

    if len(gpus) > 1 and respective_prices(p, gpus):  # 'H100、A100 分别 2.49 和 1.19 美元每小时' (s20)
        return
    from bot.parse.option_counts import COMPARE_CUE_RE

    if len(prices) == 1 and COMPARE_CUE_RE.search(p.s):
        _other_cards_price(p, prices[0], gpus)
        return
    if (
        len(prices) < 2
        or all(r.role == "budget" for r in prices)
        or len({r.extra for r in prices if r.extra}) > 1
        or not COMPARE_CUE_RE.search(p.s)
    ):
        return
    own: dict[str, float] = {}
    for r in prices:
        i = _owner(p.s, r.tok.start, gpus)
        if i is None or own.setdefault(gpus[i].gpu_id, r.value) != r.value:
            return  # a price no card holds, or one card with two prices: the parse's own reading
    if len(own) < 2 or p.f.get("gpu") not in own:
        return
    if any(r.role == "budget" and r.value == p.f.get("budget") for r in prices):
        p.f["budget"] = None  # 'H100 $2.49, A100 $1.19 per GPU-hour': the H100's price, not a budget
    p.f["price_per_gpu_hour"] = own.pop(p.f["gpu"])
    p.used.update(id(r) for r in prices)
    p._option_prices = own


def _other_cards_price(p: Any, r: Any, gpus: list[GpuMention]) -> None:
    """One price written right after a card other than the headline one ('8x A100 or 4x H100 at $2.5/h',
    '8 张 A100 还是 4 张 H100 每小时 2.5 美元'): that card's price, not the headline card's (s37 fixg #2); the
    headline card at the catalog's range. Leaves ``p`` as it was otherwise."""
    i = _owner(p.s, r.tok.start, gpus)
    near = i is not None and not _CLAUSE_RE.search(p.s, gpus[i].start, r.tok.start)
    gpu = gpus[i].gpu_id if i is not None and near and r.tok.start - gpus[i].start <= 16 else None
    if r.role != "price" or gpu is None or gpu == p.f.get("gpu") or p.f.get("price_per_gpu_hour") != r.value:
        return
    p.f["price_per_gpu_hour"] = None
    p.used.add(id(r))
    p._option_prices = {gpu: r.value}
