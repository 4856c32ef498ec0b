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


HOLDS_BUT = N_(
    "the GPUs hold it (≈ %(per_gpu)s per GPU), but its CPU offload needs ≈ %(needed)s of host RAM per "
    "machine and you have %(stated)s"
)
NO_OFFLOAD = N_("without CPU offload: %(gpus)s")
MORE_MACHINES = N_("the same offload on %(gpus)s (%(machines)s machines): ≈ %(each)s of host RAM each")
FITS_INSTEAD = N_("; what fits instead — %(options)s")
NO_HOST_RAM: dict[str, Any] = {"host_ram": None}
"""The memory context's host-RAM key without ``report.host_ram`` (no call: :func:`host_ram_keys`)."""


def host_short(report: Any, f: Fmt) -> str | None:
    """What the headline says after 'does not fit on N × GPU as set' (templates/_memory.j2, the
    ``cheaper_fix`` branch) when the user's GPUs hold the plan but their stated host RAM does not hold its
    CPU offload (s40 fixt #4): the need and the RAM, then what fits instead — no offload on more GPUs, the
    offload on more machines (ZeRO-3) — from the note ``host_ram_short`` (estimator.host_ram_fix). None
    when the RAM holds it, none was stated, or the GPUs do not hold the plan either."""
    ram, m, req = getattr(report, "host_ram", None), report.memory, report.request
    if ram is None or ram.holds is not False or m is None or not req.gpu_count or m.fits_requested is False:
        return None
    from bot.render.plan_text import gpus_text

    lang = f.lang
    note = next((n.params for n in report.warnings if n.code == "host_ram_short"), {})
    options = []
    if note.get("no_offload_gpus"):
        options.append(translate(lang, NO_OFFLOAD, gpus=gpus_text(lang, note["no_offload_gpus"])))
    plain = note.get("no_offload_gpus")
    if note.get("machines") and not (plain and plain <= note["machine_gpus"]):  # else no offload is fewer
        more = {"gpus": gpus_text(lang, note["machine_gpus"]), "machines": f.int(note["machines"])}
        options.append(translate(lang, MORE_MACHINES, each=f.gb(note["machine_bytes"]), **more))
    sep = "；" if lang.startswith("zh") else "; "
    head = translate(
        lang,
        HOLDS_BUT,
        per_gpu=f.gib(m.per_gpu_bytes),
        needed=f.gb(ram.needed_bytes),
        stated=f.gib(ram.stated_bytes),
    )
    return head + (translate(lang, FITS_INSTEAD, options=sep.join(options)) if options else "")


def host_ram_keys(report: Any, main: Any, f: Fmt, unfit: bool) -> dict[str, Any]:
    """The memory context's ``host_ram`` (:func:`host_ram_line` of the user's layout that does not fit the
    GPUs) and, when the stated host RAM does not hold the offload of a plan their GPUs hold, the headline's
    'does not fit as set' with :func:`host_short` as its change (s40 fixt #4)."""
    out: dict[str, Any] = {"host_ram": host_ram_line(report, main, f) if unfit and main is not None else None}
    if (short := host_short(report, f)) is not None:
        out.update(fits_requested=False, cheaper_fix=short, min_sane=False)
    return out
