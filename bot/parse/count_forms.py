"""How people write GPU counts (issue 24, round 3): the forms the count rules of :mod:`bot.parse.roles`
did not read, written as one of the forms they do read.

- **A product with an asterisk** ("2 * 8 H100", "1 * 8 A100 (80G)", "2*8 卡"): nodes × cards per node,
  as "2 x 8" is. Markdown strips a bare ``*`` later (:data:`bot.parse.normalize._MARKUP_RE`), so the
  two numbers would stand apart and only the second be read.
- **A range with "between"** ("between 2 and 4 A40s", "介于 2 和 4 张之间"): the range "2 to 4" (sized
  from its lower end, up to the upper).
- **A product before the cards' word** ("2 * 8 张 H800", "4*8 的 H800", "4 x 8 GPUs"): nodes × cards.
- Also each card's memory (:mod:`bot.parse.memory_forms`), each request's output length
  (:mod:`bot.parse.output_forms`), deadlines and prices in words (:mod:`bot.parse.time_forms`), written
  the ways the rules read.
- **A total after the per-node counts** ("3 groups of 8 A100-40G, 24 A100-40G in total", "8 per node,
  16 GPUs altogether", "一共 16 张卡"): the total is the count of the job, whatever counts come before it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from bot.later_names import LATE, carried_unit_total, drop_size_word, load_forms, network_ports, role_split
from bot.parse.around_clock import AROUND_CLOCK_RE, around_clock
from bot.parse.bound_memory import GATE_RE as BOUND_MEMORY_GATE
from bot.parse.bound_memory import bound_memory
from bot.parse.chassis_slots import CHASSIS_GATE, chassis_slots
from bot.parse.count_choice import COMPARE_CUES, compared_counts, count_choice, min_recommended
from bot.parse.length_forms import GATE as LENGTH_GATE
from bot.parse.length_forms import length_words
from bot.parse.memory_beside import OTHER_MEMORY_MARK_RE
from bot.parse.memory_forms import MEMORY_NEED_MARK_RE, memory_forms
from bot.parse.node_totals import GATE as NODE_TOTALS_GATE
from bot.parse.node_totals import node_totals
from bot.parse.numbers import CN_DIGITS
from bot.parse.output_forms import output_forms
from bot.parse.period_prices import PERIODS, RENT, period_prices
from bot.parse.price_forms import GATE as PRICE_GATE
from bot.parse.price_forms import device_hour_prices, zh_hourly_price
from bot.parse.regex import rc
from bot.parse.request_shape import GATE as SHAPE_GATE
from bot.parse.request_shape import shape_forms
from bot.parse.time_forms import time_forms
from bot.parse.unit_cues import BOUND_MEMORY, CHASSIS, TIMES
from bot.parse.vague_amounts import GATE as ROUGH_GATE
from bot.parse.vague_amounts import restated, rough_words
from bot.parse.with_without import GATE as WITH_WITHOUT_GATE
from bot.parse.with_without import both_ways
from bot.parse.written_products import each_of_count, written_products
from bot.parse.written_units import REPLACED_RE

if TYPE_CHECKING:
    from bot.parse.roles import Role

MARKS = "\ue000\ue002"
"""The GPU marks of :mod:`bot.parse.normalize` (``MARKS``: a catalog card, an unknown card), here so this
module, which normalize imports, does not import it back."""

STAR_COUNT_RE = rc(r"(?<![\d.*])(\d{1,4})\s*\*\s*(\d{1,3})(?![\d.*])(?!\s*g(?:b|ib)?(?![a-z]))")
"""'2 * 8', '1*8': two small integers joined by one asterisk (not '**' bold, not '8*40G' memory, which
:mod:`bot.parse.setting_verbs` reads)."""
BETWEEN_RE = rc(r"\bbetween\s+(\d[\d,.]*)\s+(?:and|&)\s+(?=\d)")
"""'between 2 and 4': the start of a range whose end follows."""
BETWEEN_CN_RE = rc(r"介于\s*(\d[\d,.]*)\s*(?:和|与|跟|到|至|~|-)\s*(?=\d)")
"""'介于 2 和 4 张之间': the same range in Chinese."""
CARDS_AFTER_PRODUCT = rc(
    rf"^\s*(?:的\s*)?(?:(?:张|块|台)\s*)?(?:卡\s*)?(?:的\s*)?[{MARKS}]|^\s*(?:张|块)?\s*卡|^\s*(?:gpus|cards)\b"
)
"""After 'N x M': the cards counted, so the product is nodes × cards per node ('2 x 8 A100s', '2*8 张
H800', '4*8 的 H800', '2x8卡', '4 x 8 GPUs')."""
TOTAL_AFTER_RE = rc(
    rf"^[\s\-]*(?:[{MARKS}]\s*)?(?:[a-z0-9\-]{{0,12}}\s*)?(?:s\b\s*)?(?:gpus?|cards?|accelerators?|devices?|张卡?|块卡?|卡)?"
    r"\s*(?:in\s+total|in\s+all|altogether|total(?![\s\-]*(?:memory|vram|capacity|batch))|总共|合计)"
)
"""After a count: its cards, then a total word ('24 A100-40G in total', '16 GPUs altogether', '16 卡总共')."""
TOTAL_BEFORE_RE = rc(r"(?:\btotal\s+of|\bin\s+total,?|\baltogether,?|一共|总共|合计)\s*$")
"""Before a count: 'a total of 24', 'in total 24 GPUs', '一共 16 张'."""


COUNT_KEY_RES = (
    (rc(r"(?<![a-z0-9_])(?:[a-z_]+\.)*(?:num_|n_?)?(?:gpus?|procs?|nproc)_per_node\s*[=:]?\s*(\d{1,3})(?![\d.])"),
     r" \1 gpus per node "),
    (rc(r"(?<![a-z0-9_])(?:[a-z_]+\.)*(?:nnodes|num_nodes|n_nodes|num_machines|node_num)\s*[=:]?\s*(\d{1,4})(?![\d.])"),
     r" \1 nodes "),
    (rc(r"(?<![a-z0-9])(?:[a-z_]+\.)*(?:num_gpus|n_gpus|ngpus|gpu_num|num_gpu|world_size|num_processes)"
        r"\s*[=:]?\s*(\d{1,5})(?![\d.])"), r" \1 gpus "),
)  # fmt: skip
"""Launcher and trainer keys that count GPUs, written in prose ('trainer.n_gpus_per_node=4
trainer.nnodes=2' of verl, 'cluster.gpus_per_node=8' of NeMo-RL, torchrun's nproc_per_node/nnodes,
DeepSpeed's num_gpus, accelerate's num_processes/num_machines, PyTorch's WORLD_SIZE): the words the
count rules read ('4 gpus per node', '2 nodes', '16 gpus'). A key with a role before it (OpenRLHF's
'--actor_num_nodes', '--ref_num_gpus_per_node') is that role's placement, read through the meaning table
(bot.parse.configs.meaning: the actor's GPUs are the run's), never a count of the whole run."""
OLLAMA_COUNT_KEY_RE = rc(COUNT_KEY_RES[2][0].pattern.replace("|num_gpu|", "|"))
"""The GPU-count keys beside an Ollama word: its ``num_gpu`` is the layers on the GPU (docs/modelfile.md)."""
CARDS_COUNTED_RE = rc(
    r"(?<![\d.])\d{1,4}\s*(?:x|×|\*)\s*(?:nvidia\s+)?[a-z]{1,4}\s?\d{2,4}|(?<![\d.])\d{1,4}\s*(?:张|块)"
)
"""Cards counted in the prose ('2x A100', '4 张 4090'): then a total-count key (num_processes=8,
world_size=16) is no count of theirs — most often another setup being asked about ('could I run it as
num_processes=8?'): left to be named as not used, never the GPUs sized."""
_KEY_GATE = re.compile(
    "_per_node|nnodes|num_nodes|n_nodes|num_machines|node_num|num_gpu|n_gpus|ngpus|gpu_num|world_size|num_processes"
)
PER_NODE_FIRST_RE = rc(
    r"(?<![\w.])(\d{1,3}|a\s+single|single|an?|one)\s*((?:[a-z][a-z0-9\-]*\s+(?:\d{2,4}[a-z]{0,2}\s+)?){0,2}?)"
    r"(gpus?\s*|cards?\s*|accelerators?\s*)?"
    r"(?:per|each|a|/)\s*(?:node|machine|server|box|host)\s*[,，;]?\s*"
    r"(?:and\s+|with\s+|on\s+|across\s+|over\s+|x\s*|×\s*|times\s+)?(\d{1,4})\s*(?:nodes?|machines?|servers?|boxes|hosts?)\b"
)
"""'4 GPUs per node, 2 nodes', '8 H100 per node across 4 nodes': cards per node before the node count,
written node count first ('2 nodes of 4 gpus'), as the node rules read it. s20: 'an H100 per node on 4
nodes', 'one GPU per node, 4 nodes' (an article or 'one' is 1, with a card's name or word); never the digits
inside a card's name (before, 'h100 per node on 4 nodes' was written 'h4 nodes of 100 gpus': A100 × 100)."""


NODES_WITH_ONE_RE = rc(
    r"(?<![\w.])(\d{1,4}\s*(?:nodes?|machines?|servers?|hosts?|boxes)\s+(?:each\s+)?(?:with|of|having|holding))"
    r"\s+(?:an?|one|a\s+single)\s+(?=[a-z]{1,8}\s*-?\d)"
)
"""'4 nodes with an H100 each', '2 servers of one A100': one card a node, written '4 nodes with 1 h100'
(s20; before, the article left the nodes' cards uncounted)."""


NODES_AND_PER_NODE_RE = rc(
    r"(?<![\w.])(\d{1,4}\s*(?:nodes?|machines?|servers?|hosts?|boxes))\s*,?\s*(?:and|&|plus)\s+"
    r"(?=\d{1,3}\s*(?:[a-z][a-z0-9\-]*\s+){0,2}?(?:(?:gpus?|cards?|accelerators?)\s*)?"
    r"(?:(?:per|a|/)\s*(?:node|machine|server|box|host)\b|each\b))"
)
"""'4 nodes and 8 GPUs per node' (round 15: the launcher keys 'num_nodes=4 and gpus_per_node=8' are
written so): the nodes, then what each holds ('2 nodes and 8 H100 each'), written '4 nodes with 8 gpus per
node' as the node rules read it; never '2 nodes and 16 GPUs' (a total: no per-node word)."""


def _per_node_first(m: re.Match[str]) -> str:
    """:data:`PER_NODE_FIRST_RE` written node count first; a word count ('an', 'one') only with a card's
    name (a digit in it: 'h100') or a card word, else the text as it was ('a copy per node')."""
    count, name, unit = m.group(1), m.group(2), m.group(3)
    if not count.isdigit():
        if not (unit or any(c.isdigit() for c in name)):
            return m.group(0)
        count = "1"
    return f"{m.group(4)} nodes of {count} {name}gpus"


PER_NODE_FIRST_CN_RE = rc(
    r"每(?:个|台)?\s*(?:节点|机器|服务器|台|机)\s*(?:有|装|配|上)?\s*(?P<n>\d{1,2}|[一两二三四八单])\s*(?:(?:张|块)\s*卡?|卡|gpus?)"
    r"\s*(?P<card>[a-z]{1,5}\s?-?\d{2,4}[a-z]{0,4})?"
    r"[^\d。；;]{0,6}?(?P<t>共|一共|总共|合计)?\s*(?P<k>\d{1,4}|[两二三四五六七八九十])\s*(?P<u>个|台)?\s*"
    r"(?P<w>节点|机器|服务器|台)?"
)
"""'每台 8 卡，共 3 台', '每台机器 8 张 H800，一共 4 台', '每个节点 4 张 A100，两个节点': the same in Chinese
('3 个节点、每个节点 8 张卡'): a total word or a machine word after the node count (s17: the card's name
between, and a node count without 共, were left unread or 'repeated')."""


def _per_node_first_cn(m: re.Match[str]) -> str:
    if not (m.group("t") or m.group("w")) or (m.group("u") and not m.group("w") and not m.group("t")):
        return m.group(0)
    card = f" {m.group('card')}" if m.group("card") else ""
    n = _CN_PER_NODE.get(m.group("n"), m.group("n"))  # s20: '每个节点一张 A100，共 4 个节点'
    return f"{m.group('k')} 个节点、每个节点 {n} 张卡{card}"


NO_TP_RE = rc(
    r"\b(?:no|without(?:\s+any)?|not\s+using|no\s+need\s+for)\s+(?:tensor[\s\-]*(?:model[\s\-]*)?parallel(?:ism)?|tp)\b"
    r"|(?:不开|不用|没开|没用|没有|不使用|未开启?|关闭|关掉|不做)\s*(?:张量并行|tp(?![a-z]))"
)
"""'no tensor parallelism', 'without TP', '不开张量并行', '不用 tp': a tensor-parallel degree of 1, written
'tp 1' (s29: before, no TP was read in either language, and the plan could split the model the user keeps
whole)."""
_CN_PER_NODE = {"一": "1", "单": "1", "两": "2", "二": "2", "三": "3", "四": "4", "八": "8"}


TP_WAY_RE = rc(
    r"(?<![\d.])(?P<n>\d{1,2}|[双两二四八])\s*-?\s*(?P<u>way|卡|路)\s*(?:的\s*)?"
    r"(?=tp(?![a-z])|张量并行|tensor[\s\-]*parallel)"
)
"""'双卡 tp 推理', '2-way tensor parallelism', '4 卡张量并行': the tensor-parallel degree, written 'tp N'
(s17: the degree was left unread); the cards of '双卡' stay a count."""
NOT_THIS_COUNT_RE = rc(r"不是\s*(\d{1,4})\s*(?:张|块)?\s*卡?(?=\s*[,，]?\s*(?:而)?是\s*\d)")
"""'不是 8 卡，是 4 卡': the count said not to be the job's loses its card word (left for the reply to name),
so the count after it is sized (s17: before, the 8 was sized and the 4 named as repeated)."""
EACH_NODE_HAS_RE = rc(
    r"(?<![\d.])(\d{1,4})\s*(nodes?|machines?|servers?)\s*[;,.]?\s*(?:and\s+)?each\s+(?:node|machine|server|one)?\s*"
    r"(?:has|have|with|contains|holds)\s+"
)
"""'2 nodes; each node has 8 x A800': written '2 nodes with 8 x a800', as the node rules read it (s17: before,
one node's 8 was sized)."""
_TP_N = {"双": 2, "两": 2, "二": 2, "四": 4, "八": 8}


def _tp_way(m: re.Match[str]) -> str:
    n = _TP_N.get(m.group("n")) or int(m.group("n"))
    return f"{n} 卡 tp {n} " if m.group("u") == "卡" else f"tp {n} "


_N = r"(\d{1,4}|[一两二三四五六七八九十]{1,2})"
UNIT_TWICE_RE = rc(
    rf"(?<![\d.]){_N}\s*(张卡|块卡|张|块|卡|cards?|gpus?)\s*(或者|或|还是|or|to|到|至)\s*{_N}\s*\2(?![a-z])"
)
"""'两卡或三卡', '2 cards or 3 cards': the unit said after both ends of an alternative, written once after
the second ('2 或 3 卡'), so the range rule reads both numbers."""


HALF_DOZEN_RE = rc(r"\bhalf\s+a\s+dozen\b")
"""'half a dozen H100s': six (read as 'a dozen' before)."""
MULTIPLE_RE = rc(
    r"\b(?P<w>dual|twin|triple|quad|octa|octo)[\s\-]*(?=(?:rtx|nvidia|geforce|tesla|gpus?\b|cards?\b|[a-z]{0,4}\d{2,4}))"
)
"""'quad A6000', 'triple 3090', 'octa-GPU box': that many cards ('quad-core' is no card: a card word or a
card-like name must follow)."""
# Gates: one C-level search each (a loop of 'in' tests costs a Python frame per word: a parse's budget).
_PRODUCT_PAIR_GATE = re.compile(r"\d\s*[x×*]\s*\d+\D{1,8}?\d\s*[x×*]\s*\d")
_MULTIPLE_GATE = re.compile("dual|twin|triple|quad|octa|octo")
SIZE_WORDS = ("存大小", "存容量", "存的大小", "存的容量", "m size", "ry size")
"""A memory key's size word before its value ('显存大小 24G', 'VRAM size 24GB': bot.parse.size_words)."""
_LOAD_GATE = re.compile(
    r"\d\s*(?:sequences?\s+|samples?\s+|seqs?\s+)?(?:per|/|each\s+per)[\s\-]*(?:device|gpu|card)s?\s*[x×*,+]"
    r"|\d\s*(?:x\s*)?(?:gradient[\s_\-]*|grad[\s_\-]*)?accum|每(?:张|块)?卡(?:上)?\s*(?:跑|放|训|喂|塞)|[a-z0-9]#\d"
    r"|accumulat\w*\s+(?:[a-z\-]+\s+){0,3}\d|\d\s*(?:[a-z]+\s+)?(?:per|each|every|in\s+each)\s+batch\b"
    r"|并发[^\d，。,;；]{0,6}\d+\s*(?:条|个|路)|并发[^\d，。,;；]{0,6}(?:不到|不足|低于|少于|只有|才|仅|最多|最高|能到|能达到)[^\d，。,;；]{0,4}\d"
    r"|concurrency[^\d,.;]{0,12}(?:under|below|less\s+than)\s*\d"
)
"""The batch forms of bot.parse.load_forms ('4 per device x', '32 accumulation steps', '每张卡跑 8 条')."""
_CARD_WORD_GATE = re.compile("卡|张|块|card|gpu")
_ALTERNATIVE_GATE = re.compile(" or |或|还是| to |到|至")
_NODE_WORD_GATE = re.compile("node|machine|server|box|host")
_PER_GATE = re.compile("per|each|/| a ")
_MULTIPLES = {"dual": "2", "twin": "2", "triple": "3", "quad": "4", "octa": "8", "octo": "8"}


DUAL_MACHINE_RE = rc(r"双(?=\s*机\s*[\d一二三四五六七八九十两]+\s*(?:张|块)?\s*卡)")
"""The 双 of '双机8卡' (two machines, then the cards of each), read as the number 2."""


PRODUCT_ALTERNATIVE_RE = rc(
    r"(?<![\d.])(?P<a>\d{1,3})\s*(?:x|×|\*)\s*(?P<b>\d{1,3})\s*(?:张|块|台)?\s*(?:卡)?\s*"
    r"(?:和|与|或者|或|还是|以及|or|and|/|、|to|到|至)\s*"
    r"(?P<c>\d{1,3})\s*(?:x|×|\*)\s*(?P<d>\d{1,3})(?![\d.])"
    rf"(?=[^。,，;；?？!！]{{0,12}}?(?:[{MARKS}]|卡|gpus?\b|cards?\b|accelerators?\b|npus?\b|[a-z]{{1,4}}\s?-?\d{{2,4}}))"
)
"""'2x16 和 3x16 华为 910B 的卡', '2x8 or 4x8 A100s': two setups of nodes × cards, written as the range of
their totals ('32 到 48'), sized from the first and up to the second, as '2 or 4 cards' is (before: the
first product was dropped in silence)."""


def _product_range(m: re.Match[str]) -> str:
    first, second = int(m.group("a")) * int(m.group("b")), int(m.group("c")) * int(m.group("d"))
    if first == second:
        return m.group(0)
    cards = "" if re.search(r"[a-z/]", m.group(0).replace("x", "")) else "张 "  # '16 到 32 张 的 A100'
    return f"{first} 到 {second} {cards}" if cards else f"{first} to {second} "


ROLLOUT_SHARE_RE = rc(
    r"(?<![\d.x×*])(?P<n>\d{1,3}(?:\s*(?:-|~|到|至)\s*\d{1,3})?)\s*"
    r"(?:(?:张|块)\s*(?:卡|gpus?\b|cards?\b|npus?\b)?|卡|gpus?\b|cards?\b|npus?\b)\s*"  # s23: '2 张给 vllm'
    r"(?P<v>给|用于|用来|留给|for|to)?\s*(?:the\s+)?(?=vllm|sglang|rollout)(?![a-z]+\s*colocate)"
)
"""In online RL ('2 cards for vLLM and the rest for training', '其中 2 卡给 vllm'): the cards given to the
rollout engine, a share of the job's, never its GPU count (written 'rollout share N', named). Without a
verb ('预计 2-4 卡 vllm 就够'), only when the job's own count is written elsewhere; '8卡 vllm colocate' is
the job's cards (colocated: the engine shares them)."""
_OTHER_COUNT_RE = rc(r"\d\s*(?:张|块)?\s*(?:卡|gpus?\b|cards?\b|npus?\b|[x×*]\s*\d)|\d\s*(?:a|h|b)\d{2,3}")
ROLLOUT_SHARE_MARK_RE = re.compile(r"rollout share (\d{1,3})(?:\s*(?:-|~|到|至)\s*(\d{1,3}))?")
"""The numbers written 'rollout share N' above (named with the ``rollout_share`` reason)."""


def _rollout_share(m: re.Match[str]) -> str:
    rest = m.string[: m.start()] + " " + m.string[m.end() :]
    if m.group("v") or _OTHER_COUNT_RE.search(rest):
        return f" rollout share {m.group('n')} "
    return m.group(0)


LOAD_LIST_RE = rc(
    r"(?<![\d.])\d{1,6}(?:\s*(?:,|和|及|与|and|or|或)\s*\d{1,6})+\s*(?:个|路)?\s*(?:并发|concurrent|simultaneous)"
    r"|(?:并发|concurrency)\s*(?:数|量)?\s*(?:为|是|=|:)?\s*\d{1,6}(?:\s*(?:,|和|及|与|and|or|或)\s*\d{1,6})+"
)
"""Several loads listed for one job ('100、120、150 并发都通过了', '并发 100、200 和 300', 'at 100, 200 and
300 concurrent users', round 25): one is sized, the others are other setups the reply names (never unread)."""


def set_aside_counts(s: str) -> dict[str, str]:
    """{count as typed: reason} for the counts of ``s`` (normalized) that are not the job's: the rollout
    engine's share ('rollout_share') and a machine's cards beside a visible-devices list ('other_setup');
    also a setting's earlier value, lowered or raised from ('replaced_by_later_value')."""
    out = {n: "other_setup" for n in MACHINE_CARDS_RE.findall(s)} if "machinecards" in s else {}
    out |= {n: "stated_need" for n in MEMORY_NEED_MARK_RE.findall(s)} if "memoryneed" in s else {}
    out |= {n: "other_setup" for n in OTHER_MEMORY_MARK_RE.findall(s)} if "othermemory" in s else {}
    out |= {n: "replaced_by_later_value" for n in REPLACED_RE.findall(s)} if ", was " in s else {}
    if "并发" in s or "concurren" in s:  # round 25: a list of loads, each beside the one sized
        out |= {n: "other_setup" for m in LOAD_LIST_RE.finditer(s) for n in re.findall(r"\d+", m.group(0))}
    out |= network_ports(s) if "port" in s or "端口" in s or "-p " in s else {}  # '-p 8080:80' (s36)
    out |= LATE.gpu_cores(s) if "核" in s or "core" in s else {}  # 'MacBook Pro 16 核 GPU' (s50 #6)
    return out | {n: "rollout_share" for n in rollout_shares(s)}


def rollout_shares(s: str) -> set[str]:
    """The counts of ``s`` (normalized) given to the rollout engine, as typed."""
    return (
        {n for pair in ROLLOUT_SHARE_MARK_RE.findall(s) for n in pair if n} if "rollout share" in s else set()
    )


_ONLINE_RL_GATE = re.compile(r"grpo|ppo|rlhf|rloo|dapo|rollout|colocate")


INCLUDE_LIST_RE = rc(r"(?<![a-z0-9\-])(?:--include|-i)\s*=?\s*[\"']?(?:[a-z0-9_.\-]+:\d+(?:,\d+)*@?)+")
"""DeepSpeed's ``--include localhost:0,1,2,3`` (or ``-i``; hosts joined by ``@``) in prose: the GPUs listed
(deepspeed/launcher/runner.py ``parse_inclusion_exclusion``), as :mod:`bot.parse.configs.device_lists`
reads it in a command."""


VISIBLE_LIST_RE = rc(
    r"(?<![a-z_])(?:cuda|hip|ascend_rt|npu)_visible_devices\s*=\s*[\"']?(?P<l>\d{1,2}(?:,\d{1,2})*)"
)
"""'CUDA_VISIBLE_DEVICES=0,1,2,3' in prose (also ROCm's HIP_ and Ascend's ASCEND_RT_VISIBLE_DEVICES): the GPUs
the job sees, written 'N gpus' (a pasted command's list is read with it: bot.parse.configs.launchers)."""
NODES_CARDS_ALTERNATIVE_RE = rc(
    r"(?<![\d.])(?P<a>\d{1,3})\s*(?:台|个节点|个机器|机)\s*(?:每台\s*)?(?P<b>\d{1,2})\s*(?:张|块)?\s*卡\s*"
    r"(?:和|与|或者|或|还是|/|、|到|至)\s*"
    r"(?P<c>\d{1,3})\s*(?:台|个节点|个机器|机)\s*(?:每台\s*)?(?P<d>\d{1,2})\s*(?:张|块)?\s*卡"
    r"|(?<![\d.])(?P<e>\d{1,3})\s*nodes?\s*(?:of|with|x)\s*(?P<f>\d{1,2})\s*(?:gpus?|cards?)?\s*(?:or|and|vs\.?|/)\s*"
    r"(?P<g>\d{1,3})\s*nodes?\s*(?:of|with|x)\s*(?P<h>\d{1,2})(?!\d)"
)
"""'2 台 8 卡或 4 台 8 卡', '2 nodes of 8 or 4 nodes of 8': two node setups, the range of their totals."""


def _nodes_range(m: re.Match[str]) -> str:
    a, b, c, d = (m.group(x) for x in ("abcd" if m.group("a") else "efgh"))
    first, second = int(a) * int(b), int(c) * int(d)
    return f"{first} 到 {second} 张卡 " if m.group("a") else f"{first} to {second} gpus "


def _visible_gpus(s: str) -> str:
    """'N gpus' for the list, or the list set aside when the cards are counted in words too and as many
    ('3 张卡（CUDA_VISIBLE_DEVICES=1,2,3）'): one count, never read (or named) twice. A count other than
    the list's is the machine's ('a server with 8 GPUs … CUDA_VISIBLE_DEVICES=0,1'): the job runs on the
    visible devices, and the machine's count is written 'machine cards N' (named, other_setup)."""
    m = VISIBLE_LIST_RE.search(s)
    if m is None:
        return s
    listed = len(m.group("l").split(","))
    counted = CARDS_COUNTED_RE.search(s) or _CN_CARDS_COUNTED_RE.search(s)
    if counted:
        stated = _stated_count(counted.group(0))
        if stated is None or stated == listed:
            return VISIBLE_LIST_RE.sub(" ", s)
        s = f"{s[: counted.start()]} machinecards {stated} {s[counted.end() :]}"
    return VISIBLE_LIST_RE.sub(lambda v: f" {len(v.group('l').split(','))} gpus ", s)


_CN_DIGITS = {**CN_DIGITS, "单": 1, "双": 2}
"""A count word's value ('三张', '单卡', '双卡'): the parser's digit table, with 单 and 双."""


def _stated_count(text: str) -> int | None:
    digits = re.match(r"\d+", text)
    return int(digits.group(0)) if digits else _CN_DIGITS.get(text[:1])


MACHINE_CARDS_RE = re.compile(r"machinecards (\d{1,4})")
"""The machine's count beside a CUDA_VISIBLE_DEVICES list of another length (:func:`_visible_gpus`)."""


_CN_CARDS_COUNTED_RE = rc(
    r"[一二两三四五六七八九十]\s*(?:张|块)|单卡|双卡|(?<![a-z0-9.])\d{1,3}\s*(?:卡|gpus?\b|cards?\b)"
)


_SLOTS_RE = re.compile(r":(\d+(?:,\d+)*)")


def _include_gpus(m: re.Match[str]) -> str:
    listed = sum(len(slots.split(",")) for slots in _SLOTS_RE.findall(m.group(0)))
    return f" {listed} gpus "


GLOBAL_BATCH_WORDS_RE = rc(
    r"\b(?:effective|total|overall|aggregate)[\s_\-]+batch(?=[\s_\-]*(?:size|of|=|:|\d))"
)
"""'effective batch size 128', 'total batch of 256': the sequences per optimizer step, written 'global
batch' (the words lexicon.GLOBAL_BATCH_RE reads); before, 'batch' alone made them the micro-batch."""


def count_forms(s: str) -> str:
    """The normalized text ``s`` with star products and 'between … and …' ranges written as the count
    rules read them ('2 x 8', '2 to 4'). Gated on cheap substring tests."""
    s = each_of_count(s) if " of " in s else s  # 'each of my 4 GPUs' (round 4); below, each reader's own
    # first test at its call (s35): the same text, one Python frame less where the test fails
    s = node_totals(s) if NODE_TOTALS_GATE.search(s) else s  # 'each with 8 GPUs, 4 nodes' (s32)
    if any(map(s.__contains__, CHASSIS)) and CHASSIS_GATE.search(s):
        s = chassis_slots(s)  # 'an 8-GPU chassis … 4x MI100': the box's slots are not the cards (s27)
    if "nvidia" in s or "amd" in s or "intel" in s or "huawei" in s or "英伟达" in s or "华为" in s:
        s = LATE.VENDOR_COUNT_RE.sub(LATE.count_and_unit, s)  # '8 NVIDIA GPUs': the count (round 14)
    if any(map(s.__contains__, BOUND_MEMORY)) and BOUND_MEMORY_GATE.search(s):
        s = bound_memory(s)  # '8G 以下的显存', '12G 以内的显卡': the card's memory (round 21 zh)
    if " total" in s or "altogether" in s:
        s = carried_unit_total(s)  # 'about 35 gigabytes, and the GPUs have 192 in total' (round 23)
    s = memory_forms(drop_size_word(s) if any(map(s.__contains__, SIZE_WORDS)) else s)  # s38: '显存大小 24G'
    s = written_products(s)  # '49GB*4', '8*24G', 'Mixtral 8 x 7B' (round 4)
    s = both_ways(s) if WITH_WITHOUT_GATE.search(s) else s  # 'with and without LoRA': both methods (round 4)
    s = shape_forms(s) if SHAPE_GATE.search(s) else s  # '128 parallel requests', 'ISL 1024 OSL 256' (round 4)
    s = device_hour_prices(s) if PRICE_GATE.search(s) else s  # '$1.29 per GPU per hour', '$2/GPU/hr'
    s = zh_hourly_price(s) if "小时" in s or "钟头" in s else s  # '12块一小时': a price per GPU-hour
    s = period_prices(s) if any(map(s.__contains__, PERIODS)) and any(map(s.__contains__, RENT)) else s
    if _LOAD_GATE.search(s):
        s = load_forms(s)  # '4 per device x 4 accumulation', '每张卡跑 8 条样本' (s17)
    if "batch" in s and ("effective" in s or "total" in s or "overall" in s or "aggregate" in s):
        s = _sub(GLOBAL_BATCH_WORDS_RE, "global batch", s)
    if "双机" in s:  # '双机8卡': two machines of 8 (bot.parse.node_words.ji_ka_count), not '双卡'
        s = _sub(DUAL_MACHINE_RE, "2", s)
    s = _sub(HALF_DOZEN_RE, "6", s) if "half a dozen" in s else s
    if _MULTIPLE_GATE.search(s):
        s = MULTIPLE_RE.sub(lambda m: _MULTIPLES[m.group("w")] + " ", s)
    if AROUND_CLOCK_RE.search(s):
        s = around_clock(s)  # '24/7', '7x24', 'round the clock': 24 hours a day (s18)
    s = output_forms(s)  # '512 output tokens', 'max_tokens 512': each request's output
    s = restated(s) if "(" in s or "（" in s else s  # 'a few thousand tokens each (avg 4k)': the stated 4k
    s = rough_words(s) if ROUGH_GATE.search(s) else s  # 'tens of billions of tokens': 50 billion, said
    s = length_words(s) if LENGTH_GATE.search(s) else s  # 'samples run to about 2000 tokens'
    s = time_forms(s)  # 'by next week', '$1.99 per H100 hour'
    if _ONLINE_RL_GATE.search(s):
        s = role_split(s)  # '2 张做推理，6 张训练': the job's 8, 2 of them the rollout's (round 17)
        if "vllm" in s or "sglang" in s or "rollout" in s:
            s = ROLLOUT_SHARE_RE.sub(_rollout_share, s)
    if "不是" in s:
        s = _sub(NOT_THIS_COUNT_RE, r"不是 \1 ", s)
    if "each" in s and ("node" in s or "machine" in s or "server" in s):
        s = _sub(EACH_NODE_HAS_RE, r"\1 \2 with ", s)
    if _TP_WAY_GATE.search(s):
        s = _sub(TP_WAY_RE, _tp_way, s)
    if ("parallel" in s or "并行" in s or " tp" in s) and NO_TP_RE.search(s):
        s = NO_TP_RE.sub(" tp 1 ", s)  # 'no tensor parallelism', '不开张量并行' (s29)
    if "visible_devices" in s:
        s = _visible_gpus(s)
    if ("台" in s or "node" in s) and _ALTERNATIVE_GATE.search(s):
        s = _sub(NODES_CARDS_ALTERNATIVE_RE, _nodes_range, s)
    if any(map(s.__contains__, TIMES)) and _PRODUCT_PAIR_GATE.search(s):
        s = _sub(PRODUCT_ALTERNATIVE_RE, _product_range, s)
    s = _sub(STAR_COUNT_RE, r"\1 x \2", s) if "*" in s else s
    s = compared_counts(s) if any(map(s.__contains__, COMPARE_CUES)) else s  # s45: '4 卡和 8 卡两种配置'
    if "between" in s:
        s = _sub(BETWEEN_RE, r"\1 to ", s)
    s = _sub(BETWEEN_CN_RE, r"\1 到 ", s) if "介于" in s else s
    s = min_recommended(s) if "荐" in s or "建议" in s or "recommended" in s or "ideally" in s else s  # s44
    if " or " in s or "还是" in s or "或" in s or ("和" in s and ("都" in s or "也" in s)):  # 'one T4 or two'
        s = count_choice(s)
    if _CARD_WORD_GATE.search(s) and _ALTERNATIVE_GATE.search(s):
        s = _sub(UNIT_TWICE_RE, r"\1 \3 \4 \2", s)
    if "-i" in s and ("include" in s or "-i " in s or "-i=" in s):
        s = INCLUDE_LIST_RE.sub(_include_gpus, s) if INCLUDE_LIST_RE.search(s) else s
    if _KEY_GATE.search(s):
        keys = COUNT_KEY_RES if not CARDS_COUNTED_RE.search(s) else COUNT_KEY_RES[:2]
        if "ollama" in s or "parameter num_gpu" in s:  # Ollama's num_gpu is layers (bot.parse.gpu_layers)
            keys = [(OLLAMA_COUNT_KEY_RE, w) if "num_gpu|" in p.pattern else (p, w) for p, w in keys]
        for pattern, words in keys:
            s = _sub(pattern, words, s)
    if _NODE_WORD_GATE.search(s) and _PER_GATE.search(s):
        s = PER_NODE_FIRST_RE.sub(_per_node_first, s) if PER_NODE_FIRST_RE.search(s) else s
        s = _sub(NODES_WITH_ONE_RE, r"\1 1 ", s)
        s = _sub(NODES_AND_PER_NODE_RE, r"\1 with ", s)
    if "每" in s and _PER_NODE_CN_GATE.search(s):
        s = _sub(PER_NODE_FIRST_CN_RE, _per_node_first_cn, s)
    return s


def is_total_count(s: str, start: int, end: int) -> bool:
    """Whether the count at ``s[start:end]`` (the text the roles read, cards masked) is said to be the
    total: a total word right before it or after its cards."""
    return bool(TOTAL_BEFORE_RE.search(s[max(0, start - 24) : start])) or bool(
        TOTAL_AFTER_RE.match(s[end : end + 48])
    )


def total_count(s: str, counts: list[Role]) -> Role | None:
    """The count among ``counts`` (roles with a ``tok``) said to be the total, when counts differ: the job's
    GPU count ('3 groups of 8 …, 24 in total': 24); None when none is."""
    if len({c.value for c in counts}) < 2 or not _TOTAL_GATE.search(s):
        return None
    return next((c for c in counts if is_total_count(s, c.tok.start, c.tok.end)), None)


_TP_WAY_GATE = re.compile(r"(?:way|卡|路)\s*(?:的\s*)?(?:tp(?![a-z])|张量并行|tensor[\s\-]*parallel)")
_PER_NODE_CN_GATE = re.compile(
    r"每(?:个|台)?\s*(?:节点|机器|服务器|台|机)\s*(?:有|装|配|上)?\s*(?:\d|[一两二三四八单]\s*[张块卡])"
)
_TOTAL_GATE = re.compile("total|in all|altogether|一共|总共|合计")


def _sub(pattern: Any, repl: str, s: str) -> str:
    """``pattern.sub(repl, s)`` only when ``pattern`` matches: a template's parse is a few Python calls, and
    most messages have none of these forms."""
    return pattern.sub(repl, s) if pattern.search(s) else s
