"""llama.cpp's KV-cache type flags on a launch line (``-ctk``/``--cache-type-k``, ``-ctv``/``--cache-type-v``,
ggml-org/llama.cpp common/arg.cpp ``kv_cache_types``) set ``kv_precision`` (session 19, trial 19b: they were
named as not used and the cache sized at 16 bits).

q8_0 and q4_0 are sized at ggml's block sizes (ggml/src/ggml.c ``type_traits``: blck_size 32, q8_0 34
bytes and q4_0 18 bytes a block: 1.0625 and 0.5625 bytes per value, ``estimator.weights.BITS_PER_WEIGHT``);
f16/bf16 at 2 bytes. K and V are sized each at its own type (src/llama-kv-cache.cpp: each layer's K and V
tensors of ``type_k`` and ``type_v``), a side not stated at llama.cpp's default f16: ``kv_precision`` is
K's and ``kv_precision_v`` V's when they differ (s20 #2; before, the larger type sized both); other types
(q4_1, q5_0, q5_1, iq4_nl, f32) are named as not used.
"""

from __future__ import annotations

from typing import Any

GGML_KV_TYPES = {"q8_0": "q8_0", "q4_0": "q4_0", "f16": "fp16", "fp16": "fp16", "bf16": "bf16"}
"""llama.cpp's spelling of a KV type → the request's ``kv_precision``."""


def ggml_kv(cfg: Any, flag: str, value: Any) -> None:
    """Record ``flag value`` (a :class:`bot.parse.configs.model.StackConfig` ``cfg``): a known type sets
    K's (``kv_precision``) or V's type; the side not yet stated stays f16 (``kv_precision_v`` set only when
    V's type differs from K's); any other type is named (``no_field``)."""
    typed = GGML_KV_TYPES.get(str(value).lower())
    if typed is None:
        cfg.skip(flag, value, "no_field")
        return
    vals = cfg.values
    k = vals.get("kv_precision", "fp16")
    v = vals.get("kv_precision_v", k if "kv_precision" in vals else "fp16")
    k, v = (typed, v) if flag.lstrip("-") in ("ctk", "cache-type-k") else (k, typed)
    cfg.set(flag, "kv_precision", k)
    vals.pop("kv_precision_v", None)
    if v != k:
        vals["kv_precision_v"] = v
