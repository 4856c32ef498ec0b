"""Prices listed after the cards they price, in order (s20-fixb, issue 24): 'H100 and A100 at $2.49 and
$1.19 an hour', 'H100、A100 分别 2.49 和 1.19 美元每小时', 'H100 and A100, respectively $2.49 and $1.19 per
GPU-hour'. A list of cards then a list of as many prices pairs them in order (respectively, 分别): before,
the first price was read as a budget (English) or left unread (Chinese) and every card priced at the last.
Called by :func:`bot.parse.option_prices.option_prices` when no price follows its own card.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.parse.gpus import GpuMention

_CARDS_JOINED_RE = re.compile(r"^\s*(?:,|、|/|and|&|和|与|跟|以及|及)?\s*$")
"""What stands between two cards of one list ('H100 and A100', 'H100、A100'): a joiner only."""
_SENTENCE_END_RE = re.compile(r"[;；。!?！？\n]")
_PRICES_JOINED_RE = re.compile(r"^[\s$¥￥€,、/]*(?:and|&|和|与|跟|及|vs\.?|or|或)?[\s$¥￥€,、/]*$")
"""What stands between two prices of one list ('$2.49 and $1.19', '2.49 和 1.19', '2.49/1.19')."""
_GAP = 24
"""The most characters from the last card of the list to the first price ('and A100 at $', ' 分别 ')."""


def respective_prices(p: Any, gpus: list[GpuMention]) -> bool:
    """Pair the cards of one list (``gpus``, masked in ``p.s``) with as many prices written after them, in
    order: the headline card's price in ``p.f['price_per_gpu_hour']``, the others' in ``p._option_prices``
    (GPU id → price); the prices marked used (a price read as a budget is no budget, one left unread is
    read). Returns whether it paired them; ``p`` is unchanged when not."""
    s = p.s
    cards = sorted(gpus, key=lambda g: g.start)
    if len({g.gpu_id for g in cards}) != len(cards) or p.f.get("gpu") not in {g.gpu_id for g in cards}:
        return False
    if any(not _CARDS_JOINED_RE.match(s[a.start + 1 : b.start]) for a, b in itertools.pairwise(cards)):
        return False
    card_end = cards[-1].start + 1  # after the last card's mark
    end = _SENTENCE_END_RE.search(s, card_end)
    stop = end.start() if end else len(s)
    roles = {id(r): r for r in p.roles if r.role in ("price", "budget") and card_end <= r.tok.start < stop}
    toks = [t for t in p.unread_toks if card_end <= t.start < stop]
    found = [(r.tok.start, r.tok.end, r.value, r) for r in roles.values()] + [
        (t.start, t.end, t.value, t) for t in toks
    ]
    found = [f for f in sorted(found, key=lambda f: f[0]) if 0 < f[2] < 100][: len(cards) + 1]
    if len(found) != len(cards) or found[0][0] - card_end > _GAP:
        return False
    if any(not _PRICES_JOINED_RE.match(s[a[1] : b[0]]) for a, b in itertools.pairwise(found)):
        return False
    own = {g.gpu_id: f[2] for g, f in zip(cards, found, strict=True)}
    budget = [f[3] for f in found if id(f[3]) in roles and f[3].role == "budget"]
    if any(r.value == p.f.get("budget") for r in budget):
        p.f["budget"] = None  # 'at $2.49 and $1.19 an hour': the H100's price, not a budget
    p.f["price_per_gpu_hour"] = own.pop(p.f["gpu"])
    p.used.update(id(f[3]) for f in found if id(f[3]) in roles)
    for tok in (f[3] for f in found if id(f[3]) not in roles):
        if tok.raw.strip() in p.unread:
            p.unread.remove(tok.raw.strip())
        p.unread_toks.remove(tok)
    p._option_prices = own
    return True
