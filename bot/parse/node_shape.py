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
_WORD = r"(?:[\ue000\ue002]|(?!(?:and|with|of|on|in|per|each|gpus?|cards?)\b)[a-z][\w\-]*)"
"""A word of a card's name (or the mark of a card found, bot.parse.count_forms.MARKS)."""
SAID_PER_NODE_RE = re.compile(
    rf"(?<![\w.])(\d{{1,3}})\s*(?:{_WORD}\s+){{0,2}}(?:gpus?|cards?|accelerators?|devices?|npus?)"
    rf"(?:\s*(?:,|and|&|plus|\+)\s*\d{{1,3}}\s*(?:{_WORD}\s*){{1,3}}?)?"
    r"\s*(?:per|each|a|/)\s*(?:node|machine|server|host|box)\b"
)
"""'8 GPUs per node' (as Megatron-LM's GPUS_PER_NODE=8 is read, bot.parse.count_forms.COUNT_KEY_RES): the
machines' size, said even with no node count (round 18: one machine of 8 GPUs kept its size). s32-gen: with
the card's name between ('8 A800 GPUs per node') and with the machine's other parts listed before 'per
node' ('8 H100 GPUs and 8 IB NICs per node', '4 GPUs and 16 CPU cores per machine', as a DGX H100 is
described: 8 GPUs, 8 ConnectX-7 NICs, NVIDIA DGX H100 User Guide, "Hardware Overview")."""


SERVER_SHAPE_RE = re.compile(r"atlas\s*\d{3}\w*(?:\s*a\d)?\s*\(\s*(\d{1,2})\s*gpus\b")
"""An Atlas server with its NPUs written beside it ('Atlas 800 A3（64GB × 16）', normalized 'atlas 800
a3(16 gpus with 64 gb each)', round 25): an Atlas 800 is one machine (Huawei's Atlas 800 training and
inference server datasheets: 8 NPUs a server, 16 in an 800 A3), so the count beside it is per node."""


BARE_PER_NODE_RE = re.compile(
    r"(?<![\w.$€¥£])(\d{1,3})\s+(?:per|each|a)\s+(?:node|machine|server|host)\b(?![\-\s]*hours?\b)"
    r"|每(?:个|台)?\s*(?:节点|机器|服务器|机)\s*(?:有|放|装|是)?\s*(\d{1,3})\s*(?:张|块|卡|个)"
)
"""s48-workmiss (issue 24 item 4, nodes × GPUs per node in every phrasing): a machine's size said with the
cards named before it and no unit of its own ('on Gaudi2 (8 per node)', 'H100 nodes, 8 per node', 'H100
节点（每个节点 8 张）'), when the message states no GPU count (it asks how many): the machines' size, kept for
the count sized. Not a price ('$2 per node', 'per node-hour') nor a size with a unit ('400 Gbps per node')."""


def bare_per_node(s: str) -> int | None:
    """The GPUs per machine said bare in the normalized text ``s`` (:data:`BARE_PER_NODE_RE`), 2 to 64 (the
    machines people name: 8 GPUs a DGX/HGX node, Intel Gaudi2's HLS-Gaudi2 server of 8, 16 NPUs an Atlas 800
    A3); else None."""
    m = BARE_PER_NODE_RE.search(s) if "per " in s or "each " in s or "每" in s else None
    per = int(m.group(1) or m.group(2)) if m else 0
    return per if 2 <= per <= 64 else None


def kept_per_node(fields: dict[str, Any], roles: Iterable[Any], s: str = "", s0: str = "") -> int | None:
    """The GPUs per machine of a node-form count among ``roles`` (bot.parse.roles.Role: ``role``,
    ``extra``) that divides the request ``fields``' ``gpu_count`` (so the machines hold the count
    sized whole), or said in the text ``s`` ('8 GPUs per node', :data:`SAID_PER_NODE_RE`; an Atlas server's
    NPUs in the unmasked ``s0``, :data:`SERVER_SHAPE_RE`) and dividing it
    with no other GPU count said, when ``gpus_per_node`` is not set yet; else the field's value (None when
    unset)."""
    count, kept = fields.get("gpu_count"), fields.get("gpus_per_node")
    machine = "per node" in s or "each node" in s or "per machine" in s or "each machine" in s  # s48: in C
    machine = machine or "per server" in s or "per host" in s or "节点" in s or "每台" in s or "机器" in s
    if kept is None and count is None and machine:  # s48: its cue words, in C (no frame without them)
        return bare_per_node(s)  # 'on Gaudi2 (8 per node) … how many do I need?'
    if kept is not None or not isinstance(count, int | float) or count < 2:
        return kept
    for r in roles:
        if r.role == "count" and isinstance(r.extra, str) and r.extra.startswith(PER_NODE):
            per = float(r.extra.removeprefix(PER_NODE))
            if per.is_integer() and 1 < per <= count and count % per == 0:
                return int(per)
    said = SAID_PER_NODE_RE.search(s) if "per" in s or "each" in s else None
    server = SERVER_SHAPE_RE.search(s0) if not said and "atlas" in s0 else None  # s0: unmasked (round 25)
    # s48: '8 per node' said bare, searched only with its cue words and no other reading
    per = int((said or server).group(1)) if said or server else ((machine and bare_per_node(s)) or 0)
    # '7 per node on 8': another count the machines cannot hold whole (s32-gen: 'world_size=128' of 16
    # nodes of 8 is those machines, not another count)
    other = not server and any([r.role == "count" and (not per or r.value % per) for r in roles])
    return per if 1 < per <= count and count % per == 0 and not other else None
