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

Trial s17-2 #3: '我就一张 RTX 3090，想在家 …，电费大概多少钱？' and 'what would the power bill be on my
3090?' are the same: '我就一张', '在家', '电费' / 'power bill' / 'electricity' mark the card as the user's
and the question as a cost. For a card whose board power NVIDIA's datasheet gives, the note becomes
:data:`OWN_CARD_ENERGY`: the run's kWh at that power (:func:`estimator.energy.run_kwh`), tariff left to
the user.
"""

from __future__ import annotations

from bot.parse import ParseResult
from bot.parse.regex import rc
from estimator import energy
from estimator.models import Note, SizingReport

OWN_CARD_COST = "own_card_cost"
"""Note: a cost was asked of a run on the user's own card (no rental price; power not modelled)."""
OWN_CARD_ENERGY = "own_card_energy"
"""Note: as :data:`OWN_CARD_COST`, with the energy the run draws at the card's board power (kWh)."""

POWER_COST_RE = rc(r"电费|耗电|用电|\bpower\s+(?:bill|cost)|\belectricity\b")
"""A power cost asked: '电费', 'power bill', 'electricity'."""

OWN_CARD_RE = rc(
    r"\bmy\s+(?:own\s+|home\s+|local\s+|personal\s+)?(?:\w+\s+){0,2}?(?:gpus?|cards?|rtx|gtx|\d{4})"
    r"|\bi\s+(?:have|own|'ve\s+got|got|bought)\s+(?:an?\s+|one\s+|two\s+|\d\s*x?\s*)?(?:nvidia\s+)?(?:rtx|gtx|\d{4})"
    r"|\bat\s+home\b|\bhome\s+(?:pc|rig|machine|server|workstation)|我(?:自己)?的\s*(?:\d{4}|rtx|显卡|卡)"
    r"|我就(?:只)?(?:有)?\s*(?:一张|两张|一块|两块|\d\s*张)|在家|电费|\bpower\s+bill\b"
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
    if parsed.asks_cost or POWER_COST_RE.search(parsed.normalized):
        kept.insert(notes.index(missing), _own_cost_note(report, missing.params.get("gpu")))
    return report.model_copy(update={"warnings": kept})


def _own_cost_note(report: SizingReport, gpu: object) -> Note:
    """:data:`OWN_CARD_ENERGY` with ``kwh_low``/``kwh_high`` (board power × GPU-hours ÷ 1000) and
    ``watts`` when the card's board power and the run's GPU-hours are known; else :data:`OWN_CARD_COST`."""
    band = report.gpu_hours
    kwh = energy.run_kwh(str(gpu), band.low, band.high) if band is not None else None
    if kwh is None:
        return Note(code=OWN_CARD_COST, params={"gpu": gpu})  # type: ignore[dict-item]
    watts = energy.BOARD_POWER_W[str(gpu)]
    params = {"gpu": gpu, "watts": watts, "kwh_low": kwh[0], "kwh_high": kwh[1]}
    return Note(code=OWN_CARD_ENERGY, params=params)  # type: ignore[arg-type]
