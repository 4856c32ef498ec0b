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
from operator import itemgetter

from bot.parse import precision_words as pw
from bot.parse.regex import rc
from bot.parse.written_settings import name_suffix

KV_NEAR_RE = rc(r"(?i)\bkv\b|kv[\s_-]?cache|\bcache\b|缓存")
"""The KV cache named near a format in the asking sentence: that format is the cache's."""
KV_NEAR = 24
"""Characters before (and half as many after) a format searched for :data:`KV_NEAR_RE`."""


def asked_format(s: str, found: list[re.Match[str]]) -> list[re.Match[str]]:
    """The precision words ``found`` (two or more, in text order) in the order they are read: a 16- or
    32-bit dtype ending a model's name last (:func:`bot.parse.written_settings.name_suffix`); when they name
    two or more formats, the first one said in the first sentence that asks first, else a format said of
    the KV cache after the others. The caller passes one word or none through (no Python call)."""
    found = [m for m in found if not _width_written(s, m, found)]  # 'GPTQ wbits=3': int3 (s34 review)
    keyed: list[tuple[bool, re.Match[str], str | None]] = []
    values: set[str | None] = set()
    for m in found:
        suffix = name_suffix(s, m.start())
        p = m["p"].replace(" ", "").replace("-", "")
        value = None if suffix or p.endswith("false") else pw.PRECISION_MAP.get(p, pw.BIT_WIDTHS.get(p))
        keyed.append((suffix, m, value))
        values.add(value)
    keyed.sort(key=itemgetter(0))
    values.discard(None)
    ordered = list(map(itemgetter(1), keyed))
    if len(values) < 2:
        return ordered
    from bot.parse.asked_model import ASKING_RE, SENTENCE_RE  # only where two formats are named

    for sentence in SENTENCE_RE.finditer(s):
        if not sentence.group(0).strip() or not ASKING_RE.search(sentence.group(0)):
            continue
        for _, m, value in keyed:
            if value and sentence.start() <= m.start() < sentence.end() and not _kv_said(s, m):
                ordered.remove(m)
                return [m, *ordered]
        break
    cache_format = [m for _, m, _ in keyed if _kv_said(s, m)]  # the cache's format after the weights'
    return [m for m in ordered if m not in cache_format] + cache_format


def _kv_said(s: str, m: re.Match[str]) -> bool:
    """Whether the KV cache is named right around ``m`` (before it, or just after: 'fp8 KV cache')."""
    return KV_NEAR_RE.search(s, max(0, m.start() - KV_NEAR), min(len(s), m.end() + KV_NEAR // 2)) is not None


WIDTH_GAP_RE = rc(r"[^.;!?。；！？]{0,24}")
"""What may stand between a quantizer's name and its width ('GPTQ wbits=3', 'AWQ config: {"w_bit": 4')."""
ALTERNATIVE_RE = rc(r"(?i)\bor\b|\bvs\.?|\bversus\b|\bthan\b|还是|或者?|对比|比较|/")
"""Words that set two formats side by side ('AWQ or 8-bit'): each its own format, no width of the other."""
_WIDTHS = frozenset(("int2", "int3", "int4", "int8"))


def _width_written(s: str, m: re.Match[str], found: list[re.Match[str]]) -> bool:
    """Whether ``m`` is a quantizer named without its width ('gptq', 'awq': 4 bits implied) and a width is
    written right after it ('GPTQ 3-bit', 'GPTQ wbits=3', read as 'int3'): the width is the quantizer's,
    so the implied 4 bits are not a second format (s34 review: 'wbits=3' was named as repeated)."""
    if m["p"] not in pw.AS_INT:
        return False
    for w in found:
        p = w["p"].replace(" ", "").replace("-", "")
        value = pw.PRECISION_MAP.get(p, pw.BIT_WIDTHS.get(p))
        if w.start() >= m.end() and value in _WIDTHS and p not in pw.AS_INT:
            gap = s[m.end() : w.start()]
            return WIDTH_GAP_RE.fullmatch(gap) is not None and ALTERNATIVE_RE.search(gap) is None
    return False
