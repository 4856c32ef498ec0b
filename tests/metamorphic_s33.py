"""Rewrite families added in session 33 (s33-meta) to the sweep of :mod:`tests.metamorphic`: ways people
write the same question that the s31/s32 families did not try. Each is declared once in
``tests.metamorphic.FAMILIES`` with its expected effect: no stated key changes.

- ``card_words``: a count of cards spelt as a word ('8 A100s' → 'eight A100s', en; '8张' → '八张' is
  ``numerals_zh``).
- ``full_letters``: Latin letters as full-width letters ('Ａ１００', 'ＧＰＵ'), digits with them.
- ``spaced_units``: a size in gigabytes spaced or spelt loosely ('80G' → '80 G'; en: '80 gigs').
- ``thousands``: a length of a thousand or more with a thousands separator ('8192' → '8,192') or, in
  Chinese, in 千 ('8k' → '8千').
- ``org_names``: the model named with its maker's organization ('Qwen2.5-7B' → 'Qwen/Qwen2.5-7B',
  'Llama-3-8B' → 'meta-llama/Meta-Llama-3-8B'), or spaced ('Llama 3 8B').
- ``context_first``: a sentence about who asks before the question ('我们公司想评估一下算力。', 'Hi all,
  we are a small lab on a tight budget.').
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
_CARD_COUNT_RE = re.compile(
    r"(?<![\w.$,\-])([1-9]|10) (?=(?:NVIDIA |Nvidia )?(?:[AHLB]\d{2,3}S?|RTX ?\d{4}|[34]090)s?\b)"
)


def card_words(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """'8 A100s' → 'eight A100s', '2 H100' → 'two H100' (a count of one to ten before a card's name)."""
    if _CARD_COUNT_RE.search(text):
        yield "word", _CARD_COUNT_RE.sub(lambda m: _WORDS[int(m[1])] + " ", text)


def full_letters(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """ASCII letters and digits as their full-width forms ('Ａ１００'), as some Chinese input methods type."""
    new = re.sub(r"[A-Za-z0-9]", lambda m: chr(ord(m[0]) + 0xFEE0), text)
    if new != text:
        yield "full", new


_GIB_RE = re.compile(r"(?<![\w.])(\d{1,3})\s?(?:GB|G)(?![\w/])")


def spaced_units(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """'80G' / '80GB' → '80 G'; in English also '80 gigs'."""
    if _GIB_RE.search(text):
        yield "spaced-G", _GIB_RE.sub(lambda m: f"{m[1]} G", text)
        if lang == "en":
            yield "gigs", _GIB_RE.sub(lambda m: f"{m[1]} gigs", text)


_LONG_RE = re.compile(r"(?<![\w.\-=/:,])([1-9]\d{3,5})(?![\w.,])")
_K_RE = re.compile(r"(?<![\w.\-=/])(\d{1,3})[kK](?![a-zA-Z0-9])")


def _sized(m: re.Match[str]) -> bool:
    """A length or count, not a year or a model's number: a power of two from 1024, or a multiple of 500
    from 3000 (not 2000–2030)."""
    n = int(m[1])
    return (n >= 1024 and n & (n - 1) == 0) or (n >= 3000 and n % 500 == 0)


def thousands(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """'8192' → '8,192' (a separator after the thousands); in Chinese, '8k' → '8千'."""
    if any(_sized(m) for m in _LONG_RE.finditer(text)):
        yield "comma", _LONG_RE.sub(lambda m: f"{int(m[1]):,}" if _sized(m) else m[0], text)
    if lang == "zh" and _K_RE.search(text):
        yield "qian", _K_RE.sub(lambda m: f"{m[1]}千", text)


_QWEN_RE = re.compile(r"(?<![\w\-./])(Qwen\d(?:\.\d)?-\d+(?:\.\d+)?B)(?![\w.\-])")
_LLAMA_RE = re.compile(r"(?<![\w\-./])Llama-(\d)-(\d+)B(?![\w.\-])")


def org_names(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """'Qwen2.5-7B' → 'Qwen/Qwen2.5-7B'; 'Llama-3-8B' → 'meta-llama/Meta-Llama-3-8B' and 'Llama 3 8B'."""
    if _QWEN_RE.search(text):
        yield "qwen-org", _QWEN_RE.sub(lambda m: f"Qwen/{m[1]}", text)
    if _LLAMA_RE.search(text):
        yield "llama-org", _LLAMA_RE.sub(lambda m: f"meta-llama/Meta-Llama-{m[1]}-{m[2]}B", text)
        yield "llama-spaced", _LLAMA_RE.sub(lambda m: f"Llama {m[1]} {m[2]}B", text)


_CONTEXT = {"zh": "我们公司想评估一下算力。", "en": "Hi all, we are a small lab on a tight budget."}


def context_first(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """A sentence about who asks, with no number or setting in it, before the question."""
    yield "who-asks", f"{_CONTEXT[lang]}{'' if lang == 'zh' else ' '}{text}"
