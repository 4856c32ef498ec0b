"""Values dated by their brackets: '(was max_seq_length 2048 before)', '（之前 cutoff_len 2048）' belong to an
earlier setup, not the job asked about (read by :mod:`bot.parse.prose_vocab`)."""

from __future__ import annotations

from bot.parse.regex import rc

BRACKET_OPEN_RE = rc(r"[(（](?P<in>[^()（）]{0,40})$")
"""An open bracket before a value, and the words between."""
BRACKET_CLOSE_RE = rc(r"[^()（）]{0,40}?[)）]")
"""The rest of that bracket after the value."""
EARLIER_WORD_RE = rc(
    r"\bwas\b|\bwere\b|\bbefore\b|\bpreviously\b|\bused\s+to\b|之前|以前|原来|原先|上次|过去"
)
"""A word that dates a bracketed value to an earlier setup ('(was max_seq_length 2048 before)')."""


def earlier_in_brackets(s: str, start: int, end: int) -> bool:
    """Whether the value at ``start``..``end`` of ``s`` is in brackets that date it to an earlier setup
    ('max_seq_length 8192 (was max_seq_length 2048 before)', '（之前 cutoff_len 2048）'); session 13 review
    finding 12: a bracket was no clause of its own, so both values were read as the earlier setup's."""
    opened = BRACKET_OPEN_RE.search(s, max(0, start - 40), start)
    closed = BRACKET_CLOSE_RE.match(s, end)
    if opened is None or closed is None:
        return False
    return EARLIER_WORD_RE.search(opened.group("in") + " " + closed.group(0)) is not None
