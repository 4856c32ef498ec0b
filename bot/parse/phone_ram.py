"""A phone's memory with no model named (s30): "我的手机是 12GB 内存", "手机运行内存 16G",
"8G 运存的安卓手机", "my phone has 12 GB of RAM", "a 16 GB RAM Android phone", "my phone's RAM is 8GB". A
phone shares one memory between its CPU and GPU (as the named phones of :mod:`bot.parse.unified_ram` do), so
the RAM said of it is the memory the weights and the cache live in. Before, no device was read and the
question was sized on the default 80 GB data-centre card, the RAM named as host memory (docs/design.md §8:
never replaced silently). The phone is named as typed ('手机', 'phone', 'Android phone') with that memory, as
an unknown card with its stated memory is (bot/parse/lexicon.py UNKNOWN_GPU_RE: its phone branch reads the
rewritten form only)."""

from __future__ import annotations

import re

from bot.parse.regex import rc

_N = r"(?P<v{i}>\d{{1,2}}(?:\.\d)?)\s*(?:gb|gib|g)(?![a-z])"
_ZH_PHONE = r"(?P<dev{i}>(?:安卓|苹果|android\s*)?手机)"
_ZH_RAM = r"(?:运行\s*内存|内存|运存|ram)"
_EN_PHONE = r"(?P<dev{i}>(?<![a-z])(?:android\s+|smart)?phone)"
_EN_RAM = r"(?:ram|memory|lpddr5x?|unified\s+memory)"

_FORMS = (
    # '手机是 12GB 内存', '手机 8G 运存', '手机(12G 内存)', '手机有 8G 的运行内存'
    _ZH_PHONE
    + r"\s*(?:[(,:]\s*)?(?:配置\s*)?(?:是|有|只有|就|才|为)?\s*(?:的\s*)?"
    + _N
    + r"\s*(?:的\s*)?"
    + _ZH_RAM,
    # '手机内存 16GB', '手机的运行内存是 12G', '手机 ram: 8g'
    _ZH_PHONE + r"\s*(?:的\s*)?" + _ZH_RAM + r"\s*(?::\s*)?(?:是|为|有|只有|就|才)?\s*(?:的\s*)?" + _N,
    # '16G 运行内存的手机', '12GB 内存的安卓手机'
    r"(?<![\d.])" + _N + r"\s*(?:的\s*)?" + _ZH_RAM + r"\s*(?:的\s*)?" + _ZH_PHONE,
    # 'my phone has 12 GB of RAM', 'a phone with 8GB RAM', 'an Android phone that has only 6 GB of memory'
    _EN_PHONE
    + r"(?:'s)?\s+(?:(?:that|which)\s+)?(?:has|have|with|comes\s+with|packs)\s+(?:only\s+|just\s+)?"
    + _N
    + r"\s*(?:of\s+)?"
    + _EN_RAM,
    # "my phone's RAM is 12GB", 'phone memory: 8 GB'
    _EN_PHONE + r"(?:'s)?\s+" + _EN_RAM + r"\s*(?:is\s+|of\s+|:\s*)?(?:only\s+|just\s+)?" + _N,
    # 'a 16 GB RAM Android phone', 'my 12GB-RAM phone'
    r"(?<![\d.])" + _N + r"[\s\-]*(?:of\s+)?" + _EN_RAM + r"\s+" + _EN_PHONE,
)
PHONE_RAM_RE = rc("|".join(f"(?:{form.format(i=i)})" for i, form in enumerate(_FORMS)))
"""A phone (no maker or model named: those are :data:`bot.parse.unified_ram.UNIFIED_RAM_RE`'s) and its RAM,
before or after it; the memory word is required (a phone's '256G' alone is its storage)."""


def phone_memory(s: str) -> str:
    """``s`` with each phone and its RAM written '<phone> with N gb ' (as a named device's is, read by
    :func:`bot.parse.memory_forms.memory_forms`; called where the text names a phone and a memory word)."""
    return PHONE_RAM_RE.sub(_as_device, s)


def _as_device(m: re.Match[str]) -> str:
    i = next(k for k in range(len(_FORMS)) if m.group(f"v{k}") is not None)
    return f" {' '.join(m.group(f'dev{i}').split())} with {m.group(f'v{i}')}gb "
