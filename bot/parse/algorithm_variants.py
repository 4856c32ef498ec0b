"""Post-training algorithms people name that the sizing does not model by name (issue 24, round 3): each
is sized as the algorithm of its family that the estimator has (``estimator.request.Algorithm``: sft, dpo,
ppo, grpo, rloo), and named with the reason ``algorithm_family`` so nothing is replaced silently.

Families, by what each keeps in GPU memory per step (the sources' method sections):

- GRPO (policy, reference, group rollouts, no critic): DAPO (Yu et al. 2025, arXiv:2503.14476, drops the
  KL term, so no reference model: GRPO's memory is an upper bound), GSPO (Zheng et al. 2025,
  arXiv:2507.18071, a sequence-level ratio), GMPO (Zhao et al. 2025, arXiv:2507.20673, a geometric mean).
- PPO (policy, reference, critic/value model): VAPO (Yue et al. 2025, arXiv:2504.05118), VC-PPO.
- RLOO (policy, reference, no critic, no group needed): REINFORCE++ (Hu 2025, arXiv:2501.03262), ReMax
  (Li et al. 2023, arXiv:2310.10505).
- DPO (policy and a frozen reference on preference data): KTO (Ethayarajh et al. 2024, arXiv:2402.01306,
  unpaired data) and IPO (Azar et al. 2023, arXiv:2310.12036, another loss) keep DPO's frozen reference
  model: DPO's memory is theirs. ORPO (Hong et al. 2024, arXiv:2403.07691) and SimPO (Meng et al. 2024,
  arXiv:2405.14734) have no reference model: DPO's memory is an upper bound for them, as it is for RRHF
  (Yuan et al. 2023, arXiv:2304.05302: ranks several sampled responses per prompt by the policy's own
  log-probabilities, "only 1 to 2 models during tuning", no reference model and no critic). IPO and CPO are
  not read by name: both are also common words of other trades ('IPO 前', 'CPO 光模块').

A variant named beside the umbrella word RLHF (read as PPO when no algorithm is named: 'swift rlhf
--rlhf_type kto', ms-swift's RL entry point) is the algorithm run (bot.parse.assemble: a PPO read with no
'ppo' written lets the variant decide; s17, zh11-021 was sized as PPO).
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

VARIANTS: tuple[tuple[str, str, str], ...] = (
    ("dapo", "DAPO", "grpo"),
    ("gspo", "GSPO", "grpo"),
    ("gmpo", "GMPO", "grpo"),
    ("vapo", "VAPO", "ppo"),
    ("vc-ppo", "VC-PPO", "ppo"),
    ("reinforce++", "REINFORCE++", "rloo"),
    ("remax", "ReMax", "rloo"),
    ("kto", "KTO", "dpo"),
    ("orpo", "ORPO", "dpo"),
    ("simpo", "SimPO", "dpo"),
    ("rrhf", "RRHF", "dpo"),
)
"""(word as written, lower case; its usual spelling; the family sized)."""
VARIANT_RE = rc(
    r"(?<![a-z0-9])(?P<w>dapo|gspo|gmpo|vapo|vc[\s\-]?ppo|reinforce\s*\+\+|remax|kto|orpo|simpo|rrhf)"
    r"(?:[\s_\-]*(?:trainer|config))?(?![a-z0-9+])"
)
"""A variant's name as a word ('DAPO', 'KTOTrainer', 'orpo_config', 'REINFORCE++'), never inside another
word ('kto' in 'nkto', 'remax' in 'remaxed')."""
_GATE = re.compile("dapo|gspo|gmpo|vapo|vc.?ppo|reinforce|remax|kto|orpo|simpo|rrhf")


def algorithm_variant(s: str) -> tuple[str, str] | None:
    """(the variant as people spell it, the family sized) for the first variant named in the normalized
    text ``s``; None when none is (most messages: a substring gate first)."""
    if not _GATE.search(s):
        return None
    m = VARIANT_RE.search(s)
    if m is None:
        return None
    word = "".join(m.group("w").split()).replace("vcppo", "vc-ppo")
    return next(((spelled, family) for w, spelled, family in VARIANTS if w == word), None)


SFT_YARDSTICK_RE = rc(
    r"(?<![a-z0-9])(?:as|than|like|to|vs\.?|versus)\s+(?:(?:an?|plain|regular|normal)\s+)?sft(?![a-z0-9])"
)
"""SFT said as the yardstick a named variant is measured against ('about the same memory as SFT', 'more
than SFT'), not the run: the variant is sized (its family, :data:`VARIANTS`), SFT named as another setup."""
_SFT_RE = rc(r"(?<![a-z0-9])sft(?![a-z0-9])")


def sft_only_as_yardstick(s: str) -> bool:
    """Whether every 'SFT' in the normalized text ``s`` is a yardstick (:data:`SFT_YARDSTICK_RE`) and a
    variant is named (the gate first: most messages name none)."""
    if not _GATE.search(s):
        return False
    said = len(_SFT_RE.findall(s))
    return said > 0 and said == len(SFT_YARDSTICK_RE.findall(s)) and VARIANT_RE.search(s) is not None
