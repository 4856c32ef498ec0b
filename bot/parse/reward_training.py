"""Reward-model training (s39 fixc, issue 24 item 4): 'reward model training for llama 3 70b, 1M pairs',
'train a reward model', 'RM training', '训练奖励模型', '奖励模型训练', '训一个reward model' (the English
words glued to Chinese, s43 trial q03_zh) — the model trained is a reward model
(InstructGPT, Ouyang et al. 2022 §3.5; TRL ``RewardTrainer``): each record is a comparison pair, a chosen
and a rejected response put through the model (two sequences, as DPO's pairs), and a scalar head scores
each (``AutoModelForSequenceClassification``, ``num_labels=1``) in place of the vocabulary's logits.

Never a reward model that scores an RL job ('PPO with a 7B reward model', 'reward model 7B' beside GRPO:
a frozen model there, :mod:`bot.parse.structure`), nor a reward function ('reward 函数').
A reward model already trained ('a trained reward model', 'I fine-tuned a reward model') or one a policy is
trained against ('train the policy against a reward model') is not the job (no past participle, no policy
word in the few words between). Gated by its caller on 'reward', '奖励' or 'rm t' in the message.
"""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

_NOT_FILLER = r"(?:with|using|and|plus|for|by|from|as|against|via|through|policy|actor)\b"
_FILLER = rf"(?:(?!{_NOT_FILLER})[\w.\-]+\s+){{0,3}}?"
RM_TRAINING_RE = rc(
    rf"\b(?:train(?:ing|s)?|fine[\s\-]?tun(?:e|es|ing))\s+{_FILLER}reward[\s\-]+models?\b"
    r"|\breward[\s\-]+model(?:ing)?\s+(?:training|train|fine[\s\-]?tun\w*)\b"
    r"|\brm\s+(?:training|fine[\s\-]?tuning)\b"
    r"|\btrain(?:ing)?\s+(?:an?\s+)?rm\b"
    r"|(?:训练|训|微调)(?![好过完])\s*(?:一个|个)?\s*(?:[\w.\-]+\s*)?(?:奖励模型|reward[\s\-]*models?\b|(?<![a-z])rm\b)"
    r"|(?:奖励模型|reward[\s\-]*models?|(?<![a-z])rm)\s*(?:的)?\s*(?:训练|微调)"
)
"""A reward model as what is trained (the forms in the module docstring)."""
RL_ALGORITHMS = frozenset({"ppo", "grpo", "rloo"})


def reward_training(f: dict[str, Any], s: str, samples: bool) -> bool:
    """Set ``reward_model`` (and pairs for a count of records) when ``s`` trains a reward model."""
    if f.get("algorithm") in RL_ALGORITHMS or not RM_TRAINING_RE.search(s):
        return False
    f["reward_model"] = True
    f["stage"] = f.get("stage") or "finetune"
    if f.get("algorithm") == "dpo" and "dpo" not in s:  # '偏好数据' said DPO's pairs: a reward model's here
        f["algorithm"] = None
    if samples:  # a reward model's record is a comparison: a chosen and a rejected response
        f["samples_are_pairs"] = True
    return True
