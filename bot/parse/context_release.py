"""A long-context release by its context suffix (round 22 zh): 'chatglm3-32k', 'chatglm2-6b-32k',
'Qwen2.5-7B-Instruct-1M'. The suffix glued after a catalog model's name is part of the name as typed,
never a number of the message (before, '-32k' was named a nonpositive number and '-1m' an unread one): the
release with the longer context keeps its model's weights (THUDM's ChatGLM3-6B-32K model card: ChatGLM3-6B
with its position encoding and training extended to 32K; Qwen's Qwen2.5-7B-Instruct-1M card: Qwen2.5-7B's
architecture), so it is sized as that model and the reply says so (substitution ``long_context_release``,
bot/core/interpretation.py), at the context the message gives."""

from __future__ import annotations

import re
from typing import Protocol

from bot.parse.regex import rc

LONG_CONTEXT = "long_context"
"""The mention's substitution: a long-context release sized as its catalog model."""
CONTEXT_RELEASE_RE = rc(r"(?<=\ue001)\s*[\-_](?P<n>\d{1,4}k|[1-9]m)(?![a-z0-9.])")
"""A context suffix right after a model masked by the name passes ('\ue001   -32k')."""
RELEASE_CUE = re.compile(r"[\-_](?:\d{1,4}k|[1-9]m)").search
"""What :data:`CONTEXT_RELEASE_RE` needs, searched in C: no Python frame on messages without it."""


class _Mention(Protocol):
    start: int
    end: int
    text: str
    model_id: str | None
    substitution: str | None


SUFFIX_END = re.compile(r"[\-_](\d{1,4}k|[1-9]m)$", re.IGNORECASE).search
"""A typed model name ending in a context suffix ('chatglm3-6b-32k', 'Phi-3-mini-128k')."""


def suffix_tokens(typed: str) -> int | None:
    """Tokens of the window a typed name's context suffix says: '-16k' 16 × 1,024, '-1m' 1,024 × 1,024
    (lmsys/vicuna-13b-v1.5-16k config.json: 4 × 4,096 = 16,384; THUDM/chatglm3-6b-32k: 32,768); None
    without one."""
    m = SUFFIX_END(typed)
    if m is None:
        return None
    size = m.group(1).lower()
    return int(size[:-1]) * (1024 if size.endswith("k") else 1024 * 1024)


def typed_release(mention: _Mention) -> None:
    """Mark ``mention`` :data:`LONG_CONTEXT` when its typed name ends in a context suffix its catalog model's
    id lacks ('chatglm3-6b-32k' matched whole as ChatGLM3-6B; 'Phi-3-mini-128k' keeps its own id)."""
    m = SUFFIX_END(mention.text) if mention.model_id and mention.substitution is None else None
    if m is not None and m.group(1).lower() not in mention.model_id.lower():
        mention.substitution = LONG_CONTEXT


def context_releases(s: str, mentions: list[_Mention]) -> str:
    """``s`` with each context suffix after a catalog model blanked, the suffix added to that mention's
    typed name and the mention marked :data:`LONG_CONTEXT` (no other substitution set)."""
    for m in CONTEXT_RELEASE_RE.finditer(s):
        mention = next((x for x in mentions if x.start < m.start() <= x.end), None)
        if mention is None or mention.model_id is None:
            continue
        mention.text = f"{mention.text}-{m.group('n')}"
        mention.substitution = mention.substitution or LONG_CONTEXT
        s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    return s
