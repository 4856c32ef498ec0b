"""The number of card slots a machine has ('4 个卡槽', '4 PCIe slots'), read from the phrase
:mod:`bot.parse.card_slots` named (``card_slots``), so core can compare it with the count sized without
reading the message again (review s14 LOW: the slots were named but never compared).
"""

from __future__ import annotations

import re

from bot.parse.result import ParseResult

_LEADING_RE = re.compile(r"\d{1,2}")


def with_slot_count(parsed: ParseResult) -> ParseResult:
    """``parsed`` with ``card_slots``: the slots of the one machine named (its phrase's number); unchanged
    (the same object) with none or with two phrases of different counts."""
    counts = {
        int(m.group(0))
        for text, why in parsed.unused_numbers
        if why == "card_slots" and (m := _LEADING_RE.search(text)) is not None
    }
    if len(counts) != 1:
        return parsed
    return parsed.model_copy(update={"card_slots": counts.pop()})
