"""Serving runtimes, one class each (:class:`ServingRuntime` subclasses): vLLM, SGLang, transformers,
llama.cpp — each with its budget per card, its workspace, its KV layout (replication across TP, block
rounding), its ledger wording key and its recipe name, every constant with its source. Other modules
ask the runtime object (``runtime.splits_layers``, ``runtime.kv_replication(...)``), never its name.

lmdeploy, TGI, ExLlamaV2 and Ollama (:mod:`estimator.runtimes.others`) are one subclass each and one
entry in :data:`RUNTIMES`.
"""

from __future__ import annotations

from dataclasses import replace

from estimator.catalog import GpuSpec
from estimator.models import Precision
from estimator.runtimes.aphrodite import Aphrodite
from estimator.runtimes.base import (
    CUDA_VISIBLE_FRACTION,
    LOCAL_UBATCH_TOKENS,
    NO_LOAD,
    PROMPT_SHARE,
    Load,
    ServingRuntime,
    local_workspace_bytes,
    visible_bytes,
)
from estimator.runtimes.llama_cpp import LlamaCpp
from estimator.runtimes.others import ExLlama, Lmdeploy, Ollama, Tgi
from estimator.runtimes.sglang import SGLang, sglang_fraction, sglang_mem_fraction
from estimator.runtimes.transformers import Transformers, hf_forward_bytes, hf_workspace_bytes, largest_matrix
from estimator.runtimes.vllm import Vllm, vllm_profile_bytes, vllm_utilization
from estimator.units import GIB

VLLM = Vllm()
SGLANG = SGLang()
TRANSFORMERS = Transformers()
LOCAL = LlamaCpp()
OLLAMA = Ollama()
LMDEPLOY = Lmdeploy()
TGI = Tgi()
EXLLAMA = ExLlama()

RUNTIMES: dict[str, ServingRuntime] = {
    rt.name: rt for rt in (VLLM, SGLANG, OLLAMA, LMDEPLOY, TGI, EXLLAMA, Aphrodite(), LOCAL, TRANSFORMERS)
}
"""Each runtime (at its default share of the card) by its name (:class:`estimator.models.Runtime`,
``Inference.runtime``): the one registry. The parser's runtime table (:data:`bot.parse.method_words.RUNTIMES`,
first match wins, in this order), the settings each names (:mod:`bot.core.runtime_keys`), the paged servers
(:data:`bot.render.serving_text.PAGED_SERVERS`) and the TP × PP engines (:mod:`bot.parse.engine_world`) are
read from it; a new runtime is its class and one entry here."""

GGUF_FORMATS = frozenset(
    {
        Precision.q8_0,
        Precision.q6_k,
        Precision.q5_k_m,
        Precision.q4_k_m,
        Precision.q4_0,
        Precision.q3_k_l,
        Precision.q3_k_m,
        Precision.q3_k_s,
        Precision.q2_k,
    }
)
"""Weight formats only local runtimes (llama.cpp and those built on it) load: a question naming one with no
runtime is sized under llama.cpp's memory model (s47: Q3_K_M and Q2_K were sized as GPTQ int4/int3 on
vLLM)."""


def runtime_for(
    gpu: GpuSpec,
    precision: Precision,
    utilization: float | None = None,
    named: str | None = None,
    mla_tp_copies: bool = False,
    flash_attention: bool | None = None,
    tgi_version: str | None = None,
    dp_said: int = 0,
    batched_tokens: int | None = None,
) -> ServingRuntime:
    """The runtime whose memory model applies: llama.cpp for Apple silicon, GGUF weights or when the
    user names it (or Ollama); the server the user names (SGLang, transformers); vLLM otherwise, the
    default for data-centre cards. A stated ``utilization`` is vLLM's ``gpu_memory_utilization`` or
    SGLang's ``mem_fraction_static``; ``mla_tp_copies``: a TP stated without DP attention
    (:attr:`ServingRuntime.mla_tp_copies`); ``flash_attention`` False: llama.cpp / Ollama with ``-fa off``
    (:attr:`LlamaCpp.flash_attention`); ``tgi_version``: TGI's release as stated, whose own share of its
    memory fraction is :attr:`Tgi.wiggle_room` (:func:`estimator.tgi_release.release_share`; None: 0.90);
    ``dp_said``: DP attention stated, its attention TP (:attr:`ServingRuntime.dp_said`; 0: not stated);
    ``batched_tokens``: vLLM's ``max_num_batched_tokens`` as set (:attr:`Vllm.batched_tokens`; None: its
    default)."""
    if named == OLLAMA.name:
        return OLLAMA if flash_attention is not False else replace(OLLAMA, flash_attention=False)
    if gpu.gpu_memory_fraction or precision in GGUF_FORMATS or named == LOCAL.name:
        return LOCAL if flash_attention is not False else replace(LOCAL, flash_attention=False)
    runtime = RUNTIMES.get(named or "", VLLM)  # the user's share where it takes one (no method call: speed)
    if tgi_version and runtime is TGI:  # a stated release: its own share (s44; v0.9.4–v1.4.0 keep none back)
        from estimator.tgi_release import release_share

        if (share := release_share(tgi_version)) is not None:
            return Tgi(utilization, mla_tp_copies, dp_said, wiggle_room=share)
    if batched_tokens and isinstance(runtime, Vllm):  # s46 trial #8: a larger prefill chunk, more workspace
        return type(runtime)(utilization, mla_tp_copies, dp_said, batched_tokens=batched_tokens)
    return type(runtime)(utilization, mla_tp_copies, dp_said) if runtime.takes_share else runtime


def runtime_named(name: str) -> ServingRuntime:
    """The runtime an answer was sized for (``Inference.runtime``), at its default share."""
    return RUNTIMES[name]


__all__ = [
    "CUDA_VISIBLE_FRACTION",
    "EXLLAMA",
    "GGUF_FORMATS",
    "GIB",
    "LMDEPLOY",
    "LOCAL",
    "LOCAL_UBATCH_TOKENS",
    "NO_LOAD",
    "OLLAMA",
    "PROMPT_SHARE",
    "RUNTIMES",
    "SGLANG",
    "TGI",
    "TRANSFORMERS",
    "VLLM",
    "Aphrodite",
    "ExLlama",
    "LlamaCpp",
    "Lmdeploy",
    "Load",
    "Ollama",
    "SGLang",
    "ServingRuntime",
    "Tgi",
    "Transformers",
    "Vllm",
    "hf_forward_bytes",
    "hf_workspace_bytes",
    "largest_matrix",
    "local_workspace_bytes",
    "runtime_for",
    "runtime_named",
    "sglang_fraction",
    "sglang_mem_fraction",
    "visible_bytes",
    "vllm_profile_bytes",
    "vllm_utilization",
]
