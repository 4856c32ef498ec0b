"""The machines' size kept when the GPU count sized comes from another mention (issue 24, session 23):
'2 nodes, each with 8 A100 … over the 16 GPUs of the two nodes', 'needs at least 64 GPUs … the script uses
num_nodes = 4, gpus_per_node = 8'. The count read from the node form carries its per-node size
(``per_node:M``, bot.parse.node_words.per_node_extra); when a different count mention is the one sized,
that size was dropped with it, and the plan lost the node boundary its TP must stay inside (TP within a
node: Narayanan et al. 2021 §3.3)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

PER_NODE = "per_node:"
SAID_PER_NODE_RE = re.compile(
    r"(?<![\w.])(\d{1,3})\s*(?:gpus?|cards?|accelerators?|devices?|npus?)\s*(?:per|each|a|/)\s*(?:node|machine|server|host|box)\b"
)
"""'8 GPUs per node' (as Megatron-LM's GPUS_PER_NODE=8 is read, bot.parse.count_forms.COUNT_KEY_RES): the
machines' size, said even with no node count (round 18: one machine of 8 GPUs kept its size)."""


def kept_per_node(fields: dict[str, Any], roles: Iterable[Any], s: str = "") -> int | None:
    """The GPUs per machine of a node-form count among ``roles`` (bot.parse.roles.Role: ``role``,
    ``extra``) that divides the request ``fields``' ``gpu_count`` (so the machines hold the count
    sized whole), or said in the text ``s`` ('8 GPUs per node', :data:`SAID_PER_NODE_RE`) and dividing it
    with no other GPU count said, when ``gpus_per_node`` is not set yet; else the field's value (None when
    unset)."""
    count, kept = fields.get("gpu_count"), fields.get("gpus_per_node")
    if kept is not None or not isinstance(count, int | float) or count < 2:
        return kept
    for r in roles:
        if r.role == "count" and isinstance(r.extra, str) and r.extra.startswith(PER_NODE):
            per = float(r.extra.removeprefix(PER_NODE))
            if per.is_integer() and 1 < per <= count and count % per == 0:
                return int(per)
    said = SAID_PER_NODE_RE.search(s) if "per" in s or "each" in s else None
    per = int(said.group(1)) if said else 0
    other = any([r.role == "count" and r.value != per for r in roles])  # '7 per node on 8 GPUs': not 7
    return per if 1 < per <= count and count % per == 0 and not other else None
