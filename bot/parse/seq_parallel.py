"""Sequence parallelism asked for by name (session 32 fresh-user trial, fixc #2): DeepSpeed-Ulysses
('Ulysses 序列并行', ``sequence_parallel_size 8`` of ms-swift, LLaMA-Factory and 360-LLaMA-Factory),
ring attention and context parallelism split each sequence's activations over the SP degree (Jacobs
et al. 2023, "DeepSpeed Ulysses", §3). The estimator's plans split activations by tensor and pipeline
parallelism (with Megatron's sequence parallelism inside TP) and recomputation, and have no SP degree
within data parallel + ZeRO: the setting is named as not used (``sequence_parallel``), with its degree
when stated ('sp 4', 'sequence_parallel_size 8'), so a plan without it is not read as one with it."""

from __future__ import annotations

import re

from bot.parse.result import ParseResult

GATE_RE = re.compile(
    r"ulysses|序列并行|上下文并行|sequence[\s\-_]*parallel|context[\s\-_]*parallel|ring[\s\-_]*(?:flash[\s\-_]*)?attn"
    r"|ring[\s\-_]*(?:flash[\s\-_]*)?attention",
    re.IGNORECASE,
)
"""The call site's gate (bot.parse.parse's cue table): the words, not a bare 'sp 4'."""
_DEGREE_RE = re.compile(
    r"(?:sequence[\s\-_]*parallel(?:ism)?|context[\s\-_]*parallel(?:ism)?|序列并行|上下文并行|ulysses)"
    r"[\s_\-]*(?:size|degree|度|大小)?\s*[:=]?\s*(?:为|=|是)?\s*(\d{1,3})(?![\d.kKbB万])"
    r"|(?<![a-z0-9])(?:sp|cp)(?:[\s_\-]*(?:size|degree))?\s*[:=]?\s*(\d{1,3})(?![\d.kKbB万])"
    r"|(?<![\d.])(\d{1,3})\s*(?:路|-?way)\s*(?:序列并行|上下文并行|sequence|context|sp\b|ulysses)",
    re.IGNORECASE,
)
"""The degree stated: 'sequence_parallel_size 8', '序列并行度 4', 'sp 4', 'sp=8', '4 路序列并行'."""
_TOOL_WORDS = ("training_tool: ring", "training_tool: ulysses")
"""Names read as a tool from the words ('ring attention'): the setting's, named once as that."""


def with_sequence_parallel(parsed: ParseResult, raw: str) -> ParseResult:
    """``parsed`` with sequence parallelism named as not used (``sequence_parallel``): 'sequence
    parallelism (Ulysses), degree 4'; the degree's number is no longer listed as unread."""
    if any(why == "sequence_parallel" for _, why in parsed.unused_numbers):
        return parsed
    m = _DEGREE_RE.search(raw)
    degree = next((g for g in m.groups() if g), None) if m else None
    kind = "Ulysses" if "ulysses" in raw.lower() else "ring attention" if "ring" in raw.lower() else ""
    name = "sequence parallelism" + (f" ({kind})" if kind else "") + (f", degree {degree}" if degree else "")
    if re.search(r"[\u4e00-\u9fff]", raw):
        name = "序列并行" + (f"（{kind}）" if kind else "") + (f"，并行度 {degree}" if degree else "")
    kept = [
        (t, why)
        for t, why in parsed.unused_numbers
        if t not in _TOOL_WORDS and not (degree and why == "unread" and t == degree)
    ]
    return parsed.model_copy(update={"unused_numbers": [*kept, (name, "sequence_parallel")]})
