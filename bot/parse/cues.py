"""What the conversation reads from a message besides the request (issue 23 item 2): the normalized
text, a stage word, follow-up and reset cues and the message's own language evidence. Computed once,
in :func:`bot.parse.parse`, so core never calls back into the parser after the parse returned.
"""

from __future__ import annotations

from typing import Any

from bot.parse.lang import message_lang
from bot.parse.normalize import normalize
from bot.parse.regex import compile_pattern
from bot.parse.result import ParseResult
from bot.parse.words import explicit_stage

CUE_RE = compile_pattern(
    r"^\s*(?:那|那么|那如果|如果|要是|假如|换|改|再)"
    r"|呢\s*[?？!！。.]*\s*$"
    r"|换成|改成|换为|改为|换用|改用|换到|改到|按.{0,12}算"
    r"|^\s*(?:and\s+|but\s+|ok\s*,?\s*|okay\s*,?\s*)?(?:what|how)\s+about\b"
    r"|^\s*(?:and\s+|but\s+)?(?:with|using|on|at|for)\b"
    r"|^\s*(?:and\s+|but\s+)?what\s+if\b|\binstead\b|\b(?:switch|change)\s+(?:it\s+)?to\b"
)
"""Words that mark a follow-up on normalized (lower-case) text."""

FRESH_RE = compile_pattern(
    r"多大的?模型|多少参数的模型|新问题|另一个问题|换个问题"
    r"|\bhow\s+(?:big|large)\s+(?:a\s+|of\s+a\s+)?model|\bwhat\s+size\s+(?:of\s+)?model"
    r"|\blargest\s+model|\bbiggest\s+model|\bnew\s+question\b"
)
"""Inverse questions and explicit resets: always a new question."""

LOST_CUE_RE = compile_pattern(r"^\s*(?:用|再用|就用|只用)")
"""'用256张', '用H100': a change to a previous question (only a cue when there is none)."""


def cues(text: str, norm: str | None = None) -> dict[str, Any]:
    """The cue fields of :class:`ParseResult` read from ``text``; ``norm``: ``normalize(text)`` when the
    caller has it already (the parse does: :func:`bot.parse.normalize.prepare`)."""
    norm = normalize(text) if norm is None else norm
    return {
        "normalized": norm,
        "stage_word": explicit_stage(norm),
        "followup_cue": CUE_RE.search(norm) is not None,
        "reset_cue": FRESH_RE.search(norm) is not None,
        "change_cue": LOST_CUE_RE.search(norm) is not None,
        "message_lang": message_lang(text),
    }


def with_cues(parsed: ParseResult, text: str) -> ParseResult:
    """``parsed`` with what the conversation reads from ``text`` (the message the parse was of)."""
    return parsed.model_copy(update=cues(text))
