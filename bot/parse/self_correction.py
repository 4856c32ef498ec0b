"""A setting the user corrects as they type (trial s12 B6): 'two RTX A4000? no, two 24GB 3090s', '4 A100,
sorry, 8 A100', '4 张 A100，不对，8 张 H100'.

The words before the correction cue are what the user took back: they are masked (same length), so the
rules read the corrected setting only, and the taken-back phrase is named as not sized (``other_setup``).
Before, the taken-back card was sized ('RTX A4000 24G … the catalog's card has 16 GiB') and the
corrected 3090 shown only as a comparison row.
"""

from __future__ import annotations

from bot.parse.normalize import mask
from bot.parse.regex import rc, words_gate

CORRECTED_RE = rc(
    r"(?<=[,(（，;；:：])(?P<old>[^,.;:()（），。；：\n?？!！]{2,40}?)\s*"
    r"(?:[?？]\s*(?:no|nope)|[,，]?\s*(?:no\s+wait|sorry|i\s+mean|i\s+meant|correction)|[,，]?\s*(?:不对|说错了))"
    r"\s*[,，:：!！]\s*(?=\S)"
)
"""The taken-back words (after a comma, bracket or colon), then the cue: '? no,', ', sorry,', ', i mean,',
'，不对，'."""
_GATE = ("? no", "?no", "？no", "sorry", "i mean", "no wait", "correction", "不对", "说错了")
_GATE_RE = words_gate(_GATE)


def self_correction(s: str) -> tuple[str, list[tuple[str, str]]]:
    """``s`` with each taken-back phrase and its cue masked; the phrases named as ``other_setup``."""
    if not _GATE_RE.search(s):
        return s, []
    named: list[tuple[str, str]] = []
    for m in reversed(list(CORRECTED_RE.finditer(s))):
        old = m.group("old").strip()
        if not any(c.isdigit() for c in old) and not any(w in old for w in ("one", "two", "three", "four")):
            continue  # only a taken-back setting with a number or a card
        named.insert(0, (old, "other_setup"))
        s = mask(s, m.start(), m.end(), " ")
    return s, named
