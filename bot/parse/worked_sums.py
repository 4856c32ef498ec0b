"""A value written with the sum that gives it ('单卡 bs 也要 19200/24=800', 'per-GPU batch 256/8 = 32'):
the value is the result, the operands are the working (round 19).

People show how they got a number: the result after '=' is what the key before it holds, and the operands
are other values of the message (here the global batch and the GPU count, each stated elsewhere). Read
as written, the first operand took the key ('bs 19200') and the result was left over. Only a sum that is
right is rewritten (A/B or A×B equal to C, to within rounding of a division), so a ratio or a product that
is not the value never loses a number it does not state twice.

A quotient is a share of its first operand (a total over the GPUs, the nodes): it is the value only when the
key just before the sum takes a per-device value — a (micro-)batch, not a global or total one ('bs 也要
19200/24=800'). Any other right quotient keeps its total ('dataset 80000/8=10000 samples per GPU': the
80,000 samples are the data set, review s25 item 1) and the share is named as not used
(:func:`shares_not_used`, reason ``worked_share``). A product ('4x8=32 张卡': 4 nodes × 8) is a total: its
result is the value.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

WORKED_SUM_RE = rc(
    r"(?<![\w.])(?P<a>\d{1,7}(?:\.\d+)?)\s*(?P<op>[/÷*×x])\s*(?P<b>\d{1,7}(?:\.\d+)?)\s*=\s*"
    r"(?P<c>\d{1,7}(?:\.\d+)?)(?![\d.])"
)
"""'A/B=C', 'A÷B = C', 'A*B=C', 'A×B=C', 'A x B = C' (numbers of up to 7 digits, the text normalized)."""

_PER_DEVICE_KEY_RE = re.compile(
    r"(?<![a-z])"
    r"(?:bs|mbs|micro[ _-]?batch(?:[ _-]?size)?|batch(?:[ _-]?size)?|批大小|批次大小|批量大小)"
    r"\s*(?:(?:也|都|还|就)?\s*(?:要|是|为|设为|设成)|=|:|：|is|of|to)?\s*$"
)
"""A per-device batch key ending the text before a sum ('单卡 bs 也要 ', 'per-GPU batch ', 'bs='): a
quotient after it is that device's share, the value the key takes. 'global batch', 'total batch',
'全局 batch', '总 batch' are totals, not a device's share (their quotient is named, not used)."""


def _holds(m: re.Match[str]) -> bool:
    """Whether the sum is right: A/B = C to within rounding of the division, A×B = C to within 1 %."""
    a, b, c = float(m.group("a")), float(m.group("b")), float(m.group("c"))
    if m.group("op") in "/÷":
        return b != 0 and abs(a / b - c) <= max(0.5, 0.01 * abs(c))
    return abs(a * b - c) <= 0.01 * max(abs(c), 1.0)


_TOTAL_BEFORE_RE = re.compile(r"(?:global|total|effective|全局|总)[\s_-]*$")
"""A total's word right before a batch key ('global batch', '全局 bs'): not a device's share."""


def _share_of_total(s: str, m: re.Match[str]) -> bool:
    """Whether the right sum ``m`` is a quotient whose key before it is not a per-device one: its first
    operand, the total, is the value, and the quotient is named as not used."""
    if m.group("op") not in "/÷":
        return False
    key = _PER_DEVICE_KEY_RE.search(s, max(0, m.start() - 24), m.start())
    return key is None or bool(_TOTAL_BEFORE_RE.search(s, max(0, key.start() - 12), key.start()))


def _result(m: re.Match[str]) -> str:
    """The value of the sum: the result C of a right product or a per-device quotient, the total A of
    another right quotient, else the sum as written."""
    if not _holds(m):
        return m.group(0)
    return m.group("a") if _share_of_total(m.string, m) else m.group("c")


def results_of_sums(s: str) -> str:
    """``s`` with each right sum 'A/B=C' / 'A×B=C' replaced by its value (see the module docstring);
    the caller tests ``"=" in s`` first, so most messages make no call here."""
    return WORKED_SUM_RE.sub(_result, s)


def shares_not_used(text: str) -> list[tuple[str, str]]:
    """The right quotients of ``text`` (the message, lower-cased here) whose total is the value, each named
    as typed with the reason ``worked_share``: 'dataset 80000/8=10000 per GPU' names '80000/8=10000'.
    A message without '=' makes no search."""
    if "=" not in text:
        return []
    s = text.lower()
    return [
        (m.group(0), "worked_share") for m in WORKED_SUM_RE.finditer(s) if _holds(m) and _share_of_total(s, m)
    ]
