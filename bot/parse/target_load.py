"""Two loads in one message, one now and one at the peak or later: the target is sized (trial s14 #1).

'部署 Qwen2.5-14B，现在 20 个并发，年底峰值并发大概 100，用 L40S 要几张？' sized 20 and named the 100
as unread; 'Serving Qwen2-7B to 20 concurrent users now, we want to scale up to 64 users; how many
A10s?' sized 20 and called the 64 "people who use the service". A question for the cards plans
capacity for the peak: when the message gives a load with a peak, target or future word ('峰值', '高峰',
'最多', '未来', '扩到', '上线后', '目标', 'peak', 'at most', 'scale to', 'grow to', 'target',
'eventually', 'by launch') and another load without one, the target is the load sized and the other is
named, reason ``current_load``.

:func:`target_word_before` also makes 'scale up to 64 users' a load, not a count of users
(:func:`bot.parse.users_load._kind`).
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import attrgetter, eq
from typing import Any

from bot.parse.regex import rc

_ROLE_OF = attrgetter("role")

_TARGET_BEFORE_RE = rc(
    r"(?:峰值|高峰(?:期)?|最高|最多|未来|将来|以后|之后|上线后|上线以后|正式上线|年底|明年|下个?季度|目标|预计|预期"
    r"|(?:扩容|扩展|扩|增加|增长|提升|提高|加|涨|翻倍|翻一倍|达|冲|要|会|能)到|(?:撑|扛|顶)得?住)"
    r"[^，。,;；!?！？\d]{0,10}$"
    r"|\b(?:peaks?|peaking|spik(?:es?|ing)|burst(?:s|ing)?|at\s+most|max(?:imum)?|target(?:ing|s)?|eventually|handle|sustain|expect(?:ing|s)?|by\s+launch"
    r"|at\s+launch|after\s+launch|later|next\s+(?:quarter|year|month)|reach\w*|hit(?:s|ting)?\s+(?:a\s+)?peak"
    r"|(?:scale|grow|go|increase|expand|double|triple|bump|move|ramp|rise|climb)\w*(?:\s+up)?\s+to)\b"
    r"[^,.;!?\d]{0,20}$"
)
"""A peak, target or future word before a load in its clause: '峰值并发大概 100', '以后会到 100 并发',
'扩到 100 个用户', 'peak of 64', 'scale up to 64 users', 'eventually 64 concurrent'. s43 round 39 zh: a load
the service must hold ('怎么调才能稳定撑住 8 个并发', 'how do I tune it to handle 8 concurrent requests'),
beside the load it was seen failing at ('5 个并发时就开始排队'): the 8 is sized, the 5 named."""
_TARGET_AFTER_RE = rc(
    r"^\s*(?:个|名|位|路)?\s*(?:(?:concurrent\s+)?(?:users?|requests?|sessions?|people)\s+)?"
    r"(?:at\s+(?:the\s+)?peak|peak\b|at\s+most|at\s+launch|by\s+launch|eventually|later|峰值|高峰)"
)
"""A peak or future word after it: '64 at peak', '64 users at peak', '100 并发峰值', '400 peak' (s17)."""


def target_word_before(s: str, start: int) -> bool:
    """Whether a peak, target or future word stands before position ``start`` of ``s`` in its clause."""
    return _TARGET_BEFORE_RE.search(s[max(0, start - 30) : start]) is not None


_NOW_BEFORE_RE = rc(
    r"(?:现在|目前|当前|眼下|平时|平常|日常)[^，。,;；!?！？\d]{0,12}$"
    r"|\b(?:now|today|currently|right\s+now|at\s+the\s+moment|usually|normally|typically)\b[^,.;!?\d]{0,20}$"
)
"""A word of the load today before it in its clause ('目前峰值 20 并发', "today's peak is 20"): no target."""


_JOINED_RE = rc(r"\b(?:and|but|while|whereas|then|with)\b|和|而|但|到了")
"""A joining word between a now-word and the number: the now-word belongs to the load before it ('40
users now and 150 at peak', trial s16 #1)."""


_NOW_AFTER_RE = rc(
    r"^\s*(?:个|名|位|路)?\s*(?:(?:concurrent\s+)?(?:users?|requests?|sessions?|people|chats?|clients?)\s+)?"
    r"(?:on\s+average|avg|typically|normally|usually|now|today|currently|right\s+now|these\s+days)\b"
)
"""A word of the load today after it ('100 users on average', '40 concurrent chats now'; s17): no target, even
after a word of expectation ('we expect about 100 users on average and 400 at peak' sized the 100)."""


def _now_before(s: str, start: int) -> bool:
    m = _NOW_BEFORE_RE.search(s[max(0, start - 30) : start])
    return m is not None and _JOINED_RE.search(m.group(0)) is None


def _target(s: str, tok: Any) -> bool:
    if _now_before(s, tok.start) or _NOW_AFTER_RE.match(s[tok.end : tok.end + 40]):
        return False
    return target_word_before(s, tok.start) or _TARGET_AFTER_RE.match(s[tok.end : tok.end + 30]) is not None


def loads_now_and_later(steps: Any) -> None:
    """Among the numbers read as the concurrency with different values, when some are said as a target
    and others not (module doc), set the others aside: their role becomes ``current_load`` (not sized),
    named with reason ``current_load``."""
    found = list(compress(steps.roles, map(eq, map(_ROLE_OF, steps.roles), repeat("concurrency"))))
    if len({r.value for r in found}) < 2:
        return
    targets = [r for r in found if _target(steps.s, r.tok)]
    if not targets or len(targets) == len(found):
        return
    lost = steps.__dict__.setdefault("_lost", {})
    for role in found:
        if role not in targets and role.value != targets[0].value:
            role.role = "current_load"
            lost[id(role)] = "current_load"


def said_as_target(s: str, start: int, end: int) -> bool:
    """Whether the quantity at ``s[start:end]`` is said as a peak, target or future load (no word of
    today's load before or after it): :mod:`bot.parse.rate_forms` sizes such a request rate."""
    return _target(s, _Span(start, end))


class _Span:
    """A position in the text, as :func:`_target` reads a number token's."""

    def __init__(self, start: int, end: int) -> None:
        self.start, self.end = start, end
