"""Whether a GPU memory said after a machine word is the machine's total (s47, round 43 zh).

'一台 8 卡 A100 的机器，640G 显存' gives the machine's memory, all its cards together;
'8 卡 A100 的服务器，每卡 40GB' gives each card's, the per-card word between the machine and the number
deciding. Before, any memory up to 16 characters after 'server'/'服务器'/'机器' was the machine's total:
'每卡 40GB' on an 8-card server was sized as 5 GB cards and the 40 named as the cards' total (zh43-001,
'8 卡 H20 的服务器，每卡 128GB HBM3e').
"""

from __future__ import annotations

from bot.parse.regex import rc

L_MACHINE = rc(r"(?:machine|box|server|computer|rig|workstation|pc|laptop|台|机器|电脑|服务器)\D{0,16}$")
"""A machine word at most 16 non-digit characters before the memory: the machine's memory, unless per card."""
L_PER_CARD = rc(
    r"(?:每张(?:卡|显卡)?|每卡|每块(?:卡|显卡|gpu)?|单卡|单张(?:卡|显卡)?|\beach(?:\s+(?:card|gpu|one))?"
    r"|\bper\s+(?:card|gpu))\s*(?:的)?\s*(?:显存)?\s*(?:都|也)?\s*(?:是|有|为)?\s*$"
)
"""A per-card word right before the memory ('每卡 ', '每张卡 ', 'each card has '): that card's memory."""


def machine_total(left: str) -> bool:
    """Whether a memory with ``left`` (the message before the number, lowercased as the parser has it) before
    it is a machine's total: a machine word (:data:`L_MACHINE`) with no per-card word (:data:`L_PER_CARD`)
    right before the number. Pure; no errors."""
    return bool(L_MACHINE.search(left)) and not L_PER_CARD.search(left)
