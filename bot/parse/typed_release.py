"""Which release of a model the name typed (s38 release): 'instruct' ('Qwen2.5-7B-Instruct', '-Chat', Gemma's
'-it'), 'base' (a hub id with none of those, 'Qwen/Qwen2.5-7B', or a '-Base' suffix), else None. vLLM checks
--max-model-len against the config.json of the repository it loads, and the releases differ
(Qwen/Qwen2.5-7B-Instruct: max_position_embeddings 32,768; Qwen/Qwen2.5-7B: 131,072): the request carries
the release (``SizingRequest.release``) and estimator.ledger.beyond_window checks that release's window.
Imported behind its gate (bot.parse.field_steps): a name with none of these marks pays nothing."""

from __future__ import annotations

import re

from bot.parse.request_fields import as_typed

_INSTRUCT = re.compile(r"instruct|chat|[-_]it\b", re.IGNORECASE)
"""A chat release's mark in the name typed ('-Instruct', '-Chat', 'chatglm', Gemma's '-it')."""
_BASE = re.compile(r"[-_]base\b", re.IGNORECASE)
"""The base release's mark in the name typed ('Qwen3-8B-Base')."""
_AFTER = re.compile(r"[-_](?:(instruct|chat|it)|(base))\b", re.IGNORECASE)
"""The same marks glued after the catalog name ('Qwen2.5-72B-Base', 'qwen2.5-7b-chat')."""
_HUB_ORG = re.compile(r"(?:^|[\s\"'`=:(\[])[A-Za-z0-9][\w.-]*/\Z")
"""An organisation before the name, as a hub id writes it ('Qwen/', 'model: qwen/'), not a folder of a path
('/models/', './')."""


def typed_release(raw: str, text: str, substituted: bool, bare_is_base: bool) -> str | None:
    """'instruct', 'base' or None for the model ``text`` (as the parser matched it) in ``raw``; None for
    a release the catalog sizes as another ('Qwen2.5-7B-Instruct-1M', ``substituted``): its window is its
    own. A hub id with no suffix is the base only where the catalog says the bare name is the base release
    (``bare_is_base``: an entry citing the base config's own window, Qwen2.5); Qwen/Qwen3-8B is the
    post-trained release (its base is Qwen3-8B-Base), so a bare id elsewhere says nothing."""
    if substituted:
        return None
    typed = as_typed(raw, text)
    at = raw.find(typed)
    if _INSTRUCT.search(typed):
        return "instruct"
    if _BASE.search(typed):  # 'Qwen3-8B-Base': the catalog's name holds the mark
        return "base"
    if at < 0:
        return None
    after = _AFTER.match(raw, at + len(typed))
    if after is not None:
        return "instruct" if after.group(1) else "base"
    return "base" if bare_is_base and _HUB_ORG.search(raw, 0, at) else None
