"""A count of kinds of cards is no count of cards (session 14 fresh-user trial #4): 'H20、L40S和A800三种卡，
部署 Llama-3.1-70B … 分别要几张' sized 3 of each card; 'three GPU types', '3 kinds of cards', 'these two
cards', 'N 种 GPU', 'N 款卡' count the kinds listed, not the cards.

:func:`kinds_of_cards` blanks that number (same length) and names it (reason ``gpu_kinds``), so the count
each card needs is sized; the cards themselves are read from their names as before.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

_NUM_ZH = r"(?:[2-9]|10|[两二三四五六七八九十])"
_NUM_EN = r"(?:[2-9]|10|two|three|four|five|six|seven|eight|nine|ten)"
KINDS_RE = rc(
    rf"(?P<n>{_NUM_ZH})(?=\s*(?:种|款|类|个型号|种型号)\s*(?:不同的?)?\s*(?:型号的?)?\s*(?:显卡|卡|gpu|npu|型号|计算卡|加速卡))"
    rf"|\b(?P<e>{_NUM_EN})(?=\s+(?:different\s+)?(?:kinds|types|models|brands|families)\s+of\s+"
    r"(?:gpus?|cards?|accelerators?|chips?)\b)"
    rf"|\b(?P<t>{_NUM_EN})(?=\s+(?:different\s+)?(?:gpu|card|accelerator|chip)\s+(?:types|kinds|models|options)\b)"
    rf"|(?<=\bthese\s)(?P<th>{_NUM_EN})(?=\s+(?:different\s+)?(?:gpus|cards|accelerators|chips)\b)"
)
"""'三种卡', '3 种 GPU', '两款卡', '这两种显卡', 'three GPU types', '3 kinds of cards', 'these two cards'."""


CARD_NAME_RE = rc(
    r"\b(?:[abhlptv]\d{1,3}[a-z]?|h20|l40s?|l20|rtx\s*\d{4}\w*|\d{4}\s*ti|mi\d{3}x?|910b\d?|gaudi\d?)\b"
)
"""A card's name, roughly ('A100', 'H20', 'L40S', 'RTX 4090', 'MI300X', '910B'): 'these two cards' count
kinds only when two names are written."""


def kinds_of_cards(s: str) -> tuple[str, list[tuple[str, str]]]:
    """The normalized text ``s`` with each count of kinds of cards blanked (same length), and those
    counts as typed, named with reason ``gpu_kinds``."""
    named: list[tuple[str, str]] = []

    def blank(m: re.Match[str]) -> str:
        if m.group("th") and len(set(CARD_NAME_RE.findall(s))) < 2:
            return m.group(0)  # 'these two cards (RTX 4090)': two cards of one kind
        named.append((m.group(0), "gpu_kinds"))
        return " " * (m.end() - m.start())

    return KINDS_RE.sub(blank, s), named
