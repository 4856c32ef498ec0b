"""SGLang: gives ``mem_fraction_static`` of the memory free at start-up to weights + KV pool; the rest is
its reserve for activations and CUDA graphs. Constants from SGLang's source (file and version named).
Sizes in bytes."""

from __future__ import annotations

from dataclasses import dataclass

from estimator.catalog import GpuSpec, ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, Default
from estimator.reasons import Why
from estimator.runtimes.base import NO_LOAD, Load, ServingRuntime, visible_bytes
from estimator.runtimes.vllm import either_engine_profile_bytes
from estimator.units import GIB

SGLANG_RESERVED_GIB: tuple[tuple[float, float, float], ...] = (
    (20, 2.8, 0.1),
    (35, 2.8, 0.1),
    (90, 9.5, 0.5),
    (100, 12.0, 0.5),
    (160, 12.0, 0.5),
)
"""SGLang's default ``mem_fraction_static`` = (capacity − reserved) / capacity, with reserved =
base + per_gpu × (TP × PP) GiB by card capacity (below 20, 35, 90, 100, 160 GiB), 32 GiB above
(sglang/srt/server_args.py ``_handle_mem_fraction_static``, v0.5.2: "T4, 4080 … A10, L40, 4090 …
H100, A100 … H20 … H200 … B200, MI300"); + 4 GiB with data-parallel attention. The reserve covers
activations (chunked prefill) and CUDA-graph buffers."""
SGLANG_RESERVED_LARGE_GIB = 32.0
SGLANG_DP_ATTENTION_GIB = 4.0


def sglang_mem_fraction(gpu: GpuSpec, gpus_per_replica: int, dp_attention: bool = False) -> float:
    """SGLang's default ``mem_fraction_static`` on ``gpu`` for a TP × PP group
    (:data:`SGLANG_RESERVED_GIB`)."""
    capacity_gib = visible_bytes(gpu) / GIB
    reserved = SGLANG_RESERVED_LARGE_GIB
    for below, base, per_gpu in SGLANG_RESERVED_GIB:
        if capacity_gib < below:
            reserved = base + per_gpu * gpus_per_replica
            break
    reserved += SGLANG_DP_ATTENTION_GIB if dp_attention else 0.0
    return round((capacity_gib - reserved) / capacity_gib, 3)


def sglang_fraction(
    runtime: ServingRuntime, gpu: GpuSpec, tp: int, spec: ModelSpec | None = None, pp: int = 1
) -> float:
    """The ``mem_fraction_static`` in use: the user's, else SGLang's default for a replica of TP × PP
    GPUs — ``parallel_size = self.tp_size * self.pp_size`` in sglang/srt/server_args.py
    ``_handle_mem_fraction_static`` (v0.5.2) — with data-parallel attention for an MLA model over a TP
    group. The one function both the sizing (:meth:`SGLang._workspace`) and the ledger's assumption
    (:meth:`SGLang.utilization_assumed`) read."""
    if runtime.utilization:
        return runtime.utilization
    dp_attention = bool(spec is not None and spec.kv_lora_rank and tp > 1 and not runtime.mla_tp_copies)
    return sglang_mem_fraction(gpu, tp * pp, dp_attention)


@dataclass(frozen=True)
class SGLang(ServingRuntime):
    """SGLang: ``mem_fraction_static`` (the user's, else by card, :func:`sglang_mem_fraction`) of the
    memory free at start-up for weights and the KV pool; the rest is its workspace."""

    name = "SGLang"
    chunk_policy = "hybrid_ratio"
    workspace_why = Why.sglang_workspace
    recipe = "sglang"
    words = r"\bsglang\b"
    affix = "sglang"
    context_key = "--context-length"
    memory_key = "--mem-fraction-static"
    paged = spans_tp_pp = takes_share = True
    tp_across_nodes = True  # '--tp 16 --nnodes 2' (ServingRuntime.tp_across_nodes; trial s39 #1)
    dp_replicated = "attention"  # estimator.dp_replicated (s44)

    def _usable(self, gpu: GpuSpec) -> float:
        """The memory free at start-up (visible − CUDA context), of which ``mem_fraction_static`` goes
        to weights and the KV pool (sglang/srt/model_executor/model_runner.py ``profile_max_num_token``:
        ``rest_memory = available_gpu_memory − total_gpu_memory · (1 − mem_fraction_static)``, with
        ``total_gpu_memory`` the free memory before the weights load)."""
        return visible_bytes(gpu) - CUDA_CONTEXT_BYTES.value

    def _workspace(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load) -> float:
        """The share outside ``mem_fraction_static``: (1 − f) × free memory, left for activations and
        CUDA graphs (:func:`sglang_fraction` for TP × ``load.pp``)."""
        return (1.0 - sglang_fraction(self, gpu, tp, spec, load.pp)) * self.usable_bytes(gpu)

    def share_bytes(self, usable: float, workspace: float) -> float:
        """``mem_fraction_static`` × the memory free at start-up: its budget (the free memory) less the
        share outside the fraction (sglang/srt/model_executor/model_runner.py
        ``profile_max_num_token``), so 'usable per GPU' is after the fraction as vLLM's is after
        ``gpu_memory_utilization`` — not the 139 GiB of an H200 before its 85.7 % (trial s10 C1)."""
        return usable - workspace

    def needed_workspace(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load = NO_LOAD) -> float:
        """Its reserve is a share, not a need: the activations it runs, counted as vLLM's profile
        (:func:`either_engine_profile_bytes`)."""
        return either_engine_profile_bytes(spec, gpu, tp)

    def utilization_assumed(self, gpu: GpuSpec, tp: int, spec: ModelSpec, pp: int = 1) -> Default | None:
        if self.utilization is not None:
            return None
        return Default(sglang_fraction(self, gpu, tp, spec, pp), Why.sglang_mem_fraction)
