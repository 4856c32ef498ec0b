"""One card tried first, more cards after (s50 workmiss, issue 24 item 4: two setups in one message).

'单张 A100 上全参微调会溢出，后来用了 8 张卡' says two setups: the single card tried first, then the cards
that ran. The count after the turn is sized (the count reader already takes it); the single card before
the turn was dropped without a word, against the understanding contract (docs/design.md §8: every
setting stated is used or named as not used). It is now named as another setup's count (``other_setup``),
as an earlier count is (:mod:`bot.parse.earlier_counts`). English already reads 'a single A100 … later 8
GPUs' (the single card sized, the 8 named). Loaded only when '单' and a turn word
(:data:`bot.parse.cue_words.TURN_WORDS`) are in the text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.parse.cue_words import TURN_WORDS
from bot.parse.regex import rc
from bot.parse.words import SINGLE_CARD_RE

if TYPE_CHECKING:
    from bot.parse.roles import Role

TURN_RE = rc("|".join(TURN_WORDS))
"""A turn to the setup that followed ('后来', '然后', '改用'): what comes after it is the later setup (the
gate's own words, :data:`bot.parse.cue_words.TURN_WORDS`)."""
ASKED_RE = rc(r"吗|？|\?")
"""A question between the single card and the turn ('单卡 4090 能跑吗？之后可能扩到 4 张卡'): the single card
is the setup asked about, never an earlier one (s50 review #8)."""
PER_CARD_RE = rc(
    r"\s*(?:卡|张卡)?\s*(?:的\s*)?(?:显存|内存|\d+(?:\.\d+)?\s*g(?:i?b)?(?![a-z])|batch|bs|吞吐|速度|性能)"
)
"""A per-card figure after the single card ('单张卡显存 80G', '单卡 80G', '单卡 batch 4'): what one card has,
no one-card setup."""


def earlier_single(s: str, roles: list[Role]) -> list[tuple[str, str]]:
    """The single card said before a turn word whose later clause holds the count sized (a count role above
    1 after the turn), named as typed with its count ('单张 (1)', ``other_setup``); [] when a count of 1 is
    read, when no count follows the turn, or when the single card comes after the turn (then it is the
    setup that followed)."""
    counts = [r for r in roles if r.role == "count"]
    if not counts or any(r.value == 1 for r in counts):
        return []
    for single in SINGLE_CARD_RE.finditer(s):
        if PER_CARD_RE.match(s, single.end()):
            continue
        turn = TURN_RE.search(s, single.end())
        if turn and ASKED_RE.search(s, single.end(), turn.start()):
            return []
        if turn and any(r.tok.start >= turn.end() and r.value > 1 for r in counts):
            return [(f"{single.group(0)} (1)", "other_setup")]
    return []
