"""The host's RAM kind and bandwidth said in the prose beside a pasted local-runtime command
('./llama-server -m … -ngl 60 … on a 3090 + 64GB DDR4', 'ollama run … 内存 DDR5 双通道'): the command
is read apart from the prose (bot.parse.configs), so the prose alone names no layer split and
:func:`bot.parse.gpu_layers.host_bandwidth` (gated on one) read nothing (fresh-user trial s34 #1)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from bot.parse.normalize import normalize

if TYPE_CHECKING:
    from bot.parse import ParseResult

HOST_FIELDS = ("host_ddr", "host_channels", "host_bandwidth_gbps", "host_memory_gib")
"""What the host's words set (bot.parse.gpu_layers)."""
SPLIT_FIELDS = ("gpu_layers", "cpu_moe_layers")


def host_beside_command(parsed: ParseResult, update: dict[str, Any], text: str) -> ParseResult:
    """``parsed``, its host memory size read here no longer among its unread numbers ('内存 DDR5 双通道
    64G'); ``update`` (the command's values) gains the host's fields the prose states and the request
    lacks, when the command runs a local runtime or sets a layer split."""
    low = text.lower()
    if "ddr" not in low and "带宽" not in low and "bandwidth" not in low:
        return parsed  # the gate: a message with no RAM kind or bandwidth pays nothing
    req = parsed.request
    if req.host_ddr is not None or req.host_bandwidth_gbps is not None:
        return parsed  # read with the prose already
    from estimator.runtimes import RUNTIMES

    runtime = RUNTIMES.get(str(update.get("runtime") or req.runtime or ""))
    if not any(f in update for f in SPLIT_FIELDS) and not (runtime is not None and runtime.local):
        return parsed
    from bot.parse.gpu_layers import host_bandwidth

    out = SimpleNamespace(s=normalize(text), fields={"gpu_layers": 0})  # the command's split is said
    host_bandwidth(out)
    for field in HOST_FIELDS:
        if field in out.fields and getattr(req, field, None) is None and field not in update:
            update[field] = out.fields[field]
    if (gib := update.get("host_memory_gib")) is None or req.host_memory_gib is not None:
        return parsed
    said = f"{gib:g}"
    unread = [item for item in parsed.unused_numbers if item != (said, "unread")]
    return parsed.model_copy(update={"unused_numbers": unread})
