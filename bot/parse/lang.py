"""Which language a reply is in: one detector for the whole bot.

Precedence (:func:`reply_lang`): a language fixed for this answer (a 🌐 button, ``--lang``), the
chat's /settings, the message's own words (any CJK → Chinese; English words → English), the
previous turn's language, the user's Telegram client language, then Chinese only when the text has
CJK (names and numbers alone, "H100?", say nothing).
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from bot.parse.regex import compile_pattern
from estimator import catalog

Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")

_CJK_RE = compile_pattern(r"[\u3400-\u9fff\uf900-\ufaff]")
_DIGIT_TOKEN_RE = compile_pattern(r"(?<![A-Za-z])[A-Za-z]*\d[\w.\-]*")
"""A token with a digit ('h100', '7b', 'v1.5'), from the start of its letters. The look-behind changes no
match of ``sub``: a start inside a run of letters fails when the run's start fails (the same digit must
follow), and a match ends before any letter (``\\w`` takes them); it spares the engine the run's letters at
each of its positions (~4.5 → ~3 µs a message; issue 23 item 7, s21)."""
_WORD_RE = compile_pattern(r"[A-Za-z]{2,}")
_SPACE_RE = compile_pattern(r"\s")
_NEUTRAL = frozenset(
    {
        "gpu",
        "gpus",
        "token",
        "tokens",
        "mfu",
        "tp",
        "pp",
        "dp",
        "ep",
        "zero",
        "bf",
        "fp",
        "int",
        "nf",
        "sft",
        "dpo",
        "ppo",
        "grpo",
        "rlhf",
        "lora",
        "qlora",
        "moe",
        "gguf",
        "awq",
        "gptq",
        "vllm",
        "kv",
        "vs",
        "ok",
        "okay",
        "rtx",
        "nvidia",
        "amd",
        "ascend",
        "tpu",
        "sxm",
        "pcie",
        "nvl",
        "hgx",
        "dgx",
        "usd",
        "cny",
        "rmb",
        "ctx",
        "bs",
        "qps",
        "tflops",
        "flops",
        "pf",
    }
)
"""Words that belong to no language: units, acronyms, product words."""


def has_cjk(text: str) -> bool:
    return bool(_CJK_RE.search(text))


def detect_lang(text: str) -> Lang:
    """'zh' when the text has any CJK character, else 'en'."""
    return "zh" if not text.isascii() and _CJK_RE.search(text) is not None else "en"  # O(1) ASCII test


@cache
def _neutral_words() -> frozenset[str]:
    words = set(_NEUTRAL)
    for m in catalog.models().values():
        for name in (m.id, m.name, m.family, *m.aliases):
            words.update(w.lower() for w in _WORD_RE.findall(name))
    for g in catalog.gpus().values():
        for name in (g.id, g.name, g.family, *g.aliases):
            words.update(w.lower() for w in _WORD_RE.findall(name))
    from bot.parse.lexicon import MODEL_FAMILIES  # language data, parsed lazily

    words.update(MODEL_FAMILIES)
    return frozenset(words)


def message_lang(text: str) -> Lang | None:
    """'zh' with any CJK, 'en' with English words, None with only names and numbers ("H100?", "70B")."""
    if not text.isascii() and _CJK_RE.search(text) is not None:  # has_cjk written out: no frame a parse
        return "zh"
    cut = _ws_after(text, LANG_HEAD_CHARS)
    return "en" if _english_word_in(text[:cut]) or _english_word_in(text[cut:]) else None


LANG_HEAD_CHARS = 300
""":func:`message_lang` reads a long message's first ~300 characters first: one English word there
decides, without scanning a pasted sample of 10,000 characters (the rest is read only when the head
has none). Cut at a whitespace character, which no digit token and no word spans, so the two parts
give exactly what the whole text gives."""


def _ws_after(text: str, at: int) -> int:
    """The index of the first whitespace character at or after ``at`` (``len(text)`` when none)."""
    if len(text) <= at:
        return len(text)
    m = _SPACE_RE.search(text, at)
    return m.start() if m else len(text)


def _english_word_in(text: str) -> bool:
    """Whether ``text``, its tokens with a digit removed, has a word of two letters or more that is no
    unit, acronym or catalog name."""
    if not text:
        return False
    neutral = _neutral_words()
    for w in _WORD_RE.findall(_DIGIT_TOKEN_RE.sub(" ", text)):  # a loop: no generator frame a word
        if w.lower() not in neutral and _wordlike(w):
            return True
    return False


_VOWELS = frozenset("aeiouyAEIOUY")
MAX_WORD_CHARS = 30
"""Letters in the longest run taken as an English word (English words run to ~20 letters; a run of 5,000
x's is no language, trial s21 #15: a Chinese user's unreadable message was answered in English)."""


def _wordlike(word: str) -> bool:
    """Whether a run of letters can be a word: at most ``MAX_WORD_CHARS`` letters, a vowel, two letters
    that differ ('xxxx', 'zzz' and 'qwrtp' say nothing of the writer's language)."""
    return len(word) <= MAX_WORD_CHARS and not _VOWELS.isdisjoint(word) and len(set(word.lower())) > 1


_CUE_PHRASES = ("what about", "how about", "那么", "那", "呢", "的话", "换成", "改成")
_CUE_WORDS = frozenset({"and", "then", "instead", "ok", "okay"})
_COUNTERS = ("张", "块", "台")
"""The cue words of a short follow-up ('what about', 'how about', '那…呢', '换成') and a count's measure word
('4 张'): with them taken out, a follow-up of names and counts alone ('what about H20?', 'H20呢？') says
nothing of the writer's language."""
_PUNCT = str.maketrans(dict.fromkeys("?!.,;:()？！。，；：（）、", " "))
CUE_ONLY_CHARS = 40
"""A cue-only follow-up is short: a longer message is read as written."""


def cue_only(text: str) -> bool:
    """Whether ``text`` is only a follow-up cue word with a card, count or model name ('what about H20?',
    '那换成 4 张 H100 呢'; 'how about 8 of them' is not: 'them' is a word): the conversation's language then
    stays (trial s38 fixm #2). String operations, no pattern: call it only on a follow-up cue."""
    if len(text) > CUE_ONLY_CHARS:
        return False
    low = text.lower()
    rest = low
    for cue in _CUE_PHRASES:
        rest = rest.replace(cue, " ")
    cued = rest != low
    for counter in _COUNTERS:
        rest = rest.replace(f"{counter}卡", " ").replace(counter, " ")
    rest = rest.translate(_PUNCT)
    if not rest.isascii():
        return False  # Chinese words besides the cue: a sentence
    neutral = _neutral_words()
    for token in rest.split():
        if token in _CUE_WORDS:
            cued = True
        elif token not in neutral and token.isalpha() and _wordlike(token):
            return False  # an English word; a name or a token with a digit ('h100s', 'qwen2.5-72b') passes
    return cued


def client_lang(code: str | None) -> Lang | None:
    """A Telegram client's ``language_code``: Chinese for zh*, English for anything else, None if unset."""
    if not code:
        return None
    return "zh" if code.lower().startswith("zh") else "en"


def as_lang(value: object) -> Lang | None:
    """``value`` if it is a reply language, else None."""
    return value if value in LANGS else None  # type: ignore[return-value]


def reply_lang(
    text: str = "",
    *,
    fixed: str | None = None,
    chosen: str | None = None,
    previous: str | None = None,
    client: str | None = None,
) -> Lang:
    """The language of a reply to ``text`` (precedence in the module docstring). ``client`` is a
    Telegram ``language_code``; the others are 'zh'/'en' or None."""
    return (
        as_lang(fixed)
        or as_lang(chosen)
        or message_lang(text)
        or as_lang(previous)
        or client_lang(client)
        or detect_lang(text)
    )
