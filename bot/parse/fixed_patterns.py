"""The small fixed patterns some readers searched through ``re``'s module functions, compiled once.

``re.match(r"…", s)`` is two Python frames a call (``re.match`` and ``re._compile``, which looks the
pattern up in ``re``'s cache) before the C search: ~16 frames a parse over the corpus (issue 23 item 7,
session 18: the parse's call budget). Each pattern here is the one its reader wrote, with the same flags
(Unicode, as the module functions use them: not the parser's ASCII mode), so every call returns what
it returned; the reader calls the compiled method.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import repeat

from bot.parse.regex import compile_pattern

GLUED_PRODUCT = compile_pattern(r"^\s*[x×*](?P<m>\d{1,2})(?![\d.])")
"""'4x8 A100s': a count glued to an x after a number (bot.parse.roles, nodes × GPUs)."""
TIMES_GAP = compile_pattern(r"\s*[x×*]\s*")
"""The gap of '4 x 8' (bot.parse.roles, fullmatch)."""
CARD_AFTER = compile_pattern(r"^\s*(?:张|块)?\s*卡")
"""'2机16卡': 卡 after the second number (bot.parse.roles)."""
OF_THEM = compile_pattern(r"^\s*of\s+(?:them|these|those)\b")
"""'256 of them' (bot.parse.roles)."""
OF_TH = compile_pattern(r"^\s*of\s+th")
"""'two of them' is not data (bot.parse.roles)."""
INSTANCE_HINT = compile_pattern(r"\.\d*x(?:large|l)\b|\.metal|-\d{1,2}g\b|nd96")
"""A cloud instance type may be written (bot.parse.instances)."""
NAME_SEPARATORS = compile_pattern(r"[\s\-_]+")
"""Runs of the separators of a name's words (split: bot.parse.gpus, model_names, request_fields)."""
NAME_SEPARATOR = compile_pattern(r"[\s\-_]")
"""One separator of a name's words (sub: bot.parse.gpus, models, request_fields)."""
MODDED = compile_pattern(r"魔改|改装|mod")
"""A modded card's memory (bot.parse.gpus)."""
WITH_MEMORY = compile_pattern(
    r"\s*with\s+(\d{2,3})\s*g(?:b|ib)?(?![a-z])"
    r"(?![^,;.!?，；。\d]{0,24}?(?:\b(?:in\s+(?:total|all)|total|combined|altogether)\b|总共|一共|合计))"
)
"""'A100 with 40 GB' (bot.parse.gpus). s36 round 32 en: not a memory its clause calls a total ('4xA100 with
160GB of memory in all', 'two cards with 48GB combined'): all the cards' memory, left to the total rules."""
MEMORY_EACH = compile_pattern(r"\s*(?:each|apiece)\b(?!\s+(?:node|machine|server|host|box)s?\b)")
"""'32x H200 141GB each', '32x H200 GPUs each with 141GB' (normalized so): after a card's memory, 'each' is
the memory's, read with the card (bot.parse.gpus), not a word making the cards each machine's
(bot.parse.node_words.EACH_AFTER_RE: '4 nodes, 32x H200 GPUs each with 141GB' was 128 GPUs; s50 leftovers
#1). 'each node' after it still names the machines."""
TRAILING_NUMBER = compile_pattern(r"[\-_]?\d+$")
"""'ZeRO-3' is 'zero' (bot.parse.model_names)."""
FAMILY_START = compile_pattern(r"[a-z]{3,}", re.IGNORECASE)
"""A name's family letters (bot.parse.request_fields)."""
NON_DIGIT = compile_pattern(r"\D")
"""What is not a digit (sub: bot.parse.request_fields)."""
SPACE_RUNS = compile_pattern(r"[\s_]+")
"""Runs of spaces and underscores (sub: bot.parse.models)."""
SHARED_WORDS = compile_pattern(r"都|均|全|both|all|each")
"""A word that says a value is shared (bot.parse.shared_value)."""
NEGATION_BEFORE = compile_pattern(
    r"(?:不用|不要|不做|不是|without|no|not|non[\s\-]?|instead\s+of|rather\s+than)\s*$"
)
"""A negation right before a method word (bot.parse.settings)."""

IGNORECASE = int(re.IGNORECASE)
"""``re.IGNORECASE`` as a plain int for a pattern made per call (``re.search(p, s, flags)``): the same
cached pattern, without the two Python frames ``re._compile`` spends reading a ``RegexFlag``'s value."""

ESCAPES = {i: "\\" + chr(i) for i in b"()[]{}?*+-|^$\\.&~# \t\n\r\v\f"}
"""``re.escape``'s table (CPython 3.7+: ``re.escape(s)`` is ``s.translate`` of it); tests/
test_fixed_patterns.py checks both agree."""


def escaped(parts: Iterable[str]) -> Iterator[str]:
    """Each of ``parts`` as ``re.escape`` writes it, in C (``re.escape`` is a Python frame a part)."""
    return map(str.translate, parts, repeat(ESCAPES))


SIZE_GAPS = compile_pattern(r"[\s\-_的]")
"""The gaps of a size as written ('8 x 7b', '70-b'; sub: bot.parse.models)."""
SIZE_VALUE = compile_pattern(r"[\s\-_]*(\d+(?:\.\d+)?)\s?([bm])")
"""A size in billions or millions ('72b', '500m'; fullmatch: bot.parse.models)."""
NOT_VERSION = compile_pattern(r"[^\d.]")
"""What is no digit or point of a version (sub: bot.parse.models)."""
NOT_KEY = compile_pattern(r"[^a-z0-9]")
"""What is no lower-case ASCII letter or digit of a name's key (sub: bot.parse.unknown_tools)."""
DIGIT_OR_MASK = compile_pattern(r"\d|\ue001")
"""A digit or a masked name in a model path's last part (bot.parse.model_paths)."""
GROUP_MARKS = compile_pattern(r"[,_]")
"""Digit-group marks of a number as typed ('1,000', '120_000'; sub: bot.parse.left_behind)."""

TYPED_NAMES = 1024
"""How many names' patterns :func:`typed_name` keeps (a short name's compiled pattern: ~1 kB)."""


@lru_cache(maxsize=TYPED_NAMES)
def typed_name(name: str) -> re.Pattern[str] | None:
    """The pattern of ``name`` as a user may type it: its words (split at runs of white space, '-' and
    '_') in order, with or without those separators between them, any case (Unicode, as ``re.search(p,
    s, re.IGNORECASE)`` read it); None when the name has no word. Compiled once per name (session 29:
    ``re``'s own cache holds 512 patterns of every caller, and over the working splits' 1,394 texts a
    warm parse compiled ~1 such pattern a message, ~0.2 ms each); a cached call is a C call, no frame."""
    pattern = r"[\s\-_]*".join(escaped(filter(None, NAME_SEPARATORS.split(name))))
    return re.compile(pattern, IGNORECASE) if pattern else None


@lru_cache(maxsize=TYPED_NAMES)
def reordered_word(family: str, last: str) -> re.Pattern[str]:
    """A word that begins with ``family`` and ends with ``last`` (a name a reader rewrote in order,
    bot.parse.request_fields), any case; compiled once per pair (:func:`typed_name`)."""
    return re.compile(rf"(?<![\w.]){re.escape(family)}[\w.\-]*?{re.escape(last)}(?![\w])", IGNORECASE)


GENERATED_RATE = compile_pattern(
    r"^[\s+~多左右]*-?tokens?\s*(?:/|per\b|an?\s+(?:day|hour|minute|second|month)|每)"
)
"""A count of tokens followed by a rate ('1M tokens per day', '100M tokens/day'): a volume, not a dataset."""
LONGEST_REPLY = 1e6
"""Tokens no single reply reaches: the longest context windows are ~1M tokens (Gemini 1.5, Qwen2.5-1M;
Llama 4 Scout's 10M is input), and output caps are far below (vLLM max_tokens is bounded by the window)."""


def generated_data(value: float, right: str) -> bool:
    """A count of generated tokens that is a dataset, not one reply's length ('generate 100M tokens with
    the teacher', '生成1亿token数据': trial s43 q28_en, the student's SFT data dropped in silence): at least
    :data:`LONGEST_REPLY`, with no rate after it (``right``: the text after the number)."""
    return value >= LONGEST_REPLY and GENERATED_RATE.match(right) is None


PROMPT_TAKES = compile_pattern(
    r"(?:inputs?|输入)\s*(?:要|需要|得|必须|能|可以|想|has\s+to|must|needs?\s+to|can|should)?\s*"
    r"(?:一次性?|一口气|单次|at\s+once)?\s*"
    r"(?:吃下|吃进|塞进|塞下|装下|处理|读入|读进|容纳|take\s+in|handle|hold|fit|accept)\s*"
    r"(?:约|大约|大概|最多|最长|上限|about|around|up\s+to)?\s*$"
)
"""s47 round 43 zh (zh43-014): an input word, a verb of taking in, then a token count
('输入要一次吃下 128K token', 'the input has to handle 128K tokens'): the prompt's length (bot.parse.roles,
the token branch, gated there on '输入'/'input'); before, the words between kept the prompt rule off and
the count was read as training data."""
