"""The headline of a question about a machine with a CPU and no GPU (s34 review: 'Llama-3-8B on an
i7-12700 with 16GB' was sized on an A100 with the 16 GB named as 'every weight on the GPU'; s41 fixtrain
#1: 'no GPU, 32 GB RAM laptop' and '没有GPU，只有64G内存' were sized as if unsaid).

The sizing sizes GPUs, not the CPU (bot.parse.cpu_named, bot.parse.no_gpu). For serving, the reply's first
line says so before the GPU figures, which stay for reference; when the machine's RAM is stated, whether
the model fits in it at the format sized (its weights plus the KV cache of one sequence at the context
sized: one user on a CPU); and the decode speed RAM allows llama.cpp / Ollama on the CPU: every token
reads the weights (a MoE's active share) from RAM, so tokens/s ≤ host bandwidth × the share llama.cpp
reaches (:data:`estimator.layer_offload.CPU_BANDWIDTH_EFFICIENCY`, measured on ggml-org/llama.cpp#19480) /
bytes read. The host bandwidth is the desktop range (:data:`estimator.layer_offload.HOST_BANDWIDTH_RANGE`,
dual-channel DDR4-3200 to DDR5-5600) or a server's above
:data:`estimator.layer_offload.DESKTOP_MEMORY_MAX` of RAM. For training, the head says a CPU is impractical
and not timed (the catalog has no CPU rate), then the GPU plan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.answer import Answer

CPU_ONLY = "cpu_only"
"""The parse note of a CPU named with no GPU (bot.parse.cpu_named), or of no GPU said (bot.parse.no_gpu)."""
CPU_HEAD = N_(
    "Your machine is a CPU (%(cpu)s) with no GPU named: I size GPUs, not CPU inference. For reference, "
    "on a GPU — "
)
NO_GPU_HEAD = N_(
    "No GPU on your machine: I size GPUs, not the CPU; llama.cpp or Ollama run the model on the CPU from "
    "RAM (its memory and speed bound below). For reference, on a GPU — "
)
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
    "On the CPU, llama.cpp reads %(read)s of weights from RAM for each token (decode is bound by memory "
    "bandwidth): ≈ %(low)s–%(high)s tokens/s at most on %(bandwidth)s GB/s of RAM bandwidth (%(ram_kind)s)."
)
DESKTOP_RAM = N_("dual-channel DDR4-3200 to DDR5-5600")
SERVER_RAM = N_("a server's 8-channel DDR4-3200 to 12-channel DDR5-4800")


def cpu_head(text: str, answer: Answer) -> str:
    """``text`` (a rendered reply) with the machine's head before its first line (:data:`CPU_HEAD` for a CPU
    named, :data:`NO_GPU_HEAD` for no GPU said, :data:`TRAIN_HEAD` for training) and, serving, the RAM's
    verdict and the CPU's decode bound after it; unchanged when a GPU is named. The CPU's name is echoed as
    bot.parse.cpu_named matched it (letters, digits, spaces and hyphens: nothing to escape)."""
    report, lang = answer.report, answer.lang
    cpus = [t for t, why in answer.parsed.unused_numbers if why == "cpu_not_gpu"]
    said = "no_gpu" in answer.parsed.notes
    if report is None or not (cpus or said) or answer.parsed.request.gpu is not None:
        return text
    inf = report.inference
    if inf is None:
        return translate(lang, TRAIN_HEAD) + text
    head = translate(lang, CPU_HEAD, cpu=", ".join(cpus)) if cpus else translate(lang, NO_GPU_HEAD)
    if not inf.weights_bytes:
        return head + text
    first, sep, rest = text.partition("\n")
    brk = "\\" if first.endswith("\\") else ""  # markdown's hard line break, as the headline's
    if answer.parsed.request.host_memory_gib:
        rest = _ram_line(answer) + brk + (sep + rest if sep else "")
    # the speed closes the headline's paragraph: the lines under the headline (what was not used) stay
    para, gap, after = rest.partition("\n\n")
    para = para + (brk if para and not para.endswith("\\") else "") + "\n" + _speed_line(answer)
    return head + first + "\n" + para.lstrip("\n") + gap + after


def _ram_line(answer: Answer) -> str:
    """The RAM's verdict: the weights + one sequence's KV cache against the stated RAM."""
    report, lang = answer.report, answer.lang
    assert report is not None and report.inference is not None
    inf, f = report.inference, fmt_for(lang)
    kv = (inf.kv_bytes_per_token or 0.0) * report.request.seq_len
    need, have = inf.weights_bytes + kv, (answer.parsed.request.host_memory_gib or 0.0) * 2**30
    values = {
        "ram": f.gib(have),
        "precision": str(getattr(report.request.precision, "value", report.request.precision)),
        "weights": f.gib(inf.weights_bytes),  # the RAM's unit on the same line (s37 fixb #3)
        "context": f.int(report.request.seq_len),
        "kv": f.gib(kv),
        "need": f.gib(need),
    }
    if need <= have:
        return translate(lang, RAM_HOLDS, **values)
    return translate(lang, RAM_SHORT, short=f.gib(need - have), **values)


def _speed_line(answer: Answer) -> str:
    """The CPU's decode bound (module doc): the weights one token reads (a MoE's active share of them)
    over the host's bandwidth range × llama.cpp's measured share of it."""
    from estimator.layer_offload import (
        CPU_BANDWIDTH_EFFICIENCY,
        DESKTOP_MEMORY_MAX,
        HOST_BANDWIDTH_RANGE,
        HOST_BANDWIDTH_SERVER,
    )

    report, lang = answer.report, answer.lang
    assert report is not None and report.inference is not None
    spec = report.model_spec  # the shape sized (render never goes back to the catalog: issue 23 item 2)
    share = spec.params_active / spec.params_total if spec is not None and spec.params_active else 1.0
    read = report.inference.weights_bytes * share
    server = (answer.parsed.request.host_memory_gib or 0.0) * 2**30 > DESKTOP_MEMORY_MAX
    low, high = HOST_BANDWIDTH_SERVER if server else HOST_BANDWIDTH_RANGE
    f = fmt_for(lang)
    return translate(
        lang,
        CPU_SPEED,
        read=f.gib(read),
        low=f.num(low * CPU_BANDWIDTH_EFFICIENCY / read),
        high=f.num(high * CPU_BANDWIDTH_EFFICIENCY / read),
        bandwidth=f"{low / 1e9:.1f}–{high / 1e9:.1f}",
        ram_kind=translate(lang, SERVER_RAM if server else DESKTOP_RAM),
    )
