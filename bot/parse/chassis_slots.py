"""A chassis named by its GPU slots, with fewer cards said in it (s27, issue 24 'counts and hardware'):
'a Supermicro 8-GPU chassis … vLLM on 4x MI100', 'I run an 8-GPU server with 4x A100 80G', '一台 8 卡服务器，
插了 4 张 A100'. The slots are what the box holds, the cards said are what runs: the slot count is written
'N-slot' (left unread and named as such), so the cards' own count is the one sized. Before, the box's 8 was
read as 8 GPUs of the card named.

Only when another count of cards, smaller than the slots, stands in the same message: '2 台 8 卡服务器' (two
boxes of eight) and '8-GPU server' alone keep the slots as the cards, as people write a full box so.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

CHASSIS_RE = rc(
    r"(?<![\d.])(?P<n>\d{1,2})[\s\-]*(?:gpus?|卡|cards?)[\s\-]*(?:的\s*)?"
    r"(?=(?:chassis|server|服务器|机箱|box|machine|system|主机|机器)(?![a-z]))"
)
"""'8-GPU chassis', '8 gpu server', '8 卡服务器', '8卡的机器': a box by its GPU slots."""
_BOXES_BEFORE_RE = rc(
    r"(?:\d|[两二三四五六七八九十几多])\s*(?:台|个|x)\s*$|(?:\d|two|three|four)\s+(?:x\s*)?$"
)
"""Several boxes before the slots ('2台8卡服务器', '2 x 8-GPU servers'): nodes × cards, left as written
('一台 8 卡服务器' is one box)."""
CARDS_SAID_RE = rc(
    r"(?<![\w.\-])(?P<n>\d{1,2})\s*(?:[x×]\s*(?=[a-z])|(?:张|块)|(?=(?:[a-z]+\s)?(?:gpus?|cards?)(?![a-z])))"
)
"""Another count of cards: '4x MI100', '4 × A100', '4 张 A100', '4 A100 GPUs' ('4 gpus')."""
CHASSIS_GATE = re.compile(
    r"\d[\s\-]*(?:gpus?|卡|cards?)[\s\-]*(?:的\s*)?(?:chassis|server|服务器|机箱|box|machine|system|主机|机器)"
)


def chassis_slots(s: str) -> str:
    """The normalized text ``s`` with a chassis' slot count written 'N-slot' when fewer cards are said."""
    m = CHASSIS_RE.search(s)
    if m is None or _BOXES_BEFORE_RE.search(s[max(0, m.start() - 8) : m.start()]):
        return s
    slots = int(m.group("n"))
    rest = s[: m.start()] + " " + s[m.end() :]
    said = [int(c.group("n")) for c in CARDS_SAID_RE.finditer(rest)]
    if not said or max(said) >= slots or min(said) < 1:
        return s
    return s[: m.start()] + f"{slots}-slot " + s[m.end() :]
