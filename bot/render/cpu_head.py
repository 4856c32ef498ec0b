"""The headline of a question about a machine with a CPU and no GPU (s34 review: 'Llama-3-8B on an
i7-12700 with 16GB' was sized on an A100 with the 16 GB named as 'every weight on the GPU').

The sizing sizes GPUs; CPU inference is not modelled (bot.parse.cpu_named). The reply's first line says so
before the GPU figures, which stay for reference, and when the machine's RAM is stated (read by
bot.parse.cpu_named or the host-memory readers) whether the model fits in it at the format sized: its
weights plus the KV cache of one sequence at the context sized (one user on a CPU), against the RAM.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.answer import Answer

CPU_ONLY = "cpu_only"
"""The parse note of a CPU named with no GPU (bot.parse.cpu_named)."""
CPU_HEAD = N_(
    "Your machine is a CPU (%(cpu)s) with no GPU named: I size GPUs, not CPU inference. For reference, "
    "on a GPU — "
)
RAM_HOLDS = N_(
    "Your %(ram)s of RAM holds the model at %(precision)s: weights %(weights)s + KV cache of one "
    "%(context)s-token sequence %(kv)s ≈ %(need)s."
)
RAM_SHORT = N_(
    "Your %(ram)s of RAM does not hold the model at %(precision)s: weights %(weights)s + KV cache of one "
    "%(context)s-token sequence %(kv)s ≈ %(need)s, %(short)s more."
)


def cpu_head(text: str, answer: Answer) -> str:
    """``text`` (a rendered reply) with :data:`CPU_HEAD` before its first line and the RAM's verdict
    after it, for a CPU named with no GPU; unchanged otherwise. The CPU's name is echoed as
    bot.parse.cpu_named matched it (letters, digits, spaces and hyphens: nothing to escape)."""
    report, lang = answer.report, answer.lang
    cpus = [t for t, why in answer.parsed.unused_numbers if why == "cpu_not_gpu"]
    if report is None or not cpus or answer.parsed.request.gpu is not None:
        return text
    head = translate(lang, CPU_HEAD, cpu=", ".join(cpus))
    ram, inf = answer.parsed.request.host_memory_gib, report.inference
    if not ram or inf is None or not inf.weights_bytes:
        return head + text
    f = fmt_for(lang)
    kv = (inf.kv_bytes_per_token or 0.0) * report.request.seq_len
    need, have = inf.weights_bytes + kv, ram * 2**30
    values = {
        "ram": f.gib(have),
        "precision": str(getattr(report.request.precision, "value", report.request.precision)),
        "weights": f.gib(inf.weights_bytes),  # the RAM's unit on the same line (s37 fixb #3)
        "context": f.int(report.request.seq_len),
        "kv": f.gib(kv),
        "need": f.gib(need),
    }
    line = (
        translate(lang, RAM_HOLDS, **values)
        if need <= have
        else translate(lang, RAM_SHORT, short=f.gib(need - have), **values)
    )
    first, sep, rest = text.partition("\n")
    line += "\\" if first.endswith("\\") else ""  # markdown's hard line break, as the headline's
    return head + first + "\n" + line + (sep + rest if sep else "")
