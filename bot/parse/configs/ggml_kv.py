"""llama.cpp's KV-cache type flags on a launch line (``-ctk``/``--cache-type-k``, ``-ctv``/``--cache-type-v``,
ggml-org/llama.cpp common/arg.cpp ``kv_cache_types``) set ``kv_precision`` (session 19, trial 19b: they were
named as not used and the cache sized at 16 bits).

q8_0 and q4_0 are sized at ggml's block sizes (ggml/src/ggml.c ``type_traits``: blck_size 32, q8_0 34
bytes and q4_0 18 bytes a block: 1.0625 and 0.5625 bytes per value, ``estimator.weights.BITS_PER_WEIGHT``);
f16/bf16 at 2 bytes. Where K and V differ, the larger type is sized (one ``kv_precision`` for both: an
upper bound); other types (q4_1, q5_0, q5_1, iq4_nl, f32) are named as not used.
"""

from __future__ import annotations

from typing import Any

GGML_KV_TYPES = {"q8_0": "q8_0", "q4_0": "q4_0", "f16": "fp16", "fp16": "fp16", "bf16": "bf16"}
"""llama.cpp's spelling of a KV type → the request's ``kv_precision``."""
_BYTES = {"q4_0": 0.5625, "q8_0": 1.0625, "fp16": 2.0, "bf16": 2.0}
"""Bytes per cached value of each type (ggml.c type traits)."""


def ggml_kv(cfg: Any, flag: str, value: Any) -> None:
    """Record ``flag value`` (a :class:`bot.parse.configs.model.StackConfig` ``cfg``): a known type sets
    ``kv_precision`` unless the other of K/V already set a larger one; any other is named (``no_field``)."""
    typed = GGML_KV_TYPES.get(str(value).lower())
    if typed is None:
        cfg.skip(flag, value, "no_field")
        return
    before = cfg.values.get("kv_precision")
    if before in _BYTES and _BYTES[before] > _BYTES[typed]:  # K and V differ: the larger one sized
        cfg.used[flag] = "kv_precision"
        return
    cfg.set(flag, "kv_precision", typed)
