"""A colocated RL rollout said in prose or flags ('vllm_mode colocate', 'colocate mode', OpenRLHF's
``--colocate_all_models``, '共置模式'): used only where the estimator models it (review of session 16).

:func:`estimator.colocate.colocated` gives the rollout engine TRL's share of each training card
(``GRPOConfig.vllm_mode="colocate"``, ``vllm_gpu_memory_utilization`` 0.3). verl's hybrid engine and
OpenRLHF's colocation put the engine to sleep (its memory freed) while the model trains, so no share is
kept from the training plan; other tools are not modelled. There the word is named as not used (reason
``colocate_not_trl``), never set silently on the request.
"""

from __future__ import annotations

from bot.parse.regex import rc
from bot.parse.stack_words import training_tool

COLOCATE_RE = rc(
    r"(?<![a-z])(?:vllm[_\s\-]*mode\s*[=:]?\s*)?colocate(?:d)?(?:\s*(?:mode|模式))?(?![a-z])|共置模式|同卡部署"
)
"""A colocate word ('colocate', 'vllm_mode=colocate', 'colocate mode', '共置模式')."""
_AS_TYPED_RE = rc(  # a run's start only (or '--'): tried mid-run, a long run of letters cost O(n²) (s24)
    r"(?:--|(?<![a-z_.]))[a-z_.]*(?:vllm[_\s\-]*mode\s*[=:]?\s*)?colocate[a-z_]*|共置模式|同卡部署"
)
_VLLM_MODE_RE = rc(r"vllm[_\s\-]*mode")
_TRL_RE = rc(r"\btrl\b|grpo[\s_]*(?:trainer|config)|rloo[\s_]*trainer")
_SLEEPING_RE = rc(r"\bverl\b|\bopenrlhf\b|colocate_all_models|hybrid[\s_\-]*engine")
"""verl and OpenRLHF (their names, OpenRLHF's flag, verl's hybrid engine): the engine sleeps."""


def colocate_setting(s: str) -> tuple[dict[str, bool], list[tuple[str, str]]]:
    """({'rollout_colocated': True}, []) when ``s`` (normalized) says colocate with TRL, or with no tool
    named and TRL's ``vllm_mode``; else ({}, [(the word as typed, 'colocate_not_trl')]); ({}, []) when no
    colocate word is said."""
    m = _AS_TYPED_RE.search(s)
    if m is None:
        return {}, []
    tool = training_tool(s)
    trl = tool == "TRL" or _TRL_RE.search(s) is not None
    no_tool = tool is None and _SLEEPING_RE.search(s) is None
    if trl or (no_tool and _VLLM_MODE_RE.search(s)):
        return {"rollout_colocated": True}, []
    return {}, [(m.group(0).strip(), "colocate_not_trl")]
