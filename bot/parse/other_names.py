"""A second model named by its family and tags, with no size (issue 24, s14): 'LoRA fine-tune MiniCPM-2B,
then MiniCPM-dpo-Int4', '部署 Qwen2.5-7B 和 MiniCPM-dpo-Int4'.

The passes of :func:`bot.parse.models.extract_models` read a family with a size ('MiniCPM-2B') or a
family alone when the message has no size at all ('fine-tune StarCoder'); a family with tags and no
size beside another model ('MiniCPM-dpo-Int4') fell between them and was never named. It is a model of
its own (named as typed, no size, no catalog id), so the reply names it as another model not sized.

s35 (round 30 zh, zh30-008 'qwen-vl-chat 用 lmdeploy … 量化成 INT4'): such a name said alone, with no other
model in the message, is the model asked about, named as typed (its size unknown) when every tag is a
variant word a release carries ('-vl', '-chat', '-instruct', '-int4': :data:`VARIANT_TAGS`); a tag of any
other word may be a tool or a repository named after the family ('ChatGLM-Tuning', 'Qwen-Agent'), so it is
not read alone. Before, a message whose other words hid the job ('量化成 INT4', 'on one 4090') named no model.
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


VARIANT_TAGS = (
    r"(?:[\-_](?:vl|chat|instruct|base|coder|math|audio|omni|it|int4|int8|awq|gptq|fp8|distill|thinking"
    r"|preview|v|o))+"
)
"""A release's variant tags ('-vl-chat', '-coder-instruct', '-int4'): words of a model's name, no tool's."""
LONE_TAGS = ("-vl", "-chat", "-instruct", "-base", "-coder", "-math", "-audio", "-omni", "-int4", "-int8")
"""The variant tags one of which must be in the text (``in`` tests in C at the call site, no regex search:
most messages have none)."""


def lone_tagged_name(s: str) -> list[tuple[int, int]]:
    """(start, end) of the first catalog family with variant tags and no size (:data:`VARIANT_TAGS`) in the
    normalized text ``s`` of a message that named no model otherwise (the caller tests :data:`LONE_TAGS`)."""
    from bot.parse.model_index import _model_index  # lazily: models imports this module

    m = _lone_tagged(_model_index().families).search(s)
    return [(m.start(), m.end())] if m is not None else []


@cache
def _lone_tagged(families: tuple[str, ...]) -> re.Pattern[str]:
    words = sorted((f for f in families if len(f) >= 4), key=len, reverse=True)
    alternation = "|".join(re.escape(w) for w in words)
    return rc(rf"(?<![a-z0-9.\-_/])(?:{alternation}){VARIANT_TAGS}(?![a-z0-9.\-_/])")
