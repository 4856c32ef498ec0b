"""llama.cpp (and Ollama, LM Studio, MLX): all memory but its context, with a compute buffer of one
``n_ubatch`` (:func:`estimator.runtimes.base.local_workspace_bytes`). Sizes in bytes."""

from __future__ import annotations

from dataclasses import dataclass

from estimator.catalog import GpuSpec, ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, Default
from estimator.reasons import Why
from estimator.runtimes.base import Load, ServingRuntime, local_workspace_bytes


@dataclass(frozen=True)
class LlamaCpp(ServingRuntime):
    """llama.cpp and the runtimes built on it: all memory but their context (1 GiB,
    :data:`estimator.defaults.CUDA_CONTEXT_BYTES`), a compute buffer for one ``n_ubatch`` of 512 tokens
    and one sequence's logits (llama.cpp ``--ubatch-size`` default 512; ``--parallel`` 1); layers
    split over the cards (``-sm layer``)."""

    name = "llama.cpp"
    local = True
    splits_layers = True
    workspace_why = Why.local_workspace
    recipe = "llama.cpp"
    recipes = ("llama.cpp", "ollama")

    def _usable(self, gpu: GpuSpec) -> float:
        """All memory (unified: the GPU working set) less 1 GiB of context and buffers."""
        return gpu.addressable_bytes - CUDA_CONTEXT_BYTES.value

    def _workspace(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load) -> float:
        return local_workspace_bytes(spec, tp)

    def utilization_assumed(self, gpu: GpuSpec, tp: int, spec: ModelSpec, pp: int = 1) -> Default | None:
        return Default(1.0, Why.local_no_cap)
