"""What CPU offload (ZeRO-Offload / ZeRO-Infinity) adds to a training step's time.

ZeRO-Offload (Ren et al. 2021, "ZeRO-Offload: Democratizing Billion-Scale Model Training", §4–§6) keeps
the fp32 master weights and Adam's two moments in host memory and runs the optimizer step on the CPU
(DeepSpeedCPUAdam); every step moves the gradients to the host and the updated 16-bit weights back over
PCIe. Its §6 shows the throughput held only when the GPU's forward and backward per step are long next
to that CPU step (large batches; the single-GPU figures at batch 512 and more) and falling at small
batches — which is what "several times slower" was said for. So the time here is the GPU step (at the
calibrated MFU) plus, per step, the CPU optimizer pass over the node's share of the parameters and the
PCIe transfers, with no overlap (ZeRO-Offload's delayed parameter update, which hides the CPU step, is
off by default: the slower end).
"""

from __future__ import annotations

import math

CPU_ADAM_BYTES_PER_PARAM = 28.0
"""Host-memory bytes the CPU Adam step moves per parameter: the fp32 master weight, first and second
moments read and written (3 × 4 × 2 = 24) and the fp32 gradient read (4) — mixed-precision Adam's
12 bytes of states per parameter (ZeRO, Rajbhandari et al. 2020 §3.1; ZeRO-Offload §4.1), each touched
twice. The update is a streaming pass (DeepSpeed ``csrc/adam/cpu_adam_impl.cpp``: AVX over the
flattened partition), memory-bandwidth bound."""
HOST_MEMORY_BANDWIDTH = 200e9
"""Achieved host-memory bandwidth of one training node in bytes/s, assumed: about half the peak of a
DGX A100's two 8-channel DDR4-3200 sockets (2 × 204.8 GB/s, NVIDIA DGX A100 datasheet); STREAM-type
streaming reaches 50–80 % of peak, and the CPU Adam pass is not pure streaming."""
PCIE_BYTES_PER_S = 25e9
"""Achieved host↔GPU bandwidth per GPU in bytes/s, assumed: PCIe 4.0 ×16 is 32 GB/s per direction
(PCI-SIG), ~25 GB/s measured for pinned copies; ZeRO-Infinity (Rajbhandari et al. 2021, §3) plans
around the same order per GPU."""
PCIE_BYTES_PER_PARAM = 4.0
"""Bytes per parameter crossing PCIe each step: the 16-bit gradient to the host and the updated 16-bit
weight back (ZeRO-Offload §4.1, Fig. 3's data flow: 2M down, 2M up)."""


def offload_seconds_per_step(params: float, gpus: int, gpus_per_node: int) -> float:
    """Seconds one optimizer step spends outside the GPU: the CPU Adam pass over one node's share of
    ``params`` (:data:`CPU_ADAM_BYTES_PER_PARAM` / :data:`HOST_MEMORY_BANDWIDTH`; ZeRO shards the states
    over all GPUs, so a node holds params × its GPUs / all GPUs) and each GPU's share crossing PCIe
    (:data:`PCIE_BYTES_PER_PARAM` / :data:`PCIE_BYTES_PER_S`)."""
    nodes = max(1, math.ceil(gpus / max(1, gpus_per_node)))
    cpu = params / nodes * CPU_ADAM_BYTES_PER_PARAM / HOST_MEMORY_BANDWIDTH
    pcie = params / max(1, gpus) * PCIE_BYTES_PER_PARAM / PCIE_BYTES_PER_S
    return cpu + pcie


def host_bytes_per_node(params: float, gpus: int, gpus_per_node: int) -> float:
    """Host RAM per node for the offloaded optimizer states: 12 bytes per parameter (fp32 weight and
    Adam's two moments: ZeRO §3.1) sharded over all GPUs, so each node holds its GPUs' share."""
    nodes = max(1, math.ceil(gpus / max(1, gpus_per_node)))
    return 12.0 * params / nodes
