"""A card memory the user says they have with no card word (s37-billing #3): 'it needs 40GB to run, I only
have 24GB', '要 40G 才能跑起来，我有 24G', 'I have 24GB, can I serve a 14B?' — read from
:data:`bot.parse.memory_forms.HAVE_MEMORY_RE` (subject 'i'/'we') and ``ALL_ARE_RE`` ('我有'), imported on
such a match only. The figure closes its clause, so it is what their card holds: written '24gb vram' /
'24g 显存', the forms read as the card's memory. Never a host's, a Mac's or a phone's (a message naming one
keeps its text for those readers), nor data ('I have 24GB of text', '我有 24G 的语料': the clause goes on).
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

CLAUSE_CLOSED_RE = rc(r"\s*(?:$|[,.;!?，。；！？—–]|(?:and|but|so)\b|可以|能|够|跑|怎么|咋|要|该)")
"""After the figure: the clause ends (a comma, the end, 'and'/'but'), or a Chinese question goes on
('我有 24G 能跑吗')."""
HOST_WORDS_RE = rc(r"\bmac|\biphone|\bphone\b|laptop|\bram\b|unified|内存|运存|手机|笔记本|\bm[1-5]\b")
"""A message about a host, a Mac or a phone: the memory they have may be theirs (bot.parse.unified_ram)."""


def i_have(m: re.Match[str], word: str) -> str:
    """The match ``m`` with ``word`` added ('24gb vram', '24g 显存') when the figure closes its clause in a
    message naming no host, Mac or phone; else as written."""
    if CLAUSE_CLOSED_RE.match(m.string, m.end()) is None or HOST_WORDS_RE.search(m.string) is not None:
        return m.group(0)
    return m.group(0) + word
