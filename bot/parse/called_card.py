"""A card named after 'called' / 'named' / '叫' with no memory right beside its name ('I have a card with 32GB
of memory called Foo X1', '一张叫 Foo X1 的卡，32GB 显存'; s41 trial #8): named as typed, its stated memory
kept, never swapped for a catalog card of that memory, and its model number ('X1') part of the name, not a
count. A name with its memory beside it ('2 cards called Foo 48GB') is read by
:data:`bot.parse.lexicon.UNKNOWN_GPU_RE`.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

_NAME = r"[a-z][a-z0-9&\-]{1,15}(?:\s+(?!\d{1,3}\s*g(?:i?b)?\b)[a-z]{0,4}\s?\d[a-z0-9\-]{0,6})?(?![a-z0-9])"
"""A card's name: a word, then perhaps a model number ('foo x1', which bot.parse.normalize spells 'foo x 1';
'zeta 9'); never a memory ('48gb')."""
_CALLED_RE = rc(r"(?:(?<=called\s)|(?<=named\s))(?!(?:the|a|an|it|this|that)\b)" + _NAME)
"""The name after 'called' / 'named' (a card word must come before it: :data:`_CARD_BEFORE_RE`)."""
_CARD_BEFORE_RE = rc(r"\b(?:cards?|gpus?|accelerators?|chips?)\b[^.?!;]{0,40}$")
"""A card word in the clause before 'called' ('a card with 32GB of memory called'), not 'a model called'."""
_ZH_RE = rc(r"(?:(?<=叫)|(?<=叫\s)|(?<=叫做)|(?<=叫作))" + _NAME + r"(?=\s*(?:的)?\s*(?:显卡|加速卡|卡|gpu))")
"""'叫 Foo X1 的卡': 叫, the name, then a card word."""


def called_card(s: str) -> re.Match[str] | None:
    """The called card's name in the normalized text ``s`` (lower case) as a match (``group(0)``, ``start``,
    ``end``), None without one. Its caller gates it by ``in`` tests of the cue words ('called ', 'named ',
    '叫'): a question without them pays nothing."""
    if "called " in s or "named " in s:
        for m in _CALLED_RE.finditer(s):
            if _CARD_BEFORE_RE.search(s, max(0, m.start() - 60), m.start()):
                return m
        return None
    return _ZH_RE.search(s) if "叫" in s else None
