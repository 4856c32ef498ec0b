"""Question text → typed SizingRequest, in steps (see :mod:`bot.parse.assemble`), plus what the
conversation reads from the message (:mod:`bot.parse.cues`): everything core needs, in one result."""

from bot.parse.assemble import parse as _parse
from bot.parse.cues import with_cues
from bot.parse.noise import without_noise
from bot.parse.normalize import normalize
from bot.parse.result import ParseResult


def parse(text: str) -> ParseResult:
    """Parse one message (:func:`bot.parse.assemble.parse`) with its conversation cues. Never raises."""
    raw = text if isinstance(text, str) else ""
    return with_cues(without_noise(_parse(raw), raw, _parse), raw)


__all__ = ["ParseResult", "normalize", "parse"]
