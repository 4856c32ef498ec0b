"""A new load written as a change of the current one (trial s12 B1): 'double users to 60', 'grow the
number of users to 200', 'increase concurrency to 64'.

The number after 'to' is the load asked about, as 'scale to 60 users' is read (the current load beside
it is then named as a second value). The form is written as 'to 60 users', the same length, so the
load rules read it. Before, the 60 was named as 'no word said what it is' and the current 30 users
were sized, so 'how many more cards' went unanswered.
"""

from __future__ import annotations

from bot.parse.regex import rc

LOAD_CHANGE_RE = rc(
    r"\b(?:double|triple|quadruple|grow|increase|raise|scale|expand|bump|take|push)\s+"
    r"(?:the\s+|our\s+)?(?:number\s+of\s+)?(?P<what>(?:concurrent\s+)?users|concurrency|sessions)\s+"
    r"(?:up\s+)?to\s+(?P<n>\d{1,6})(?![\d.])"
)
"""'double users to 60', 'increase the number of users to 200', 'raise concurrency to 64'."""


def load_change(s: str, training: bool) -> str:
    """The normalized text ``s`` with a changed load written 'to N users' (serving only, same length)."""
    if training or " to " not in s:
        return s
    return LOAD_CHANGE_RE.sub(lambda m: f"to {m.group('n')} {m.group('what')}".ljust(m.end() - m.start()), s)
