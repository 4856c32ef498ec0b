"""Whether an RL run loads a frozen reference model (its KL term), by the tool's own default, from its source.

* TRL's GRPO: ``GRPOConfig.beta`` (the KL coefficient) defaults to 0.0, and at 0.0 the trainer loads no
  reference model (huggingface/trl v1.9.0, trl/trainer/grpo_config.py L671
  ``beta: float = field(default=0.0``, "If `0.0` (default), the reference model is not loaded";
  trl/trainer/grpo_trainer.py L955–957 ``if self.beta == 0.0: self.ref_model = None``). TRL's RLOO keeps
  one by default (rloo_config.py L494, ``default=0.05``).
* Unsloth's GRPO is TRL's ``GRPOTrainer`` and ``GRPOConfig`` patched in place (unslothai/unsloth
  unsloth/models/rl.py ``PatchFastRL`` / ``patch_trl_rl_trainers``; its GRPO notebooks import
  ``from trl import GRPOConfig, GRPOTrainer`` and set no ``beta``): TRL's default, no reference model.
* verl: a reference policy only when ``actor_rollout_ref.actor.use_kl_loss`` or ``algorithm.use_kl_in_reward``
  is true (volcengine/verl@b178a3c verl/trainer/ppo/utils.py L72–76 ``need_reference_policy``: "return
  config.algorithm.use_kl_in_reward or config.actor_rollout_ref.actor.use_kl_loss"), and both default to
  false (verl/trainer/config/actor/actor.yaml L95 ``use_kl_loss: false``; verl/trainer/config/ppo_trainer.yaml
  L87 ``use_kl_in_reward: False``): no reference model unless one is switched on. Its coefficients when on:
  ``kl_loss_coef: 0.001`` (actor.yaml L105), ``kl_ctrl.kl_coef: 0.001`` (ppo_trainer.yaml L102). The
  test names no algorithm (``adv_estimator`` does not enter it): verl's PPO (GAE, a critic) without
  either switch builds no reference either.
* OpenRLHF: ``--init_kl_coef`` defaults to 0.01 and the reference model is built when it is above 0
  (OpenRLHF/OpenRLHF@f5b3f08a openrlhf/cli/train_ppo_ray.py L352 ``default=0.01``, L85–86 ``if
  args.init_kl_coef <= 0: ref_model = None``; renamed ``--algo.kl.init_coef`` at @3c3be62, v0.11.0, L419
  ``default=0.01``, L93 ``if args.algo.kl.init_coef > 0: ref_model = RayActorGroup(…)``).
* ms-swift's GRPO: ``beta`` unset becomes 0.04 (modelscope/ms-swift@3602360 swift/arguments/rlhf_args.py
  L355–356 ``if self.beta is None: self.beta = 0.04``), and only ``beta == 0.0`` drops the reference
  (L291–292 ``if self.rlhf_type == 'grpo' and self.beta == 0.0: self.ref_model = None``).
* No tool named: the algorithm as published (Shao et al. 2024, DeepSeekMath §4.1: GRPO's KL term to the
  reference model).

A stated KL coefficient (``req.kl_beta``: TRL/ms-swift ``beta``, OpenRLHF ``--init_kl_coef``, verl's
``use_kl_loss`` / ``use_kl_in_reward`` read as their coefficient or 0) decides in every tool.
"""

from __future__ import annotations

from estimator.request import Algorithm, SizingRequest

TRL_GRPO_BETA = 0.0
"""TRL's default GRPO KL coefficient (grpo_config.py L671 at v1.9.0): no reference model."""
VERL_KL_COEF = 0.0
"""verl's default: ``use_kl_loss`` and ``use_kl_in_reward`` both false (actor.yaml L95, ppo_trainer.yaml
L87 @b178a3c), so ``need_reference_policy`` is false: no reference model (module doc)."""
VERL_KL_LOSS_COEF = 0.001
"""verl ``actor_rollout_ref.actor.kl_loss_coef`` default (actor.yaml L105 @b178a3c): the coefficient a
``use_kl_loss: true`` with none stated runs at."""
OPENRLHF_INIT_KL_COEF = 0.01
"""OpenRLHF ``--init_kl_coef`` default (train_ppo_ray.py L352 @f5b3f08a; ``--algo.kl.init_coef`` L419
@3c3be62): above 0, so the reference model is built."""
SWIFT_GRPO_BETA = 0.04
"""ms-swift's GRPO ``beta`` when unset (rlhf_args.py L355–356 @3602360): a reference model."""

DEFAULT_KL: dict[tuple[str, str], float] = {
    ("trl", "grpo"): TRL_GRPO_BETA,
    ("unsloth", "grpo"): TRL_GRPO_BETA,  # TRL's GRPOTrainer (module doc)
    **{("verl", a): VERL_KL_COEF for a in ("grpo", "rloo", "ppo")},
    **{("openrlhf", a): OPENRLHF_INIT_KL_COEF for a in ("grpo", "rloo", "ppo")},
    ("ms-swift", "grpo"): SWIFT_GRPO_BETA,
}
"""(tool, lower case; algorithm) → the tool's own KL coefficient when none is stated (module doc)."""


def default_kl(tool: str | None, algorithm: str) -> float | None:
    """The KL coefficient ``tool`` runs ``algorithm`` at when none is stated (:data:`DEFAULT_KL`); None:
    no such default known, the algorithm as published keeps its reference."""
    return DEFAULT_KL.get(((tool or "").lower(), algorithm))


def has_reference(req: SizingRequest, algorithm: Algorithm | None = None) -> bool:
    """Whether the run of ``algorithm`` (else ``req.algorithm``) loads a frozen reference model: False for
    SFT, for a stated KL coefficient (``req.kl_beta``) of 0, and for a tool whose own default has none
    (:func:`default_kl`: TRL's GRPO, verl); True otherwise for DPO/GRPO/RLOO/PPO."""
    algorithm = algorithm or req.algorithm or "sft"
    if algorithm == "sft":  # StrEnum: compared as str (no EnumType.__getattr__ call)
        return False
    beta = req.kl_beta
    if beta is None and req.training_tool:
        beta = default_kl(req.training_tool, algorithm)
    return beta is None or beta > 0


_SWITCH: dict[str, tuple[str, str]] = {
    "trl": ("TRL beta = 0.0", "beta > 0"),
    "unsloth": ("TRL beta = 0.0", "beta > 0"),
    "ms-swift": ("ms-swift beta = 0.0", "beta > 0"),
    "verl": (
        "verl use_kl_loss = false, use_kl_in_reward = false",
        "actor_rollout_ref.actor.use_kl_loss=true / algorithm.use_kl_in_reward=true",
    ),
    "openrlhf": ("OpenRLHF --init_kl_coef 0", "--init_kl_coef > 0"),
}
"""Tool (lower case) → (the setting that leaves the reference out, the one that brings it back), written as
the tool's own config keys (module doc: TRL/ms-swift ``beta``, verl ``use_kl_loss``/``use_kl_in_reward``,
OpenRLHF ``--init_kl_coef``)."""


def no_reference_params(req: SizingRequest) -> dict[str, str]:
    """The wording parameters of a run sized with no reference model: ``setting`` (the tool's own key at 0,
    or ``kl_beta = 0`` as stated with no known tool) and ``switch`` (what brings the reference back);
    strings, not numbers (config text, not translated)."""
    return dict(
        zip(("setting", "switch"), _SWITCH.get((req.training_tool or "").lower(), _STATED), strict=True)
    )


_STATED = ("kl_beta = 0", "a KL coefficient > 0")
"""No known tool: the stated coefficient of 0 (:data:`_SWITCH`'s pair)."""
