"""Serving engines' longest allowed sequence written in prose (issue 24, part U2 item 1): the request's
``max_model_len``.

The keys as the engines spell them, with or without dashes and with '_', '-' or a space between
words: vLLM ``--max-model-len`` (its error message says "max seq len"), SGLang ``--context-length``,
lmdeploy ``--session-len``, TGI ``--max-total-tokens`` (``MAX_TOTAL_LENGTH`` as optimum-tpu's TGI threads
write it), llama.cpp ``--ctx-size``, Ollama ``num_ctx``,
LLaMA-Factory ``vllm_maxlen`` (the context of its vLLM inference engine), h2oGPT ``max_seq_len``.
A pasted command line is read by :mod:`bot.parse.configs.launchers` with the same names.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

_W = r"(?:[_\-]|\s(?!\s*-))*"
"""Between a key's words: '_', '-' or spaces, never a space before a dash (the next flag: 'vllm
--max_model_len 8192' of an ms-swift command is the engine, then vLLM's length key; round 10)."""
LIMIT_KEYS = "|".join(
    (
        f"max{_W}model{_W}len(?:gth)?",
        f"vllm{_W}max(?:{_W}model)?{_W}len",
        f"max{_W}seq{_W}len",
        f"session{_W}len",
        f"max{_W}total{_W}tokens",
        f"max{_W}total{_W}length",  # s44 (en39-040): the total length as optimum-tpu's TGI users write it
        f"num{_W}ctx",
        r"--context-length|--ctx-size",
        f"context{_W}length(?=\\s*[=:])|ctx{_W}size(?=\\s*[=:])",
    )
)
"""The key names, '_', '-' or a space between words (``--`` keys need their dashes: plain "context
length" is prose, read as the context itself)."""

LIMIT_RE = rc(
    r"(?<![a-z0-9_])-{0,2}(?:"
    + LIMIT_KEYS
    + r")\s*(?:=|:|of|is|to|为|是|设为|设成|设置为|改成|开到)?\s*\(?\s*"
    r"(?P<n>\d[\d,]*(?:\.\d+)?\s*[km]?)(?!\d|\.\d|[a-z])"  # 'num_ctx 64000.': a full stop ends it
)
"""A limit key and its value ('--max-model-len 10000', 'max_model_len 2048', 'num_ctx=32000',
'vllm_maxlen 8000', 'max_model_len 开到 1M'), the value in brackets as vLLM's error quotes it ("the
model's max seq len (32768) is larger than the maximum number of tokens …": the engine's limit; s17)."""

LIMIT_AFTER_RE = rc(
    r"(?<![\w.,=])(?P<n>\d(?:[\d,]*\d)?(?:\.\d+)?\s*[km]?)\s*(?:tokens?\s*)?(?:" + LIMIT_KEYS + r")(?![a-z])"
)
"""The value before its key, as people write it in a sentence ('16k session len', '16k max model len'; never
before a flag's dashes: in '--tp 2 --session-len 16384' the 2 is --tp's); a
number starts a word and ends in a digit ('bfloat16 --max-model-len', 'split 11/11, num_ctx 64000': not
values of the key), never another key's value ('MAX_INPUT_TOKENS=1024 MAX_TOTAL_TOKENS=4096': s35-fixa #4)."""

CTX_SIZE_RE = rc(r"ctx[_\s\-]*size")
"""llama.cpp's --ctx-size: the context of all its -np slots together, read with them through the meaning
table (``slots_context``: :mod:`bot.parse.inline_flags`), not as one sequence's limit here."""


def limit_value(raw: str) -> int | None:
    """Tokens in a limit's value: '8000' → 8000, '32k' → 32,768, '1m' → 1,048,576 (binary, as the
    context rule reads '32k'); None when it is not a positive count."""
    text = raw.replace(",", "").replace(" ", "").lower()
    scale = {"k": 1024, "m": 1024 * 1024}.get(text[-1:], 1)
    try:
        value = float(text.rstrip("km")) * scale
    except ValueError:
        return None
    return round(value) if value >= 1 else None


QUANT_FLAG_RE = rc(r"(?<![a-z0-9_])--(?:quantiz(?:e|ation)|torchao[\-_]config)[\s=]+(?P<q>[a-z0-9_\-]+)")
"""A serving launcher's quantization flag written in prose (TGI ``--quantize eetq``, vLLM/SGLang
``--quantization awq``; s49 round 45: SGLang's ``--torchao-config int8dq``, its torchao weight formats
int8dq, int8wo, int4wo-<group>, fp8wo, fp8dq-per_tensor, fp8dq-per_row): read with the pasted-command
table (:data:`bot.parse.configs.launchers.QUANT`)."""


def quant_flag(s: str) -> tuple[str, str] | None:
    """(the flag's value as typed, the weight format it means) for the first quantization flag in the
    normalized text ``s``; the format is None when the sizing has none for it (named as not used)."""
    from bot.parse.configs.launchers import QUANT

    m = QUANT_FLAG_RE.search(s)
    return (m.group("q"), QUANT.get(m.group("q"))) if m else None  # type: ignore[return-value]


def typed_key(matched: str) -> str:
    """The key of a matched 'key value' as the user typed it, words joined by '_' ('--vllm_max_model_len
    4000' → 'vllm_max_model_len', 'vllm maxlen 8000' → 'vllm_maxlen'), to name its value as not used by
    its own name (tests/named_keys.py reads a field's words: 'len' names an engine's context)."""
    return re.sub(r"\s+", "_", re.split(r"[\s=:：]*\d", matched)[0].strip("- "))


KV_ERROR_RE = rc(
    r"max\s*seq\s*len\s*\(\s*(?P<n>\d[\d,]*)\s*\)\s*is\s+(?:larger|greater|bigger)\s+than\s+the\s+max(?:imum)?\s+"
    r"number\s+of\s+tokens\s+(?:that\s+)?can\s+be\s+stored\s+in\s+(?:the\s+)?kv\s*cache\s*\(\s*(?P<m>\d[\d,]*)\s*\)"
)
"""vLLM's start-up error (``vllm/worker/worker.py`` raise_if_cache_size_invalid): "The model's max seq len
(8192) is larger than the maximum number of tokens that can be stored in KV cache (6048)" — the engine's
limit, then what the cache held on that run (s35, round 30: users paste it in either language)."""
GPU_BLOCKS_RE = rc(r"#?\s*gpu\s+blocks\s*:\s*(?P<b>\d+)")
"""The same engine's log line before it ('# GPU blocks: 378, # CPU blocks: 512'): blocks of that run."""


def kv_error(s: str, training: bool, fields: dict, unused: list[tuple[str, str]]) -> str:
    """Reads vLLM's KV-cache error of :data:`KV_ERROR_RE` in ``s`` (lower case) and returns ``s`` with it
    masked: the limit is the request's ``max_model_len`` when serving, and in a training question (an RL
    rollout engine's) named as no field, as the rollout engine's length key is; the tokens the cache held
    and the log's GPU blocks are named as observed on that run, never a setting."""
    m = KV_ERROR_RE.search(s)
    if m is None:
        return s
    limit, held = (int(m.group(g).replace(",", "")) for g in ("n", "m"))
    if training:
        unused.append((f"max_model_len: {limit}", "no_field"))
    elif "max_model_len" not in fields:
        fields["max_model_len"] = limit
    unused.append((f"KV cache: {held} tokens", "observed"))
    s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    if blocks := GPU_BLOCKS_RE.search(s):
        unused.append((f"GPU blocks: {blocks.group('b')}", "observed"))
        s = s[: blocks.start()] + " " * (blocks.end() - blocks.start()) + s[blocks.end() :]
    return s
