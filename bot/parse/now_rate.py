"""A speed the user has today is no throughput asked for (s13 trial N9).

'现在每秒 8 个 token', 'we get 18 tokens/s today', 'currently 95 tok/s', '目前每秒 300 个 token' report what
the service does now: the rate is named as observed (``observed``), not sized as a target. A target word in
the same clause keeps it a target ('we currently need at least 95 tok/s', '现在要求每秒 800 token',
'目标每秒 800 token'). :func:`rate_why` adds this to :func:`bot.parse.withheld.rate_not_target`.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc
from bot.parse.withheld import rate_not_target

NOW_BEFORE_RE = rc(
    r"(?<![a-z])(?:currently|presently|right\s+now|now|today|at\s+the\s+moment|at\s+present|so\s+far|"
    r"these\s+days|at\s+the\s+minute)(?![a-z])|现在|目前|当前|眼下|现阶段|如今|当下|平时"
)
"""Words that date a figure to today, searched in the rate's own clause before it."""
NOW_AFTER_RE = rc(
    r"^[^,;.!?，。；！？\n]{0,16}?(?<![a-z])(?:today|currently|right\s+now|now|at\s+the\s+moment|at\s+present"
    r"|so\s+far|these\s+days)(?![a-z])"
)
"""The same words right after the rate ('we get 18 tokens/s today')."""
TARGET_RE = rc(
    r"(?<![a-z])(?:need|needs|needed|require[sd]?|requirement|at\s+least|target|want|wants|must|should|"
    r"goal|aim|minimum|min\.?|sla|expect(?:ed)?)(?![a-z])|要求|目标|至少|需要|需求|希望|想要|想|要达到|保证|不低于|最低"
    r"|(?<![只还想])要(?![是了])"
)
"""Words that make a rate wanted ('need', 'at least', '要求', '目标'): the rate stays a target."""
CLAUSE_END_RE = re.compile(r"[,;!?，。；！？\n]|\.(?:\s|$)")
NEAR = 28
"""Characters before a rate searched for a dating word (about one clause)."""


def _clause(s: str, start: int, end: int) -> tuple[str, str]:
    """The text of the rate's clause before ``start`` and after ``end``."""
    before = s[max(0, start - NEAR) : start]
    cuts = list(CLAUSE_END_RE.finditer(before))
    if cuts:
        before = before[cuts[-1].end() :]
    after = s[end : end + NEAR]
    cut = CLAUSE_END_RE.search(after)
    return before, after[: cut.start()] if cut else after


def now_rate(s: str, m: re.Match[str]) -> bool:
    """Whether the rate ``m`` of the normalized text ``s`` is dated to today ('现在', 'currently',
    'today') with no target word in its clause: a speed the user observes, not one asked for."""
    before, after = _clause(s, m.start(), m.end())
    if not (NOW_BEFORE_RE.search(before) or NOW_AFTER_RE.match(s[m.end() : m.end() + NEAR])):
        return False
    return not (TARGET_RE.search(before) or TARGET_RE.search(after))


def rate_why(s: str, m: re.Match[str]) -> str | None:
    """Why the tokens/s rate ``m`` is no serving target (:func:`rate_not_target`, or 'observed' for a
    speed dated to today), or None when it is one."""
    return rate_not_target(s, m) or ("observed" if now_rate(s, m) else None)
