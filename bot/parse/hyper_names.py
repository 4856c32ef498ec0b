"""How a hyperparameter said in prose is named when it is not sized (s33-left2 #5; bot.parse.prose_forms).

A 'beta' is named as the user typed it ('beta: 0.1', 'dpo_beta: 0.1'), never by LLaMA-Factory's key name
``pref_beta`` on a TRL question. Its meaning depends on the job: in GRPO/PPO/RLOO a bare 'beta' is the KL
coefficient (TRL GRPOConfig ``beta``; sized: ``kl_beta``); in DPO/KTO/ORPO/SimPO it is the preference loss's
temperature (TRL DPOConfig ``beta``: it changes no memory or time, 'not_sized'); with no preference or RL
algorithm in the message (an SFT: TRL SFTConfig has no ``beta``, trl/trainer/sft_config.py) it does nothing,
'beta_not_sft'.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

RL_ALGORITHM_RE = rc(r"(?<![a-z])(?:grpo|ppo|rloo)(?![a-z])")
"""An RL algorithm named: a bare 'beta' is its KL coefficient (TRL GRPOConfig.beta), not DPO's."""
PREFERENCE_OR_RL_RE = rc(
    r"(?<![a-z])(?:dpo|kto|orpo|simpo|ipo|cpo|grpo|ppo|rloo|dapo|rlhf|preference)(?![a-z])|偏好|强化学习"
)
"""A preference or RL tuning named: a 'beta' belongs to it (TRL DPOConfig/KTOConfig/ORPOConfig/CPOConfig
``beta``, GRPOConfig ``beta``)."""
_SEPARATORS = " \t=:为是设成置用的"
"""What :data:`bot.parse.prose_forms._VALUE` allows between a key and its value."""


def hyper_item(name: str, m: re.Match[str], s: str) -> tuple[str, str]:
    """The (text, reason) a hyperparameter match ``m`` of ``name`` (prose_forms.HYPERPARAMETERS) in the
    normalized ``s`` is named with; ``kl_beta: v`` the caller sizes (prose_forms.kl_coefficient)."""
    value = m.group("v")
    if name == "warmup_ratio" and float(value) >= 1:  # 'warmup 100': steps, not a ratio
        name = "warmup_steps"
    bare = name == "pref_beta" and m.group(0).lstrip()[:4] == "beta"
    if name == "kl_beta" or bare:  # not dpo_beta
        name = "kl_beta" if RL_ALGORITHM_RE.search(s) else name.replace("kl_beta", "kl_coef")
    if name != "pref_beta":
        return f"{name}: {value}", "not_sized"
    typed = m.group(0)[: m.start("v") - m.start()].strip().rstrip(_SEPARATORS)  # 'beta', 'dpo_beta'
    return f"{typed}: {value}", "not_sized" if PREFERENCE_OR_RL_RE.search(s) else "beta_not_sft"
