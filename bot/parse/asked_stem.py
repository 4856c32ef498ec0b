"""A model asked about by the first word of its name (issue 24, round 7): "EXAONE-3.5-2.4B-Instruct has a
context limit of 60k, whereas Qwen 2.5 3B has 120K. Is the limit lower for EXAONE because …?" — the
asking sentence names the first model by its family word alone, which no model reader takes for a model
(no size, no catalog release), so the sentence seemed to name none of them and the catalog name was
sized. Such a word is the stem of a candidate's typed name (its first run of two or more letters:
'exaone', 'mistral', 'yi') that no other candidate shares ('Qwen2.5-7B … Qwen3-8B … why does Qwen'
tells neither apart), written as a word in the asking part (:func:`bot.parse.asked_model.asked_candidate`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from bot.parse.regex import rc

_STEM_RE = rc(r"[a-z]{2,}")


class _Named(Protocol):
    @property
    def text(self) -> str: ...


def stem(mention: _Named | None) -> str | None:
    """The first run of two or more letters of a typed name, lower-cased; None without one."""
    if mention is None:
        return None
    m = _STEM_RE.match(mention.text.lower())
    return m.group(0) if m else None


def stem_named(s: str, start: int, end: int, stems: Sequence[str | None]) -> list[int]:
    """Indexes of the ``stems`` written as a word in ``s[start:end]``, each stem shared by no other."""
    counts = {x: stems.count(x) for x in stems if x}
    text = s[start:end]
    return [
        i
        for i, x in enumerate(stems)
        if x and counts[x] == 1 and re.search(rf"(?<![a-z0-9]){x}(?![a-z0-9.\-_])", text)
    ]
