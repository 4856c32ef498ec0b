"""A job asked both ways (issue 24, round 4): 'fine-tune X with and without LoRA', 'with or without QLoRA',
'LoRA or no LoRA', '用 LoRA 和不用 LoRA', '用不用 LoRA', '有无 LoRA': the adapter method and a full
fine-tuning, written as the two methods the method rules read ('LoRA or full fine-tuning', 'LoRA 和全参'),
so each is sized (``SizingRequest.methods``). Before, the negated mention made it a full fine-tuning only
and the LoRA half of the question was dropped in silence."""

from __future__ import annotations

import re

from bot.parse.regex import rc

_METHOD = r"(?P<{}>q?lora|peft|adapters?)"
BOTH_WAYS_RE = rc(
    r"\bwith\s+(?:and|or|&)\s+without\s+(?:an?\s+)?" + _METHOD.format("m") + r"\b"
    r"|\bwith(?:out)?\s+(?:an?\s+)?" + _METHOD.format("m2") + r"\s+(?:and|or|&)\s+without(?:\s+(?:it|one))?\b"
    r"|\b" + _METHOD.format("m3") + r"\s+(?:and|or|vs\.?|versus)\s+(?:no|without)\s+"
    r"(?:q?lora|peft|adapters?)\b"
)
"""'with and without LoRA', 'with LoRA or without', 'LoRA or no LoRA'."""
BOTH_WAYS_ZH_RE = rc(
    r"(?:用|使用|加|带)\s*(?P<m>q?lora)\s*(?:和|与|跟|或|或者|还是|以及)\s*(?:不用|不使用|不加|不带)\s*(?:q?lora)?"
    r"|(?:用不用|加不加|带不带|有无|有和没有|带和不带)\s*(?P<m2>q?lora)"
)
"""'用 LoRA 和不用 LoRA', '用不用 LoRA', '有无 LoRA', '有和没有 LoRA'. Not '有没有 LoRA 微调的显存估算'
('is there …': a question, not both ways)."""
GATE = re.compile(r"without|\bno\s+(?:q?lora|peft|adapter)|不用|不使用|不加|不带|有无|没有")  # '用不用' too


_QUANT = r"(?:(?:4|8)[\s\-]?(?:bits?|比特|位)\s*)?(?:quanti[sz]ation|quantized|量化)"
_ADAPTER = r"(?:q?lora|peft|adapters?)"
BOTH_QUANT_RE = rc(
    r"\bwith\s+(?:and|or|&)\s+without\s+(?:an?\s+)?"
    rf"(?:{_QUANT}\s*(?:and|&|\+|or|/)\s*{_ADAPTER}|{_ADAPTER}\s*(?:and|&|\+|or|/)\s*{_QUANT})(?![a-z])"
    rf"|(?:用不用|加不加|带不带|有无|有没有用)\s*(?:{_QUANT}\s*(?:和|与|跟|或|加|\+|/|、|,)\s*{_ADAPTER}"
    rf"|{_ADAPTER}\s*(?:和|与|跟|或|加|\+|/|、|,)\s*{_QUANT})"
)
"""Session 16: the adapter and the 4-bit base both ways ('with or without 4-bit quantization and PEFT', 'with
and without LoRA + quantization', '用不用量化和 LoRA'): QLoRA, LoRA and a full fine-tuning, each sized."""


def _method(m: re.Match[str]) -> str:
    name = m.group("m") or m.group("m2") or m.group("m3")
    return "lora" if name in ("peft", "adapter", "adapters") else name


def with_without(s: str) -> str:
    """The normalized text ``s`` with a job asked both ways written as two methods."""
    return both_ways(s) if GATE.search(s) else s


def both_ways(s: str) -> str:
    """:func:`with_without` past its gate (:data:`GATE`; tested at the call in bot.parse.count_forms)."""
    s = BOTH_QUANT_RE.sub(" with qlora, lora or full fine-tuning ", s)
    s = BOTH_WAYS_RE.sub(lambda m: f" with {_method(m)} or full fine-tuning", s)
    return BOTH_WAYS_ZH_RE.sub(lambda m: f"{_method(m)} 和全参", s)
