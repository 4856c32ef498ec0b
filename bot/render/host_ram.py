"""The host RAM the user stated beside the RAM CPU offload needs (trial s16 #8: 'about 872 GB of host RAM
per node' was printed while the user's '内存1TB' was named as not used): enough, or short by how much.
Both sides in bytes: the stated GiB (RAM is sold in binary units, 'GB' read as GiB) and the offloaded
optimizer states per node (:func:`estimator.offload_time.host_bytes_per_node`)."""

from __future__ import annotations

from typing import Any

from bot.render.describe import node_of
from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from estimator.offload_time import host_bytes_per_node

GIB = 2**30
ENOUGH = N_("; CPU offload needs ≈ %(needed)s of host RAM per machine: your %(stated)s holds it")
SHORT = N_("; CPU offload needs ≈ %(needed)s of host RAM per machine: your %(stated)s is %(short)s short")


def host_ram_verdict(stated_gib: float | None, needed_bytes: float, f: Fmt) -> str:
    """'Your 1 TiB of RAM per machine holds it.' / '… is 256 GB short of it.'; '' without a stated RAM."""
    if not stated_gib:
        return ""
    have = stated_gib * GIB
    stated, needed = f.gib(have), f.gb(needed_bytes)
    if have >= needed_bytes:
        return translate(f.lang, ENOUGH, stated=stated, needed=needed)
    return translate(f.lang, SHORT, stated=stated, needed=needed, short=f.gb(needed_bytes - have))


def host_ram_text(report: Any, plan: Any, f: Fmt) -> str:
    """The verdict after the plan's reason when ``plan`` offloads and the user stated the host RAM."""
    req, m = report.request, report.memory
    if plan is None or not plan.offload or not req.host_memory_gib or m is None:
        return ""
    needed = host_bytes_per_node(req.params_total or 0.0, m.plan_gpus or 1, node_of(report)[0])
    return host_ram_verdict(req.host_memory_gib, needed, f)
