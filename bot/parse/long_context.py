"""A length in K said with no unit in a long-context question (s30): "long-context training, e.g. 128k
and above", "长上下文训练，128k 以上", "长文本微调，32k 及以上", "fine-tune for long context (64k+)". In a
message about long context a bare '128k' is the sequence length asked for (a lower bound sized at its value,
as bot/parse/bound_words.py sizes '上下文不少于 32k'). Before, it was left unread and the default length
sized."""

from __future__ import annotations

from bot.parse.regex import rc

R_BARE_END = rc(
    r"^\s*(?:\+|(?:and|or)\s+(?:above|up|more|longer|beyond|higher)\b|及以上|或以上|以上|或更长|或更多|甚至更长)?\s*"
    r"(?:$|[,，.。;；!?！？)）、]|(?:on|at|with|for|in|using|via|to|across|how|e\.?g\.?)\b|的|在|用|上|训练|微调|要|需要|够|能)"
)
"""After the length: a bound word ('and above', '以上', '+') or nothing, then the clause's end or a
preposition; never a unit or a noun ('128k samples', '32k 条' are read elsewhere)."""


def long_context_length(right: str) -> bool:
    """Whether a bare length in K, followed by ``right``, is the sequence length of a long-context question
    (called where :data:`GATE_RE` finds a long-context word in the message)."""
    return R_BARE_END.match(right) is not None
