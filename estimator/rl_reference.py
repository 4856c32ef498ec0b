"""Whether an RL run loads a frozen reference model (its KL term), by the tool's own default.

TRL's GRPO: ``GRPOConfig.beta`` (the KL coefficient) defaults to 0.0, and at 0.0 the trainer loads no
reference model (huggingface/trl v1.9.0, trl/trainer/grpo_config.py L671 ``beta: float = field(default=0.0``,
"If `0.0` (default), the reference model is not loaded"; trl/trainer/grpo_trainer.py L955–957
``if self.beta == 0.0: self.ref_model = None``). TRL's RLOO keeps one by default (rloo_config.py L494,
``default=0.05``). Other tools and no tool named: the reference of the algorithm as published (Shao et al.
2024, DeepSeekMath §4.1: GRPO's KL term to the reference; verl's GRPO examples set
``actor_rollout_ref.actor.use_kl_loss=True``, OpenRLHF's ``--init_kl_coef`` defaults to 0.01), unless a KL
coefficient of 0 is stated.
"""

from __future__ import annotations

from estimator.request import Algorithm, SizingRequest

TRL_GRPO_BETA = 0.0
"""TRL's default GRPO KL coefficient (grpo_config.py L671 at v1.9.0): no reference model."""


def has_reference(req: SizingRequest, algorithm: Algorithm | None = None) -> bool:
    """Whether the run of ``algorithm`` (else ``req.algorithm``) loads a frozen reference model: False for
    SFT, for a stated KL coefficient (``req.kl_beta``) of 0, and for GRPO under TRL with no coefficient
    stated (its default, :data:`TRL_GRPO_BETA`); True otherwise for DPO/GRPO/RLOO/PPO."""
    algorithm = algorithm or req.algorithm or "sft"
    if algorithm == "sft":  # StrEnum: compared as str (no EnumType.__getattr__ call)
        return False
    beta = req.kl_beta
    if beta is None and algorithm == "grpo" and (req.training_tool or "").lower() == "trl":
        beta = TRL_GRPO_BETA
    return beta is None or beta > 0
