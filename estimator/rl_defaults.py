"""Each RL tool's own lengths when the question states none (trial s16 #5: an OpenRLHF PPO answer used
TRL's 256-token completion and named TRL). The note names the tool in use and cites its source:

* TRL ``GRPOConfig``: ``max_prompt_length`` 512, ``max_completion_length`` 256
  (trl/trainer/grpo_config.py).
* OpenRLHF ``train_ppo_ray``: ``--prompt_max_len`` 1024, ``--generate_max_len`` 1024,
  ``--n_samples_per_prompt`` 1 (openrlhf/cli/train_ppo_ray.py @f5b3f08a; one completion per prompt is
  what the sizing takes when no group size is stated).
* verl: ``data.max_prompt_length`` 512, ``data.max_response_length`` 512
  (verl/trainer/config/data/legacy_data.yaml @09d3a66b).

Any other tool (or none named) keeps TRL's, said as TRL's.
"""

from __future__ import annotations

from dataclasses import dataclass

from estimator.reasons import Why


@dataclass(frozen=True)
class RlLengths:
    """One tool's default prompt and completion tokens, the reasons that say them, and the source."""

    prompt: int
    completion: int
    prompt_why: Why
    completion_why: Why
    source: str


TRL = RlLengths(512, 256, Why.rl_prompt_default, Why.rl_completion_default, "trl/trainer/grpo_config.py")
_BY_TOOL = {
    "OpenRLHF": RlLengths(
        1024,
        1024,
        Why.openrlhf_prompt_default,
        Why.openrlhf_completion_default,
        "openrlhf/cli/train_ppo_ray.py @f5b3f08a",
    ),
    "verl": RlLengths(
        512,
        512,
        Why.verl_prompt_default,
        Why.verl_completion_default,
        "verl/trainer/config/data/legacy_data.yaml @09d3a66b",
    ),
}


def rl_lengths(tool: str | None) -> RlLengths:
    """The default lengths of ``tool`` (``SizingRequest.training_tool``), TRL's for any other."""
    return _BY_TOOL.get(tool or "", TRL)


OWN_LENGTH_TOOLS = {"TRL": Why.trl_rl_seq_len, "Unsloth": Why.trl_rl_seq_len, "verl": Why.verl_rl_seq_len}
"""Tools whose GRPO/RLOO sequence, when no length is stated, is their own prompt + completion bound (the
reason that says it): TRL's ``GRPOConfig`` (Unsloth patches TRL's trainer: trial s29 #2) and verl's
``data.max_prompt_length`` + ``data.max_response_length`` (s51 trial #4: verl was trained at the SFT
default 2,048 while its rollouts decoded 512 + 512, three lengths in one answer)."""
