"""Two corrections to the calibrated training time once the memory and the layout are known (s39 fixz):

* the scale-out reference (:func:`estimator.training_rate._scale_out`) is the GPU count that finishes
  the job's compute in a whole run's typical duration; when the fewest GPUs that hold the job
  (:attr:`Memory.min_gpus`) are more, "32 GPUs where 8 would do" beside "at least 16 to fit" read as two
  minimums: the line now names both (:func:`memory_floor_time`);
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
    """The ledger's ``scale_out`` line re-worded when the fewest GPUs that hold the job exceed the compute
    reference: "32 GPUs where 8 would do" beside "at least 16 to fit" read as two minimums, so the line
    says the 8 finish the job's compute in a whole run's duration and memory needs 16. The term itself
    stays on the compute reference: strong scaling loses efficiency as each GPU's share of a fixed step
    shrinks, whatever holds the states, and the calibration (:func:`estimator.calibration.estimated_hours`)
    and the MLPerf GPT-3 175B fit of alpha use that reference (its tuned end and records,
    tests/test_training_scale.py). Returns no fields: the time is unchanged."""
    line = next((a for a in ledger.assumptions if a.field == "scale_out"), None)
    if line is None or out.memory.fits_requested is False:
        return {}
    model = efficiency.CALIBRATED
    ledger.replace(
        "scale_out", line.value, Why.mfu_scale_out_memory, gpus=req.gpu_count,
        reference=round(out.scale_reference), least=out.memory.min_gpus, days=model.ref_days,
        alpha=model.scale_alpha,
    )  # fmt: skip
    return {}


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
