"""The host memory in the headline of a RAM question for a CPU/offload runtime (s39 fixm #2: 'deepseek r1
671b q4 gguf on llama.cpp, how much RAM' headlined '5 × A100 80G'). llama.cpp (and Ollama, LM Studio,
llamafile, KTransformers on it) run a GGUF model from RAM when no GPU holds it: the weights file is mapped
into memory, the KV cache of the sequences at their context is allocated at start, and one compute buffer
(one n_ubatch of 512 tokens and one sequence's logits: estimator.runtimes.base.local_workspace_bytes)
sits beside them. The sum leads; the GPU figures follow, as the options if a GPU is added. Only when no
GPU is named (a named card's question is its own) and the runtime is a local one.

Imported by bot.render.renderer only for a parse noted ``host_ram_asked`` (bot.parse.ram_asked)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.answer import Answer

RAM_HEAD = N_(
    "≈ %(need)s of RAM (system memory) to run it with %(runtime)s on the CPU: the %(precision)s weights "
    "%(weights)s + KV cache %(kv)s (%(concurrency)s × %(context)s tokens) + compute buffer %(buffer)s. "
)
GPUS_INSTEAD = N_("With GPUs instead: ")
RAM_HOLDS = N_("Your %(ram)s of RAM holds it. ")
RAM_SHORT = N_("Your %(ram)s of RAM is %(short)s short. ")


def ram_head(text: str, answer: Answer) -> str:
    """``text`` (a rendered reply) with :data:`RAM_HEAD` before its first line for a host-memory question
    (module doc); unchanged otherwise (a GPU named, a server runtime, a Mac's unified memory, no serving)."""
    report, req = answer.report, answer.parsed.request
    inf = report.inference if report is not None else None
    if inf is None or req.gpu is not None or not inf.weights_bytes or not inf.runtime:
        return text
    from estimator import catalog
    from estimator.runtimes import runtime_named
    from estimator.runtimes.base import local_workspace_bytes

    if not runtime_named(inf.runtime).local:
        return text
    f = fmt_for(answer.lang)
    spec = catalog.model(report.request.model) if report.request.model else None
    buffer = (
        local_workspace_bytes(spec, 1) if spec is not None else inf.workspace_bytes_per_gpu
    )  # one, on the CPU
    need = inf.weights_bytes + inf.kv_bytes_total + buffer
    head = translate(
        answer.lang,
        RAM_HEAD,
        need=f.gib(need),
        runtime=inf.runtime,
        precision=inf.weight_format.upper(),
        weights=f.gib(inf.weights_bytes),
        kv=f.gib(inf.kv_bytes_total),
        concurrency=f.int(report.request.concurrency or 1),
        context=f.int(report.request.seq_len),
        buffer=f.gib(buffer),
    )
    ram = req.host_memory_gib
    if ram:
        have = ram * 2**30
        said = RAM_HOLDS if need <= have else RAM_SHORT
        head += translate(answer.lang, said, ram=f.gib(have), short=f.gib(need - have))
    return head + translate(answer.lang, GPUS_INSTEAD) + text
