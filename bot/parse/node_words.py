"""Words between a node count and the GPUs per node ("3 个节点、每个节点 8 张", "4 nodes of 8 H100",
"三台 A100 服务器（8×40G）", "2机16卡"): the patterns :mod:`bot.parse.roles` reads nodes × GPUs with; and
the words around counts and sizes it reads as well (cards after other words, 'active'/'total' before a
size)."""

from __future__ import annotations

from bot.parse.normalize import MARKS
from bot.parse.regex import LazyPattern, rc

_NODE = (
    r"(?:个\s*)?(?:节点|台\s*(?:(?:gpu\s*)?(?:机器|服务器|主机|电脑|物理机|工作站)|pc|workstation|节点|dgx)?|(?:机器|服务器|主机)"
    r"|nodes?|machines?|servers?|boxes|hosts?|pcs|computers?|workstations?)"
)
_EACH = (
    r"(?:[、,，(（:]\s*)?(?:(?:每(?:个|台)?\s*(?:节点|机器|服务器|台|机)|每个|单(?:机|台|节点)|each(?:\s+(?:node|machine|server))?"
    r"|per\s+node|with|of|having)\s*)?"
    r"(?:(?:只|仅|就|only|just)\s*)?"  # round 17 zh: '每个节点只有一张 V100'
    r"(?:自带|带有?|插(?:了|着|有)?|装(?:了|有|着)?|配(?:了|有|置)?|有|上|都是|都有|各有?|内置|with|has|having|x|×|\*)?\s*"
)
NODE_GAP = rc(r"\s*" + _NODE + r"\s*" + _EACH)
"""Between a node count and the GPUs per node: '3 个节点、每个节点 8 张', '4 nodes of 8', '2台, 每台8卡';
round 10: the machines people own by any name ('6 台 PC，每台自带一张', '3 台主机', '4 workstations') and the
verbs of what each holds ('自带', '插了', '装有', '配置')."""
GPU_NODE_GAP = rc(
    rf"\s*(?:个\s*)?(?:(?:台|节点)\s*)?[{MARKS}]\s*s?\s*(?:服务器|机器|"
    + _NODE
    + r")\s*"
    + _EACH
    + rf"|\s*(?:个\s*)?(?:台|节点|机器|服务器)\s*[{MARKS}]\s*(?:的)?\s*(?:机器|服务器)?\s*[,，、]?\s*"
    r"每(?:个|台)?\s*(?:节点|机器|服务器|台|机)\s*(?:有|装|配|上|各)?\s*"
)
"""A card named before 'nodes': 'three A100 nodes (8x 80 GB each)', '2 H100 nodes with 8 GPUs each',
'三台 A100 服务器（8×40G）'; or after the machines, then each machine's cards: '两台 H20 每台 8 卡'
(trial s16 #7: the 8 was named 'not used' while 16 were sized)."""
R_PER_NODE_GPUS = rc(
    rf"^\s*(?:[x×*]\s*)?(?:\d{{2,3}}\s*g(?:b|ib)?\s*(?:的)?\s*)?(?:[{MARKS}]|gpus?\b|cards?\b|张|卡|块|each\b|per\b)"
    r"|^\s*[x×*]\s*\d{2,3}\s*g(?:b|ib)?\s*[)）]"  # "(8×40G)": eight cards of 40 GB
)
JI_KA_GAP = rc(r"\s*机\s*")
"""'2机8卡', '2机16卡': N machines and M cards (see :func:`ji_ka_count` for which M is per machine)."""
JI_KA_PER_NODE_MAX = 8
"""The most cards one machine is read to hold in 'N机M卡': an NVIDIA HGX/DGX baseboard carries 8 SXM GPUs
(DGX A100/H100 user guides), a Huawei Atlas 800T A2 training server 8 Ascend 910B NPUs (Huawei's product
page), and a 4U PCIe server 8 double-width cards; so M ≤ 8 is the cards in each machine."""


def ji_ka_count(machines: float, cards: float) -> float:
    """The GPU count of 'N机M卡': M ≤ 8 is per machine, so N × M ('2机8卡', '两机八卡' = 16, as in
    PaddlePaddle's and MindSpore's '单机8卡'/'2机8卡' launch docs); M above 8 is more than any common
    machine holds (:data:`JI_KA_PER_NODE_MAX`), so it is the total ('2机16卡' = 16 GPUs, 8 per machine)."""
    return machines * cards if cards <= JI_KA_PER_NODE_MAX else cards


LISTED_GAP = rc(r"\s*" + _NODE + r"\s*[、,，]\s*(?:[x×*]\s*)?")
"""Only a list's comma between the machines and the cards ('4 nodes, 32x H200 GPUs', '4 个节点，32 张 H200'):
no word says the cards are each machine's ('each', 'per node', 'with', '每台')."""


EACH_AFTER_RE = rc(
    r"^[^,，、。;；?？!！\n]{0,30}?(?:\b(?:each|apiece)\b(?!\s+(?:with|having|has|of)\b)"
    r"|(?<!\d)(?<!\d\s)\bper\s+(?:node|machine|server|host|box)\b|(?<!\d)每(?:个|台)?)"
)
"""A word after the cards that makes them each machine's ('4 nodes, 32 H100 each', '… 32 张 H200 每台'); not
a card's own description ('32x H200 GPUs each with 141GB') nor a split said with its number ('16x A100 (4 per
node)': the 16 are the total; s49 review #2)."""


def listed_count(gap: str, machines: float, cards: float, after: str = "") -> float:
    """The GPU count of machines and cards listed side by side (:data:`LISTED_GAP`): s49-workmiss, 'needs 4
    nodes, 32x H200 GPUs' was read as 4 × 32 = 128 GPUs. Cards above what one machine holds
    (:data:`JI_KA_PER_NODE_MAX`) that the machines share evenly are the total, as in 'N机M卡'
    (:func:`ji_ka_count`), unless a word after them (``after``, :data:`EACH_AFTER_RE`) says each machine
    has them; else each machine's, as before ('2 nodes, 8 H100': 16)."""
    total = cards > JI_KA_PER_NODE_MAX and machines > 0 and cards % machines == 0
    listed = total and LISTED_GAP.fullmatch(gap) is not None and not EACH_AFTER_RE.match(after)
    return cards if listed else machines * cards


def per_node_extra(gpus: float, machines: float) -> str | None:
    """The count role's note of the GPUs in each machine ('per_node:4' for '2机4卡', 8 for '2机16卡'), read
    into the request's ``gpus_per_node`` (bot.parse.field_steps); None when the machines do not share
    the count evenly."""
    per = gpus / machines if machines else 0.0
    return f"per_node:{per:g}" if per.is_integer() and 1 <= per <= 64 else None


JI_KA_RE = rc(
    r"(?<![\d.])(?P<a>\d{1,3}|[一二两三四五六七八九十])\s*机\s*(?P<b>\d{1,3}|[一二两三四五六七八九十])\s*(?:张|块)?\s*卡"
)
_ZH_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九十")} | {"两": 2}


def ji_ka_read(s: str, gpu_count: float | None) -> list[tuple[str, str, str]]:
    """Each 'N机M卡' of the normalized text ``s`` that gave ``gpu_count``, as typed with the reading said
    ('2机4卡' → '2 × 4 = 8', ji_ka_each; '3机16卡' → '16', ji_ka_total), for the reply to state it. A total
    the machines share evenly, at most a node's cards each ('2机16卡': 8 a machine), is what was said, as
    '2 nodes x 8' is: no note (s42 trial #14)."""
    out = []
    for m in JI_KA_RE.finditer(s) if "机" in s and gpu_count else ():
        a, b = (int(v) if v.isdigit() else _ZH_DIGITS[v] for v in (m["a"], m["b"]))
        if a and b and ji_ka_count(a, b) == gpu_count:
            per = b <= JI_KA_PER_NODE_MAX
            if not per and b % a == 0 and b // a <= JI_KA_PER_NODE_MAX:
                continue  # '2机16卡': 8 a machine, a whole node each; nothing to say (s42 trial #14)
            out.append(
                (
                    m.group(0),
                    f"{a} × {b} = {a * b}" if per else f"{b}",
                    "ji_ka_each" if per else "ji_ka_total",
                )
            )
    return out


R_WORDS_THEN_CARDS = rc(
    r"^\s+(?:(?!(?:and|or|to|for|with|on|in|per|than|vs|from|at|by|of|more|fewer|less|times|people|users"
    r"|requests|days?|hours?|weeks?|months?|years?|tokens?|models?|steps?|epochs?|samples?|layers?)\b)"
    r"[a-z][a-z\-]*(?<!ing)\s+){1,3}"
    rf"[{MARKS}]\s*(?:s\b|\s*(?:gpus|cards|accelerators)\b)"
)
"""A count, one to three words, then cards in the plural: '4 brand-new NVIDIA H100 GPUs', '4 shiny used
RTX 3090 cards' (the plural makes the number a count of cards); never a quantity word ('7 days', '5 users')
or a verb in -ing ('5 people using H100s')."""
TIMES_GAP = rc(r"\s*(?:[x×*]\s*)?")
"""Between a node count and an 'M-GPU' node size: '4 8-GPU H100 servers', '3 x 8-GPU nodes'."""
R_GPU_NODES = rc(
    rf"^[\s\-]*(?:gpus?|卡)[\s\-]*(?:[{MARKS}]\s*)?(?:nodes?|servers?|machines?|boxe?s?|hosts?|服务器|机器|节点)"
)
"""'-GPU H100 servers', '-GPU nodes', '卡 A100 服务器': the cards of each node, after its count."""
L_ACTIVE = rc(r"(?:激活(?:参数)?(?:量)?|active(?:\s+params?|\s+parameters)?)\s*[:：]?\s*$")
"""A size after 'active'/'激活' ('总参 30B、激活 3B'): the active parameters of an MoE (a size word only)."""
L_TOTAL = rc(r"(?:总参(?:数)?(?:量)?|total(?:\s+params?|\s+parameters)?)\s*[:：]?\s*$")
"""A size after 'total'/'总参' ('总参 30B、激活 3B'): the total parameters."""
R_CARD_NODES = rc(
    rf"^\s*(?:[x×*]\s*)?[{MARKS}][^\s{MARKS}]*\s*(?:\d{{2,3}}\s*g(?:b|ib)?\s*)?"
    r"(?:(?P<many>nodes|servers|machines|boxes|hosts)"
    r"|node|server|machine|box|host)\b(?!\s*(?:with|of|,)?\s*(?:\d|one|two|four|eight)[\s\-]*(?:gpus?|cards?|x\b))"
)
"""A count, then a card, then a machine word ('two A100 servers', '2 H100 nodes', '3 A800 80GB machines',
'one A100 server'; s29; s41 #15: '8x H100 nodes', the node type's 'x' kept): that many machines of the
card, eight cards each unless said, as '两台 A100 服务器' is (design §4, Nodes) — before, English read the
machines as cards ('two A100 servers' = 2 GPUs, '两台' = 16). A count before a singular machine word is the
machine's cards ('an 8 H100 node'), and a count glued to the card ('one 8xH100 node') is read elsewhere;
so are the cards per machine said after ('2 A100 servers with 4 GPUs': bot.parse.bare_nodes)."""
R_NODE_TYPE = rc(rf"^\s*[x×*]\s*[{MARKS}]")
"""After 'N x M': a node type written 'M x card', with or without a machine word after it ('3 x 8x H100
nodes', '2 × 8xH100 servers'; s43: '2 x 8x H100', '2× 8×A100', '2x8xH100'): N nodes of that type, N × M
cards. Two products in a row name a node shape: the count glued to the card is the cards in each node (as
'8x H100' alone is 8 cards), the count before it the nodes (s41 trial #15: the 8 was read as the node
count, 64, and the 3 left unread; s43 issue 24: without the machine word the 2 was left unread and 8
sized)."""
_NEXT_SIZE = rc(
    r"^\s*(?:参数量?|params?|parameters?)?\s*[:：]?\s*\d[\d.,]*\s*(?:[bmtkBMTK](?![a-zA-Z])|billion|million|千亿|万亿|亿)"
)
"""A size right after an 'active'/'total' word ('激活13B', 'active 3B', '总参数: 30B'): the size that word may
label instead of the one before it."""


def _moe_word(text: str, active: LazyPattern, total: LazyPattern) -> tuple[str | None, int]:
    """('active' | 'total' | None, the end of that word in ``text``) for the word at its start."""
    m = active.match(text)
    if m is not None:
        return "active", m.end()
    m = total.match(text)
    return (None, 0) if m is None else ("total", m.end())


def moe_size_kind(right: str, left: str, scale: str, active: LazyPattern, total: LazyPattern) -> str | None:
    """'active' or 'total' for a parameter size by the MoE words around it, or None.

    ``right``/``left``: the message's text after/before the size; ``scale``: its magnitude letter ('B', 'M',
    'T'); ``active``/``total``: the patterns of those words right after a size (bot.parse.roles.R_ACTIVE,
    R_TOTAL). A word after the size is its own unless another size follows the word at once with no such
    word after it: then the word labels that size (s45 trial: '总参数47B激活13B' — 13B is the active size,
    47B the total; '30B激活3B'; 'active 3B total 30B'), while '3B active 30B total' keeps 'active' with 3B.
    A word after the size beats one before it ('3B active 30B total': 30B is the total).
    """
    kind, end = _moe_word(right, active, total)
    if kind is not None:
        nxt = _NEXT_SIZE.match(right[end:])
        if nxt is None or _moe_word(right[end + nxt.end() :], active, total)[0] is not None:
            return kind
    if L_ACTIVE.search(left) and scale in ("B", "M"):
        return "active"
    if L_TOTAL.search(left) and scale in ("B", "T"):
        return "total"
    return None
