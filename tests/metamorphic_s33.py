"""Rewrite families added in session 33 (s33-meta) to the sweep of :mod:`tests.metamorphic`: ways people
write the same question that the s31/s32 families did not try. Each is declared once in
``tests.metamorphic.FAMILIES`` with its expected effect: no stated key changes.

- ``card_words``: a count of cards spelt as a word ('8 A100s' → 'eight A100s', en; '8张' → '八张' is
  ``numerals_zh``).
- ``full_letters``: Latin letters as full-width letters ('Ａ１００', 'ＧＰＵ'), digits with them.
- ``spaced_units``: a size in gigabytes spaced or spelt loosely ('80G' → '80 G'; en: '80 gigs').
- ``thousands``: a length or count of a thousand or more in prose with a thousands separator ('8192' →
  '8,192'; not a command's or config's value, nor a card's number: 'RTX 6000').
- ``qian``: in Chinese, a length of 2k–9k in 千 ('8k' → '8千'): declared to change the length to N·1000.
- ``org_names``: the model named with its maker's organization ('Qwen2.5-7B' → 'Qwen/Qwen2.5-7B',
  'Llama-3-8B' → 'meta-llama/Meta-Llama-3-8B'), or spaced ('Llama 3 8B').
- ``context_first``: a sentence about who asks before the question ('我们公司想评估一下算力。', 'Hi all,
  we are a small lab on a tight budget.').
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
_CARD_COUNT_RE = re.compile(
    r"(?<![\w.$,\-*×])(?<![*x×] )([1-9]|10) "
    r"(?=(?:NVIDIA |Nvidia )?(?:[AHLB]\d{2,3}S?|RTX ?\d{4}|[34]090)s?\b)"
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


_NOT_PROSE_BEFORE_RE = re.compile(r"(?:--?[\w\-.]+[\s=]+|[\w\-.]+\s*[:=]\s*|(?:rtx|pro|quadro)\s+)$", re.I)
"""A flag, a key or a card's name right before the number: a command's or config's value ('--max-model-len
4096', 'cutoff_len: 1024') or a card ('RTX 6000'), never written with a separator."""


def _sized(m: re.Match[str], text: str) -> bool:
    """A length or count in prose, not a year, a model's number or a command's value: a power of two from
    1024, or a multiple of 500 from 3000 (not 2000–2030)."""
    n = int(m[1])
    if not ((n >= 1024 and n & (n - 1) == 0) or (n >= 3000 and n % 500 == 0)):
        return False
    return _NOT_PROSE_BEFORE_RE.search(text, max(0, m.start() - 48), m.start()) is None


def thousands(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """'8192' → '8,192' (a separator after the thousands, in prose); in Chinese, '8k' → '8千' for a length
    of 2k–8k (1千 is 1000, so the length read may be 8000 where '8k' was 8192: that key is declared
    changed by at most 3 %, :func:`qian_restate`)."""
    if any(_sized(m, text) for m in _LONG_RE.finditer(text)):
        yield "comma", _LONG_RE.sub(lambda m: f"{int(m[1]):,}" if _sized(m, text) else m[0], text)


def qian(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """In Chinese, '8k' → '8千' for a length of 2k–9k (its expected effect: :func:`qian_restate`)."""
    if any(1 < int(m[1]) < 10 for m in _K_RE.finditer(text)):
        yield "k>qian", _K_RE.sub(lambda m: f"{m[1]}千" if 1 < int(m[1]) < 10 else m[0], text)


QIAN_KEYS = frozenset(("seq_len", "max_model_len"))
"""The lengths :func:`qian` changes: '8千' is 8000 where '8k' was 8192."""


def qian_restate(stated: dict[str, Any], text: str) -> dict[str, Any]:
    """``stated`` with each length of N·1024 (N 2–9) written 'N千' in ``text`` as N·1000."""
    out = dict(stated)
    for key in QIAN_KEYS & out.keys():
        value = out[key]
        if isinstance(value, int) and value % 1024 == 0 and f"{value // 1024}千" in text:
            out[key] = value // 1024 * 1000
    return out


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
