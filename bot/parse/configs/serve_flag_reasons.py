"""Serving flags the sizing does not model but that change the GPUs, the memory or the speed (trial s43
#3, #4): named as not used with that reason, never as 'it does not change the GPUs, memory or time'.

- **Speculative decoding** (vLLM ``--speculative-config``; SGLang ``--speculative-algorithm``,
  ``--speculative-draft-model-path`` …; lmdeploy ``--speculative-*``; TGI ``--speculate``; llama.cpp
  ``--model-draft`` / ``-md`` and ``--draft-*`` / ``--spec-*``): a draft model's weights and its KV cache
  sit on the GPUs beside the target's, and each step verifies several drafted tokens, so the decode
  speed depends on how many are accepted (Leviathan et al. 2023, "Fast Inference from Transformers via
  Speculative Decoding", §3.1: (1 − α^(γ+1)) / (1 − α) tokens per step for acceptance rate α and γ
  drafted tokens) — ``speculative_not_modelled``.
- **Expert parallelism** (vLLM ``--enable-expert-parallel`` / ``-ep``; SGLang ``--ep-size`` / ``--ep`` /
  ``--expert-parallel-size``; lmdeploy ``--ep``): the experts are placed whole on the GPUs instead of
  split by tensor parallelism — the same bytes per GPU over the same GPUs (E/N experts each, or 1/N of
  each), with an all-to-all exchange of tokens in place of the all-reduce (vLLM docs,
  serving/expert_parallel_deployment.md: "EP size = TP size × DP size") — ``expert_parallel``. vLLM's
  ``--enable-expert-parallel`` beside ``--data-parallel-size`` with no TP is the data-parallel attention
  layout, sized (:func:`bot.parse.configs.serve_gpus.serving_gpus`).
- **The images vLLM profiles** (``--mm-processor-kwargs`` max_pixels, ``--limit-mm-per-prompt``): vLLM V1
  runs the vision encoder at start-up on the largest image the processor allows (s47-verdict,
  estimator.runtimes.vllm.encoder_profile, sized at the processor's own max_pixels) — ``no_field``: it
  changes the answer, the sizing has no setting for it yet.
"""

from __future__ import annotations

import re

SPECULATIVE_FLAG_RE = re.compile(r"^--?(?:speculat|spec-(?!trace)|draft|model-draft$|md$|[a-z-]*-draft$)")
"""A speculative-decoding flag of the engines above (the flag as written, '_' already '-' or not)."""
EXPERT_PARALLEL_FLAGS = frozenset(
    {"--enable-expert-parallel", "-ep", "--ep-size", "--ep", "--expert-parallel-size", "--enable-ep-moe"}
)
"""The expert-parallel switches and sizes of vLLM (vllm/engine/arg_utils.py), SGLang (server_args.py) and
lmdeploy (cli/utils.py)."""
MM_PROFILE_FLAGS = frozenset({"--mm-processor-kwargs", "--limit-mm-per-prompt"})
"""vLLM's flags that set the images its start-up profile runs (vllm/engine/arg_utils.py)."""


def serve_flag_reason(flag: str) -> str | None:
    """The not-used reason of a known serving ``flag`` that changes the sizing but is not modelled
    (module doc), or None (then 'not_sized' as before)."""
    f = flag.replace("_", "-")
    if f in EXPERT_PARALLEL_FLAGS:
        return "expert_parallel"
    if f in MM_PROFILE_FLAGS:
        return "no_field"
    return "speculative_not_modelled" if SPECULATIVE_FLAG_RE.match(f) else None
