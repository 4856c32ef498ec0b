"""The experts-on-CPU layout of a MoE model on a personal card (s32 left item 5).

People run a large MoE model on one consumer card with llama.cpp by keeping the routed experts in CPU
memory and everything else — attention, norms, shared experts, the KV cache, the output layer — on the
GPU: ``--cpu-moe`` / ``-cmoe`` ("keep all Mixture of Experts (MoE) weights in the CPU"), ``--n-cpu-moe N``
/ ``-ncmoe N`` ("keep the Mixture of Experts (MoE) weights of the first N layers in the CPU"), both in
ggml-org/llama.cpp ``common/arg.cpp`` (``llm_ffn_exps_cpu_override``: the tensor override
``-ot ".ffn_.*_exps.=CPU"``). Each token reads only its top-k experts on the CPU side, so this layout
decodes faster than whole layers on the CPU (:mod:`estimator.layer_offload`: ``-ngl`` below the layer
count), at a GPU side of the dense part only.

Where no ``-ngl`` was said and the model does not fit the user's card (:func:`estimator.layer_offload.
auto_split` picked whole layers for the CPU), the reply names this layout too: its GPU memory and speed,
sized by :func:`estimator.layer_offload.layer_split` with every layer on the GPU and the experts of the
fewest first layers on the CPU that let the rest fit (``--n-cpu-moe N``: the fewer on the CPU, the faster).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from estimator.units import GIB

if TYPE_CHECKING:
    from estimator.catalog import GpuSpec, ModelSpec
    from estimator.layer_offload import LayerSplit
    from estimator.models import Inference, SizingRequest


def with_experts_on_cpu(
    req: SizingRequest, spec: ModelSpec, gpu: GpuSpec, inf: Inference, split: LayerSplit
) -> LayerSplit:
    """``split`` (a chosen ``-ngl`` split of a MoE model) with the experts-on-CPU layout in its
    ``experts_cpu_*`` fields: the fewest layers whose experts go to CPU memory for the rest to fit the GPU
    (``--n-cpu-moe N``; None: not even with every layer's, ``--cpu-moe``), that layout's GPU bytes and one
    sequence's decode speed (tokens/s, low and high host bandwidth); unchanged when the layers already all
    sit on the GPU."""
    from estimator.host_ddr import ddr_band
    from estimator.layer_offload import ALL_EXPERTS, layer_split

    if split.gpu_layers >= split.layers:
        return split

    def at(cpu_moe: int) -> LayerSplit:  # every layer and the output layer on the GPU
        return layer_split(
            spec,
            gpu,
            inf,
            spec.layers + 1,
            cpu_moe,
            gpus=req.gpu_count or 1,
            host_memory=req.host_memory_gib * GIB if req.host_memory_gib else None,
            host_bandwidth=req.host_bandwidth_gbps * 1e9 if req.host_bandwidth_gbps else None,
            host_band=ddr_band(req.host_ddr, req.host_channels),
        )

    every = at(ALL_EXPERTS)
    fewest = every.min_cpu_moe_layers  # the fewest layers' experts on the CPU that let the rest fit
    alt = at(fewest) if fewest is not None else every
    return split.model_copy(
        update={
            "experts_cpu_layers": min(fewest, spec.layers) if fewest is not None else None,
            "experts_cpu_gpu_bytes": alt.gpu_bytes,
            "experts_cpu_tokens_per_s_low": alt.tokens_per_s_low,
            "experts_cpu_tokens_per_s_high": alt.tokens_per_s_high,
        }
    )
