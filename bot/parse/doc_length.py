"""The length of a document served, in tokens (s30): "a very long note of around 8K tokens", "an
8k-token document", "a 30,000-token transcript", "8K token 的长文档", "2048 个 token 的输入", "文档大约 6000
token". In a serving question that is the request's input: the prompt the engine prefills (its length is the
context sized, and the prefill's share of it). Before, the number was left unread and the 4K default context
sized, or read as training tokens and set aside. Training questions are left to the sample-length readers
(bot/parse/sample_at.py: there a document's length is a sample's)."""

from __future__ import annotations

from bot.parse.length_gates import DOC_EN as _DOC_EN
from bot.parse.length_gates import DOC_ZH as _DOC_ZH
from bot.parse.regex import rc

_ADJ = (
    r"(?:(?:very\s+|really\s+|super\s+)?(?:long|large|big|whole|entire|single|full)\s+"
    r"|超?长的?|大的?|整篇的?|一篇的?)?"
)

R_DOC_TOKENS = rc(
    r"^[\s\-]*(?:个\s*)?(?:tokens?|词元)[\s\-]*(?:的\s*|in\s+length\s+|long\s+)?"
    + _ADJ
    + "(?:"
    + _DOC_EN
    + r"\b|"
    + _DOC_ZH
    + ")"
)
"""After the number: 'tokens', then the document ('8k-token document', '8K token 的长文档', '2048 个 token 的
输入')."""
L_DOC_OF = rc(
    "(?:"
    + _DOC_EN
    + r"|"
    + _DOC_ZH
    + r")\s*(?:(?:of|is|are|with|has|runs?|约|大约|大概|有|是|长|长度|about|around"
    r"|roughly|approximately|approx\.?|nearly|almost|~|up\s+to|over|some|like)\s*)*$"
)
"""Before the number: the document and its 'of (about)' ('a very long note of around 8K tokens', '文档大约
6000 token'), the number then followed by 'tokens' (:data:`R_TOKENS_AFTER`)."""
R_TOKENS_AFTER = rc(r"^[\s\-]*(?:个\s*)?(?:tokens?|词元)(?![a-z])")


def document_length(left: str, right: str) -> bool:
    """Whether the number between ``left`` (the text before it) and ``right`` (after it) is a document's
    length in tokens (called in a serving question whose text :data:`GATE_RE` finds a document word in)."""
    return R_DOC_TOKENS.match(right) is not None or (
        R_TOKENS_AFTER.match(right) is not None and L_DOC_OF.search(left) is not None
    )
