"""A count that counts the cards just listed (s50 workmiss, issue 24 item 4): '手上有 RTX 4070、RTX 4090 和
A100 三块卡' names three different cards, one of each; the '三块卡' after them says how many were listed,
not three of the first card (it was sized as 3 × RTX 4070). English ('an RTX 4090 and an A100, two cards')
already read one card and named the 'two' as a second value of the count; the Chinese count is now named
the same way (``repeated``) and one card of each is what was said. Loaded only when two or more different
cards are named (bot.parse.mention_steps)."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

from bot.parse.regex import rc

if TYPE_CHECKING:
    from bot.parse.gpus import GpuMention
    from bot.parse.roles import Role

BREAK_RE = rc(r"[。！？!?;；\n]|\.(?:\s|$)|\d|各|分别|每|\b(?:each|apiece|per)\b")
"""A sentence's end, another number, or a word of 'each' ('A100 和 H100 各两张卡') between the cards listed
and the count: then the count is its own (of each card), not the number of cards listed."""
AFTER_RE = rc(r"\s*(?:张|块|个)?\s*(?:卡|显卡|gpus?\b|cards?\b)")
"""The card word right after the count ('三块卡', '3 张显卡', 'three cards'): a count of cards as such."""
EACH_AFTER_RE = rc(r"\s*(?:each|apiece|of each|per (?:kind|type|model))\b")
"""'two cards each' after the card word: a count of each card (s50 review #1)."""


def listed_count(
    s: str, roles: list[Role], cards: list[GpuMention]
) -> tuple[list[Role], list[tuple[str, str]]]:
    """``roles`` without a count that equals the number of different cards listed right before it in one
    sentence (no other number, no 'each' between or after), and that count named as typed (``repeated``);
    else unchanged. Plain loops: no Python frame beyond this call on the way to a match (the parse's
    call-count pin)."""
    for role in roles:
        if role.role != "count" or role.value < 2:
            continue
        at, n = role.tok.start, int(role.value)
        before = cards
        while before and before[-1].start >= at:
            before = before[:-1]
        listed = before[-n:] if len(before) >= n else []
        if not listed or len(set(map(attrgetter("gpu_id"), listed))) != n:
            continue
        after = AFTER_RE.match(s, role.tok.end)
        if after is None or BREAK_RE.search(s, listed[0].start, at) or EACH_AFTER_RE.match(s, after.end()):
            continue
        return [r for r in roles if r is not role], [(role.tok.raw.strip(), "repeated")]
    return roles, []
