"""Which engine a GPU memory share in a training question belongs to (issue 24; round 10, s15).

In a training question the only engine that takes a share of each GPU is the RL rollout engine: TRL's
``vllm_gpu_memory_utilization``, ms-swift's and OpenRLHF's ``--vllm_gpu_memory_utilization``, verl's
``rollout.gpu_memory_utilization`` — and, without a prefix, Unsloth's ``FastLanguageModel.from_pretrained(
..., fast_inference=True, gpu_memory_utilization=0.6)`` of its GRPO notebooks, whose vLLM generates the
GRPO completions. Before, the bare key in a GRPO question was named as a serving setting and not used.
"""

from __future__ import annotations

from bot.parse.engine_keys import engines_turned_off
from bot.parse.regex import rc

ROLLOUT_SHARE_BEFORE = rc(r"(?:vllm[_\-]|rollout\.)$")
"""'vllm_gpu_memory_utilization' (ms-swift, OpenRLHF, TRL), 'rollout.gpu_memory_utilization' (verl): in a
training question, the RL rollout engine's share of each GPU (estimator.rollout.engine_usable_bytes)."""
ONLINE_RL_WORDS_RE = rc(
    r"(?<![a-z])(?:grpo|ppo|rloo|dapo|gspo|reinforce\+\+|rollouts?|fast[_\s]inference)(?![a-z])"
)
"""An online RL job (its completions generated during training) or Unsloth's vLLM switch."""


SERVING_WORDS_RE = rc(
    r"(?<!vllm[\s\-_])(?<![a-z])(?:serv(?:e|es|ed|ing)|deploy\w*|endpoints?|inference\s+server)(?![a-z])"
    r"|部署|上线|推理服务"
)
"""A serving job beside the training one ('then serve it with vLLM', '部署'); TRL's 'vllm-serve' (the
rollout server of a GRPO run) is none."""
SENTENCE_END_RE = rc(r"[。！？!?；;]|\.(?:\s|$)")


def rollout_share(s: str, at: int) -> bool:
    """Whether the GPU memory share written at ``s[at:]`` (a training question's normalized text) is the
    rollout engine's: a prefix naming it, an online RL word in the share's sentence, or one anywhere
    when the message names no serving job (review of session 15: 'GRPO on 8 H100. Then we serve it with
    vLLM at gpu_memory_utilization 0.9' — that share is the server's, ``gpu_memory_utilization``)."""
    if ROLLOUT_SHARE_BEFORE.search(s[max(0, at - 9) : at]):  # not vLLM's when the switch turned it off
        return "vllm" not in s[max(0, at - 9) : at] or not any(
            e == "vllm" for e, _ in engines_turned_off(s)
        )  # '--use-vllm False … --vllm-gpu-memory-utilization 0.4': TRL ignores it (s26-verd, en-069)
    if not ONLINE_RL_WORDS_RE.search(s):
        return False
    start = max((e.end() for e in SENTENCE_END_RE.finditer(s, 0, at)), default=0)
    end = next((e.start() for e in SENTENCE_END_RE.finditer(s, at)), len(s))
    return bool(ONLINE_RL_WORDS_RE.search(s, start, end)) or not SERVING_WORDS_RE.search(s)
