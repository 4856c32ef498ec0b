"""The format asked about, when a message names two ('bf16 gives 4481 tok/s and FP8 4868. Shouldn't FP8 be
faster?', '我看示例写的是 bf16。deepseek-v3 微调支持 fp8 训练吗？').

Session 34 (issue 24, the metamorphic sweep's clause order): the first precision word in the text was sized,
so the same question with its question first sized the other format. The design's rule for two mentions of
one setting (docs/design.md §8): the one asked about is sized, the other named. Here the first precision
said in the first sentence that asks goes first, then the others in their order (bot.parse.assemble sizes
the first and names the rest as repeated); with no format in that sentence the order is the text's.

A format said of the KV cache there ('How much KV room should fp8 give?', 'KV cache 用 fp8') is the cache's
(bot.parse.kv_cache_types), not the weights': it is not taken as the one asked about.
"""

from __future__ import annotations

import re

from bot.parse import precision_words as pw
from bot.parse.regex import rc
from bot.parse.written_settings import name_suffix

KV_NEAR_RE = rc(r"(?i)\bkv\b|kv[\s_-]?cache|\bcache\b|缓存")
"""The KV cache named near a format in the asking sentence: that format is the cache's."""
KV_NEAR = 24
"""Characters before (and half as many after) a format searched for :data:`KV_NEAR_RE`."""


def asked_format(s: str) -> list[re.Match[str]]:
    """The precision words of ``s`` in the order they are read: a 16- or 32-bit dtype ending a model's name
    last (:func:`bot.parse.written_settings.name_suffix`), and, when they name two or more formats, the
    first one said in the first sentence that asks first (:func:`asked_first`)."""
    found = sorted(pw.PRECISION_RE.finditer(s), key=lambda m: name_suffix(s, m.start()))
    if len(found) < 2:
        return found
    return asked_first(s, found)


def _format(s: str, m: re.Match[str]) -> str | None:
    """The format a precision word names (None: a flag turned off, a dtype ending a name, not a format)."""
    p = m.group("p").replace(" ", "").replace("-", "")
    if p.endswith("false") or name_suffix(s, m.start()):
        return None
    return pw.PRECISION_MAP.get(p, pw.BIT_WIDTHS.get(p))


def asked_first(s: str, found: list[re.Match[str]]) -> list[re.Match[str]]:
    """``found`` with the first format said in the first asking sentence moved first, when ``found``
    names two or more formats; else with a format said of the KV cache after the others."""
    if len({v for m in found if (v := _format(s, m))}) < 2:
        return found
    from bot.parse.asked_model import ASKING_RE, SENTENCE_RE  # only where two formats are named

    for sentence in SENTENCE_RE.finditer(s):
        text = sentence.group(0)
        if not text.strip() or not ASKING_RE.search(text):
            continue
        for m in found:
            if sentence.start() <= m.start() < sentence.end() and _format(s, m) and not _kv_said(s, m):
                return [m, *(x for x in found if x is not m)]
        break
    return sorted(found, key=lambda m: _kv_said(s, m))  # the cache's format after the weights'


def _kv_said(s: str, m: re.Match[str]) -> bool:
    """Whether the KV cache is named right around ``m`` (before it, or just after: 'fp8 KV cache')."""
    return KV_NEAR_RE.search(s, max(0, m.start() - KV_NEAR), min(len(s), m.end() + KV_NEAR // 2)) is not None


def typed_format(word: str, value: str | None) -> str:
    """A format word named as not used, as typed, with the integer width it stands for when the word has no
    digit ('awq (int4)', 'gptq (int4)'): the format asked about is sized and the other named (s34), and a
    method's name alone does not say its width."""
    if value in ("int4", "int8") and not any(ch.isdigit() for ch in word):
        return f"{word} ({value})"
    return word
