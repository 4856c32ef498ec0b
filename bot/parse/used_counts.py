"""The cards a job uses out of the cards a machine has (issue 24, round 10): '有 4 张卡，我配置了 3 张',
'机器上有 8 张 A100，我只用了 4 张', 'we have 8 A100s but only use 4 of them'. The job runs on the cards it
uses, so that count is sized and the machine's count is named as another setup
(:meth:`bot.parse.field_steps.FieldSteps._asked_count`). Before, only 'one of them' was read ('两张 A40，
只想用其中一张'); a used count above one was named as repeated and the machine's count sized.

A used count is a verb of use ('用', '使用', '配置', '启用', '分配'; 'use', 'using', 'used') with '只' / '仅'
/ 'only' or '其中' / 'of them' around it, or the verb in the past ('用了', '配置了') — and a smaller number
than a card count said before it.
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.regex import rc


def _n(i: int) -> str:
    return rf"(?P<n{i}>\d{{1,3}}|[一二两三四五六七八九十])"


USED_OF_OWNED_RE = rc(
    r"(?:(?:只|仅)(?:想|打算|准备)?\s*(?:用了?|使用了?|配置了?|启用了?|分配了?)|(?:用了|使用了|配置了|启用了|分配了))"
    rf"\s*(?:其中)?\s*(?:的)?\s*{_n(1)}\s*(?:张|块|个)"
    rf"|(?:其中|里面)(?:的)?\s*{_n(2)}\s*(?:张|块)"
    rf"|\b(?:only\s+)?(?:use|using|used)\s+(?:only\s+)?(?:{_n(3)}|one|two|three|four)\s+of\s+(?:them|those|these)\b"
)
"""A used count after an owned one ('我配置了 3 张', '只用了 4 张', '其中 2 张', 'only use 4 of them')."""
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "两": 2}
_WORDS |= {c: i for i, c in enumerate("零一二三四五六七八九十")}


def used_count(s: str, counts: list[Any]) -> float | None:
    """The used count of ``s`` (normalized) when it is smaller than a card count (``counts``: the count
    roles, with ``value`` and ``tok.start``) said before it; 1 for 'one of them', as before; else None."""
    m = USED_OF_OWNED_RE.search(s)
    if m is None:
        return None
    word = next((g for g in m.groups() if g), None)
    word = word or re.search(r"one|two|three|four", m.group(0)).group(0)  # type: ignore[union-attr]
    n = float(_WORDS.get(word, 0) or word)
    if n == 1:
        return 1.0
    return n if any(c.value > n and c.tok.start < m.start() for c in counts) else None
