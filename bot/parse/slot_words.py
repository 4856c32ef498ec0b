"""llama.cpp's server slots said in prose (trial s12 B2): '4 parallel slots', '4 slots', '4 个并行槽位'.

llama-server runs one sequence per slot at once (its ``-np`` / ``--parallel`` flag, llama.cpp
tools/server/README.md: "number of parallel sequences to decode"), so the slots in prose are the load the
flag is read as (:data:`bot.parse.prose_forms.CAP_RE`). They are written in the flag's form. Before, the
'4' was named as 'no word said what it is' and one sequence at a time was sized.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

SLOTS_RE = rc(
    r"(?<![\w.\-])(?:(?P<n>\d{1,4})|(?P<w>one|two|three|four|eight|single|一|两|二|四))\s*(?:个\s*)?(?:parallel\s+|concurrent\s+|server\s+|并行\s*|并发\s*)?"
    r"(?:slots?(?![a-z])|槽位|槽)"
)
"""'4 parallel slots', '4 slots', '4 个并行槽位', '4 个槽'; s22: a count in words ('one parallel slot', 'a
single slot', 'two slots')."""
SLOT_WORDS = {
    "one": 1,
    "single": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "eight": 8,
    "一": 1,
    "两": 2,
    "二": 2,
    "四": 4,
}
"""Slot counts written as words ('one parallel slot', '一个并行槽位')."""


SERVER_RE = rc(r"(?i)llama[\s.\-_]?cpp|llama[\s\-_]?server|koboldcpp|\bgguf\b|\bollama\b|lm\s*studio")
"""A server whose slots are sequences decoded at once (llama.cpp and the servers built on it)."""
PARALLEL_RE = rc(r"(?i)parallel|concurrent|server\s+slot|并行|并发")
"""Slots said as parallel sequences ('4 parallel slots', '4 个并行槽位'), whatever the server."""
CARD_SLOT_RE = rc(
    r"(?i)slots?\s+(?:for|of)\s+(?:the\s+)?(?:gpus?|cards?|graphics)|pcie|pci-e|x16|主板|插|显卡槽|卡槽|机箱"
    r"|motherboard|mainboard|chassis|workstation|server\s+has|机器有|服务器有"
)
"""Slots for cards ('4 slots for GPUs', 'PCIe slots', '主板有 4 个槽位，能插几张'): the machine's, never a
load."""
CARD_SLOT_NEAR = 24
"""Characters either side of the slots searched for :data:`CARD_SLOT_RE`."""


def slots_as_flag(s: str, training: bool) -> str:
    """The normalized text ``s`` with slots in prose written as llama.cpp's '--parallel N' (serving only):
    when llama.cpp (or a server on it) is named, or the slots are said as parallel; never slots for cards
    (session 13 review finding 8: '4 slots for GPUs' was rewritten and then read by nobody)."""
    if training or not ("slot" in s or "槽" in s):
        return s
    server = SERVER_RE.search(s) is not None

    def flag(m: re.Match[str]) -> str:
        near = s[max(0, m.start() - CARD_SLOT_NEAR) : m.end() + CARD_SLOT_NEAR]
        if CARD_SLOT_RE.search(near) or not (server or PARALLEL_RE.search(m.group(0))):
            return m.group(0)  # the card slots: the number stays for the readers (named when unread)
        n, width = m.group("n") or SLOT_WORDS[m.group("w")], m.end() - m.start()
        flag = next((f for f in (f"--parallel {n}", f"-np {n}") if len(f) <= width), None)  # same length
        return flag.ljust(width) if flag else m.group(0)

    return SLOTS_RE.sub(flag, s)
