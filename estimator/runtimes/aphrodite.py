"""Aphrodite Engine (PygmalionAI/aphrodite-engine), a vLLM fork: the whole runtime declared in one class."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from estimator.reasons import Why
from estimator.runtimes.vllm import Vllm


@dataclass(frozen=True)
class Aphrodite(Vllm):
    """Aphrodite Engine sizes its memory as vLLM does (:class:`estimator.runtimes.vllm.Vllm`): a share of
    the card, ``gpu_memory_utilization`` 0.90 by default (``--gpu-memory-utilization`` / ``-gmu``), its
    profiling peak, then a paged KV cache in blocks of 16 tokens and continuous batching; the context
    is ``--max-model-len`` (unset: the model's own). Source: PygmalionAI/aphrodite-engine @5f75490
    ``aphrodite/engine/args_tools.py`` ``EngineArgs`` (``gpu_memory_utilization: float = 0.90``,
    ``block_size: int = 16``, ``max_model_len``, ``tensor_parallel_size``, ``pipeline_parallel_size``).
    It has no launch recipe of its own: the answer's recipes are vLLM's and SGLang's."""

    name = "Aphrodite"
    chunk_policy = "full"  # a vLLM fork: its per-chunk KV not verified, the whole context kept
    dp_engines_own_tp = False  # its data-parallel ranks not modelled as vLLM's
    forks = "vLLM"  # its ledger lines name Aphrodite, sized as vLLM (s38-fixs2 #3)
    fork_params: ClassVar[dict[str, str]] = {"runtime": name, "upstream": forks}
    workspace_why = Why.fork_workspace
    words = r"\baphrodite(?:[\s\-_]*engine)?\b"
    affix = None
    recipe = None
