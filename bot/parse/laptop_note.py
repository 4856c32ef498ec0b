"""The card sized is a laptop's (s20 #3): 'RTX 4090 Laptop 16GB', '笔记本 4060 8G'. A laptop holds one
GPU, so the answer never counts more of them (bot.render.laptop_text): it says the job does not fit on the
one card and what does (lighter weights, llama.cpp's offload, another machine). The parse marks it with
the note :data:`LAPTOP`; the message's laptop words are found by bot.parse.machine_asked.LAPTOP_RE (the
call site's gate)."""

from __future__ import annotations

from bot.parse.machine_asked import _ASKS_LAPTOP_RE
from bot.parse.result import ParseResult

LAPTOP = "laptop_card"
"""The ParseResult note: the card sized is a laptop's one GPU."""


def with_laptop_note(before: ParseResult, after: ParseResult, text: str) -> ParseResult:
    """``after`` (the parse once the machine asked about is chosen) with the note :data:`LAPTOP` when its
    card is the laptop's: one card (or none counted), and either no other machine was chosen (``after``
    is ``before``) or the question asks about the laptop."""
    req = after.request
    if req.gpu is None or (req.gpu_count or 1) != 1 or LAPTOP in after.notes:
        return after
    if after is before or _ASKS_LAPTOP_RE.search(text):
        after.notes.append(LAPTOP)
    return after
