"""A card memory the user says they have, with no card word (s37-billing #3): 'it needs 40GB to run, I only
have 24GB', '要 40G 才能跑起来，我有 24G', 'I have 24GB, can I serve a 14B?': the figure closes its clause, so
it is what their card holds — written '24gb vram' / '24g 显存', the forms read as the card's memory ('I only
have 24GB VRAM', '我只有 24G 显存' were read; without the memory word the 24 was left unread).

Never a host's, a Mac's or a phone's memory (a message naming one, or RAM words after the figure, keeps its
text for those readers), nor data ('I have 24GB of text', '我有 24G 的语料': the figure does not close the
clause). Called behind a substring gate (bot.parse.unit_cues.I_HAVE) from :func:`bot.parse.count_forms`.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

I_HAVE_RE = rc(
    r"(?:\b(?:i|we)(?:'ve)?\s+(?:only\s+|just\s+)?(?:have|got)(?:\s+only|\s+just)?"
    r"|(?:我们?|手上|手里|手头)(?:这边|手上|手里|现在)?(?:只|就|仅|才)?有)"
    r"\s*(?P<gb>\d{1,3})\s*(?:gb|gib|g)\b"
    r"(?=\s*(?:$|[,.;!?，。；！？]|(?:and|but|so)\b|(?:可以|能|够|跑|怎么|咋|要|该)))"
)
"""'I (only) have 24GB', "I've got 24GB", '我(只)有 24G', '手上只有 24G' — the figure ends its clause (a
comma, the end, 'and'/'but', or a question's next words in Chinese: '我有 24G 能跑吗')."""

_NOT_A_CARD_RE = re.compile(
    r"\bmac|macbook|\biphone|\bphone\b|laptop|\bram\b|unified|内存|运存|手机|笔记本|统一内存|apple|\bm[1-5]\b"
)
"""A message about a host, a Mac or a phone: the memory they have may be theirs (bot.parse.unified_ram)."""


def i_have_memory(s: str) -> str:
    """``s`` with each :data:`I_HAVE_RE` figure written as the card's memory, unless the message names a
    host, Mac or phone memory (:data:`_NOT_A_CARD_RE`)."""
    if I_HAVE_RE.search(s) is None or _NOT_A_CARD_RE.search(s) is not None:
        return s
    return I_HAVE_RE.sub(_as_card, s)


def _as_card(m: re.Match[str]) -> str:
    """The match, its memory word added: ' vram' in English, ' 显存' after a Chinese subject."""
    return m.group(0) + (" 显存" if m.group(0)[0] in "我手" else " vram")
