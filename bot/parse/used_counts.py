"""The cards a job uses out of the cards a machine has (issue 24, round 10): '有 4 张卡，我配置了 3 张',
'机器上有 8 张 A100，我只用了 4 张', 'we have 8 A100s but only use 4 of them'. The job runs on the cards it
uses, so that count is sized and the machine's count is named as another setup
(:meth:`bot.parse.field_steps.FieldSteps._asked_count`). Before, only 'one of them' was read ('两张 A40，
只想用其中一张'); a used count above one was named as repeated and the machine's count sized.

A used count is a verb of use ('用', '使用', '配置', '启用', '分配'; 'use', 'using') with '只' / '仅'
/ 'only' or '其中' / 'of them' around it, an intent ('想用', '打算用', 'plan to use'), or a setup's state
('配置了 3 张') — and a smaller number than a card count said before it. Past use is no used count (review
of session 15): '之前用了 2 张跑推理', 'last month we used 2 of them for a LoRA run' tell of another run,
so a bare '用了' / 'used' is not read, nor any use in a tried clause (:func:`bot.parse.structure.role_at`)
or after an earlier-setup word ('之前', 'previously'); the machine's count is sized there.
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.earlier_counts import EARLIER_RE, SENTENCE_END_RE
from bot.parse.regex import rc
from bot.parse.structure import TRIED, role_at, segments


def _n(i: int) -> str:
    return rf"(?P<n{i}>\d{{1,3}}|[一二两三四五六七八九十])"


USED_OF_OWNED_RE = rc(
    r"(?:(?:只|仅)(?:能|可以|可)?(?:想|打算|准备)?\s*(?:用了?|使用了?|配置了?|启用了?|分配了?|拿了?|拿出)"
    r"|(?:想|打算|准备|计划)\s*(?:用|使用)|(?<!之前)(?<!以前)(?<!上次)(?:配置了|启用了|分配了))"
    rf"\s*(?:其中)?\s*(?:的)?\s*(?:前)?\s*{_n(1)}\s*(?:张|块|个)"
    rf"|(?:其中|里面)(?:的)?\s*{_n(2)}\s*(?:张|块)"
    r"|(?:\bonly\s+(?:use|using|used)|\b(?:plan|want|going|intend)\s+to\s+use|\b(?:use|using))"
    rf"\s+(?:only\s+)?(?:{_n(3)}|one|two|three|four)\s+of\s+(?:them|those|these)\b"
    rf"|\bonly\s+(?:{_n(4)}|one|two|three|four)(?:\s+of\s+(?:them|those|these))?\s+(?:are|is)\s+"
    r"(?:free|available|idle|usable)\b"
)
"""A used count after an owned one ('我配置了 3 张', '只用了 4 张', '其中 2 张', 'only use 4 of them'; s17:
'只能用 4 张', 'only 4 are free'; s46 round 42 zh, zh42-001: '8 × RTX 5090 的机器，只拿前 4 张卡', 'an 8x RTX
5090 box, we only use the first 4 GPUs' — the machine's 8 was sized: the English form is
:data:`FIRST_OF_OWNED_RE`, searched only in a text with 'first', so the gate of this one stays as it was)."""
FIRST_OF_OWNED_RE = rc(
    rf"\b(?:only\s+(?:use|using)|(?:use|using)\s+only)\s+the\s+first\s+{_n(5)}\s+(?:gpus?|cards?|of\s+them)\b"
)
"""The first cards of a machine used ('we only use the first 4 GPUs', 'using only the first 2 cards'; s46)."""
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "两": 2}
_WORDS |= {c: i for i, c in enumerate("零一二三四五六七八九十")}


def used_count(s: str, counts: list[Any]) -> float | None:
    """The used count of ``s`` (normalized) when it is smaller than a card count (``counts``: the count
    roles, with ``value`` and ``tok.start``) said before it; 1 for 'one of them', as before; else None."""
    for m in USED_OF_OWNED_RE.finditer(s):  # a loop, not next(genexpr): no generator frame a parse
        if not _past(s, m.start()):
            break
    else:
        m = FIRST_OF_OWNED_RE.search(s) if "first" in s else None  # s46: 'only use the first 4 GPUs'
        if m is None or _past(s, m.start()):
            return None
    word = next((g for g in m.groups() if g), None)
    word = word or re.search(r"one|two|three|four", m.group(0)).group(0)  # type: ignore[union-attr]
    n = float(_WORDS.get(word, 0) or word)
    if n == 1:
        return 1.0
    owned = (c for c in counts if c.value > n)
    return (
        n if any(c.tok.start < m.start() or _machine_count(s, c.tok.start, m.end()) for c in owned) else None
    )


MACHINE_BEFORE_RE = rc(
    r"(?:机器|服务器|整机|单机|节点|\bmachines?|\bservers?|\bnodes?|\bbox)\s*(?:上)?\s*"
    r"(?:是|有|一共|共|总共|\bhas|\bhave|\bis|\bwith)?\s*(?:了|一共|总共|共)?\s*$"
)
"""A machine's own count after the used one ('只能用 4 张，机器是 8 卡', 'only 4 of them, the server has 8':
review of s17, the 8 was named repeated)."""


OF_MACHINE_RE = rc(r"\s*(?:of|on|in|from)\s+(?:an?|the|our|my|this|one)\s+")
"""The words between the cards used and the machine's count after them ('the first 4 GPUs of an 8 x H100
node': s46 review N7, the 8 was named repeated)."""


def _machine_count(s: str, start: int, used_end: int) -> bool:
    """Whether the count at ``start`` is the machine's: after a machine word, or right after the used count
    (ending at ``used_end``) and 'of an' (:data:`OF_MACHINE_RE`)."""
    if OF_MACHINE_RE.fullmatch(s, used_end, start):
        return True
    return MACHINE_BEFORE_RE.search(s, max(0, start - 12), start) is not None


def _past(s: str, pos: int) -> bool:
    """Whether character ``pos`` of ``s`` tells of a past run: in a tried clause, or after an earlier-setup
    word in its sentence ('之前只用了 2 张', 'previously only used 2 of them')."""
    if role_at(segments(s), pos) == TRIED:
        return True
    start = max((e.end() for e in SENTENCE_END_RE.finditer(s, 0, pos)), default=0)
    return EARLIER_RE.search(s, start, pos) is not None
