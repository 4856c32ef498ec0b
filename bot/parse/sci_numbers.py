"""Scientific notation with an explicit plus sign ('2.5e+3 steps', '1E+4 samples') written out as the plain
number it is (s43 fixread2, issue 24 item 2: the tokenizer took '2.5e+3' as '3', so '2.5e+3 steps' sized three
steps). A negative exponent ('1e-8', '2e-5') is a value below one — a learning rate, a weight decay, an
epsilon — read by :mod:`bot.parse.prose_forms` as the hyperparameter it names, never a count; an unsigned
exponent ('2e12 tokens') is read by the number tokenizer already.
"""

from __future__ import annotations

import re

SCI_PLUS_RE = re.compile(r"(?<![\w.])(?P<m>\d{1,6}(?:\.\d{1,6})?)e\+(?P<e>\d{1,2})(?![\w.])")
"""A mantissa, 'e+', an exponent of one or two digits (the text is lower case: normalize)."""


def _plain(m: re.Match[str]) -> str:
    value = float(m.group("m")) * 10 ** int(m.group("e"))
    return str(int(value)) if value == int(value) else f"{value:f}".rstrip("0")


def sci_plus(s: str) -> str:
    """``s`` (lower case) with each 'Xe+N' replaced by its plain decimal value ('2.5e+3' → '2500',
    '1e+4' → '10000'); the caller gates on ``"e+" in s``."""
    return SCI_PLUS_RE.sub(_plain, s)
