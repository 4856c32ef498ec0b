"""A data-parallel size written in prose (issue 24, round 3): "I used SGLang data parallelism with --dp 2",
"dp=4 and tp=2", "2-way data parallel", "数据并行 2", and replicas of a TP group (s28 trial H5): "3 replicas
of TP 8", "3 份 TP8 副本". The job runs on DP × TP × PP GPUs (SGLang's and vLLM's data parallelism: DP copies
of the model, each on TP × PP GPUs; Megatron-LM / DeepSpeed: world size = DP × TP × PP), so with no GPU
count of its own the message states that many GPUs; a count that equals it is the same layout. A pasted
command line is read by :mod:`bot.parse.configs.serve_gpus` instead.
"""

from __future__ import annotations

from typing import Any

from bot.parse.normalize import mask
from bot.parse.regex import rc

DP_RE = rc(
    r"(?<![a-z0-9])(?:dp(?:[\s\-_]*size)?|data[\s\-_]*parallel(?:ism)?(?:[\s\-_]*size)?|数据并行(?:度|数)?)"
    r"\s*(?:=|:|of|为|是|设为|设成|to)?\s*(?P<n>\d{1,3})(?![\d.])"
    r"|(?P<m>\d{1,3})\s*(?:路|-way|\s+way)\s*(?:数据并行|data[\s\-_]*parallel\w*|dp\b)"
    # s28 H5: '3 replicas of TP 8', '3 copies of the model', '3 份 TP8 副本' (a TP key already masked)
    r"|(?P<r>\d{1,3})\s*(?:x\s*)?(?:model\s*)?(?:replicas?\b|copies\s+(?:of\s+(?:the\s+)?model|of\s+tp|at\s+tp))"
    r"|(?P<z>\d{1,3})\s*(?:份|个)\s*(?:tp\s*[=:]?\s*\d+)?\s*(?:的)?\s*(?:模型)?\s*副本"
)


def read_data_parallel(s: str) -> tuple[int | None, str]:
    """(the data-parallel size stated in the normalized text ``s``, ``s`` with it masked), or (None, s)."""
    if not (  # a chain of `in`, no generator frame: this runs on every message
        "dp" in s
        or "parallel" in s
        or "数据并行" in s
        or "replica" in s
        or "copies" in s
        or "instances" in s
        or "副本" in s
        or "实例" in s
    ):
        return None, s
    m = DP_RE.search(s)
    if m is None:
        return None, s
    n = int(m.group("n") or m.group("m") or m.group("r") or m.group("z"))
    return (n if n > 0 else None), mask(s, m.start(), m.end(), " ")


def apply_data_parallel(fields: dict[str, Any], dp: int | None, counted: bool) -> tuple[str, str] | None:
    """Set ``gpu_count`` = DP × TP × PP when a data-parallel size was stated and no GPU count was
    (``counted``: a count of GPUs was read from the words), or when the count read is smaller than the
    replicas alone ('compared with one GPU … --dp 2': the one GPU is the other setup). Returns what to
    name: the count replaced (another setup), the DP size beside the user's own count (no field), or None."""
    if not dp:
        return None
    if fields.get("dp_attention") and dp <= int(fields.get("tp") or 0):  # SGLang: DP inside the TP group
        return _attention_dp(fields, dp)
    needed = dp * int(fields.get("tp") or 1) * int(fields.get("pp") or 1)
    old = fields.get("gpu_count")
    if counted and old == needed and fields.get("tp"):  # '24 H100 as 3 replicas of TP 8': the same layout
        return None  # sized as DP copies of the TP group (the serving layout's replicas), used
    if counted and old is not None and old >= dp:  # the user's count stands; the DP size is named
        return (f"dp: {dp}", "no_field")
    fields["gpu_count"] = needed
    return (f"gpu_count: {old:g}", "other_setup") if counted and old is not None else None


def _attention_dp(fields: dict[str, Any], dp: int) -> tuple[str, str] | None:
    """SGLang's DP size beside ``--enable-dp-attention`` (s40 fixs #1): attention data parallelism carved
    out of the TP group, no replicas (server_args.py ``assert self.tp_size % self.dp_size == 0``;
    layers/dp_attention.py ``attn_tp_size = tp_size // dp_size``: the server runs on TP × PP GPUs). DP =
    TP is the layout sized (each GPU its own sequences' latent): used, and with no count of its own the
    message states TP × PP GPUs; a smaller DP dividing TP (groups of TP ÷ DP GPUs splitting each rank's
    attention) sets ``attention_tp`` = TP ÷ DP, sized since s45; any other is named (``no_field``)."""
    tp = int(fields.get("tp") or 1)
    if 1 < dp < tp and tp % dp == 0:  # s45: attention split over groups of TP ÷ DP GPUs, sized
        fields["attention_tp"] = tp // dp
    elif dp != tp:
        return (f"dp: {dp}", "no_field")
    if fields.get("gpu_count") is None:
        fields["gpu_count"] = tp * int(fields.get("pp") or 1)
    return None
