"""Each serving runtime's own settings for the context it reserves and the memory it takes (s33 #f).

The note on a serving OOM that the estimate holds (:mod:`bot.core.failed_serving`) names what to check
in the user's own runtime, not vLLM's ``max_model_len`` for every one (s33 verdict2, item f). Sources:

- vLLM: ``--max-model-len`` (unset: the model's ``max_position_embeddings``) and
  ``--gpu-memory-utilization`` (vllm/engine/arg_utils.py ``EngineArgs``);
- SGLang: ``--context-length`` (unset: the model's config) and ``--mem-fraction-static``
  (python/sglang/srt/server_args.py);
- TGI: ``--max-total-tokens`` and ``--cuda-memory-fraction`` (launcher/src/main.rs ``Args``);
- lmdeploy: ``--session-len`` and ``--cache-max-entry-count`` (lmdeploy/cli/utils.py ``ArgumentHelper``);
- llama.cpp: ``-c`` / ``--ctx-size`` and ``-ngl`` / ``--n-gpu-layers`` (common/arg.cpp); Ollama: ``num_ctx``
  and ``num_gpu`` (docs/modelfile.md); ExLlamaV2: ``max_seq_len`` and ``gpu_split`` (exllamav2/config.py,
  model.py); transformers: ``max_length`` and ``device_map`` (generation/configuration_utils.py,
  modeling_utils.py).
"""

from __future__ import annotations

from estimator.runtimes import RUNTIMES

RUNTIME_KEYS: dict[str, tuple[str, str]] = {
    name: (rt.context_key, rt.memory_key) for name, rt in RUNTIMES.items()
}
"""Runtime (:class:`estimator.request.Runtime` value) → (its context setting, its memory setting): each
runtime class's ``context_key`` and ``memory_key`` (Aphrodite Engine: vLLM's, ``--max-model-len`` and
``--gpu-memory-utilization`` / ``-gmu``, aphrodite/engine/args_tools.py)."""


def runtime_keys(runtime: str | None) -> dict[str, str]:
    """The note's parameters for ``runtime`` (None: vLLM, the serving default the estimate sizes):
    ``runtime``, ``window_key``, ``share_key``."""
    name = runtime if runtime in RUNTIME_KEYS else "vLLM"
    window, share = RUNTIME_KEYS[name]
    return {"runtime": name, "window_key": window, "share_key": share}
