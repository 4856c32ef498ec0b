"""A memory per GPU the user wants to reach (issue 24 item 4, s46-workmiss, round 41 en41-009).

'each of the eight A800 GPUs uses 52GB; how can I bring it down to 48GB or less per GPU?', 'reduce it to
40GB', '48GB or less', '怎么降到 48G 以下', '把显存控制在 40G 以内', '压到 30G': a target for the memory the
run uses, not a card's memory nor a figure observed. Before, no reader said what the number was: it was
named ``unread``. Here such a number, when no other reader used it, is named ``'48 GB'`` with reason
``memory_target``: the reply says it is the memory per GPU wanted and to set it beside the estimate per GPU
(docs/design.md §8: every number used, or named as not used and why).

Gated at its call site (bot.parse.assemble) by an unread number, a memory word and one of its literals
(bot.parse.words.TARGET_CUES) in the normalized text, so most messages pay a few substring tests.
"""

from __future__ import annotations

from bot.parse.regex import rc

TARGET_RE = rc(
    r"\b(?:(?:bring|get|cut|reduce|lower|drop|push|squeeze|limit|cap)\w*\s+(?:(?:it|the|gpu|memory|usage|use|vram)\s+)"
    r"{0,4}(?:down\s+)?to|down\s+to|(?:keep|stay|fit)\w*\s+(?:(?:it|the|gpu|memory|usage|use|vram)\s+){0,4}"
    r"(?:under|below|within)|under|below|at\s+most)\s+(?P<a>\d{1,3}(?:\.\d+)?)\s*gi?b\b"
    r"|(?<![\d.])(?P<b>\d{1,3}(?:\.\d+)?)\s*gi?b\s+or\s+(?:less|lower|below)\b"
    r"|(?:降到|降低到|降至|压到|压缩到|减到|减少到|控制在|不超过)\s*(?P<c>\d{1,3}(?:\.\d+)?)\s*g(?:i?b)?"
)
"""A memory wanted: 'bring it down to 48GB', 'reduce memory to 40GB', 'keep it under 40GB', 'below 30GB',
'48GB or less', '降到 48G', '控制在 40G 以内', '不超过 30G' (a number of GB, three digits at most); s49
round 45: up to four words between the verb and its bound ('keep the GPU memory use within 10GB', 'can GPU
memory usage be limited to 10GB' as 'limited to 10GB')."""


_REREAD = ("unread", "other_setup")
"""The reasons a memory wanted was named with before this reader: no reader used it, or the count readers
took '30GB per GPU' for another setup's card memory (s46 review N2: 'bring it down to 30GB per GPU')."""


def memory_targets(s: str, unused: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``unused`` (the parse's (text, reason) items) with each number left ``unread`` or named ``other_setup``
    that the normalized text ``s`` writes as a memory wanted (:data:`TARGET_RE`) named
    ``('N GB', 'memory_target')``."""
    wanted = {m.group("a") or m.group("b") or m.group("c") for m in TARGET_RE.finditer(s)}
    if not wanted:
        return unused
    return [
        (f"{t.strip()} GB", "memory_target") if r in _REREAD and t.strip() in wanted else (t, r)
        for t, r in unused
    ]
