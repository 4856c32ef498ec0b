"""A new load written as a change of the current one (trial s12 B1): 'double users to 60', 'grow the
number of users to 200', 'increase concurrency to 64'.

The number after 'to' is the load asked about, as 'scale to 60 users' is read (the current load beside
it is then named, :mod:`bot.parse.target_load`). The form is written as 'grow to 60 users', never
longer than the phrase ('take users to 60'), so the load rules read it. Before, the 60 was named as
'no word said what it is' and the current 30 users were sized, so 'how many more cards' went
unanswered.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

LOAD_CHANGE_RE = rc(
    r"\b(?:double|triple|quadruple|grow|increase|raise|scale|expand|bump|take|push)\s+"
    r"(?:the\s+|our\s+)?(?:number\s+of\s+)?(?P<what>(?:concurrent\s+)?users|concurrency|sessions)\s+"
    r"(?:up\s+)?to\s+(?P<n>\d{1,6})(?![\d.])"
)
"""'double users to 60', 'increase the number of users to 200', 'raise concurrency to 64'."""


LOAD_CHANGE_ZH_RE = rc(
    r"(?P<what>并发(?:数|量)?|用户(?:数|量)?|同时在线(?:用户|人数)?|在线人数|路数)\s*"
    r"(?:要|想|会|需要|计划|打算|准备|得|再)?\s*(?:扩容|扩展|扩|增加|增长|提升|提高|加|涨|翻倍|翻一倍)到\s*"
    r"(?P<n>\d{1,6})(?![\d.])\s*(?:个|路|人)?(?!\s*(?:个|路|人|并发|用户|名))"
)
"""The load named before its change, its unit not after the number ('把并发提升到 80', '用户想扩到 80 个',
'并发数要增加到 64'; session 13 review finding 12): written '80 并发' / '80 个用户' for the load rules."""


def load_change(s: str, training: bool) -> str:
    """The normalized text ``s`` with a changed load written 'grow to N users' / 'N 并发' (serving only,
    same length)."""
    if training:
        return s
    if "到" in s:
        s = LOAD_CHANGE_ZH_RE.sub(_zh_load, s)
    if " to " not in s:
        return s
    return LOAD_CHANGE_RE.sub(
        lambda m: f"grow to {m.group('n')} {m.group('what')}".ljust(m.end() - m.start()), s
    )


def _zh_load(m: re.Match[str]) -> str:
    unit = "并发" if m.group("what").startswith(("并发", "路")) else "个用户"
    return f"到 {m.group('n')} {unit}".ljust(m.end() - m.start())
