"""The reply to a per-card ceiling and a load with no model named (:mod:`bot.core.ceiling_cards`,
session 30 fixe #1): the count core computed, said as the user's measurement scaled, a floor with a
margin advised when the ceiling was an upper bound, and the model asked for. Formats only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.ceiling_cards import CeilingCards
    from bot.render.dialect import Dialect, Format

COUNT = N_(
    "%(load)s concurrent at your measured %(per_card)s per card: %(cards)s × %(gpu)s "
    "(⌈%(load)s ÷ %(per_card)s⌉)."
)
"""The count, on the card named."""
COUNT_NO_GPU = N_(
    "%(load)s concurrent at your measured %(per_card)s per card: %(cards)s GPUs (⌈%(load)s ÷ %(per_card)s⌉)."
)
"""The count, no card named."""
FLOOR = N_(
    "You said under %(per_card)s per card, so %(cards)s is the least: keep a margin "
    "(one card more, or a lower load per card)."
)
"""The ceiling was an upper bound ('不到 40', 'under 40')."""
MARGIN = N_("That is with no headroom: a card more keeps a margin for peaks and longer requests.")
"""The ceiling was a plain figure."""
SCALED = N_(
    "This scales your own measurement; no model was sized. Name the model (e.g. “Qwen2.5-14B”) "
    "and the context to check what each card's memory holds."
)
"""No model named: the answer is theirs, scaled."""


def ceiling_text(ceiling: CeilingCards, lang: str, fmt: Format | Dialect = "html") -> str:
    """The reply's lines (module doc); the same words in every dialect (no markup)."""
    values = {"load": ceiling.load, "per_card": ceiling.per_card, "cards": ceiling.cards, "gpu": ceiling.gpu}
    lines = [
        translate(lang, COUNT if ceiling.gpu else COUNT_NO_GPU, **values),
        translate(lang, FLOOR if ceiling.under else MARGIN, **values),
        translate(lang, SCALED),
    ]
    return "\n".join(lines)
