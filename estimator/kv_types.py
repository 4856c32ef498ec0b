"""KV-cache value types (moved out of :mod:`estimator.inference`, at its line cap, s44 fixspec): bytes per
cached value of each type, the default type when none is set, and the report's name of a K/V pair."""

from __future__ import annotations

from estimator.catalog import GpuSpec
from estimator.models import Precision
from estimator.weights import bytes_per_param

_KV_BYTES = (Precision.fp8, Precision.int8, Precision.q8_0, Precision.q4_0)
"""KV types sized at their own bytes per value: fp8/int8 1; llama.cpp's ``-ctk/-ctv`` and Ollama's
``OLLAMA_KV_CACHE_TYPE`` q8_0 34/32 = 1.0625 and q4_0 18/32 = 0.5625 (ggml.c type traits; s19)."""


def _kv_bytes(kv: Precision) -> float:
    """Bytes per cached value of one KV type (:data:`_KV_BYTES`, else 2: a 16-bit cache)."""
    return bytes_per_param(kv) if kv in _KV_BYTES else 2.0


def default_kv_precision(weights: Precision, gpu: GpuSpec, ggml: bool = False) -> Precision:
    """The KV cache's type when the user set none. llama.cpp and Ollama (``ggml``: the runtime sized is
    :class:`estimator.runtimes.llama_cpp.LlamaCpp`): f16 whatever the weights (llama.cpp common/arg.cpp
    ``--cache-type-k/-v`` default f16; Ollama ``OLLAMA_KV_CACHE_TYPE`` default f16; s24 review #2: it
    was labelled bf16). Otherwise the model's 16-bit activation dtype. vLLM's
    ``kv_cache_dtype="auto"`` is the model dtype (vllm/config.py ``CacheConfig``: "auto" uses the model
    data type), which is the checkpoint's ``torch_dtype`` (fp16 for Llama-2, bf16 for Llama-3) or the
    user's ``--dtype``; SGLang's ``--kv-cache-dtype auto`` the same (sglang/srt/model_executor/
    model_runner.py: ``self.kv_cache_dtype = self.dtype``). So fp16 weights (or a card without bf16:
    V100, T4, vLLM casts bf16 to fp16 there) keep an fp16 cache, everything else bf16."""
    return Precision.fp16 if ggml or weights is Precision.fp16 or not gpu.has_bf16 else Precision.bf16


def kv_pair(kv: Precision, kv_v: str | None = None) -> tuple[float, str]:
    """(bytes per cached value, the report's name) of a KV cache of type ``kv`` (K's; ``kv_v``: V's when
    set apart). K and V of their own types
    (llama.cpp ``-ctk``/``-ctv``: src/llama-kv-cache.cpp makes each layer's K and V tensors of
    ``type_k`` and ``type_v``, both f16 unless set; common/arg.cpp): as many K values as V values a token
    (n_embd_k_gqa = n_embd_v_gqa for the attention the catalog holds), so the mean of the two bytes
    per value sizes the pair exactly ('K q8_0, V fp16': (1.0625 + 2) / 2 = 1.53 B)."""
    k_b = _kv_bytes(kv)
    if kv_v is None or Precision(kv_v) is kv:
        return k_b, _kv_name(kv, k_b)
    v = Precision(kv_v)
    v_b = _kv_bytes(v)
    return (k_b + v_b) / 2, f"K {_kv_name(kv, k_b)}, V {_kv_name(v, v_b)}"


def _kv_name(kv: Precision, kv_b: float) -> str:
    """The KV type as the report names it: 'q8_0'/'q4_0', 'int8' (s46: as stated), 'fp8' (any other 1-byte
    type), 'fp16' or 'bf16'."""
    if kv in (Precision.q8_0, Precision.q4_0, Precision.int8):
        return kv.value
    return "fp8" if kv_b == 1.0 else "fp16" if kv is Precision.fp16 else "bf16"


ONE_BYTE_KV = frozenset({"fp8", "int8"})
"""The report's KV cache names (:func:`_kv_name`) of 1 byte a value: fp8 (vLLM/SGLang ``--kv-cache-dtype
fp8``) and int8 (LMDeploy ``--quant-policy 8``: lmdeploy/cli/utils.py; TensorRT-LLM's INT8 KV cache)."""
FP8_KV_ONLY = frozenset({"vLLM", "SGLang"})
"""Engines whose only 1-byte KV cache is fp8: vLLM ``--kv-cache-dtype`` takes auto / fp8 / fp8_e4m3 /
fp8_e5m2 (vllm/config/cache.py ``CacheDType``, v0.10–v0.11), SGLang auto / fp8_e5m2 / fp8_e4m3
(sglang/srt/server_args.py ``--kv-cache-dtype``): neither has an int8 cache."""


def one_byte_kv(name: str) -> bool:
    """Whether the report's KV cache name ``name`` ('fp8', 'int8', 'bf16', 'q8_0', 'K q8_0, V fp16') is
    1 byte a value (:data:`ONE_BYTE_KV`): the cache the "use an fp8 KV cache" advice would give already."""
    return name in ONE_BYTE_KV
