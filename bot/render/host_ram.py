"""The host RAM the user stated beside the RAM CPU offload needs (trial s16 #8: 'about 872 GB of host RAM
per node' was printed while the user's '内存1TB' was named as not used): enough, or short by how much.
Formats ``report.host_ram`` only (:mod:`estimator.host_ram`: DeepSpeed's estimators, per machine, the
need and the verdict computed there and in the JSON)."""

from __future__ import annotations

from typing import Any

from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate

ENOUGH = N_("; CPU offload needs ≈ %(needed)s of host RAM per machine: your %(stated)s holds it")
SHORT = N_("; CPU offload needs ≈ %(needed)s of host RAM per machine: your %(stated)s is %(short)s short")


def host_ram_text(report: Any, plan: Any, f: Fmt) -> str:
    """The verdict after the plan's reason when ``plan`` offloads and the user stated the host RAM:
    'your 1,024 GiB holds it' / '… is 646 GB short'; '' without ``report.host_ram`` or a stated RAM."""
    ram = getattr(report, "host_ram", None)
    if plan is None or not plan.offload or ram is None or ram.stated_bytes is None:
        return ""
    stated, needed = f.gib(ram.stated_bytes), f.gb(ram.needed_bytes)
    if ram.holds:
        return translate(f.lang, ENOUGH, stated=stated, needed=needed)
    return translate(
        f.lang, SHORT, stated=stated, needed=needed, short=f.gb(ram.needed_bytes - ram.stated_bytes)
    )
