"""A machine's card slots are a limit on the count, not a count (trial s14 #5).

'4 个卡槽的机器，用 4090 …' sized 4 cards as if 4 were stated ('4 个卡' read as a count); '4 PCIe slots'
was named as 'no word said what it is' and one card sized. The slots say how many cards the machine
can take at most: the count is what the answer sizes (the fewest that run the job, so the reader compares
it with the slots), and the slots are named as that limit, reason ``card_slots``. The request has no
field for a cap on the count (``gpu_count_max`` is the upper end of a stated range, '8 to 16').

llama.cpp's server slots ('4 parallel slots', '-np 4') are sequences, not card slots: read by
:mod:`bot.parse.slot_words` when a server or 'parallel' is named and no card word is near.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc
from bot.parse.slot_words import CARD_SLOT_NEAR, CARD_SLOT_RE, PARALLEL_RE, SERVER_RE

CARD_SLOTS_RE = rc(
    r"(?<![\w.\-])(?P<n>\d{1,2})\s*(?:个\s*)?(?:(?:full[\s\-]*(?:size|length)|double[\s\-]*wide|free|open|empty"
    r"|空(?:的|闲的?)?)\s*)?"
    r"(?:(?:pcie(?:\s*x\s*16)?|pci-e|pci\s+express|x\s*16|gpu|显卡|卡)\s*)?"  # 'x16': 'x 16' once normalized
    r"(?:slots?(?![a-z\-])|插槽|卡槽|槽位|显卡槽|槽(?!\s*(?:位置|口)))"
)
"""'4 个卡槽', '4 个显卡插槽', '4 个 PCIe 插槽', '4 PCIe slots', '4 GPU slots', '4 x16 slots',
'主板有 4 个槽位'."""
_CARD_WORD_IN_RE = rc(r"pci|x\s*16|gpu|显卡|卡|插槽")
"""A card word in the slots' own phrase: card slots whatever else the message says."""


def card_slots(s: str, training: bool) -> tuple[str, list[tuple[str, str]], bool]:
    """The normalized text ``s`` with a machine's card slots masked (same length), the slots named as typed
    (``card_slots``), and whether any was found (the count is then the question). Slots are the cards'
    when their phrase or the words near say so (:data:`bot.parse.slot_words.CARD_SLOT_RE`), or in a
    training question; a serving question's slots with a llama.cpp server or 'parallel' are its
    sequences (:mod:`bot.parse.slot_words`)."""
    if not ("slot" in s or "槽" in s):
        return s, [], False
    server = SERVER_RE.search(s) is not None
    named: list[tuple[str, str]] = []

    def mask(m: re.Match[str]) -> str:
        near = s[max(0, m.start() - CARD_SLOT_NEAR) : m.end() + CARD_SLOT_NEAR]
        said = _CARD_WORD_IN_RE.search(m.group(0)) is not None
        if not (said or CARD_SLOT_RE.search(near) or (training and not server)):
            return m.group(0)
        if not said and (server or PARALLEL_RE.search(m.group(0))):
            return m.group(0)  # llama.cpp's slots: sequences (slot_words)
        named.append((m.group(0).strip(), "card_slots"))
        return " " * (m.end() - m.start())

    s = CARD_SLOTS_RE.sub(mask, s)
    return s, named, bool(named)
