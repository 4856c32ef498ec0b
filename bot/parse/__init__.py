"""Question text → typed SizingRequest, in steps (see :mod:`bot.parse.assemble`), plus what the
conversation reads from the message (:mod:`bot.parse.cues`): everything core needs, in one result."""

from bot.parse.assemble import parse as _parse
from bot.parse.normalize import normalize
from bot.parse.result import ParseResult


def parse(text: str) -> ParseResult:
    """Parse one message (:func:`bot.parse.assemble.parse`) with its conversation cues
    (:func:`bot.parse.cues.cues`, read in the same pass). Never raises."""
    return _parse(text)


__all__ = ["ParseResult", "normalize", "parse"]
