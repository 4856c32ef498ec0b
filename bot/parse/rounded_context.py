"""A rounded context beside the exact value a config key gives (issue 24 item 8, s21: en14-009 kind):
'Loading gpt-oss-120b with max_seq_length=4608 … out of memory … at only 4k context'. The key's
4,608 is what the run used; '4k' is the same length said loosely. The exact value wins and the rounded
one is named, reason :data:`ROUNDED` (before, 4k replaced the key's value and 4608 was named unread)."""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

ROUNDED = "rounded_context"
"""The reason of a rounded context said beside a key's exact value."""
NEAR = 0.15
"""Largest gap between the rounded and the exact value, as a share of the exact one (4k vs 4,608: 11 %):
a length further off is another value (a change said later: 'cutoff_len 2048 … 降到 1k')."""
ROUNDED_RE = rc(r"\d(?:\.\d+)?\s*[k千万]|about|around|roughly|approx|~|约|大概|左右")
"""How a rounded figure is written: a 'k' or 千/万 magnitude, or an 'about' word near it."""


def rounded_beside(exact: Any, role: Any, named: list[tuple[str, str]]) -> bool:
    """Whether the context ``role`` (a :class:`bot.parse.roles.Role`) is a rounded form of the ``exact``
    value a config key already set; if so it is named in ``named`` (reason :data:`ROUNDED`)."""
    if not isinstance(exact, int | float) or not exact or role.value == exact:
        return False
    gap = min(abs(role.value - exact), abs(role.tok.value - exact))  # '4k': 4,096 or 4,000
    if gap > NEAR * exact or not ROUNDED_RE.search(role.tok.raw):
        return False
    named.append((role.tok.raw.strip(), ROUNDED))
    return True
