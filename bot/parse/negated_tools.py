"""A sharding tool the message says is not used is its absence (issue 24 item 2, session 22).

'plain DDP (no DeepSpeed)', 'no deepspeed', '不用 deepspeed', 'without FSDP', 'no ZeRO', '没开 zero3': the
tool is not run, so the job is plain data parallelism — every GPU holds the whole model, its gradients and its
optimizer states, ZeRO stage 0 (PyTorch DDP; FSDP ``NO_SHARD`` is the same layout: PyTorch FSDP docs,
ShardingStrategy). Before, the negated name was read as the tool ('without FSDP' → ZeRO-3) or named as "not
used". 'plain DDP', '纯 DDP', 'DDP only' say the same in the positive. A ZeRO stage or FSDP named without a
negation elsewhere in the message still wins (bot.parse.settings reads it after this).

'不开 flash attention', 'without FlashAttention': in a training question it is
:data:`bot.parse.attention_impl.FLASH_OFF` — eager attention (each layer keeps its s×s scores,
:mod:`estimator.attention_scores`; s42) only where eager is what runs, else transformers' default SDPA,
named (:func:`bot.parse.attention_impl.resolve_flash_off`, s42 eagerfix); in a serving question that
names llama.cpp (or a GGUF, Ollama) it is ``-fa off``: ``flash_attention`` False (s26);
in another serving question it is named as not used (``no_field``). Other
negated settings (no LoRA, no offload, without gradient checkpointing) have their own readers
(bot.parse.tool_keys, method words).
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.normalize import mask
from bot.parse.regex import rc

_NEG = (
    r"(?:(?<![a-z])(?:without|w/o|no|not\s+(?:using|use|with)|(?:don'?t|do\s+not|didn'?t|did\s+not|won'?t)"
    r"\s+use|disabled?|turn(?:ed)?\s+off|skip(?:ping)?)|不用|不使用|不要|不开启?|不启用|不加|没用|没有用|没开|没有开|"
    r"没有?(?:开启|启用)|"
    r"未用|未开启?|未启用|关掉|关闭|去掉|无需)"
)
_SHARDING = (
    r"(?P<tool>deepspeed(?:[\s\-_]*zero(?:[\s\-_]*(?:stage[\s\-_]*)?[0-3])?)?|fsdp2?|zero(?:[\s\-_]*(?:stage[\s\-_]*)?"
    r"[1-3])?|分片|切分)"
)
NEGATED_SHARDING_RE = rc(_NEG + r"\s*(?:any\s+|the\s+|a\s+)?" + _SHARDING + r"(?![a-z0-9]|[\s\-_]*shot)")
"""A negation right before DeepSpeed, FSDP or ZeRO ('no deepspeed', '不用 FSDP', 'without ZeRO-3')."""
PLAIN_DDP_RE = rc(
    r"(?<![a-z])(?:plain|pure|vanilla|just|only|simple|naive|纯|只用|只是|就用|仅用|普通的?|单纯的?)\s*"
    r"(?:pytorch\s*)?(?:ddp|distributeddataparallel|data[\s\-]parallel(?:ism)?|数据并行)(?![a-z])"
    r"|(?<![a-z])(?:ddp|distributeddataparallel)\s*(?:only|alone|就行|就够|即可)(?![a-z])"
)
"""Plain data parallelism said outright ('plain DDP', 'DDP only', '纯 DDP', '只用数据并行')."""
NEGATED_FLASH_RE = rc(
    _NEG + r"\s*(?:the\s+|any\s+)?(?P<tool>flash[\s\-_]*(?:attn|attention)(?:[\s\-_]*[23])?|fa[23])"
    r"(?![a-z0-9])"
)
"""A negation right before FlashAttention ('不开 flash attention', 'without flash_attn', 'no FA2')."""
LLAMA_CPP_RE = rc(r"llama[\s._\-]?cpp|llama-server|gguf|ollama")
"""A llama.cpp engine named (llama.cpp, llama-server, a GGUF file, Ollama): there 'without flash attention'
is its ``-fa off`` (``flash_attention`` False); elsewhere it is named as not used."""
_GATE = re.compile(
    r"without|w/o|no|not|don|didn|won|disable|turn|skip|不|没|未|关|去掉|无需|plain|pure|vanilla|just|only|纯|只|仅|就用|普通"
)
_TOOL = re.compile(r"deepspeed|fsdp|zero|ddp|distributeddata|parallel|并行|分片|切分|flash|fa[23]")


def negated_tools(s: str, training: bool = True) -> tuple[str, dict[str, Any], list[tuple[str, str]]]:
    """(``s`` with each negated tool masked, the fields they set, the items named as not used) for the
    normalized text ``s``: in a training question (``training``), a negated DeepSpeed / FSDP / ZeRO, or
    'plain DDP', sets ``zero_stage`` 0 (no sharding); a negated FlashAttention is named
    ('flash_attention: off', 'no_field')."""
    if not _GATE.search(s) or not _TOOL.search(s):
        return s, {}, []
    fields: dict[str, Any] = {}
    unused: list[tuple[str, str]] = []
    for m in list(NEGATED_SHARDING_RE.finditer(s)) if training else []:
        fields["zero_stage"] = 0
        s = mask(s, m.start(), m.end(), " ")
    if training and (m := PLAIN_DDP_RE.search(s)) is not None:
        fields["zero_stage"] = 0
        s = mask(s, m.start(), m.end(), " ")
    for m in list(NEGATED_FLASH_RE.finditer(s)):
        if not training and LLAMA_CPP_RE.search(s):  # llama.cpp's -fa off (estimator.runtimes.llama_cpp)
            fields["flash_attention"] = False
        elif training:  # eager or SDPA: bot.parse.attention_impl.resolve_flash_off (s42 eagerfix)
            fields["attention_implementation"] = "flash_off"
        else:
            unused.append(("flash_attention: off", "no_field"))
        s = mask(s, m.start(), m.end(), " ")
    return s, fields, unused[:1]
