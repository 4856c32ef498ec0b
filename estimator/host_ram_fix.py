"""What fits when the stated host RAM does not hold a plan's CPU offload (s40 fixt #4: 'machine RAM 1T' beside
a ZeRO-3 offload of Qwen2.5-72B on 8 × A800 was answered 'fits — borderline' while the offload needs
≈ 1,745 GB per machine). Two ways out, each sized, never assumed:

- the same offload on more machines: DeepSpeed ZeRO-3 divides the offloaded states over the machines
  (``estimate_zero3_model_states_mem_needs``: ``total_params * 16 / num_nodes * 1.5``, estimator.host_ram),
  so ⌈need on one machine ÷ stated RAM⌉ machines hold it; ZeRO-1/2 keep a copy a machine (no way out there);
- no offload: the fewest GPUs of the same job with ``offload`` off (the same estimate, its memory search).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from estimator.host_ram import HostRam


def host_ram_fixes(
    req: Any, ram: HostRam, gpus_per_node: int, estimate: Callable[[Any], Any]
) -> dict[str, Any]:
    """``machines`` (ZeRO-3: the machines whose RAM holds the offload, else None), ``machine_gpus`` (their
    GPUs), ``machine_bytes`` (the offload's need on each of them) and ``no_offload_gpus`` (the fewest GPUs
    without offload; None when none fits) for a :class:`HostRam` whose stated RAM is short."""
    out: dict[str, Any] = {"machines": None, "machine_gpus": None, "machine_bytes": None}
    if ram.zero_stage >= 3 and ram.stated_bytes:
        one_machine = ram.needed_bytes * ram.nodes  # the states of every GPU, before the split
        machines = max(ram.nodes + 1, math.ceil(one_machine / ram.stated_bytes))
        out.update(
            machines=machines, machine_gpus=machines * gpus_per_node, machine_bytes=one_machine / machines
        )
    plain = estimate(req.model_copy(update={"offload": False, "gpu_count": None, "host_memory_gib": None}))
    memory = getattr(plain, "memory", None)
    out["no_offload_gpus"] = memory.min_gpus if memory is not None else None
    return out
