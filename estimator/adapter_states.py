"""LoRA / QLoRA adapter states per GPU under ZeRO (split from :mod:`estimator.memory`).

The adapters are trained parameters like any other: DeepSpeed's ZeRO shards their optimizer states
(stage ≥ 1), their gradients (stage ≥ 2) and their 16-bit weights (stage 3) over the data-parallel
degree, exactly as it does a full model's (Rajbhandari et al. 2020, ZeRO §5: P_os, P_os+g, P_os+g+p).
Stage 3 keeps a parameter whole on every rank when it has at most
:data:`ZERO3_PARAM_PERSISTENCE_THRESHOLD` elements, so small LoRA matrices (A = r × d_in, B = d_out × r:
rank 8 on a 4096-wide model is 32,768 elements) stay whole while rank-64 matrices of a 16384-wide model
(1,048,576 elements) are partitioned."""

from __future__ import annotations

from estimator.catalog import ModelSpec
from estimator.lora import lora_shapes
from estimator.models import Plan
from estimator.setup import Layout, TrainingSetup

ZERO3_PARAM_PERSISTENCE_THRESHOLD = 100_000
"""Elements at or below which ZeRO-3 keeps a parameter whole (not partitioned) on every rank.
Source: DeepSpeed ``deepspeed/runtime/zero/config.py`` (``stage3_param_persistence_threshold``,
default ``int(1e5)``) and ``deepspeed/runtime/zero/parameter_offload.py``
``mark_persistent_parameters`` (``if param.ds_numel <= param_threshold: param.ds_persist = True``)."""

ADAPTER_WEIGHT_BYTES_UNDER_ZERO = 2.0
"""Bytes per adapter parameter of the working copy under ZeRO: DeepSpeed's engine casts the module
to the training dtype (``engine.py`` ``_configure_distributed_model``: ``self.module.bfloat16()`` /
``half()``), so the fp32 adapters PEFT made become 16-bit weights with a 16-bit gradient (2 B), and
the fp32 master copy moves into the optimizer's states (ZeRO §3: 2Ψ + 2Ψ + KΨ, K = 12)."""


def adapter_state_bytes(
    spec: ModelSpec,
    trained: float,
    per_param: float,
    setup: TrainingSetup,
    plan: Plan | Layout,
) -> float:
    """Bytes per GPU (before the TP × PP split) of ``trained`` adapter parameters (rank and targets of
    ``setup``) at ``per_param`` bytes each, placed by ``plan``'s ZeRO stage over its dp
    (:data:`estimator.memory.LORA_ADAPTER_BYTES_PER_PARAM` = 16 by default).

    Without ZeRO (or dp = 1) every rank holds all ``per_param`` bytes. With ZeRO: the 16-bit weight
    (:data:`ADAPTER_WEIGHT_BYTES_UNDER_ZERO`) and gradient (same size) and the optimizer's rest
    (``per_param`` − 4: fp32 master + Adam m, v = 12 by default); the optimizer's share / dp at stage
    ≥ 1, the gradient's at ≥ 2, and at stage 3 the weights of the matrices above
    :data:`ZERO3_PARAM_PERSISTENCE_THRESHOLD` elements (:func:`persistent_share` stay whole).
    Example: Llama-3.1-405B, rank 64, all linear layers: 2.50 G adapter parameters; at 16 B, 37.2 GiB
    on one GPU; ZeRO-3 on 8 GPUs: 4.66 GiB."""
    zero_stage, dp = plan.zero_stage, plan.dp
    if zero_stage < 1 or dp <= 1:
        return per_param * trained
    weight = grad = ADAPTER_WEIGHT_BYTES_UNDER_ZERO
    optimizer = max(per_param - weight - grad, 0.0)
    per_gpu = optimizer / dp + (grad / dp if zero_stage >= 2 else grad)
    if zero_stage >= 3:
        whole = persistent_share(spec, setup.lora_rank, setup.lora_targets)
        per_gpu += weight * (whole + (1.0 - whole) / dp)
    else:
        per_gpu += weight
    return per_gpu * trained


def persistent_share(spec: ModelSpec, rank: int, targets: tuple[str, ...] | None) -> float:
    """The share (0–1) of the adapter parameters in matrices ZeRO-3 keeps whole
    (≤ :data:`ZERO3_PARAM_PERSISTENCE_THRESHOLD` elements): A = rank × d_in and B = d_out × rank of each
    adapted matrix (:func:`estimator.lora.lora_shapes`)."""
    whole = total = 0.0
    for d_in, d_out, count in lora_shapes(spec, targets):
        for width in (d_in, d_out):
            total += rank * width * count
            if rank * width <= ZERO3_PARAM_PERSISTENCE_THRESHOLD:
                whole += rank * width * count
    return whole / total if total else 1.0
