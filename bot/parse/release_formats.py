"""A release id with a weight format after its name (s20-fixb, issue 24): 'Kimi-K2.6-NVFP4',
'nvidia/DeepSeek-V3.1-NVFP4', 'gpt-oss-120b-MXFP4', 'Qwen3-235B-A22B-FP8', 'Kimi-K2.6-FP8'. The id names the
model and its weight precision; the format glued to the name hid the name from the model reader when the
version was one the catalog lacks ('Kimi-K2.6-NVFP4': neither sized nor named, the help text answered), or
kept it in the name typed ('Kimi-K2.6-FP8'). The format is written apart ('kimi-k2.6 nvfp4'), so the model
reader reads the name (an unknown version kept as typed, never swapped for K2) and the precision reader
the format.
"""

from __future__ import annotations

import re

FORMAT_SUFFIX_RE = re.compile(
    r"(?<=[a-z0-9.])(?<!bitsandbytes)(?<!bnb)[\-_](nvfp4|mxfp4|fp4|fp8)(?=$|[\s,.;:!?，。；：！？)）/]|-(?:dynamic|block))"
)
"""A weight format right after a release's name, ending the id (or before '-dynamic'/'-block', as
quantized releases are named): the normalized text's form. Round 23: not bitsandbytes' own 4-bit float
('--quantize bitsandbytes-fp4', TGI's 4-bit bitsandbytes mode: 'bitsandbytes' alone is its 8-bit one)."""
GATE = re.compile(r"[\-_](?:nv|mx)?fp[48]")
"""The literal gate at the call site (:func:`bot.parse.written_names.written_names`): a compiled C search."""


def format_apart(s: str) -> str:
    """``s`` (normalized) with a release id's trailing weight format written apart from its name."""
    return FORMAT_SUFFIX_RE.sub(r" \1", s)
