"""Serving load named by words, not numbers: '单用户', '单人使用', '自己一个人用' (one concurrent user).

A count of people ('20个人用', 'single user', '1 user') is a number and gets its role in
:mod:`bot.parse.roles`; this module reads only the phrasings that carry no numeral the scanner reads.
"""

from __future__ import annotations

from bot.parse.regex import rc, words_gate

SINGLE_USER_RE = rc(
    r"单(?:个)?用户|单人(?:在)?(?:使用|用)|仅供?(?:我)?(?:自己|个人)(?:使用|用)|(?:我)?自己一个人(?:使用|用)"
    r"|独自(?:使用|用)"
)
"""'单用户', '单人使用', '仅供个人使用', '独自使用': one user, so one sequence at a time."""
_GATE = ("单", "自己", "个人", "独自")
_GATE_RE = words_gate(_GATE)


def single_user(s: str) -> bool:
    """True when the normalized text names one user by words (cheap substring gate first)."""
    return bool(_GATE_RE.search(s)) and bool(SINGLE_USER_RE.search(s))
