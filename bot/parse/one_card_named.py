"""One card read from how the card is named, when no count is stated: 'on an A100', 'on the A100',
'在 A800 上跑' (a catalog card with a singular article), and 'on my 40GB GPU', '用 24G 显存的卡',
'我的 40G 显卡' (a card named by its memory: :mod:`bot.parse.one_card`). Neither is one card when the
question asks how many (:data:`bot.parse.words.ASKS_COUNT_RE`), except the card a failed run was on
('OOM on an A100, how many?': :data:`bot.parse.counts_tried.FAILED_RE`). Step 4 of the parse reads them
(:meth:`bot.parse.field_steps.FieldSteps._gpu_fields`).
"""

from __future__ import annotations

from typing import Any

from bot.parse.counts_tried import FAILED_RE
from bot.parse.one_card import one_memory_card
from bot.parse.words import ARTICLE_GPU_RE, ASKS_COUNT_RE, MEM_CARD_RE


def one_named_card(s: str, f: dict[str, Any], plural: bool) -> bool:
    """'on an A100', 'on the A100', '在 A800 上跑' in the normalized text ``s``: one card, unless the question
    asks how many (not of a failed run's: 'OOM on an A100, how many?'), or the card is named in the plural
    (``plural``: 'on the A100s'), or a TP/PP is stated in the fields ``f`` (its world size is the count)."""
    if plural or f.get("tp") or f.get("pp"):
        return False
    return ARTICLE_GPU_RE.found(s) and (not ASKS_COUNT_RE.search(s) or bool(FAILED_RE.search(s)))


def memory_card_one(s: str) -> bool:
    """'用 24G 显存的卡', 'on my 40GB GPU', '我的 40G 显卡' in the normalized text ``s``: one card of that
    memory (:mod:`bot.parse.one_card`); not when the count is asked ('…显存的卡，几张')."""
    one = MEM_CARD_RE.search(s) or one_memory_card(s)
    return bool(one) and not ASKS_COUNT_RE.search(s)
