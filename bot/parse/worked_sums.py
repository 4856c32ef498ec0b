"""A value written with the sum that gives it ('单卡 bs 也要 19200/24=800', 'per-GPU batch 256/8 = 32'):
the value is the result, the operands are the working (round 19).

People show how they got a number: the result after '=' is what the key before it holds, and the operands
are other values of the message (here the global batch and the GPU count, each stated elsewhere). Read
as written, the first operand took the key ('bs 19200') and the result was left over. Only a sum that is
right is rewritten (A/B or A×B equal to C, to within rounding of a division), so a ratio or a product that
is not the value ('8/2=4 卡' is the same either way) never loses a number it does not state twice.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

WORKED_SUM_RE = rc(
    r"(?<![\w.])(?P<a>\d{1,7}(?:\.\d+)?)\s*(?P<op>[/÷*×x])\s*(?P<b>\d{1,7}(?:\.\d+)?)\s*=\s*"
    r"(?P<c>\d{1,7}(?:\.\d+)?)(?![\d.])"
)
"""'A/B=C', 'A÷B = C', 'A*B=C', 'A×B=C', 'A x B = C' (numbers of up to 7 digits, the text normalized)."""


def _result(m: re.Match[str]) -> str:
    """The result C when the sum holds, else the sum as written."""
    a, b, c = float(m.group("a")), float(m.group("b")), float(m.group("c"))
    if m.group("op") in "/÷":
        holds = b != 0 and abs(a / b - c) <= max(0.5, 0.01 * abs(c))
    else:
        holds = abs(a * b - c) <= 0.01 * max(abs(c), 1.0)
    return m.group("c") if holds else m.group(0)


def results_of_sums(s: str) -> str:
    """``s`` with each right sum 'A/B=C' / 'A×B=C' replaced by its result C (see the module docstring);
    the caller tests ``"=" in s`` first, so most messages make no call here."""
    return WORKED_SUM_RE.sub(_result, s)
