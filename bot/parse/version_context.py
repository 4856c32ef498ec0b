"""A family's version said once, its sizes said without it (s25, issue 24): "I'm training Llama-2 … Llama
70B full FT … the 70B full fine-tune" — the 'Llama 70B' of that message is Llama-2-70B, the version the
user named, never the latest release of the family (Llama-3.3-70B, a NO_VERSION substitution) nor the
first one ('llama 7b' is LLaMA-7B in the catalog's aliases). The versioned name and the size, put together
as a release is written ('llama-2 70b'), must be a catalog name exactly (as :mod:`bot.parse.size_apart`
asks), else nothing changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.parse.cue_words import SWITCH
from bot.parse.regex import rc

UNVERSIONED_RE = rc(r"(?P<name>[a-z][a-z\-_ ]*?)[\s\-_]*(?P<size>\d+(?:\.\d+)?[bm])")
"""A family and a size with no version between them ('llama 70b', 'qwen-7b')."""
SEPARATORS_RE = rc(r"[\s\-_.]+")
APART_RE = rc(
    rf"(?i){SWITCH}|\b(?:instead|rather|old|older|previous|earlier)\b|而不是|以前|之前|旧|老"
    r"|(?:\bvs\.?|\bversus|\bor|对比|还是|或者?)\s*(?:the\s+)?$"
)
"""Words between the two that part them ('from Llama-2 … now Llama 70B', 'Llama-2 is old'), or a choice
right before the second ('Qwen1.5 vs Qwen 72B'): the size is then of another release, nothing changes
('A100 vs H100' between them compares cards, not models)."""

Resolve = Callable[[str], str | None]
"""A written release ('llama-2 70b') → its catalog id when that is a catalog name exactly, else None."""


def with_named_version(s: str, mentions: list[Any], resolve: Resolve) -> list[Any]:
    """``mentions`` of the normalized text ``s`` (bot.parse.models.ModelMention, changed in place) where
    each written as family + size (:data:`UNVERSIONED_RE`) takes the release of the version a size-less
    mention of the same family names ('llama-2' beside 'llama 70b' → Llama-2-70B), unless words part them
    (:data:`APART_RE`) or more than one version of that family is named (none is then the size's: s25
    review); the size-less mention that gave its version is then no model of its own (it names the
    releases sized), so it is left out."""
    versioned = [mm for mm in mentions if mm.model_id is None and mm.size is None and mm.suggestions]
    if not versioned:
        return mentions
    used: list[Any] = []
    for mm in mentions:
        m = UNVERSIONED_RE.fullmatch(mm.text.lower()) if mm.size is not None else None
        if m is None:
            continue
        family = SEPARATORS_RE.sub("", m.group("name"))
        own = [named for named in versioned if _versions(named, family)]
        if len({SEPARATORS_RE.sub("", named.text.lower()) for named in own}) != 1:
            continue  # 'Llama-2 and Llama 3 … Llama 70B': two versions, neither is the size's
        named = own[0]
        first, last = sorted((named, mm), key=lambda x: x.start)
        if APART_RE.search(s, first.end, last.start):
            continue
        release = resolve(f"{named.text.lower()} {m.group('size')}")
        if release is not None:  # 'llama-2' + 'llama 70b': Llama-2-70B, as the user's version says
            mm.model_id, mm.substitution, mm.suggestions = release, None, []
            used.append(named)
    return [mm for mm in mentions if not any(mm is u for u in used)]


def _versions(named: Any, family: str) -> bool:
    """Whether the size-less mention ``named`` is a version of ``family`` ('llama-2' of 'llama')."""
    written = SEPARATORS_RE.sub("", named.text.lower())
    return written != family and written.startswith(family)
