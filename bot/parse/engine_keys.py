"""A serving engine named by the prefix of its own key (issue 24, round 7): in a training question,
``vllm_gpu_memory_utilization=0.5`` (TRL's ``GRPOConfig``, ms-swift, OpenRLHF: the share of each card
the RL rollout engine takes) says the rollout engine is vLLM even when the message names no engine
otherwise. The key reader masks the key with its value, so the prefix is looked at in the text as it
was before (:func:`bot.parse.settings._serving`).

Not when the message turns that engine off or picks another ('--use_vllm false --use_lmdeploy true':
ms-swift keeps the vLLM keys of its defaults while lmdeploy generates), where the other engine's words
decide (:data:`bot.parse.settings.RUNTIMES`).
"""

from __future__ import annotations

from bot.parse.regex import rc

_PREFIX_RE = rc(r"(?<![a-z0-9])(?P<e>vllm)[_\-]$")
"""An engine's name glued to the key that follows it ('vllm_' of 'vllm_gpu_memory_utilization')."""
_ENGINES = {"vllm": "vLLM"}
_OFF_RE = rc(
    r"use[_\-]vllm\s*(?:=|:)?\s*(?:false|0)(?![a-z0-9])|use[_\-](?:lmdeploy|sglang)\s*(?:=|:)?\s*true"
)
"""vLLM turned off, or another rollout engine turned on ('--use_vllm false', 'use_lmdeploy=true')."""


def keyed_engine(s: str, key_start: int) -> str | None:
    """The engine whose name prefixes the key starting at ``key_start`` of the normalized text ``s``
    ('vLLM' for 'vllm_gpu_memory_utilization'), unless ``s`` turns it off; else None."""
    m = _PREFIX_RE.search(s[max(0, key_start - 8) : key_start])
    if m is None or _OFF_RE.search(s):
        return None
    return _ENGINES[m.group("e")]
