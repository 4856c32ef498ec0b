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
_OTHER_ENGINES = ("lmdeploy", "sglang")
"""Rollout engines ms-swift can run instead of vLLM (``--use_lmdeploy``, ``--use_sglang``)."""
_SWITCH_RE = rc(
    r"(?<![a-z0-9])(?P<k>use[_\-](?:vllm|"
    + "|".join(_OTHER_ENGINES)
    + r")|(?:"
    + "|".join(_OTHER_ENGINES)
    + r")[_\-][a-z_]+)\s*(?:=|:)?\s*(?P<v>[a-z0-9.]+)"
)
"""An engine switch or another engine's key with its value, as written in a message."""


def vllm_turned_off(keys: dict[str, object]) -> bool:
    """Whether the settings ``keys`` (key → value, dashes and case as written) turn the vLLM rollout
    engine off or pick another one: 'use_vllm false', 'use_lmdeploy true', or another engine's own key
    ('lmdeploy_session_len'). One rule for the message's words (:func:`keyed_engine`) and a config's keys
    (:func:`bot.parse.configs.training._vllm_share`; session 12 review 8)."""
    for key, value in keys.items():
        name, on = key.lstrip("-").lower().replace("-", "_"), str(value).lower() in ("true", "1", "yes", "on")
        if name == "use_vllm" and str(value).lower() in ("false", "0", "no", "off"):
            return True
        if name.startswith("use_") and name[4:] in _OTHER_ENGINES and on:
            return True
        if name.startswith(tuple(e + "_" for e in _OTHER_ENGINES)):
            return True
    return False


def keyed_engine(s: str, key_start: int) -> str | None:
    """The engine whose name prefixes the key starting at ``key_start`` of the normalized text ``s``
    ('vLLM' for 'vllm_gpu_memory_utilization'), unless ``s`` turns it off; else None."""
    m = _PREFIX_RE.search(s[max(0, key_start - 8) : key_start])
    if m is None or vllm_turned_off({k.group("k"): k.group("v") for k in _SWITCH_RE.finditer(s)}):
        return None
    return _ENGINES[m.group("e")]
