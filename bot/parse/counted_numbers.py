"""A bare card number that counts something ('5070 samples', '4090 条数据', '5080 steps', '4090 元'): the
GeForce aliases of the catalog are 4-digit numbers ('4090', '5070', '5080': estimator/data/gpus.toml
``aliases``), and a number of that size followed by the noun it counts is that count, not a card (s45 review
#4: 'fine-tune a 7B on 5070 samples with LoRA on one A100' compared an RTX 5070 row and lost the 5,070
samples). Read by :func:`bot.parse.gpus.extract_gpus` for an alias that is digits alone; 'RTX 5070', '5070
显卡', '两张 5070', '5070 12G' keep their card (the noun after the number is what decides)."""

from __future__ import annotations

from bot.parse.regex import rc

COUNTED_AFTER_RE = rc(
    r"\s*(?:"
    r"(?:training\s+|train\s+|fine-?tuning\s+|labell?ed\s+|unique\s+|more\s+)?"
    r"(?:samples?|examples?|rows?|records?|items?|entries|pairs?|documents?|docs?|conversations?"
    r"|dialog(?:ue)?s?|questions?|prompts?|images?|texts?|sentences?|lines?|steps?|iterations?|iters?"
    r"|tokens?|sequences?|requests?|queries|epochs?|words?|characters?|chars?|dollars?|usd|rmb|yuan"
    r"|hours?|hrs?|minutes?|mins?|seconds?|secs?|days?)(?![a-z])(?!\s*(?:/\s*(?:s|sec|秒)|per\s+s))"
    r"|条|个(?:样本|数据|例子|问题|请求|用户|token|字)|组|份|步|轮|次|篇|句|张图|幅|元|块钱|美元|人民币|小时|分钟|秒|天"
    r"|万|千|百|亿)"
)
"""The nouns a count is of, in English and Chinese, right after the number: data (samples, rows, 条,
组), steps and iterations (步, 轮), tokens and requests, money (元, 块钱, dollars) and time (小时,
days), and the Chinese magnitudes that make it a larger count (万, 千, 亿). '张'/'块' alone are card
classifiers ('3 块 4090'), never here; '张图' is images. A rate after the noun ('4090 tokens/s', 'on 4090
tokens per second') is a card's speed: the card (tests/test_s34_fixa.py). Not 'instance' nor 'user': '8 x 4090
instance' is a machine of cards and 'a 4090 user' owns one (en2-024)."""


CARD_HOURS_RE = rc(r"(?:how\s+many|多少|几)\s*(?:个\s*)?$")
"""What ends the text before '<card number> hours' when the hours are the card's: 'how many 4090 hours',
'需要多少 4090 小时' ask for hours of that card (s46 review N6), not for a count of 4,090 hours."""

_TIME_AFTER_RE = rc(r"\s*(?:hours?|hrs?|days?|小时|天)(?![a-z])")
"""A time noun right after the number: with :data:`CARD_HOURS_RE` before it, the card's hours."""


def counted_number(s: str, end: int, start: int | None = None) -> bool:
    """True when the bare card number ending at ``end`` of the normalized message ``s`` is followed by the
    noun of a count (:data:`COUNTED_AFTER_RE`), so it is that count and not a card. When ``start`` (where the
    number begins) is given, a time noun after it with 'how many' / '多少' just before it is the card's hours
    ('how many 4090 hours', :data:`CARD_HOURS_RE`): False, the number is the card."""
    if COUNTED_AFTER_RE.match(s, end) is None:
        return False
    asked = start is not None and CARD_HOURS_RE.search(s[max(0, start - 16) : start])
    return not (asked and _TIME_AFTER_RE.match(s, end))


def card_hours(s: str, start: int, number: str) -> bool:
    """True when ``number`` (digits, at ``start`` of the normalized message ``s``) is a 4-digit GeForce card
    alias asked about by its hours: 'how many 4090 hours', '需要多少 4090 小时' (s46 review N6: read as 4,090
    hours before). A cheap test first (4 digits, then 'how many' / '多少' before it)."""
    if len(number) != 4 or not number.isdigit() or not CARD_HOURS_RE.search(s[max(0, start - 16) : start]):
        return False
    from bot.parse.gpus import is_gpu_name

    return is_gpu_name(number)
