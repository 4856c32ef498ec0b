"""What the conversation reads from a message besides the request (issue 23 item 2): the normalized
text, a stage word, follow-up and reset cues and the message's own language evidence. Computed once,
in :func:`bot.parse.parse`, so core never calls back into the parser after the parse returned.
"""

from __future__ import annotations

from typing import Any

from bot.parse.lang import cue_only, message_lang
from bot.parse.normalize import normalize
from bot.parse.regex import LazyPattern
from bot.parse.result import ParseResult
from bot.parse.words import ASKS_COUNT_RE, explicit_stage

CUE_START_RE = LazyPattern(
    r"\s*(?:那|那么|那如果|如果|要是|假如|换|改|再)"
    r"|\s*(?:and\s+|but\s+|ok\s*,?\s*|okay\s*,?\s*)?(?:what|how)\s+about\b"
    r"|\s*(?:and\s+|but\s+)?(?:with|using|on|at|for)\b"
    r"|\s*(?:and\s+|but\s+)?what\s+if\b",
    0,
)
"""Words that mark a follow-up at the start of a normalized (lower-case) text (``.match``)."""

CUE_RE = LazyPattern(r"呢\s*[?？!！。.]*\s*$|换成|改成|换为|改为|换用|改用|换到|改到|按.{0,12}算", 0)
"""Words that mark a follow-up anywhere in it (Chinese)."""

CUE_WORDS_RE = LazyPattern(r"\binstead\b|\b(?:switch|change)\s+(?:it\s+)?to\b", 0)
"""… and English words anywhere in it. The three were one alternation (``^…|…``), which cost ~12 µs a
message: the engine tried every branch at every position. Apart, the start words are tried at the
start only and the others behind presence gates (:func:`bot.parse.regex.add_gates`), ~1 µs together;
a cue is any of them (Unicode mode, flags 0, as these patterns always were)."""


def followup_cue(norm: str) -> bool:
    """Whether a normalized text has a follow-up cue ('那H100呢', 'what about 8 GPUs', '换成A100')."""
    return (
        CUE_START_RE.match(norm) is not None
        or CUE_RE.search(norm) is not None
        or CUE_WORDS_RE.search(norm) is not None
    )


FRESH_RE = LazyPattern(
    r"多大的?模型|多少参数的模型|新问题|另一个问题|换个问题"
    r"|\bhow\s+(?:big|large)\s+(?:a\s+|of\s+a\s+)?model|\bwhat\s+size\s+(?:of\s+)?model"
    r"|\blargest\s+model|\bbiggest\s+model|\bnew\s+question\b",
    0,
)
"""Inverse questions and explicit resets: always a new question."""

LOST_CUE_RE = LazyPattern(r"^\s*(?:用|再用|就用|只用)", 0)
"""'用256张', '用H100': a change to a previous question (only a cue when there is none)."""


BARE_COUNT_RE = LazyPattern(
    r"\bhow\s+many\s+(?:(?:do|would|will|should|shall)\s+(?:i|we)\s+need|(?:are|is|would\s+be)\s+needed"
    r"|(?:do\s+)?(?:i|we)\s+need|needed|then)\b",
    0,
)
"""'How many do I need?' with no noun (a normalized, lower-case text): in a follow-up of a sized job, the
GPU count is asked (the parser reads 'how many GPUs'; :data:`bot.parse.cue_words.ASKS_COUNT`)."""


MACHINES_RE = LazyPattern(
    r"(?<![\d.])(?P<n>\d{1,4})\s*(?:个\s*)?(?:台(?:机器|服务器)?|节点|机器|nodes?\b|machines?\b|servers?\b|boxe?s\b)"
    r"(?!\s*(?:gpu|卡|张))",
    0,
)
"""A machine count with no card count after it ('4台', '4 nodes'), in the normalized text: a follow-up reads
it as machines × the earlier turn's GPUs per machine (bot.core.followup_machines, s15 trial #1)."""
ASKS_HOW_LONG_RE = LazyPattern(r"多久|多长时间|几天|how\s+long|how\s+many\s+(?:hours|days)", 0)
"""Asks how long a job takes."""


def cues(text: str, norm: str | None = None) -> dict[str, Any]:
    """The cue fields of :class:`ParseResult` read from ``text``; ``norm``: ``normalize(text)`` when the
    caller has it already (the parse does: :func:`bot.parse.normalize.prepare`)."""
    norm = normalize(text) if norm is None else norm
    cue = followup_cue(norm)
    return {
        "normalized": norm,
        "stage_word": explicit_stage(norm),
        "followup_cue": cue,
        "lang_cue_only": cue and cue_only(text),  # 'what about H20?': the conversation's language (s38)
        "reset_cue": FRESH_RE.search(norm) is not None,
        "change_cue": LOST_CUE_RE.match(norm) is not None,  # at the start only (``^``)
        "message_lang": message_lang(text),
        "count_cue": ASKS_COUNT_RE.search(norm) is not None or BARE_COUNT_RE.search(norm) is not None,
        "machine_counts": [m["n"] for m in MACHINES_RE.finditer(norm)],
        "duration_cue": ASKS_HOW_LONG_RE.search(norm) is not None,
        "asks_throughput": "吞吐" in norm or "throughput" in norm,  # with asks_speed: the total leads (s35)
    }


def with_cues(parsed: ParseResult, text: str) -> ParseResult:
    """``parsed`` with what the conversation reads from ``text`` (the message the parse was of)."""
    return parsed.model_copy(update=cues(text))
