"""A second model named by its family and tags, with no size (issue 24, s14): 'LoRA fine-tune MiniCPM-2B,
then MiniCPM-dpo-Int4', '部署 Qwen2.5-7B 和 MiniCPM-dpo-Int4'.

The passes of :func:`bot.parse.models.extract_models` read a family with a size ('MiniCPM-2B') or a
family alone when the message has no size at all ('fine-tune StarCoder'); a family with tags and no
size beside another model ('MiniCPM-dpo-Int4') fell between them and was never named. It is a model of
its own (named as typed, no size, no catalog id), so the reply names it as another model not sized.
"""

from __future__ import annotations

import re
from functools import cache

from bot.parse.regex import rc

TAGS = r"(?:[\-_](?!(?:factory|board|cpp|index|hub|api|agent|studio|app|recipes?)\b)[a-z][a-z0-9]*)+"
"""Tags after a family word ('-dpo-int4', '-chat'): not a tool named after the family ('LLaMA-Factory')."""


@cache
def _tagged_family(families: tuple[str, ...]) -> re.Pattern[str]:
    words = sorted((f for f in families if len(f) >= 4), key=len, reverse=True)
    alternation = "|".join(re.escape(w) for w in words)
    return rc(rf"(?<![a-z0-9.\-_/])(?:{alternation}){TAGS}(?![a-z0-9.\-_/])")


def tagged_family_names(s: str, families: tuple[str, ...], mark: str) -> list[tuple[int, int]]:
    """(start, end) of each family word with tags and no size in the normalized text ``s`` (names
    already read are masked with ``mark``)."""
    return [(m.start(), m.end()) for m in _tagged_family(families).finditer(s) if mark not in m.group(0)]
