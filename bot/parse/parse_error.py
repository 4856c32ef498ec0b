"""A parse that failed inside the parser (a reader's bug, never the user's text): the exception logged
with the message, and an empty result noted :data:`PARSE_ERROR` whose ``normalized`` keeps the message as
received, so the reply names it ("I could not read “…”") instead of a bare help (issue 24 item 4, s21)."""

from __future__ import annotations

from bot.lazylog import lazy_logger
from bot.parse.result import ParseResult
from estimator.models import SizingRequest

PARSE_ERROR = "parse_error"
"""The note of a parse that raised: the reply says the message could not be read (bot.render)."""

log = lazy_logger("bot.parse")


def failed_parse(raw: str) -> ParseResult:
    """The result of a parse of ``raw`` that raised (call from an ``except`` block: the traceback is
    logged with the first 300 characters of the message). Never raises: the language and the cues are
    read if they can be, else left at their defaults."""
    log.exception("the parser failed on %r", raw[:300])
    try:
        from bot.parse.cues import with_cues
        from bot.parse.lang import detect_lang

        base = ParseResult(request=SizingRequest(), lang=detect_lang(raw), notes=[PARSE_ERROR])
        parsed = with_cues(base, raw)
    except Exception:  # the cue readers share the failing code: the bare result
        parsed = ParseResult(request=SizingRequest(), lang="en", notes=[PARSE_ERROR])
    return parsed.model_copy(update={"normalized": raw, "notes": [PARSE_ERROR]})
