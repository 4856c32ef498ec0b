"""Which engine a GPU memory share in a training question belongs to (issue 24; round 10, s15).

In a training question the only engine that takes a share of each GPU is the RL rollout engine: TRL's
``vllm_gpu_memory_utilization``, ms-swift's and OpenRLHF's ``--vllm_gpu_memory_utilization``, verl's
``rollout.gpu_memory_utilization`` — and, without a prefix, Unsloth's ``FastLanguageModel.from_pretrained(
..., fast_inference=True, gpu_memory_utilization=0.6)`` of its GRPO notebooks, whose vLLM generates the
GRPO completions. Before, the bare key in a GRPO question was named as a serving setting and not used.
"""

from __future__ import annotations

from bot.parse.regex import rc

ROLLOUT_SHARE_BEFORE = rc(r"(?:vllm[_\-]|rollout\.)$")
"""'vllm_gpu_memory_utilization' (ms-swift, OpenRLHF, TRL), 'rollout.gpu_memory_utilization' (verl): in a
training question, the RL rollout engine's share of each GPU (estimator.rollout.engine_usable_bytes)."""
ONLINE_RL_WORDS_RE = rc(
    r"(?<![a-z])(?:grpo|ppo|rloo|dapo|gspo|reinforce\+\+|rollouts?|fast[_\s]inference)(?![a-z])"
)
"""An online RL job (its completions generated during training) or Unsloth's vLLM switch."""


def rollout_share(s: str, at: int) -> bool:
    """Whether the GPU memory share written at ``s[at:]`` (a training question's normalized text) is the
    rollout engine's: a prefix naming it, or any share in an online RL job."""
    return bool(ROLLOUT_SHARE_BEFORE.search(s[max(0, at - 9) : at]) or ONLINE_RL_WORDS_RE.search(s))
