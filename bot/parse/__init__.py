"""Question text → typed SizingRequest, in steps (see :mod:`bot.parse.assemble`)."""

from bot.parse.assemble import parse
from bot.parse.normalize import normalize
from bot.parse.result import ParseResult

__all__ = ["ParseResult", "normalize", "parse"]
