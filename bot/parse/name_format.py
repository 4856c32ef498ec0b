"""The weight format a model's name ends with, when the catalog's alias took the whole name (one job).

The catalog lists quantized releases as aliases of the release they quantize (the alias
'qwen3-coder-480b-a35b-instruct-fp8' is Qwen3-Coder-480B-A35B, same shapes; estimator/data/models/qwen.toml),
so the name reader masks the whole name, format suffix included, and the precision reader never sees '-FP8'.
Round 15 zh (QwenLM/Qwen3-Coder issue 449): 'Qwen3-Coder-480B-A35B-Instruct-FP8 用 6 卡部署' was sized in
bf16. The suffix read here is the format of the weights served, as '-AWQ' or '-GPTQ-Int4' after a name the
catalog does not alias.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from bot.parse import precision_words as pw

_SUFFIX_RE = re.compile(
    r"[-_\s](fp8|awq(?:[-_]?(?:int[48]|[48]bit))?|gptq(?:[-_]?int[48])?|int4|int8|w8a8|w8a16|w4a16)$"
)
"""A quantized format ending a typed model name ('-FP8', '-AWQ', '-GPTQ-Int4', '-W8A8')."""


class _Named(Protocol):
    text: str


def named_format(models: Sequence[_Named]) -> str | None:
    """The precision (``fp8``/``int4``/``int8``, as :data:`bot.parse.precision_words.PRECISION_MAP` maps it)
    the first of ``models`` whose typed name ends with a quantized format says; None when none does."""
    for m in models:
        hit = _SUFFIX_RE.search(m.text.lower().strip())
        if hit:
            return pw.PRECISION_MAP.get(hit.group(1).replace("-", "").replace("_", ""))
    return None
