"""The serving answer's words when part of the weights stays in CPU memory (llama.cpp ``-ngl``,
``--cpu-moe``; :mod:`estimator.layer_offload`): the verdict for the user's setting, where each part
lives, the largest ``-ngl`` that fits and how the decode speed was worked out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from estimator.layer_offload import CPU_BANDWIDTH_EFFICIENCY, LayerSplit
from estimator.models import SizingReport
from estimator.runtimes import runtime_named
from estimator.serving_speed import DECODE_BANDWIDTH_EFFICIENCY

if TYPE_CHECKING:  # the typed contexts are for the type checker: start-up (bench/RESULTS.md s18)
    from bot.render.contexts import SplitContext

FITS = N_(
    "fits — %(gpu_used)s of %(usable)s on the GPU, %(host)s in CPU memory; ≈ %(speed)s tokens/s "
    "(one sequence)"
)
FITS_NO_SPEED = N_("fits — %(gpu_used)s of %(usable)s on the GPU, %(host)s in CPU memory")
TIGHT = N_(
    "fits, but borderline — %(gpu_used)s of %(usable)s on the GPU (%(share)s: little room for allocation "
    "spikes), %(host)s in CPU memory; ≈ %(speed)s tokens/s (one sequence)"
)
TIGHT_NO_SPEED = N_(
    "fits, but borderline — %(gpu_used)s of %(usable)s on the GPU (%(share)s: little room for allocation "
    "spikes), %(host)s in CPU memory"
)
"""FITS when the GPU side is above 90 % of the usable memory (verdict 'borderline', s21)."""
"""FITS for a card known by its memory only (no bandwidth: no speed, never another card's; s19)."""
GPU_SHORT = N_(
    "does not fit — the GPU part needs %(need)s of %(usable)s; -ngl %(max)s fits (≈ %(speed)s tokens/s)"
)
GPU_NEVER = N_("does not fit — even with no layer on the GPU its part needs %(need)s of %(usable)s")
HOST_SHORT = N_("does not fit — %(host)s stay in CPU memory, more than the %(ram)s of RAM")
HOST_SHORT_NGL = N_(
    "does not fit — %(host)s stay in CPU memory, more than the %(ram)s of RAM; -ngl %(max)s leaves "
    "%(host_max)s there"
)
OS_TIGHT = N_(
    "; only %(left)s of your %(ram)s RAM left for the system and other programs: too tight (an OS wants "
    "about %(os)s), so plan on more RAM or a smaller model or quantization"
)
"""Appended to a fitting verdict whose CPU part leaves less than :data:`estimator.host_ddr.OS_RAM_RESERVE`
of the stated RAM (s28 trial M2)."""
EXPERTS_ON_CPU = N_("the experts in CPU memory")
ON_GPU = N_(
    "On the GPU: %(what)s — %(used)s of %(usable)s (weights %(w)s, KV cache %(kv)s, compute buffer %(cb)s)"
)
ON_CPU = N_("In CPU memory: %(what)s — %(host)s%(ram)s")
OF_RAM = N_(" of %(ram)s RAM")
RAM_NEEDED = N_(" (no RAM stated: the machine needs at least this much free RAM beside the system's)")
"""With no host memory said (a rig sized by :func:`estimator.layer_offload.auto_split`, s20 #1)."""
FEWEST_MOE = N_(
    "Fewest --n-cpu-moe that fits %(n)s × %(gpu)s: %(m)s of %(all)s layers (≈ %(speed)s tokens/s)"
)
MOE_SHORT = N_(
    "does not fit — the GPU part needs %(need)s of %(usable)s; --n-cpu-moe %(m)s fits (≈ %(speed)s tokens/s)"
)
LARGEST = N_("Largest -ngl that fits %(n)s × %(gpu)s: %(max)s of %(all)s (≈ %(speed)s tokens/s)")
EXPERTS_CPU = N_(
    "Or, as people run a MoE on one card: every layer on the GPU, the experts of the first %(m)s of %(all)s "
    "layers in CPU memory (--n-cpu-moe %(m)s) — %(used)s of %(usable)s on the GPU (≈ %(speed)s tokens/s)"
)
EXPERTS_CPU_SHORT = N_(
    'Even with every expert in CPU memory (--cpu-moe, or -ot ".ffn_.*_exps.=CPU") the rest of the model '
    "needs %(used)s of %(usable)s on the GPU: it does not fit"
)
"""The experts-on-CPU layout (estimator.moe_offload), said beside a chosen -ngl split of a MoE model (s32)."""
SPEED = N_(
    "Decode: %(gpu_read)s read per token on the GPU at %(gpu_bw)s GB/s × %(gpu_eff)s, %(cpu_read)s on the "
    "CPU at %(host_bw)s GB/s × %(cpu_eff)s%(assumed)s"
)
SPEED_AT = N_(
    "Decode at -ngl %(max)s: %(gpu_read)s read per token on the GPU at %(gpu_bw)s GB/s × %(gpu_eff)s, "
    "%(cpu_read)s on the CPU at %(host_bw)s GB/s × %(cpu_eff)s%(assumed)s"
)
"""The decode line of a split that does not fit: the fitting -ngl's reads, whose speed the headline gives
(one configuration per line: s34 trial #1)."""
CHOSEN = N_("%(setting)s (the most layers that fit your card; the rest in CPU memory)")
CHOSEN_CARDS = N_("%(setting)s (the most layers that fit your cards together; the rest in CPU memory)")
ALL_ON_MORE = N_(
    "Alternative, every layer on GPUs: %(n)s × %(gpu)s (≈ %(speed)s tokens/s, one sequence): more cards "
    "add room for the layers now in CPU memory"
)
ALL_ON_GPUS = N_(
    "Alternative, every layer on GPUs: %(n)s × %(gpu)s (≈ %(speed)s tokens/s, one sequence): a second card "
    "adds room for the layers now in CPU memory"
)
HOST_STATED = N_(" (your RAM: two channels unless you said how many)")
HOST_CHANNELS = N_(" (your RAM: %(n)s channels, as you said)")
HOST_ASSUMED = N_(" (dual-channel DDR4-3200 to DDR5-5600, assumed: say your RAM's speed for one figure)")
SERVER_ASSUMED = N_(
    " (a server's 8-channel DDR4-3200 to 12-channel DDR5-4800, one socket, assumed: say your RAM's speed "
    "for one figure)"
)
HOST_KIND = N_(
    " (your RAM: %(n)s-channel DDR%(k)s at its common speeds, %(low)s–%(high)s MT/s: say its speed for one "
    "figure)"
)
HOST_CHANNELS_ONLY = N_(
    " (your RAM: %(n)s channels at DDR4-3200 to DDR5-5600, assumed: say its speed for one figure)"
)
HOST_UNIFIED = N_(
    " (unified memory: the share outside the GPU's working set, at the machine's own bandwidth; macOS and "
    "other apps use it too)"
)
HOST_BASIS = {
    "stated": HOST_STATED, "desktop": HOST_ASSUMED, "server": SERVER_ASSUMED, "unified": HOST_UNIFIED,
}  # fmt: skip
"""The host bandwidth's wording by where the estimator took it from (``LayerSplit.host_bandwidth_basis``)."""
GPU_PART = {
    "all": N_("all %(layers)s layers and the output layer"),
    "some": N_("the output layer and %(n)s of %(layers)s layers"),
    "none": N_("no layer"),
}
CPU_PART = {
    "layers": N_("%(n)s layers and the token embeddings"),
    "embeddings": N_("the token embeddings"),
    "experts": N_(" and the experts of %(n)s layers"),
}


def _speed(f: Fmt, low: float | None, high: float | None) -> str:
    if not low or not high:
        return "?"
    digits = 1 if high < 10 else 0
    a, b = f.num(low, digits), f.num(high, digits)
    return a if a == b else f"{a}–{b}"


SHOWN_GIB = 0.05 * 2**30
"""Below this a size rounds to '0.0 GiB': shown as '< 0.1 GiB' (a compute buffer of a few MB is no
zero)."""


def _gib(f: Fmt, size: float) -> str:
    """``size`` bytes in GiB, '< 0.1 GiB' for a size above zero that would show as 0.0."""
    return "< " + f.gib(2 * SHOWN_GIB) if 0 < size < SHOWN_GIB else f.gib(size)


def _setting(s: LayerSplit, lang: str, llama_cpp: bool, ngl: str = "-ngl") -> str:
    """'-ngl 40', '--cpu-moe', '-ngl 30, --n-cpu-moe 10', '-ngl 40, -nkvo': the user's setting as llama.cpp
    spells it (``ngl``: Ollama's 'num_gpu 40', trial s26 #19); every layer's experts on another runtime
    (KTransformers, which has no such flag): in words."""
    other = s.cpu_moe_layers or not s.kv_on_gpu
    parts = [] if s.gpu_layers_stated >= s.layers + 1 and other else [f"{ngl} {s.gpu_layers_stated}"]
    if s.cpu_moe_layers and s.cpu_moe_layers < s.layers:
        parts.append(f"--n-cpu-moe {s.cpu_moe_layers}")
    elif s.cpu_moe_layers:
        parts.append("--cpu-moe" if llama_cpp else translate(lang, EXPERTS_ON_CPU))
    if not s.kv_on_gpu:
        parts.append("-nkvo")
    return ("，" if lang == "zh" else ", ").join(parts)


def _verdict(s: LayerSplit, f: Fmt, lang: str, tight: bool = False) -> str:
    best = _speed(f, s.max_tokens_per_s_low, s.max_tokens_per_s_high)
    usable = f.gib(s.gpu_usable_bytes)
    if not s.fits_gpu and s.max_gpu_layers is None:
        return translate(lang, GPU_NEVER, need=f.gib(s.gpu_bytes), usable=usable)
    moe = _speed(f, s.min_cpu_moe_tokens_per_s_low, s.min_cpu_moe_tokens_per_s_high)
    if not s.fits_gpu and s.min_cpu_moe_layers is not None:  # experts on the CPU: the knob is --n-cpu-moe
        return translate(
            lang, MOE_SHORT, need=f.gib(s.gpu_bytes), usable=usable, m=s.min_cpu_moe_layers, speed=moe
        )
    if not s.fits_gpu:
        return translate(
            lang, GPU_SHORT, need=f.gib(s.gpu_bytes), usable=usable, max=s.max_gpu_layers, speed=best
        )
    if s.fits_host is False:
        ram = s.host_memory_bytes or 0.0
        less = (
            s.max_host_bytes is not None
            and s.max_host_bytes <= ram
            and s.max_gpu_layers != s.gpu_layers_stated
        )
        return translate(
            lang, HOST_SHORT_NGL if less else HOST_SHORT, host=f.gib(s.host_bytes), ram=f.gib(ram),
            max=s.max_gpu_layers, host_max=f.gib(s.max_host_bytes or 0),
        )  # fmt: skip
    speed = _speed(f, s.tokens_per_s_low, s.tokens_per_s_high)
    msgid = FITS if s.gpu_bandwidth else FITS_NO_SPEED  # s19: an unknown card's speed is never printed
    if tight:  # the verdict's 'borderline' (estimator.layer_offload.with_layer_split)
        msgid = TIGHT if s.gpu_bandwidth else TIGHT_NO_SPEED
    share = f.percent(s.gpu_bytes / s.gpu_usable_bytes) if s.gpu_usable_bytes else ""
    left = (s.host_memory_bytes or 0.0) - s.host_bytes
    from estimator.host_ddr import OS_RAM_RESERVE

    tight_os = "" if not s.host_memory_bytes or left >= OS_RAM_RESERVE else translate(
        lang, OS_TIGHT, left=f.gib(left), ram=f.gib(s.host_memory_bytes), os=f.gib(OS_RAM_RESERVE)
    )  # fmt: skip
    return translate(
        lang, msgid, gpu_used=f.gib(s.gpu_bytes), usable=usable, host=f.gib(s.host_bytes), speed=speed,
        share=share,
    ) + tight_os  # fmt: skip


def _basis_words(basis: str, lang: str, channels: int | None, ddr: int | None) -> str:
    """Where the host bandwidth came from, in words: the RAM kind or channels said (basis 'ddr': its
    JEDEC rates, estimator.host_ddr), else the stated figure or the range assumed (:data:`HOST_BASIS`)."""
    if basis != "ddr":
        return translate(lang, HOST_BASIS[basis])
    if ddr is None:
        return translate(lang, HOST_CHANNELS_ONLY, n=channels or 2)
    from estimator.host_ddr import DDR_RATES

    low, high = DDR_RATES[ddr]
    return translate(lang, HOST_KIND, n=channels or 2, k=ddr, low=f"{low:,.0f}", high=f"{high:,.0f}")


def _lines(
    s: LayerSplit, f: Fmt, lang: str, gpus: str, gpu: str, channels: int | None = None, ddr: int | None = None
) -> list[str]:
    key = "all" if s.gpu_layers == s.layers else "none" if not s.output_on_gpu else "some"
    on_gpu = translate(lang, GPU_PART[key], layers=s.layers, n=s.gpu_layers)
    cpu_layers = s.layers - s.gpu_layers
    on_cpu = translate(lang, CPU_PART["layers" if cpu_layers else "embeddings"], n=cpu_layers)
    if s.cpu_moe_layers:
        on_cpu += translate(lang, CPU_PART["experts"], n=min(s.cpu_moe_layers, s.layers))
    ram = translate(lang, OF_RAM, ram=f.gib(s.host_memory_bytes)) if s.host_memory_bytes else ""
    if not s.host_memory_bytes and s.gpu_layers_chosen:
        ram = translate(lang, RAM_NEEDED)
    out = [
        translate(
            lang, ON_GPU, what=on_gpu, used=f.gib(s.gpu_bytes), usable=f.gib(s.gpu_usable_bytes),
            w=_gib(f, s.gpu_weights_bytes), kv=_gib(f, s.gpu_kv_bytes), cb=_gib(f, s.gpu_workspace_bytes),
        ),
        translate(lang, ON_CPU, what=on_cpu, host=f.gib(s.host_bytes), ram=ram),
    ]  # fmt: skip
    stated_all = s.gpu_layers_stated >= s.layers + 1
    if (
        s.max_gpu_layers is not None
        and s.max_gpu_layers != s.gpu_layers_stated
        and s.fits_gpu
        and not stated_all
    ):
        best = _speed(f, s.max_tokens_per_s_low, s.max_tokens_per_s_high)
        out.append(
            translate(lang, LARGEST, n=gpus, gpu=gpu, max=s.max_gpu_layers, all=s.layers + 1, speed=best)
        )
    fewer = s.min_cpu_moe_layers is not None and s.min_cpu_moe_layers < min(s.cpu_moe_layers, s.layers)
    if fewer and s.fits_gpu:  # room on the GPU for more experts: faster
        speed = _speed(f, s.min_cpu_moe_tokens_per_s_low, s.min_cpu_moe_tokens_per_s_high)
        out.append(
            translate(lang, FEWEST_MOE, n=gpus, gpu=gpu, m=s.min_cpu_moe_layers, all=s.layers, speed=speed)
        )
    if s.experts_cpu_gpu_bytes is not None:  # s32: the layout people run a MoE with (estimator.moe_offload)
        used, usable = f.gib(s.experts_cpu_gpu_bytes), f.gib(s.gpu_usable_bytes)
        speed = _speed(f, s.experts_cpu_tokens_per_s_low, s.experts_cpu_tokens_per_s_high)
        m = s.experts_cpu_layers
        msgid = EXPERTS_CPU_SHORT if m is None else EXPERTS_CPU
        out.append(translate(lang, msgid, m=m, all=s.layers, used=used, usable=usable, speed=speed))
    low, high = s.host_bandwidth_low / 1e9, s.host_bandwidth_high / 1e9
    assumed = _basis_words(s.host_bandwidth_basis, lang, channels, ddr)
    if low == high and channels:  # 'dual channel' said: that count, not the two assumed (s15 trial #4)
        assumed = translate(lang, HOST_CHANNELS, n=channels)
    host_bw = f.num(low, 1) if low == high else f"{f.num(low, 1)}–{f.num(high, 1)}"
    at_max = not s.fits_gpu and s.min_cpu_moe_layers is None and s.max_gpu_read_bytes is not None
    gpu_read, cpu_read = s.gpu_read_bytes, s.cpu_read_bytes
    if at_max:  # the headline's -ngl that fits, not the stated one that does not (s34 #1)
        gpu_read, cpu_read = s.max_gpu_read_bytes or 0.0, s.max_cpu_read_bytes or 0.0
    out.append(
        "" if not s.gpu_bandwidth else translate(  # s19: no bandwidth known, no decode line
            lang, SPEED_AT if at_max else SPEED, gpu_read=f.gb(gpu_read), gpu_bw=f.int(s.gpu_bandwidth / 1e9),
            gpu_eff=f"{DECODE_BANDWIDTH_EFFICIENCY:.0%}", cpu_read=f.gb(cpu_read), host_bw=host_bw,
            cpu_eff=f"{CPU_BANDWIDTH_EFFICIENCY:.0%}", assumed=assumed, max=s.max_gpu_layers,
        )
    )  # fmt: skip
    return [line for line in out if line]


def split_section(
    report: SizingReport, f: Fmt, lang: str, gpu: str, flags: bool = True
) -> SplitContext | None:
    """``inf.split`` for the report's split (None without one); ``gpu`` as the headline names the card;
    ``flags`` False: the setting in words, not llama.cpp's flags (KTransformers named, s39 fixs2 #3)."""
    inf = report.inference
    s = inf.layer_split if inf is not None else None
    if s is None:
        return None
    gpus = f.int(report.request.gpu_count or 1)
    rt = runtime_named(inf.runtime)
    setting = _setting(s, lang, rt.local and flags, "num_gpu" if rt.offloads_by_itself else "-ngl")
    lines = _lines(s, f, lang, gpus, gpu, report.request.host_channels, report.request.host_ddr)
    several = (report.request.gpu_count or 1) > 1  # a rig: its cards together (s20 #1)
    if s.gpu_layers_chosen:  # no -ngl said: the most that fit, and the cards that hold it all (s19 trial)
        setting = translate(lang, CHOSEN_CARDS if several else CHOSEN, setting=setting)
    if s.gpu_layers_chosen and s.gpu_bandwidth:  # s19: an unknown card (a laptop's) gets no 'n cards' line
        speed, msgid = s.all_gpus_tokens_per_s, ALL_ON_MORE if several else ALL_ON_GPUS
        lines.append(translate(lang, msgid, n=f.int(inf.min_gpus), gpu=gpu, speed=_speed(f, speed, speed)))
    verdict = _verdict(s, f, lang, report.feasible == "borderline")
    return {"gpus": gpus, "setting": setting, "verdict": verdict, "lines": lines}
