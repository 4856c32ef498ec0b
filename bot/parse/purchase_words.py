"""Buying asked beside renting (s45 trial #2): 'should we rent 8x H100 for a month or buy a server? what would
buying one cost?', '租一个月8卡H100和直接买一台哪个划算？买的话大概多少钱', 'purchase vs cloud'.

No purchase price is on file (every price list is a rental per GPU-hour), so the reply prices renting
only; before, the buying half of the question went unanswered and unsaid. The word is named
``purchase_price`` as typed (nothing is masked: it holds no number), and the reason says how to compare
with a vendor's quote. Cards already bought ('买了8张A100', 'we bought 4 A100s', '我买的4090') are not
this: the past tense is not matched.
"""

from __future__ import annotations

from bot.parse.regex import rc

PURCHASE_RE = rc(
    r"\b(?:buy(?:ing)?|purchas(?:e|ing))\b(?!-in\b)(?!\s+(?:more\s+)?(?:gpu[\s\-]*hours?|credits?|time|tokens?)\b)"
    r"|(?<!已经)(?<!已)(?:购买|采购|买)(?![了过的到])"
)
"""'buy', 'buying', 'purchase', 'purchasing' (not 'buy GPU-hours / credits', nor 'buy-in': agreement,
s45 review item 5); '买', '购买', '采购' (not
'买了', '买过', '买的', '买到'), on the normalized (lower-case) text."""


def purchase_words(s: str, raw: str = "") -> list[tuple[str, str]]:
    """The first purchase word in ``s`` named as ``purchase_price`` as typed in ``raw`` ('Buy', not 'buy';
    s45 review item 5), or []. Callers test for 'buy', 'purchas', '买', '购' first."""
    m = PURCHASE_RE.search(s)
    if m is None:
        return []
    word = m.group(0)
    low = raw.lower()  # one word, no space: found in the message as typed with no pattern
    at = low.find(word) if len(low) == len(raw) else -1
    return [(raw[at : at + len(word)] if at >= 0 else word, "purchase_price")]
