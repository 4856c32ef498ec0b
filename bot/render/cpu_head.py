"""The headline of a question about a machine with a CPU and no GPU (s34 review: 'Llama-3-8B on an
i7-12700 with 16GB' was sized on an A100 with the 16 GB named as 'every weight on the GPU'; s41 fixtrain
#1: 'no GPU, 32 GB RAM laptop' and '没有GPU，只有64G内存' were sized as if unsaid).

The sizing sizes GPUs, not the CPU (bot.parse.cpu_named, bot.parse.no_gpu). For serving, the reply leads
with the decode speed RAM allows on the CPU (s45), then says so before the GPU figures, which stay for
reference; when the machine's RAM is stated, whether
the model fits in it at the format run (its weights plus the KV cache of one sequence at the context
sized: one user on a CPU); and the decode speed RAM allows llama.cpp / Ollama on the CPU. The figures are
the estimator's (``report.cpu``, estimator.cpu_decode: its formulas and sources); this module only formats
them (s41 cpufix #3). For training, the head says a CPU is impractical and not timed (the catalog has no CPU
rate), then the GPU plan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.answer import Answer
    from bot.render.fmt import Fmt
    from estimator.cpu_decode import CpuRun

CPU_ONLY = "cpu_only"
"""The parse note of a CPU named with no GPU (bot.parse.cpu_named), or of no GPU said (bot.parse.no_gpu)."""
CPU_HEAD = N_(
    "Your machine is a CPU (%(cpu)s) with no GPU named: I size GPUs, not CPU inference. For reference, "
    "on a GPU — "
)
CPU_LEAD = N_(
    "Your machine is a CPU (%(cpu)s) with no GPU: the bound above is llama.cpp on this CPU's RAM. For "
    "reference, on a GPU — "
)
""":data:`CPU_HEAD` under the CPU's lines (s45 review B6: it said 'I size GPUs, not CPU inference' under the
CPU's decode bound; the CPU is named here, so its 'not used' item is not repeated, bot.render.understood)."""
NO_GPU_HEAD = N_(
    "No GPU on your machine: I size GPUs, not the CPU; llama.cpp or Ollama run the model on the CPU from "
    "RAM (its memory and speed bound below). For reference, on a GPU — "
)
NO_GPU_LEAD = N_(
    "No GPU on your machine: I size GPUs, not the CPU; llama.cpp or Ollama run the model on the CPU from "
    "RAM (its memory and speed bound above). For reference, on a GPU — "
)
""":data:`NO_GPU_HEAD` under the CPU's lines, which now come first (s45 fixread #5)."""
TRAIN_HEAD = N_(
    "No GPU on your machine: training on a CPU is impractical, and I do not time it (no CPU rate in the "
    "catalog). On GPUs — "
)
RAM_HOLDS = N_(
    "Your %(ram)s of RAM holds the model at %(precision)s: weights %(weights)s + KV cache of one "
    "%(context)s-token sequence %(kv)s ≈ %(need)s."
)
RAM_SHORT = N_(
    "Your %(ram)s of RAM does not hold the model at %(precision)s: weights %(weights)s + KV cache of one "
    "%(context)s-token sequence %(kv)s ≈ %(need)s, %(short)s more."
)
CPU_SPEED = N_(
    "On the CPU, llama.cpp reads %(read)s of %(precision)s weights from RAM for each token (decode is bound "
    "by memory bandwidth): ≈ %(low)s–%(high)s tokens/s at most on %(bandwidth)s GB/s of RAM bandwidth "
    "(%(ram_kind)s)."
)
CPU_SPEED_ONE = N_(
    "On the CPU, llama.cpp reads %(read)s of %(precision)s weights from RAM for each token (decode is bound "
    "by memory bandwidth): ≈ %(speed)s tokens/s at most on %(bandwidth)s GB/s of RAM bandwidth "
    "(%(ram_kind)s)."
)
"""One bandwidth stated ('内存带宽 80GB/s'): one figure, not '11.1–11.1' (s42 fixleft, s41 trial #7)."""
DESKTOP_RAM = N_("dual-channel DDR4-3200 to DDR5-5600")
SERVER_RAM = N_("a server's 8-channel DDR4-3200 to 12-channel DDR5-4800")
STATED_RAM = N_("as stated")
DDR_RAM = N_(
    "your RAM: %(n)s-channel DDR%(k)s at its common speeds, %(low)s–%(high)s MT/s: say its speed for one "
    "figure"
)
"""The RAM kind said without a rate ('DDR5 双通道'): its generation's rates × the channels (s49 trial)."""
CHANNELS_RAM = N_("your RAM: %(n)s channels at DDR4-3200 to DDR5-5600, assumed: say its speed for one figure")
"""A channel count said with no DDR generation ('8-channel RAM'; s49 trial)."""
DDR_RAM_TWO = N_(
    "your RAM: DDR%(k)s at its common speeds, %(low)s–%(high)s MT/s, dual-channel assumed: say its speed and "
    "channels for one figure"
)
"""The RAM kind said with no channel count: two assumed, and said so (s49 review #1)."""


def cpu_head(text: str, answer: Answer, markdown: bool = False) -> str:
    """``text`` (a rendered reply) with the machine's head before its first line (:data:`CPU_HEAD` for a CPU
    named, :data:`NO_GPU_HEAD` for no GPU said, :data:`TRAIN_HEAD` for training) and, serving, the RAM's
    verdict and the CPU's decode bound after it (``report.cpu``, estimator.cpu_decode: render only formats
    it); unchanged when the machine has a GPU (``interpretation.machine`` None: the same test). The CPU's
    name is echoed as bot.parse.cpu_named matched it (letters, digits, spaces, hyphens: nothing to escape).
    The CPU's lines open the headline's paragraph (s45 fixread #5, s44 trial #6: the CPU's decode bound
    first, then its RAM, then the GPU reference and the lines under it, what was not used; before, the GPU
    reference and its cost led); ``markdown``: each line but the paragraph's last ends in a hard break
    (``\\``, as bot.render.dialect.md_finish writes them)."""
    report, lang = answer.report, answer.lang
    # bot.core.cpu_machine.machine_without_gpu's test in place: no frame for the replies it leaves alone
    cpus = [t for t, why in answer.parsed.unused_numbers if why == "cpu_not_gpu"]
    said = "no_gpu" in answer.parsed.notes
    if report is None or not (cpus or said) or answer.parsed.request.gpu is not None:
        return text
    if report.inference is None:
        return translate(lang, TRAIN_HEAD) + text
    no_gpu = NO_GPU_HEAD if report.cpu is None else NO_GPU_LEAD  # the CPU's bound, when shown, is above it
    cpu_head = CPU_HEAD if report.cpu is None else CPU_LEAD
    head = translate(lang, cpu_head, cpu=", ".join(cpus)) if cpus else translate(lang, no_gpu)
    if report.cpu is None:
        return head + text
    first, _, rest = text.partition("\n")
    # the headline's paragraph: the lines under it (none when a blank line or nothing follows it)
    none_under = rest[:1] in ("", "\n")
    para, gap, after = ("", rest[:1] and "\n\n", rest[1:]) if none_under else rest.partition("\n\n")
    ram = [_ram_line(report.cpu, lang)] if report.cpu.ram_bytes_stated else []
    # s45 fixread #5 (s44 trial #6): the CPU's figure leads, then its RAM, then the GPU reference
    lines = [_speed_line(report.cpu, lang), *ram, head + first, *(para.split("\n") if para else ())]
    if markdown:  # a hard break after each line but the last (md_finish's, written before these lines came)
        return "\\\n".join(line.removesuffix("\\") for line in lines) + gap + after
    return "\n".join(lines) + gap + after


def _ram_line(cpu: CpuRun, lang: str) -> str:
    """The RAM's verdict: the weights + one sequence's KV cache against the stated RAM."""
    f, have = fmt_for(lang), cpu.ram_bytes_stated or 0.0
    values = {
        "ram": f.gib(have),
        "precision": _format_name(cpu.weight_format),
        "weights": f.gib(cpu.weights_bytes),  # the RAM's unit on the same line (s37 fixb #3)
        "context": f.int(cpu.context_tokens),
        "kv": f.gib(cpu.kv_bytes),
        "need": f.gib(cpu.ram_bytes_needed),
    }
    if cpu.fits_ram:
        return translate(lang, RAM_HOLDS, **values)
    return translate(lang, RAM_SHORT, short=f.gib(cpu.ram_bytes_needed - have), **values)


def _format_name(weight_format: str) -> str:
    """The format as the reply names it: GGUF's mixes upper-cased as llama.cpp writes them ('Q4_K_M')."""
    return weight_format.upper() if weight_format.startswith("q") and "_k" in weight_format else weight_format


def _bandwidth(cpu: CpuRun, f: Fmt) -> str:
    """The host bandwidth range in GB/s by the locale's formatter (s41 cpufix #6: was an f-string); one
    figure when stated."""
    low, high = f.num(cpu.bandwidth_low / 1e9), f.num(cpu.bandwidth_high / 1e9)
    return low if low == high else f"{low}–{high}"


def _speed_line(cpu: CpuRun, lang: str) -> str:
    """The CPU's decode bound (``report.cpu``'s tokens/s over its bandwidth range)."""
    f = fmt_for(lang)
    low, high = f.num(cpu.tokens_per_s_low), f.num(cpu.tokens_per_s_high)
    return translate(
        lang,
        CPU_SPEED if low != high else CPU_SPEED_ONE,
        read=f.gib(cpu.bytes_read_per_token),
        precision=_format_name(cpu.weight_format),
        low=low,
        high=high,
        speed=low,
        bandwidth=_bandwidth(cpu, f),
        ram_kind=_ram_kind(cpu, lang),
    )


def _ram_kind(cpu: CpuRun, lang: str) -> str:
    """Where the bandwidth came from, in words: stated, the RAM kind or channels said, or a range assumed."""
    if cpu.bandwidth_kind != "ddr":
        kind = {"server": SERVER_RAM, "stated": STATED_RAM}.get(cpu.bandwidth_kind, DESKTOP_RAM)
        return translate(lang, kind)
    n = cpu.ram_channels or 2
    if cpu.ram_ddr is None:
        return translate(lang, CHANNELS_RAM, n=n)
    from estimator.host_ddr import DDR_RATES

    low, high = DDR_RATES[cpu.ram_ddr]
    text = DDR_RAM if cpu.ram_channels else DDR_RAM_TWO
    return translate(lang, text, n=n, k=cpu.ram_ddr, low=f"{low:,.0f}", high=f"{high:,.0f}")
