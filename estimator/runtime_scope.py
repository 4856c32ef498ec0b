"""The settings that belong to one serving engine (declared on each field: ``runtimes`` in
:func:`estimator.request_setting._setting`), and the request fields a change of engine leaves behind.

A llama.cpp cache type (``-ctk q8_0``, ``-ctv q4_0``), a GPU-layer count (``-ngl``), ``--n-cpu-moe`` or
``-nkvo`` is no setting of vLLM or SGLang: "and on vLLM?" after a llama.cpp answer sizes vLLM's own
defaults (issue 24 item 2, s21). The KV cache format is scoped by its value: the GGUF block types
q8_0 / q4_0 are llama.cpp's ``--cache-type-k`` values (common/arg.cpp ``kv_cache_types``: f32, f16,
bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1) and Ollama's ``OLLAMA_KV_CACHE_TYPE`` (f16, q8_0, q4_0:
ollama docs/faq.md "How can I set the quantization type for the K/V cache?"); vLLM's ``--kv-cache-dtype``
takes auto / fp8 / fp8_e4m3 / fp8_e5m2 (vllm/config/cache.py ``CacheDType``), SGLang's the same fp8 kinds
(sglang/srt/server_args.py), so a GGUF cache type does not carry to them; fp8 or bf16 carries."""

from __future__ import annotations

from estimator.request import Precision, Runtime, SizingRequest, setting
from estimator.request_local import GGUF_RUNTIMES

RUNTIME_FIELDS: dict[str, tuple[str, ...]] = {
    n: tuple(setting(n)["runtimes"]) for n in SizingRequest.model_fields if setting(n)["runtimes"]
}
"""Settings that belong to some serving engines only (field → the engines, as :class:`Runtime` values)."""
GGUF_KV_TYPES = frozenset({Precision.q8_0, Precision.q4_0, Precision.q5_k_m, Precision.q4_k_m})
"""KV cache formats only the GGUF engines (:data:`estimator.request_local.GGUF_RUNTIMES`) take."""


def left_behind(req: SizingRequest, runtime: Runtime | None) -> tuple[str, ...]:
    """The fields of ``req`` set to a value that is no setting of ``runtime`` (None: no engine named,
    nothing left behind): each field declared for other engines only, and a GGUF KV cache type
    (:data:`GGUF_KV_TYPES`) on an engine outside :data:`GGUF_RUNTIMES`."""
    if runtime is None:
        return ()
    out = [n for n, on in RUNTIME_FIELDS.items() if getattr(req, n) is not None and runtime not in on]
    if req.kv_precision in GGUF_KV_TYPES and runtime not in GGUF_RUNTIMES:
        out.append("kv_precision")
    return tuple(out)
