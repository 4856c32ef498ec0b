"""A throughput measured on another training stage (trial s12 A10): 'Planning GRPO on Qwen2.5-32B …
Currently our SFT run gets ~3500 tokens/s per GPU', '我们 SFT 每卡吞吐 3000 tokens/s，现在要做 GRPO'.

A supervised run's tokens/s is not an RL run's: GRPO/PPO also generate the rollouts and run reference
(and critic/reward) models, so the FLOPs per trained token differ (design §3.2: 6·N per token for SFT).
Applied to the RL job, the SFT rate came out above the card's dense peak and was both used in the
headline and set aside by a warning. It is named as another setup's figure (``other_setup``) instead.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

RL_JOB_RE = rc(r"(?<![a-z])(?:grpo|ppo|dapo|rloo|reinforce\+*|rlhf|online\s+rl)(?![a-z])|强化学习")
"""The job asked about is an RL run."""
OTHER_STAGE_BEFORE_RE = rc(
    r"(?:(?<![a-z])(?:sft|supervised\s+fine[\s\-]?tun\w*|pre[\s\-]?train\w*)(?![a-z])|监督微调|预训练)"
    r"[^.;。；!?！？]{0,48}$"
)
"""An SFT or pre-training run named shortly before the rate, in the same sentence."""


def other_stage_rate(s: str, m: re.Match[str]) -> bool:
    """Whether the throughput ``m`` in the normalized text ``s`` was measured on an SFT or pre-training run
    while the job asked about is an RL run."""
    before = s[max(0, m.start() - 64) : m.start()]
    return (
        bool(OTHER_STAGE_BEFORE_RE.search(before))
        and not RL_JOB_RE.search(before)
        and bool(RL_JOB_RE.search(s))
    )
