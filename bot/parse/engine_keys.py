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

import re
from typing import Any

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


_ENGINE_WORD = r"(?:vllm|lmdeploy|sglang)"
_OFF_RE = rc(
    r"(?<![a-z0-9_])-{0,2}use[_\-](?P<a>" + _ENGINE_WORD + r")"
    r"\s*(?:=|:|设为|设成|设置为|改为|改成|为|是|set\s+to|to)?\s*(?:false|0|no|off)(?![a-z0-9.])"
    r"|(?<![a-z0-9_\-])(?P<b>" + _ENGINE_WORD + r")\s*(?:=|:)?\s*(?:off|disabled|false)(?![a-z0-9.])"
    r"|(?<![a-z0-9_\-])(?P<c>" + _ENGINE_WORD + r")\s*(?:引擎)?\s*(?:关掉|关闭|关了|不开|禁用|停用|不用了?)"
    r"|(?:不用|不开|关掉|关闭|关了|禁用|停用|没开|没用|without|no|disabl(?:e|ed|ing))\s*(?:the\s+)?(?P<d>"
    + _ENGINE_WORD
    + r")(?![a-z0-9_])"
)
"""An RL rollout engine turned off, as people write it: the trainers' switch ('use_vllm false', '--use_vllm
False', 'use_vllm: 0', ms-swift's '--use_lmdeploy false'), the engine's name with off ('vllm off', 'vLLM
disabled', 'vllm 关掉', 'lmdeploy 不开') or a negation before it ('without vLLM', '不用 vllm', '关闭
vLLM'). TRL ``GRPOConfig.use_vllm`` and ms-swift ``--use_vllm`` default to False: generation then runs in
the trainer (transformers ``generate``)."""


def engines_turned_off(s: str) -> list[tuple[str, str]]:
    """(engine, the words as written) of each rollout engine the normalized text ``s`` turns off."""
    out = []
    for m in _OFF_RE.finditer(s):
        engine = next(g for g in m.groups() if g)
        out.append((engine, m.group(0).strip()))
    return out


def engine_on(pattern: Any, runtime: str, s: str, off: list[tuple[str, str]]) -> bool:
    """Whether ``pattern`` (an engine's name) names ``runtime`` in ``s`` outside the words that turn it
    off: '使用 vllm 加载 … 关掉 vllm 时 …' still runs vLLM; 'use_vllm false' alone does not, nor with that
    engine's own keys beside it ('--use-vllm False --vllm-gpu-memory-utilization 0.4': TRL ignores the
    vllm_* arguments when ``use_vllm`` is False, trl/trainer/grpo_config.py; s26-verd, en-069)."""
    if runtime.lower() in {engine for engine, _ in off}:
        for engine, written in off:
            s = s.replace(written, " ") if engine == runtime.lower() else s
        s = re.sub(r"(?<![a-z0-9_\-])-{0,2}" + re.escape(runtime.lower()) + r"[_\-][a-z_\-]*", " ", s)
    return pattern.search(s) is not None


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
    switches = {k.group("k"): k.group("v") for k in _SWITCH_RE.finditer(s)}
    if m is None or vllm_turned_off(switches) or any(e == "vllm" for e, _ in engines_turned_off(s)):
        return None
    return _ENGINES[m.group("e")]
