"""Random characters are no question (s6 trial item 9): a long message that reads as noise (hardly any
word-sized token) and names nothing from the catalogs gets the "not understood" reply, never a guess
built from letters and digits that happen to look like '1b', 'h51' or 'r1'.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.parse.cjk_noise import cjk_random
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
    lengths = list(map(len, tokens))
    total = sum(lengths)
    if total and max(lengths) <= WORD_MAX_CHARS:  # every token word-sized (counted in C): prose
        return False
    words = sum(
        len(t)
        for t in tokens
        if len(t) <= WORD_MAX_CHARS or _CJK_RE.search(t) or config_token(t) or long_name(t)
    )
    return total > 0 and words < WORD_SHARE_MIN * total


_CONFIG_TOKEN_RE = compile_pattern(
    r"(?:--?[a-z][\w\-.]*|\$?[a-z_][\w.\-/\[\]]*)(?:=[\w.,:/\-+'\"$(){}*]*)?", re.I
)
"""A token of a pasted command line or config, however long: a flag ('--max-model-len=70000'), a dotted
key with its value ('actor_rollout_ref.actor.fsdp_config.param_offload=False', verl's Hydra overrides),
a path ('./Qwen/Qwen2.5-7B-Instruct')."""


_LONG_NAME_RE = compile_pattern(r"[a-z][a-z0-9.]*(?:[\-_][a-z0-9.]+){2,}[:;,.!?)'\"]*", re.I)
"""A name of hyphenated parts however long, with the punctuation that may follow it
('Meta-Llama-3-70B-Instruct:', 'DeepSeek-R1-Distill-Qwen-32B'): a word of prose. s31 metamorphic
sweep: 'Llama 3 70B' written 'Meta-Llama-3-70B-Instruct' beside a pasted call made the message noise,
and nothing was sized."""


def long_name(token: str) -> bool:
    """Whether ``token`` is a hyphenated name (:data:`_LONG_NAME_RE`), however long."""
    return _LONG_NAME_RE.fullmatch(token) is not None


def config_token(token: str) -> bool:
    """Whether ``token`` is written like a setting or a path (so a message of long settings is not noise):
    letters first, then only the characters settings use, and a key's value after '='."""
    return ("=" in token or "." in token or "/" in token or token.startswith("-")) and bool(
        _CONFIG_TOKEN_RE.fullmatch(token)
    )


_LATIN = "abcdefghijklmnopqrstuvwxyz"
"""The letters :func:`letters_random` counts (ASCII, as the lowered text has them)."""
_WORD_RE = compile_pattern(r"[\w.,:;!?%$¥×/+'\"()\-]+")
"""A token of prose: letters, digits and the punctuation questions use (not '{', '^', '|', '~' …)."""


def prose_of(text: str) -> str:
    """The word-sized tokens of prose in ``text`` (what a person could have typed among the noise)."""
    return " ".join(
        t for t in text.split() if (len(t) <= WORD_MAX_CHARS and _WORD_RE.fullmatch(t)) or long_name(t)
    )


COMMON_LETTERS = frozenset("etaoinshrdlu")
"""The twelve most frequent letters of English: about 80 % of the letters of English prose (Lewand,
"Cryptological Mathematics", 2000: e 12.7, t 9.1, a 8.2, o 7.5, i 7.0, n 6.7, s 6.3, h 6.1, r 6.0,
d 4.3, l 4.0, u 2.8 %), 12/26 = 46 % of uniformly random letters."""
COMMON_SHARE_MIN = 0.56
"""Below this share of common letters, Latin letters are random. Measured: the working split's English
and mixed questions 0.61–0.85, pasted configs of tests/data/configs 0.73–0.80; random letters, digits
and spaces 0.45–0.46 (10,000 characters)."""
LETTERS_MIN = 200
"""Fewer Latin letters are too few to judge (the share's spread is ±0.035 at 200 random letters)."""


def letters_random(text: str) -> bool:
    """Whether ``text`` has at least :data:`LETTERS_MIN` Latin letters, hardly any CJK, and under
    :data:`COMMON_SHARE_MIN` of its letters among :data:`COMMON_LETTERS`: random letters, not prose."""
    lowered = text.lower()
    if len(lowered) < LETTERS_MIN:  # fewer characters than letters needed
        return False
    letters = sum(map(lowered.count, _LATIN))  # counted in C: a message can be 10,000 characters
    if letters < LETTERS_MIN or len(_CJK_RE.findall(text)) * 10 > letters:
        return False
    return sum(map(lowered.count, COMMON_LETTERS)) < COMMON_SHARE_MIN * letters


def named_nothing(result: ParseResult) -> bool:
    """No catalog model and no catalog GPU were found (an unknown name is no sizing content)."""
    return result.request.model is None and ("gpu" not in result.found or result.unknown_gpu is not None)


FILLER_RE = compile_pattern(r"(\S{1,8})(?:\s*\1){49,}")
"""One short token repeated 50 times or more ('x x x …', 'aaaa…', '哈哈哈…'): padding, not random text — left
out when a message is judged noise, so a real question before or after it is answered (s28 tidy: a question
followed by 10,000 characters of 'x ' was refused whole; the parse reads the message's head and tail and
says it skipped the rest: bot.parse.normalize._reduce_long)."""


def filler_possible(text: str) -> bool:
    """False only where :data:`FILLER_RE` cannot match ``text`` (bool; a necessary condition, in C calls).
    A match is a unit of ``L`` ≤ 8 non-space characters repeated 50 times or more, with whitespace
    between or none: with the whitespace taken out (``str.split``: the ``\\s`` of ``re``,
    ``Py_UNICODE_ISSPACE``) the text holds ``49·L`` characters each equal to the one ``L`` further on. The
    text's code points as one integer (1 byte a character if ASCII, else 4, UTF-32) XOR-ed with itself
    shifted ``L`` characters is zero over such a run: a run of ``49·L`` zero characters, looked for with
    ``bytes.__contains__``. 12,473 characters: ~3.2 ms of the regex's tries at every position (8 unit
    lengths each) → ~0.2 ms."""
    compact = "".join(text.split())
    if len(compact) < 50:
        return False
    wide = 1 if compact.isascii() else 4
    data = compact.encode("ascii") if wide == 1 else compact.encode("utf-32-le")
    value, size = int.from_bytes(data, "little"), len(data)
    for unit in range(1, 9):  # a loop, not a generator: no frame a unit
        if bytes(49 * unit * wide) in (value ^ (value >> (8 * wide * unit))).to_bytes(size, "little"):
            return True
    return False


def without_noise(result: ParseResult, text: str, parse: Callable[[str], ParseResult]) -> ParseResult:
    """``result`` (``parse`` of ``text``), or an empty one (nothing understood) when ``text`` is noise
    whose prose (:func:`prose_of`, parsed again) names no catalog model or GPU: a name the noise spells
    by chance ('r1', 'a10') is not the user's."""
    # 'x x x …' after a question: padding
    if len(text) >= NOISE_MIN_CHARS and filler_possible(text) and FILLER_RE.search(text):
        text = FILLER_RE.sub(" ", text)
    chance = letters_random(text) and letters_random(prose_of(text))  # a name found in it is by chance
    chance = chance or (cjk_random(text) and named_nothing(result))  # random ideographs (s14 trial #5)
    if not chance and (not looks_random(text) or not named_nothing(parse(prose_of(text)))):
        return result
    return ParseResult(request=SizingRequest(), lang=result.lang, truncated=result.truncated, notes=["noise"])
