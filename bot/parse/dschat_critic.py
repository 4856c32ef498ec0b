"""DeepSpeed-Chat step 3's critic read from the message (issue 24, s49 leftovers #3): its model, its LoRA.

DeepSpeedExamples applications/DeepSpeed-Chat dschat/rlhf/rlhf_engine.py @144e9137: the engine builds the
critic and the reward model from ``--critic_model_name_or_path`` (``_init_critic``, ``_init_reward``) and
puts LoRA on the critic only when ``--critic_lora_dim`` > 0 (main.py default 0), on the actor only when
``--actor_lora_dim`` > 0. So, where a message runs that step (:data:`bot.parse.script_reads.DSCHAT_STEP3_RE`):

* a model named as the critic or reward model ('critic facebook/opt-350m', '--critic_model_name_or_path
  opt-350m', 'reward model 1.3B') is the critic's size (``critic_params``), named as used
  ('dschat_critic'), no longer 'rl_reward_model_not_sized' (a reference model named keeps that reason);
* ``--critic_lora_dim N`` is ``critic_lora_dim``; ``--actor_lora_dim N`` the actor's LoRA rank
  (``lora_rank``, with method LoRA when N > 0 and no method is said);
* the step is PPO (step3_rlhf_finetuning/ppo_trainer.py) when no algorithm is said;
* the step itself is named among what is used ('dschat_critic_trained'): its critic trained in full unless
  critic LoRA is set, counted at the critic's size, the actor's when no critic is named.

estimator.dschat_critic sizes them.
"""

from __future__ import annotations

from typing import Any

from bot.parse.normalize import mask
from bot.parse.regex import rc

CRITIC_LORA_RE = rc(r"-{0,2}critic[_\s\-]*lora[_\s\-]*dim\s*(?:=|:|：)?\s*(?P<n>\d{1,5})(?![\d.])")
"""DeepSpeed-Chat's ``--critic_lora_dim 64`` ('critic_lora_dim=64', 'critic lora dim 64')."""
ACTOR_LORA_RE = rc(r"-{0,2}actor[_\s\-]*lora[_\s\-]*dim\s*(?:=|:|：)?\s*(?P<n>\d{1,5})(?![\d.])")
"""Its ``--actor_lora_dim 128``: the actor's LoRA rank."""
_REFERENCE_RE = rc(r"(?:\bref(?:erence)?\b|参考)[^,，;；。]{0,12}$")
"""Words of the reference model just before a model's name: the reference is the actor's copy, no critic."""


def critic_model(steps: Any, c: Any, reason: str) -> str:
    """The reason a model named besides the sized one is given, with DeepSpeed-Chat step 3's critic or
    reward model (``reason`` 'rl_reward_model_not_sized' where ``steps.s`` runs that step, not said of the
    reference) read as ``critic_params`` and named 'dschat_critic'; else ``reason`` unchanged."""
    from bot.parse.script_reads import DSCHAT_STEP3_RE

    said = getattr(steps, "s0", None) or steps.s  # before labels are masked ('step 3')
    if reason != "rl_reward_model_not_sized" or "chat" not in said or not DSCHAT_STEP3_RE.search(said):
        return reason
    size = c.size
    if not size or _REFERENCE_RE.search(steps.s, max(0, c.start - 24), c.start):
        return reason
    steps.f.setdefault("critic_params", float(size))
    return "dschat_critic" if steps.f["critic_params"] == float(size) else reason


def critic_flags(out: Any) -> None:
    """``critic_lora_dim`` and the actor's ``lora_rank`` from DeepSpeed-Chat step 3's flags in ``out.s``
    (the prose reader's :class:`bot.parse.prose_vocab.Vocab`), masked once read; the step named as used."""
    for pattern, key in ((CRITIC_LORA_RE, "critic_lora_dim"), (ACTOR_LORA_RE, "lora_rank")):
        m = pattern.search(out.s)
        if m is None:
            continue
        out.s = mask(out.s, m.start(), m.end(), " ")
        n = int(m.group("n"))
        if key == "lora_rank" and n == 0:  # the actor trained in full: no rank
            out.read.append(float(n))
            continue
        out.fields.setdefault(key, n)
        if key == "lora_rank":
            out.fields.setdefault("method", "lora")
    out.fields.setdefault("algorithm", "ppo")  # step3_rlhf_finetuning runs PPO (its ppo_trainer.py)
    out.unused.append(("script: DeepSpeed-Chat step 3 critic", "dschat_critic_trained"))
