"""The host RAM CPU offload needs, and the host RAM the user stated beside it (trial s16 #8: 'about 872 GB of
host RAM per node' was printed while the user's '内存1TB' was named as not used): enough, or short by how
much. Formats ``report.host_ram`` only (:mod:`estimator.host_ram`: DeepSpeed's estimators, per machine, the
need and the verdict computed there and in the JSON)."""

from __future__ import annotations

from typing import Any

from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate

ENOUGH = N_("; CPU offload needs ≈ %(needed)s of host RAM per machine: your %(stated)s holds it")
NEEDS = N_("; CPU offload needs ≈ %(needed)s of host RAM per machine (the server's RAM, besides the GPUs)")
SHORT = N_("; CPU offload needs ≈ %(needed)s of host RAM per machine: your %(stated)s is %(short)s short")


def host_ram_text(report: Any, plan: Any, f: Fmt) -> str:
    """The verdict after the plan's reason when ``plan`` offloads and the user stated the host RAM:
    'your 1,024 GiB holds it' / '… is 646 GB short'; with no RAM stated, the need alone (s24 trial #6: a
    ZeRO-3 offload on 8 × RTX 4090 needs ≈ 353 GB, more than many such boxes have, and was said nowhere);
    '' without ``report.host_ram``."""
    ram = getattr(report, "host_ram", None)
    if plan is None or not plan.offload or ram is None:
        return ""
    if ram.stated_bytes is None:
        return translate(f.lang, NEEDS, needed=f.gb(ram.needed_bytes))
    stated, needed = f.gib(ram.stated_bytes), f.gb(ram.needed_bytes)
    if ram.holds:
        return translate(f.lang, ENOUGH, stated=stated, needed=needed)
    return translate(
        f.lang, SHORT, stated=stated, needed=needed, short=f.gb(ram.needed_bytes - ram.stated_bytes)
    )


LINE = N_("Host RAM: %(text)s")


def host_ram_line(report: Any, plan: Any, f: Fmt) -> str | None:
    """The host RAM of the user's own offloading layout as a line of its own ('Host RAM: CPU offload needs
    ≈ 193 GB of host RAM per machine …'), for a layout that does not fit the GPUs: the offload's need does
    not depend on the fit, and a user asking 'how much CPU RAM' gets it (s26 trial #5). None when
    :func:`host_ram_text` has nothing."""
    text = host_ram_text(report, plan, f).lstrip("；; ")
    return translate(f.lang, LINE, text=text) if text else None
