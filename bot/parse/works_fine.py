"""A setup said to work is the comparison, not the one asked about (issue 24, round 4): 'I run TGI … and
get "Not enough memory" … vLLM works fine without errors' asks about TGI. When no asking sentence names
one engine (:func:`bot.parse.engines_named._asked`), the engines named in a sentence that says it works
('works fine', 'runs without errors', 'has no problem', '没问题', '能正常跑') are set aside, and the one
left is sized; the others are still named as another setup."""

from __future__ import annotations

from collections.abc import Callable

from bot.parse.asked_model import SENTENCE_RE
from bot.parse.regex import rc

WORKS_RE = rc(
    r"\b(?:works?|worked|working|runs?|ran|running|is|was|goes|went)\s+(?:just\s+)?(?:fine|well|ok|okay|perfectly"
    r"|smoothly|great|without\s+(?:any\s+)?(?:errors?|issues?|problems?|oom))\b"
    r"|\bno\s+(?:problems?|issues?|errors?)\s+(?:with|on|in)\b|\bhas\s+no\s+(?:problems?|issues?)\b"
    r"|没问题|没有问题|(?:可以|能)\s*正常\s*(?:跑|运行|启动|使用)|跑得很?(?:好|顺)|正常运行"
)
"""Words that say a setup works."""


def engine_not_said_to_work(
    s: str, found: list[tuple[int, str]], named_in: Callable[[str, str], bool]
) -> str | None:
    """The one engine of ``found`` ((position, name) in the normalized text ``s``) not named in a sentence
    that says it works, when the others all are; else None."""
    if not WORKS_RE.search(s):
        return None
    working = {
        name
        for m in SENTENCE_RE.finditer(s)
        if WORKS_RE.search(m.group(0))
        for _, name in found
        if named_in(m.group(0), name)
    }
    left = {name for _, name in found} - working
    return left.pop() if working and len(left) == 1 else None
