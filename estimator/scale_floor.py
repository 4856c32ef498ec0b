"""Two corrections to the calibrated training time once the memory and the layout are known (s39 fixz):

* the scale-out reference (:func:`estimator.training_rate._scale_out`) is the GPU count that finishes
  the job in a whole run's typical duration, but it can never be fewer GPUs than the fewest that hold
  the job (:attr:`Memory.min_gpus`): "32 GPUs where 8 would do" beside "at least 16 to fit" contradicted
  itself (:func:`memory_floor_time`);
* ZeRO-3 across nodes moves the parameters over the inter-node links every micro-step; when that
  traffic takes longer than the micro-step's compute, the step waits for it (:func:`zero3_comm_time`).

Imported lazily from :func:`estimator.training_plan.layout_time`, behind its gates.
"""

from __future__ import annotations

import math
from typing import Any

from estimator import efficiency
from estimator.ledger import Ledger
from estimator.models import Method, SizingRequest
from estimator.reasons import Why

ZERO3_COLLECTIVES = 3.0
"""Parameter-sized collectives ZeRO-3 runs per micro-step: an all-gather of the 16-bit weights in the
forward, another in the backward, and a reduce-scatter of the gradients (Rajbhandari et al. 2020,
"ZeRO", §7.2.2: stage 3 moves 3Ψ per step against data parallelism's 2Ψ; DeepSpeed's ZeRO-3 docs: the
partitioned gradients are reduce-scattered as the backward produces them, so with gradient accumulation
every micro-step pays all three)."""
ZERO3_BYTES_PER_PARAM = 2.0
"""Bytes per parameter of each collective: bf16/fp16 weights and gradients (ZeRO §3)."""
NIC_GBPS_AMPERE = 25.0
"""Inter-node GB/s per GPU, one way, on an Ampere node (A100/A800): one 200 Gb/s HDR InfiniBand port per
GPU (NVIDIA DGX A100 user guide: 8 × ConnectX-6 200 Gb/s compute ports per node)."""
NIC_GBPS_HOPPER = 50.0
"""Inter-node GB/s per GPU, one way, on a Hopper-class node and newer: one 400 Gb/s NDR port per GPU
(NVIDIA DGX H100 user guide: 8 × 400 Gb/s ConnectX-7 compute ports per node)."""


def memory_floor_time(req: SizingRequest, out: Any, ledger: Ledger) -> dict[str, Any]:
    """The scale-out term re-based on the fewest GPUs that hold the job when they exceed the compute
    reference: the hours on the user's count × f(count, old) / f(count, new) (f =
    :func:`estimator.efficiency.scale_factor`), the ledger's ``scale_out`` line re-stated on that count
    (dropped when the count is at or below it) and ``scale_reference`` raised, so the days rows and every
    line of the answer name the same minimum. Nothing without a count above the memory minimum."""
    from estimator.training_plan import _slower_fields  # loaded: this module is imported from there

    if out.memory.fits_requested is False or req.hours or out.mfu_calibrated is not None:
        return {}
    model, old, least = efficiency.CALIBRATED, out.scale_reference, out.memory.min_gpus
    gpus = req.gpu_count
    fields: dict[str, Any] = {"scale_reference": float(least)}
    factor = efficiency.scale_factor(model, gpus, least)
    ratio = efficiency.scale_factor(model, gpus, old) / factor
    if ratio == 1.0:  # no count, or one at or below the old reference: only the rows' reference moves
        return fields
    if factor < 1.0:
        ledger.replace(
            "scale_out", round(factor, 3), Why.mfu_scale_out_memory, gpus=gpus, reference=least,
            alpha=model.scale_alpha,
        )  # fmt: skip
    else:
        ledger.assumptions = [a for a in ledger.assumptions if a.field != "scale_out"]
    return fields | _slower_fields(out, ratio)


def nic_gbps(gpu: Any) -> float:
    """Inter-node GB/s per GPU, one way (:data:`NIC_GBPS_AMPERE`, :data:`NIC_GBPS_HOPPER`); personal
    cards: 10 Gb Ethernet (:data:`estimator.serving_speed.ETHERNET_GBPS`)."""
    if gpu.personal or gpu.mfu_class == "consumer":
        from estimator.serving_speed import ETHERNET_GBPS

        return ETHERNET_GBPS
    return NIC_GBPS_HOPPER if gpu.mfu_class == "h100" else NIC_GBPS_AMPERE


def zero3_comm_time(req: SizingRequest, out: Any, gpu: Any, ledger: Ledger) -> dict[str, Any]:
    """The training hours × comm / compute when ZeRO-3 over several nodes at the user's count spends longer
    per micro-step moving the parameters than computing: comm = 3 × params × 2 bytes × (G − 1)/G over the
    ring's bus bandwidth, the node's inter-node links (GPUs a node × :func:`nic_gbps`; the ring crosses each
    node once per channel, one channel a NIC: nccl-tests' busbw) capped by the card's own link; compute =
    the GPU's calibrated seconds per micro-step (hours × 3,600 / G ÷ micro-steps, micro-steps = tokens /
    (DP × micro-batch × sequence)). Full-parameter, data-parallel layouts only (TP 1, PP 1): a LoRA
    reduce-scatters only its adapters, and TP/PP split the parameters before ZeRO. Communication is
    assumed fully overlapped with compute (DeepSpeed prefetches the next layer's gather), so it binds only
    when it is the longer; the ``zero3_comm`` line says so."""
    mem = out.memory
    plan = mem.plan
    if mem.fits_requested is False or req.hours or out.mfu_calibrated is not None or out.gpu_hours is None:
        return {}
    gpus = mem.plan_gpus or req.gpu_count
    nodes = math.ceil(gpus / max(1, gpu.gpus_per_node))
    full = (out.method or Method.full) == Method.full
    if plan.zero_stage != 3 or plan.tp != 1 or plan.pp != 1 or nodes < 2 or not full:
        return {}
    seq = getattr(out, "sample_tokens", None) or out.seq_len
    if not (seq and out.tokens and out.params):
        return {}
    roll = getattr(out, "rollout", None)
    hours = roll.training_gpu_hours.likely if roll is not None else out.gpu_hours.likely
    micro_steps = out.tokens / (plan.dp * plan.micro_batch * seq)
    compute = hours * 3600.0 / gpus / micro_steps
    bus = min(gpu.gpus_per_node * nic_gbps(gpu), gpu.link_gbps or gpu.gpus_per_node * nic_gbps(gpu)) * 1e9
    moved = ZERO3_COLLECTIVES * out.params * ZERO3_BYTES_PER_PARAM * (gpus - 1) / gpus
    comm = moved / bus
    if compute <= 0 or comm <= compute:
        return {}
    from estimator.training_plan import _slower_fields

    factor = comm / compute
    ledger.assume(
        "zero3_comm", round(factor, 3), Why.zero3_comm, gpus=gpus, nodes=nodes, gb=round(moved / 1e9),
        bus=round(bus / 1e9), comm=round(comm, 2), compute=round(compute, 2), factor=round(factor, 2),
    )  # fmt: skip
    return _slower_fields(out, factor)
