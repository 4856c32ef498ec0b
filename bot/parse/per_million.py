"""'Cost per million tokens', '每百万 token 成本': the unit a serving price is quoted in, not a number the
user stated (s33 #5: 'per million' was named as not used beside a headline giving $ per million output
tokens). The phrase is masked before numbers are read; the reply's price per million output tokens
(``report.inference.cost_per_million_tokens``) answers it."""

from __future__ import annotations

from bot.parse.normalize import mask
from bot.parse.regex import rc

PER_MILLION_RE = rc(
    r"(?:\b(?:per|each|every)\s+|/\s*)(?:1\s*m\b|1\s*million\b|one\s+million\b|million\b|mtok\b)"
    r"(?:\s+(?:output|input|prompt|generated|completion))?(?:\s+tokens?\b|(?<=mtok\b))"
    r"|每\s*(?:一\s*)?(?:百万|1\s*m(?![a-z])|1\s*million)\s*(?:个\s*)?(?:输出|输入|生成)?\s*(?:tokens?\b|词元)"
)
"""'per million tokens', 'per 1M output tokens', '/1M tokens' as a price's unit; '每百万 token',
'每百万输出 token', '每 1M token'."""


def mask_per_million(s: str) -> str:
    """``s`` (the normalized message) with each price unit of :data:`PER_MILLION_RE` blanked out."""
    for m in PER_MILLION_RE.finditer(s):
        s = mask(s, m.start(), m.end(), " ")
    return s
