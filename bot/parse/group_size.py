"""A GPTQ/AWQ group size glued in a model's name ('pygmalion-7b-4bit-128g', 'Llama-2-13B-GPTQ-4bit-32g',
'Qwen-7B-Chat-Int4-g128'): part of the name as typed, never a number of the message (s47 drop #1; before,
the '-128g' was read as a number −128 and named nonpositive).

GPTQ (Frantar et al. 2022, arXiv:2210.17323) and AWQ (Lin et al. 2023, arXiv:2306.00978) store one scale
(and zero point) per group of weights; releases name the group size in the file name, as TheBloke's
'…-GPTQ-4bit-128g' or AutoGPTQ's 'group_size=128' ('-128g' / '-g128'). Group sizes are powers of two
(AutoGPTQ's BaseQuantizeConfig.group_size: 32, 64, 128, 256, 1024; -1 for none). The suffix is read only
glued right after a model name masked by the name passes or after a quantization tag glued to one
('-gptq', '-awq', '-int4', '-4bit'), so '128G' said of a card's memory or a host ('128g 内存') is untouched.
The weights' bits are read by the precision words (the '4bit' or 'int4' beside it); the group's scales
(16 bits per group of 128: 0.125 bit a weight) are left out of the weight bytes as for every 4-bit format.
"""

from __future__ import annotations

from bot.parse.normalize import MODEL_MARK, mask
from bot.parse.regex import rc

_TAG = r"(?:gptq|awq|exl2|int[2-8]|[2-8]-?bits?|w[48]a16|act-?order|true-?sequential)"
GROUP_SIZE_RE = rc(
    rf"(?:{MODEL_MARK} *|(?<![a-z0-9]){_TAG})(?:[\-_]{_TAG})*"
    r"(?P<g>[\-_](?:(?:32|64|128|256|512|1024)g|g(?:32|64|128|256|512|1024)))(?![a-z0-9.])"
)
"""A group-size suffix ('-128g', '_g32') glued after a masked name or a quantization tag glued to it."""


def blank_group_sizes(s: str) -> str:
    """``s`` (normalized, model names masked) with each glued group-size suffix blanked: part of a name,
    never read as a number. Other text is unchanged (same length)."""
    for m in GROUP_SIZE_RE.finditer(s):
        s = mask(s, m.start("g"), m.end("g"), " ")
    return s
