"""Random characters are no question (s6 trial item 9): a long message that reads as noise (hardly any
word-sized token) and names nothing from the catalogs gets the "not understood" reply, never a guess
built from letters and digits that happen to look like '1b', 'h51' or 'r1'.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.parse.regex import compile_pattern
from bot.parse.result import ParseResult
from estimator.models import SizingRequest

NOISE_MIN_CHARS = 200
"""Shorter messages are read as they are (a short question may be terse, never noise)."""
WORD_MAX_CHARS = 24
"""A token longer than this is no word of prose ('DeepSeek-R1-Distill-Qwen-32B' has 28: a model name
is found by the parser, and a message naming one is never noise)."""
WORD_SHARE_MIN = 0.5
"""Below this share of its non-space characters in word-sized tokens, a message is noise. Prose in any
language with spaces is above 0.9; random printable characters (a space in 95) are near 0."""
_CJK_RE = compile_pattern(r"[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]")


def looks_random(text: str) -> bool:
    """Whether ``text`` is at least :data:`NOISE_MIN_CHARS` long and under :data:`WORD_SHARE_MIN` of
    its characters are in word-sized tokens (a token with CJK characters counts as words)."""
    if len(text) < NOISE_MIN_CHARS:
        return False
    tokens = text.split()
    total = sum(len(t) for t in tokens)
    words = sum(len(t) for t in tokens if len(t) <= WORD_MAX_CHARS or _CJK_RE.search(t))
    return total > 0 and words < WORD_SHARE_MIN * total


_WORD_RE = compile_pattern(r"[\w.,:;!?%$¥×/+'\"()\-]+")
"""A token of prose: letters, digits and the punctuation questions use (not '{', '^', '|', '~' …)."""


def prose_of(text: str) -> str:
    """The word-sized tokens of prose in ``text`` (what a person could have typed among the noise)."""
    return " ".join(t for t in text.split() if len(t) <= WORD_MAX_CHARS and _WORD_RE.fullmatch(t))


def named_nothing(result: ParseResult) -> bool:
    """No catalog model and no catalog GPU were found (an unknown name is no sizing content)."""
    return result.request.model is None and ("gpu" not in result.found or result.unknown_gpu is not None)


def without_noise(result: ParseResult, text: str, parse: Callable[[str], ParseResult]) -> ParseResult:
    """``result`` (``parse`` of ``text``), or an empty one (nothing understood) when ``text`` is noise
    whose prose (:func:`prose_of`, parsed again) names no catalog model or GPU: a name the noise spells
    by chance ('r1', 'a10') is not the user's."""
    if not looks_random(text) or not named_nothing(parse(prose_of(text))):
        return result
    return ParseResult(request=SizingRequest(), lang=result.lang, truncated=result.truncated, notes=["noise"])
