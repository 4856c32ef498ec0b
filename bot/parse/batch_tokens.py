"""A batch said with its tokens per batch (s42, issue 24: en37-025 'with BS=4096 and seq=8192 (33.55M tokens
per batch)'): when the batch × the sequence length is the tokens per batch or per step said beside them, the
batch is the global one — sequences per optimizer step, what a step's tokens count (Kaplan et al. 2020
§2.1: the batch size B in tokens is sequences × context) — never 4,096 sequences on each device. Before,
the bare 'BS=4096' was read as the micro-batch.

Read in both languages: 'N tokens per batch / per step / per iteration / per global batch', '每个 batch N
token', '每步 N token'. The product must match within 1 % with M read as 10^6 or 2^20 (33.55M = 4096 ×
8192 = 33,554,432 = 32 × 2^20); a batch that does not match is left as read.
"""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

TOKENS_PER_BATCH_RE = rc(
    r"(?<![\w.])(?P<n>\d+(?:\.\d+)?)\s*(?P<m>[kmb])?\s*tokens?\s+(?:per|each|a|/)\s*(?:global\s+)?"
    r"(?:batch|step|iteration|iter)\b(?!\s*(?:per|each|on\s+each|/)\s*(?:gpus?|devices?|cards?|ranks?|worker)\b)"
    r"|(?:每个?|一个)\s*(?:global\s*)?(?:batch|step|步|迭代)\s*(?:有|是|约|共)?\s*(?P<zn>\d+(?:\.\d+)?)\s*(?P<zm>[kmb]|万|亿)?"
    r"\s*(?:个\s*)?tokens?(?!\s*(?:每|/)\s*(?:卡|张卡|gpu))"
)
"""Tokens per batch or step ('33.55M tokens per batch', '4M tokens/step', '每个 batch 4M token'); never per
device ('8192 tokens per batch per GPU': a micro-batch's tokens)."""
_SCALES = {
    None: (1.0,),
    "k": (1e3, 2.0**10),
    "m": (1e6, 2.0**20),
    "b": (1e9, 2.0**30),
    "万": (1e4,),
    "亿": (1e8,),
}
"""Each magnitude's readings: a decimal count, or a binary one ('33.55M' of 2^25 tokens)."""


def batch_is_global(f: dict[str, Any], s: str) -> bool:
    """Move the batch in the fields ``f`` to ``global_batch`` when it × ``seq_len`` is the tokens per batch
    said in the normalized text ``s`` (the caller tests 'token' in ``s`` first); True when moved."""
    batch, seq = f.get("batch_size"), f.get("seq_len")
    if not batch or not seq or f.get("global_batch") or f.get("gradient_accumulation"):
        return False
    for m in TOKENS_PER_BATCH_RE.finditer(s):
        n, mag = (m.group("n"), m.group("m")) if m.group("n") else (m.group("zn"), m.group("zm"))
        said = [float(n) * scale for scale in _SCALES[mag]]
        if any(abs(batch * seq - t) <= 0.01 * t for t in said):
            f["global_batch"], f["batch_size"] = int(batch), None
            return True
    return False
