"""The length a message asks about after the one that runs now (issue 24, s17 length axis).

'8*A100 只能跑 2k 上下文，想做 200k', 'cutoff_len 2048 能跑，想拉到 3072 需要多少显存',
'4K 到 8K 之间，按 8K 算', 'fine at 512 tokens but OOMs at 2048. How much memory for 2048?',
'works at 4k, we want to go to 16k': the first length is the run that works (or a range), the later one
the job asked about. Before, the first was sized and the asked one named as unread. The asked length is
sized; the earlier one is named (``replaced_by_later_value``), never dropped.

A later length is the asked one when a word before it moves or aims the length there ('拉到', '提到',
'扩到', '想做', '按 … 算', 'increase to', 'go to', 'for … ?') or words after it ask about it ('需要多少',
'要几张', '算', '?'). Only a number that can be a length (256 to 10M tokens, no word number), after the
first length said.
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.roles import Role, seq_value

GATE_RE = re.compile(
    r"拉到|提到|提高到|加到|增加到|扩到|扩展到|扩大到|升到|调到|改到|做到|支持到|想做|要做|想跑|想要|按|目标"
    r"|to|for|需要多少|要多少|要几|需要几|\?|？|,|、|，|and|but|or|和|但|或|而",
    re.IGNORECASE,
)
"""Any word a target length or another length tried needs (one C search per message with a length and an
unread number)."""

TARGET_BEFORE_RE = re.compile(
    r"(?:(?:拉|提|提高|加|增加|扩|扩展|扩大|升|调|改|做|支持|上)到|想做|要做|想跑|想要|目标是?|按(?:照)?"
    r"|(?:increase|raise|extend|go|bump|push|scale|move|grow|take)\w*\s+(?:it\s+|that\s+)?(?:up\s+)?to"
    r"|(?:want|need|like|plan|hope)\w*\s+(?:to\s+(?:train|run|do|use|go|serve|fine-?tune)\s+(?:at|with|on)\s+)?"
    r"|siz(?:e|ed|ing)\s+(?:it\s+|this\s+|them\s+)?(?:at|for)"
    r"|\bfor|\bat)\s*(?:a\s+|an\s+)?$",
    re.IGNORECASE,
)
"""Words right before the asked length ('想拉到 ', '按 ', 'increase it to ', 'size it at ', 'how much memory
for ')."""
FROM_TO_RE = re.compile(
    r"(?:\bfrom|从)\s*[\d.,]+\s*k?\s*(?:tokens?\s*)?(?:的?\s*上下文\s*)?"
    r"(?:to|到|扩到|扩展到|提到|提高到|增加到|拉到|拉长到|升到)\s*$",
    re.IGNORECASE,
)
"""'from 4k to ', '从 4k 扩到 ': the length after it is the one the job goes to (a context extension)."""

ASKED_AFTER_RE = re.compile(
    r"^\s*(?:-?tokens?|的?\s*(?:上下文|长度|序列)|(?:sequence\s+length|context|seq\s*len))?\s*"
    r"(?:的话\s*)?(?:需要多少|要多少|需要几|要几|算|呢|行吗|够吗|\?|？)",
    re.IGNORECASE,
)
"""Words right after the asked length ('3072 需要多少显存', '按 8K 算', 'for 2048?')."""

_BEFORE_ONLY = ("for", "at")
"""Left words that make a length the asked one only with an asking word after it ('for 2048?'; 'at 2048'
alone may be the run that failed)."""


def target_length(s: str, last: int, unread: list[Any], from_only: bool = False) -> Role | None:
    """The asked length among the numbers ``unread`` of the normalized text ``s`` that start at or after
    offset ``last`` (the end of the length said first); with ``from_only`` (no length read before) only
    the end of a 'from X to Y' ('从 4k 扩到 32k'); None when there is none."""
    for tok in unread:
        if tok.start < last or tok.kind == "word" or not 256 <= seq_value(tok) <= 10_000_000:
            continue
        if s[tok.start - 1 : tok.start] == "/" or s[tok.end : tok.end + 1] == "/":  # '2k/2k': input / output
            continue
        if FROM_TO_RE.search(s[max(0, tok.start - 32) : tok.start]):
            return Role("seq", seq_value(tok), tok)
        if from_only:
            continue
        left = TARGET_BEFORE_RE.search(s[max(0, tok.start - 40) : tok.start])
        asked = ASKED_AFTER_RE.match(s[tok.end : tok.end + 24]) is not None
        weak = left is not None and left.group(0).lower().split()[0] in _BEFORE_ONLY
        moved = left is not None and MOVE_RE.match(left.group(0)) is not None
        if ((left is not None and not weak) or asked) and (moved or _length_shaped(s, tok)):
            return Role("seq", seq_value(tok), tok)
    return None


MOVE_RE = re.compile(
    r"(?:(?:拉|提|提高|加|增加|扩|扩展|扩大|升|调|改)到|(?:increase|raise|extend|bump|push|scale|grow)\w*\s)",
    re.IGNORECASE,
)
"""Words that move the length said first to the asked one ('拉到', 'increase it to'): a length by them."""
LENGTH_NEAR_RE = re.compile(r"tokens?|上下文|长度|序列|context|seq|cutoff|max_len|ctx", re.IGNORECASE)
"""A length word within a few characters of the asked number ('想要 32768 上下文', 'context 8192')."""


def _length_shaped(s: str, tok: Any) -> bool:
    """Whether the number ``tok`` of ``s`` reads as a length: a 'k' ('8K'), a length word within 12
    characters before or 10 after it, or a multiple of 256 tokens ('for 2048?'). 'we need 3000 done by
    Friday', '想要 2000 左右的日活', '数据按 3000 算' are not (review of s17: each was sized as the
    length)."""
    if tok.mag == "k" or tok.value % 256 == 0:
        return True
    return LENGTH_NEAR_RE.search(s, max(0, tok.start - 12), tok.end + 10) is not None


OTHER_BEFORE_RE = re.compile(
    r"(?:,|、|，|~|～|\band|\bor|\bbut|\bat|\bthen|\bvs\.?|\bversus|和|或|但|而|到|至)\s*(?:only\s+|just\s+)?(?:at\s+)?$",
    re.IGNORECASE,
)
"""Before another length tried in the same breath ('20k, 35k and 45k start, but 29k fails', 'at 20480,
but only 40/43 at 24576', '4096 with lora and 8192 with qlora')."""
OTHER_UNIT_RE = re.compile(
    r"^\s*(?:g(?:i?b)?\b|m(?:i?b)\b|t(?:i?b)?\b|tok(?:en)?s?\s*/|layers?|层|%|x\b|卡|张|个|条|台|steps?|samples?"
    r"|万|亿|tflops|gpus?|nodes?|users?|requests?|并发|元|\$|usd|dollars?)",
    re.IGNORECASE,
)
"""A unit of another quantity right after the number: not a length."""


def other_lengths(s: str, last: int, unread: list[Any], used: float) -> list[Any]:
    """The unread numbers of ``s`` after offset ``last`` that are other lengths tried beside the one used
    (``used`` tokens): a thousands count or at least 1,024, after a listing or contrasting word, no unit
    of another quantity after it. Named as another setup (``other_setup``), never sized."""
    out = []
    for tok in unread:
        if tok.start < last or tok.kind == "word" or (tok.mag != "k" and tok.value < 1024):
            continue
        value = seq_value(tok)
        if value == used or not 1024 <= value <= 10_000_000 or OTHER_UNIT_RE.match(s[tok.end : tok.end + 12]):
            continue
        if OTHER_BEFORE_RE.search(s[max(0, tok.start - 16) : tok.start]):
            out.append(tok)
    return out
