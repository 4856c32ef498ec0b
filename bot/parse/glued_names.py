"""A tool or app whose name holds a model family's (s20-fixb, issue 24): 'gpt4all', 'qwen-agent',
'qwen_agent', 'llama-index', 'chatglm-webui'. The family's part names no model: the name is the tool's,
named as typed and not modelled (a serving question's runtime, a training question's tool), never the
model sized or named unknown. Before, 'gpt4all' was read as an unknown model 'gpt4' and 'qwen-agent' passed
in silence. The grammar, as :mod:`bot.parse.port_names`' for 'llama2.c': a family's name glued to a software
word (:data:`TAILS`), directly ('gpt4all') or by '-' / '_' ('qwen-agent').
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.lower_tools import tool_item

TAILS = r"(?:all|agents?|webui|web-ui|chat-ui|index|sdk|cli|studio|desktop|copilot|hub)"
"""Software words a tool's name ends in after a model family's ('gpt4all', 'qwen-agent', 'llama-index')."""
TAIL_AFTER_RE = re.compile(rf"[\-_]?{TAILS}(?![a-z0-9])")
"""Right after a model mention: the tail that makes it a tool's name."""
GATE = re.compile(rf"[a-z0-9][\-_]?{TAILS}(?![a-z0-9])")
"""The literal gate at the call site (:func:`bot.parse.models.extract_models`): a compiled C search."""
_NAME_RE = re.compile(rf"(?<![a-z0-9_.\-])(?P<name>[a-z][a-z0-9.]*?[\-_]?{TAILS})(?![a-z0-9_\-])", re.I)


def drop_glued_stems(original: str, s: str, mentions: list[Any]) -> tuple[str, list[Any]]:
    """``s`` (``original`` with its model mentions masked) with each mention glued to a tool's tail unmasked,
    and ``mentions`` less those ('gpt4' of 'gpt4all', 'qwen' of 'qwen-agent'): a tool's name, no model. A
    mention with a size ('qwen2.5-7b-agent' is no tool's) is kept."""
    kept = []
    for m in mentions:
        if m.size is None and m.model_id is None and TAIL_AFTER_RE.match(s, m.end):
            s = s[: m.start] + original[m.start : m.end] + s[m.end :]
        else:
            kept.append(m)
    return s, kept


def glued_tools(raw: str, training: bool, known: Any) -> list[tuple[str, str]]:
    """The 'not used' item of each tool in ``raw`` (as typed) whose name is a model family's (the model
    reader's families, :func:`bot.parse.port_names.family_stem`) glued to a software word ('qwen-agent'),
    unless another reader knows it (``known(name)``: 'GPT4All' is named as a llama.cpp front-end)."""
    from bot.parse.port_names import family_stem

    out: list[tuple[str, str]] = []
    for m in _NAME_RE.finditer(raw):
        name = m.group("name")
        stem = re.sub(rf"[\-_]?{TAILS}$", "", name, flags=re.I).lower()
        if len(stem) >= 3 and family_stem(stem) and not known(name):
            item = tool_item(name, training)
            if item not in out:
                out.append(item)
    return out
