"""KV-cache types as each serving tool spells them, and in prose (round 13: the type written under a
tool's own key was read as the weights' format, or not at all).

One table of the keys that set the KV cache's type, from each tool's source:

- Ollama ``OLLAMA_KV_CACHE_TYPE`` (envconfig/config.go; f16, q8_0, q4_0);
- llama.cpp ``--cache-type-k`` / ``-ctk``, ``--cache-type-v`` / ``-ctv`` (common/arg.cpp
  ``kv_cache_types``: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1); llama-cpp-python ``type_k`` /
  ``type_v``;
- LMDeploy ``--quant-policy`` / ``quant_policy`` (lmdeploy/cli/utils.py: 0 none, 4 int4 KV, 8 int8 KV);
- TabbyAPI ``cache_mode`` (config_sample.yml: FP16, Q8, Q6, Q4);
- prose: '4-bit KV cache' (any width 2 to 8: round 19 en, a '3-bit KV cache' was sized as 3-bit weights),
  'int8 KV cache', 'KV cache quantized to 8 bits', '4-bit quantized prefix cache',
  'KV 缓存量化为 int8', '4bit 的 KV 缓存', 'kv int8 量化' (r20); a 16-bit or ggml type in words
  ('FP16 KV cache', 'the KV cache quantized to q4_0', 'KV cache 用 bf16', s21); its dtype named ('the KV
  cache dtype is torch.float16', 'kv cache 的数据类型是 torch.bfloat16', s23); K and V by their letters
  ('f16 K and V', 'K and V in q8_0', 'K/V both bf16', s46 round 42), and llama.cpp's log quoting the type
  ("type_k = 'f16'").

vLLM/SGLang/TGI ``--kv-cache-dtype fp8*`` and the ExLlamaV2/llama.cpp spellings before a 'cache' word are
read by :data:`bot.parse.vocab_patterns.KV_FP8_RE` and ``QUANT_CACHE_RE``; this reader runs after them, on
what they left. A 16-bit type sets ``kv_precision``, and so does an 8-bit integer one (s46 trial #6: 'int8 KV
cache', '--quant-policy 8', 'kv int8 量化' — one byte a value, as FP8: LMDeploy's int8 cache adds an fp16
scale and zero point a head a token, 4 B per 128 values, ~3 %, left out); a 4-bit integer type (no KV type
of that size is sized) is named as not used, with what it means ('kv_precision: int4 (--quant-policy 4)'),
never read as the weights' format.
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.normalize import mask
from bot.parse.regex import rc

_SIXTEEN_WORDS = "bfloat16|float16|bf16|fp16|f16"
_PROSE_TYPES = f"{_SIXTEEN_WORDS}|q8_0|q4_0|q4_1|q5_0|q5_1|iq4_nl"
"""KV types as prose writes them after 'KV cache' ('the KV cache quantized to q4_0', 'FP16 KV cache',
'KV 缓存用 bf16'; s21: read as the weights' format before): the 16-bit types and llama.cpp's ggml types
(common/arg.cpp ``kv_cache_types``)."""
KV_TYPE_RE = rc(
    r"(?:ollama[_\s\-]*)?(?:kv[_\s\-]*)?cache[_\s\-]*type(?:[_\s\-]*[kv])?\s*(?:=|:)?\s*"
    r"(?P<t>f32|f16|bf16|q8_0|q4_0|q4_1|q5_0|q5_1|iq4_nl)(?![a-z0-9])"
    r"|(?<![a-z])(?:-ct[kv]|type_[kv])\s*(?:=|:)?\s*['\"]?(?P<t2>f32|f16|bf16|q8_0|q4_0|q4_1|q5_0|q5_1|iq4_nl)(?![a-z0-9])"
    r"|(?:--)?quant[_\-\s]policy\s*(?:=|:)?\s*(?P<p>[048])(?![\d.])"
    r"|cache[_\s\-]*mode\s*(?:=|:)?\s*(?P<m>fp16|q8|q6|q4)(?![a-z0-9])"
    r"|(?P<b>[2-8])[\s\-]*bits?\s+(?:quanti[sz]ed\s+)?(?:kv|prefix)[\s\-]*cache"  # r19: '3-bit KV cache' too
    r"|int(?P<i>[48])\s+(?:kv|prefix)[\s\-]*cache"
    r"|(?<![a-z0-9])kv[\s\-_]*int(?P<i5>[48])(?![a-z0-9])"  # r20 zh: 'kv int8 量化' (no cache word)
    r"|kv[\s\-]*cache\s+(?:quanti[sz]ed\s+)?(?:to|in|at|as)\s+(?:int(?P<i2>[48])|(?P<b2>[48])[\s\-]*bits?)(?![a-z0-9])"
    r"|kv\s*缓存\s*(?:用|使用|采用|是)?\s*(?:量化)?\s*(?:为|到|成)?\s*(?:int(?P<i3>[48])|(?P<b3>[48])\s*(?:bit|位|比特))"
    r"|(?:int(?P<i4>[48])|(?P<b4>[48])\s*(?:bit|位|比特))\s*(?:量化)?\s*(?:的)?\s*kv\s*缓存"
    r"|kv[\s\-]*cache(?:\s+(?:is|was))?\s+(?:(?:quanti[sz]ed|set|type|dtype)\s+)?(?:to|in|at|as|of)\s+"
    rf"(?P<t3>{_PROSE_TYPES})(?![a-z0-9])"
    rf"|(?<![a-z0-9])(?P<t4>{_SIXTEEN_WORDS})(?:[\s\-]+|\s*的\s*)kv(?:[\s\-]*(?:cache|缓存))?(?![a-z])"
    r"|kv\s*(?:cache|缓存)\s*(?:用|使用|采用|是|设为|设置为|设成|改成|量化)?\s*(?:为|到|成)?\s*"
    rf"(?P<t5>{_PROSE_TYPES})(?![a-z0-9])"
    r"|kv[\s\-_]*(?:cache|缓存)\s*(?:的\s*)?(?:dtype|data[\s_]*type|数据类型)\s*(?:is|was|=|:|为|是|用)?\s*"
    rf"(?:torch\.)?(?P<t6>{_SIXTEEN_WORDS})(?![a-z0-9])"  # s23: 'the KV cache dtype is torch.float16'
    r"|kv[\s\-_]*(?:cache[\s\-_]*|缓存\s*)?(?:的\s*)?(?:精度|precision)\s*(?:is|was|=|:|：|为|是|用)?\s*"
    # round 37: a serving summary's 'KV 精度 fp16', 'KV cache precision: bf16'
    rf"(?P<t7>{_PROSE_TYPES})(?![a-z0-9])"
    # s46 round 42: K and V by their letters ('f16 K and V', 'K and V in q8_0', 'K/V both bf16')
    rf"|(?<![a-z0-9])(?P<t8>{_PROSE_TYPES})\s*(?:的\s*)?k\s*(?:and|&|/|和)\s*v(?![a-z0-9])"
    r"|(?<![a-z0-9])k\s*(?:and|&|/|和)\s*v(?:\s+caches?)?\s*(?:(?:are|is|in|as|at|=|:)\s+|都?(?:用|是|为)\s*)?"
    r"(?:both\s+)?"
    rf"(?P<t9>{_PROSE_TYPES})(?![a-z0-9])"
)
"""A KV-cache type under a tool's key or in words (see the module docstring)."""
GATE_RE = re.compile(
    r"cache|缓存|policy|-ct[kv]|type_[kv]|kv[\s\-_]*int[48]|kv[\s\-_]*(?:精度|precision)"
    r"|(?<![a-z0-9])k\s*(?:and|&|/|和)\s*v(?![a-z0-9])"
)
"""The literal every form of :data:`KV_TYPE_RE` holds (the call site checks it first)."""
_SIXTEEN = {"f16": "fp16", "fp16": "fp16", "float16": "fp16", "bf16": "bf16", "bfloat16": "bf16"}
GGML_SIZED = frozenset({"q8_0", "q4_0"})
"""ggml block types the sizing holds (estimator.weights.BITS_PER_WEIGHT: q8_0 34 bytes / 32 values, q4_0
18 / 32; ggml/src/ggml.c ``type_traits``: blck_size 32, type_size sizeof(block_q8_0) = 2 + 32,
sizeof(block_q4_0) = 2 + 16): set as ``kv_precision`` when K and V are of that type (session 19)."""
_SIDE_RE = re.compile(r"type[_\s\-]*([kv])\b|-ct([kv])")
_TYPE_GROUPS = ("t", "t2", "m", "t3", "t4", "t5", "t6", "t7", "t8", "t9")


def read_kv_cache_types(out: Any) -> None:
    """Each KV-cache type in ``out.s`` (a :class:`bot.parse.prose_vocab.Vocab`): a 16-bit one sets
    ``kv_precision``, as does a ggml type of :data:`GGML_SIZED` set for both K and V (Ollama's one type,
    or ``-ctk q8_0 -ctv q8_0``); any other is named as not used (``no_field``); the span is masked."""
    sides: dict[str, str] = {}
    for m in list(KV_TYPE_RE.finditer(out.s)):
        out.s = mask(out.s, m.start(), m.end(), " ")
        typed = next((m.group(g) for g in _TYPE_GROUPS if m.group(g)), None)
        side = _SIDE_RE.search(m.group(0)) if typed else None
        if typed in GGML_SIZED or (side and typed in _SIXTEEN):  # one side's 16-bit type too (s20 #2)
            for k in (side.group(1) or side.group(2),) if side else ("k", "v"):
                sides.setdefault(k, _SIXTEEN.get(typed, typed))
            continue
        if typed in _SIXTEEN:
            out.fields.setdefault("kv_precision", _SIXTEEN[typed])
            continue
        if m.group("p"):
            if m.group("p") == "0":  # LMDeploy's default: no KV quantization, the 16-bit cache sized
                continue
            bits = m.group("p")
            named = f"kv_precision: int{bits} (--quant-policy {bits})"
        elif typed:
            bits, named = "", f"kv_precision: {typed}"
        else:
            bits = next(
                m.group(g) for g in ("b", "i", "i2", "b2", "i3", "b3", "i4", "b4", "i5") if m.group(g)
            )
            named = f"kv_precision: int{bits}"
        if bits == "8":  # s46 trial #6: an 8-bit integer cache, one byte a value (estimator.kv_types)
            out.fields.setdefault("kv_precision", "int8")
            continue
        if (named, "no_field") not in out.unused:
            out.unused.append((named, "no_field"))
    _ggml_sides(out, sides)


def _ggml_sides(out: Any, sides: dict[str, str]) -> None:
    """The KV types read for K and V (:data:`GGML_SIZED` or 16-bit): one ``kv_precision`` when both are
    the same; else K's as ``kv_precision`` and V's as ``kv_precision_v``, a side not stated at llama.cpp's
    default f16 (common/arg.cpp ``--cache-type-k``/``-v``: "default: f16"; src/llama-kv-cache.cpp: K and V
    tensors each of its own type), so each is sized at its own bytes (s20 #2: before, named as not used)."""
    if not sides:
        return
    k, v = sides.get("k", "fp16"), sides.get("v", "fp16")
    if k == v:
        out.fields.setdefault("kv_precision", k)
        return
    if "kv_precision" not in out.fields:
        out.fields["kv_precision"] = k
        out.fields["kv_precision_v"] = v
