"""CPU offload of an adapter run's parameters (LoRA/QLoRA under FSDP; session 34, issue 24 item 3).

The offload people run with FSDP + QLoRA is of the parameters, not of an optimizer: answer.ai's
fsdp_qlora ``train.py --use_cpu_offload true`` wraps the model with ``cpu_offload=CPUOffload(offload_params=
True)`` (AnswerDotAI/fsdp_qlora train.py ``fsdp_main``), HF accelerate's ``fsdp_offload_params: true``
sets the same (accelerate ``FullyShardedDataParallelPlugin.cpu_offload``), as does LLaMA-Factory's
``examples/accelerate/fsdp_config_offload.yaml``. PyTorch FSDP then keeps each rank's parameter shard and
its gradient in CPU memory and copies a unit's parameters to the GPU only while it is all-gathered for
its forward or backward (torch.distributed.fsdp ``CPUOffload``: "offload_params … parameters and
gradients to CPU"; the optimizer step runs on the CPU).

So the GPU holds the gathered layer (on one GPU too: the layer being computed is copied in,
:func:`estimator.transients.gathered_weights`), the activations, the loss and the runtime, not the sharded
base nor the adapters' states (:func:`estimator.memory.state_parts`, ``plan.offload``), and host RAM holds,
per machine, its ranks' shards: the frozen base as stored (QLoRA: NF4 ≈ 4.127 bits a weight, embeddings in
bf16) and the adapters' fp32 parameter, gradient and two AdamW moments (16 B each) — all of them on one
machine. Check: fsdp_qlora's README, Llama-2-70B QLoRA on 2 × 24 GB with ``--use_cpu_offload``, "roughly
55GB of CPU RAM for model loading and FSDP CPU offloading" (its default LoRA rank 64 on every linear layer:
36.4 GB of NF4 base + 0.83B adapters × 16 B = 13.3 GB = 49.6 GB, before loading buffers).
Pure; bytes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from estimator.models import Memory, Method

if TYPE_CHECKING:
    from estimator.catalog import ModelSpec
    from estimator.setup import TrainingSetup

ADAPTER_HOST_BYTES_PER_PARAM = 16.0
"""fp32 adapter weight (4) + its fp32 gradient (4) + AdamW's two fp32 moments (8), in CPU memory with the
FSDP shards (the optimizer steps there)."""
FSDP_OFFLOAD_SOURCE = (
    "PyTorch FSDP CPUOffload(offload_params=True): answer.ai fsdp_qlora train.py --use_cpu_offload, "
    "accelerate fsdp_offload_params"
)


def offloads_adapter_params(
    method: Method, offload: bool | None, zero_stage: int | None, params: bool | None = None
) -> bool:
    """Whether a stated CPU offload of a LoRA/QLoRA run is a parameter offload (module docstring): only
    under full sharding (``zero_stage`` 3: FSDP FULL_SHARD with ``fsdp_offload_params`` / fsdp_qlora
    ``--use_cpu_offload``, DeepSpeed ZeRO-3 ``offload_param``). ZeRO-1/2's ``offload_optimizer`` moves the
    optimizer states only — an adapter run's are small — so the frozen base stays on the GPU (s34 fixe), as
    does ZeRO-3's with no ``offload_param`` (``params`` False, s35 #4)."""
    adapters = method in (Method.lora, Method.qlora) and params is not False
    return bool(offload) and adapters and (zero_stage or 0) >= 3


def sized_offload(
    method: Method, offload: bool | None, zero_stage: int | None, params: bool | None = None
) -> bool:
    """Whether a stated CPU offload is sized: full training's optimizer offload, or an adapter run's
    parameter offload (:func:`offloads_adapter_params`); else named as not used (``offload_adapters``)."""
    full = method == Method.full
    return bool(offload) and (full or offloads_adapter_params(method, offload, zero_stage, params))


def adapter_host_bytes(base_bytes: float, adapter_params: float, nodes: int) -> float:
    """Host RAM per machine of an adapter run's parameter offload: the whole frozen base as stored
    (``base_bytes``) and the adapters' :data:`ADAPTER_HOST_BYTES_PER_PARAM`, split over ``nodes``."""
    return (base_bytes + ADAPTER_HOST_BYTES_PER_PARAM * adapter_params) / max(1, nodes)


def with_host_bytes(spec: ModelSpec, params: float, setup: TrainingSetup, mem: Memory) -> Memory:
    """``mem`` with ``offloaded_bytes`` — the frozen base on one GPU's layout as stored
    (:func:`estimator.memory.frozen_base_bytes`) and 16 B per adapter parameter — when the plan offloads an
    adapter run's parameters (:func:`offloads_adapter_params`); else ``mem`` unchanged."""
    if mem.plan is None or not offloads_adapter_params(setup.method, mem.plan.offload, mem.plan.zero_stage):
        return mem
    from estimator.model_states import frozen_base_bytes, trained_params

    held = frozen_base_bytes(spec, params, setup) + ADAPTER_HOST_BYTES_PER_PARAM * trained_params(
        spec, params, setup
    )
    return mem.model_copy(update={"offloaded_bytes": held})
