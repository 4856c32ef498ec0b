"""A run on the user's own card has no rental price to miss (session 17, s17-fix item 3).

"I have an RTX 3090 at home …, how long?" answered "No rental price on file for RTX 3090": a cost nobody
asked for, on a card nobody rents. The estimator notes ``no_price`` whenever a card has no rental price
(:func:`estimator.ledger.price_range`) and cannot see the question; the parse can
(:attr:`bot.parse.result.ParseResult.asks_cost`). So here, for a card the message says is the user's own
(:data:`OWN_CARD_RE`: 'my 3090', 'I have an RTX 3090', '我家里有一张 3090', '我的 4090'):

- no cost asked: the ``no_price`` note is dropped (nothing was asked that it answers);
- a cost asked ('how much will it cost on my 3090?'): it becomes :data:`OWN_CARD_COST`, which says the card
  is the user's own, so there is no rental to price, and that power cost is not modelled.

A card the user rents, or one not said to be theirs, keeps the note as it was.
"""

from __future__ import annotations

from bot.parse import ParseResult
from bot.parse.regex import rc
from estimator.models import Note, SizingReport

OWN_CARD_COST = "own_card_cost"
"""Note: a cost was asked of a run on the user's own card (no rental price; power not modelled)."""

OWN_CARD_RE = rc(
    r"\bmy\s+(?:own\s+|home\s+|local\s+|personal\s+)?(?:\w+\s+){0,2}?(?:gpus?|cards?|rtx|gtx|\d{4})"
    r"|\bi\s+(?:have|own|'ve\s+got|got|bought)\s+(?:an?\s+|one\s+|two\s+|\d\s*x?\s*)?(?:nvidia\s+)?(?:rtx|gtx|\d{4})"
    r"|\bat\s+home\b|\bhome\s+(?:pc|rig|machine|server|workstation)|我(?:自己)?的\s*(?:\d{4}|rtx|显卡|卡)"
    r"|我(?:家里|家|自己)?(?:有|买了)\s*(?:一张|两张|一块|两块|\d\s*张)?\s*(?:rtx\s*)?\d{4}|家里|自己的(?:卡|显卡|电脑|机器)"
)
"""The user's own card: 'my 3090', 'my own GPU', 'I have an RTX 3090', 'at home', '我的 4090',
'我家里有一张 3090'."""


def home_card_cost(report: SizingReport, parsed: ParseResult) -> SizingReport:
    """``report`` with its ``no_price`` note dropped (no cost asked) or worded as the user's own card's
    (:data:`OWN_CARD_COST`, a cost asked) when the message says the card is theirs; else unchanged."""
    notes = report.warnings
    missing = next((n for n in notes if n.code == "no_price"), None)
    if missing is None or not OWN_CARD_RE.search(parsed.normalized):
        return report
    kept = [n for n in notes if n is not missing]
    if parsed.asks_cost:
        kept.insert(notes.index(missing), Note(code=OWN_CARD_COST, params={"gpu": missing.params.get("gpu")}))
    return report.model_copy(update={"warnings": kept})
