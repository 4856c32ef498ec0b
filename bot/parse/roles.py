"""Step 3: each number gets a role from the words attached to it.

Right-hand words first ("7B模型", "2T tokens", "8卡", "30天", "40% MFU"), then left-hand words
("模型有…", "上下文32K", "bs=1", "$2.50"). Bare sizes ("70B", "2T") are left for the assembly step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.later_names import machine_total, per_card_total
from bot.parse import count_forms as cw
from bot.parse import fixed_patterns as fp
from bot.parse import node_words as nw
from bot.parse.card_floor import SMALLEST_CARD_GIB as _MIN
from bot.parse.chat_forms import R_COUNTED_SEQS, chat_rounds, in_one_prompt
from bot.parse.followup_words import followup_gpu_count
from bot.parse.gpus import largest_device_gib
from bot.parse.node_words import GPU_NODE_GAP, JI_KA_GAP, NODE_GAP, R_PER_NODE_GPUS
from bot.parse.normalize import MARKS
from bot.parse.numbers import NumberToken, magnitude_value, parse_money
from bot.parse.regex import rc
from bot.parse.role_left import BETWEEN as _BETWEEN
from bot.parse.role_left import (
    L_BATCH,
    L_BUDGET,
    L_CURRENCY,
    L_DATA_WORD,
    L_GPU_PAREN,
    L_HARDWARE_ON,
    L_MEM_TOTAL,
    L_MFU,
    L_MFU_DEGREE,
    L_MODEL_WORD,
    L_MY_VRAM,
    L_NEEDS_OR_USES,
    L_NODES_UNKNOWN,
    L_PARAMS,
    L_PER,
    L_PRICE,
    L_PROMPT,
    L_RATE,
    L_REPLY,
    L_SAME_NODES,
    L_SAMPLE_EACH,
    L_SEQ,
    L_TOKENS,
    L_TOTAL_VRAM,
    LEFT_ROLES,
    MFU_NEAR,
    R_CONC,
    R_GENERATED,
    R_MEM_DATA,
    R_MEM_GPU,
    R_MEM_TOTAL,
    R_MEM_TOTAL_WORD,
    R_MEMORY_WORD,
    R_OF_VRAM,
    R_PER_CARD_USE,
    R_PROMPTS,
    R_TOKENS,
    R_TPS,
    RATE_VALUE_RE,
    at_a_length,
    bare_price,
    card_memory_kind,
    label_of_previous,
    labels_next,
    of_the_card,
    on_card_memory,
    total_said,
)
from bot.parse.role_left import right_words as _r
from bot.parse.role_left import right_words_once as _r1
from bot.parse.sample_nouns import IMAGES_ZH, SAMPLE_NOUNS

R_PERCENT = rc(r"^\s*%")
R_GPU_HOURS = _r(
    rf"(?:[{MARKS}]\s*s?\s*)?(?:gpu|卡|card)[\s\-·]*(?:hours?|hrs?|小时|时|days?|天)|[{MARKS}]\s*-?\s*(?:hours?|days?)"
)
R_COUNT_GPU = _r(rf"(?:[x×*]\s*)?{_BETWEEN}(?:\d{{2,3}}\s*g(?:b|ib)?\s*(?:的)?\s*)?[{MARKS}]")
R_COUNT_WORD = _r(
    rf"(?:[x×*]\s*)?(?:{_BETWEEN}(?=gpus?\b|cards?\b))?"
    r"(?:\d{2,3}\s*g(?:b|ib)?\s+(?=gpus?\b|cards?\b)|\d{2,3}\s*g(?:b|ib)?\s*(?:的\s*)?(?:显(?=卡))?)?"
    rf"(?:张(?!量|{IMAGES_ZH})|片|颗|卡(?!时)|gpus?\b|cards?\b|graphics|accelerators?\b|npus?\b|devices?\b)"
)
R_KUAI = _r(r"块(?!钱)")
R_PER_NODE = _r(
    rf"卡(?:的)?(?:机器|服务器|整机|节点|机)|[\s\-]*gpus?[\s\-]+(?:[{MARKS}]\s*)?(?:nodes?|boxe?s?|servers?|machines?)\b"
)
"""'8卡机器', '8-GPU box', '8-GPU A100 nodes' (s51): the GPUs a node holds, not a count."""
L_ONE_NODE = rc(r"(?:\ba\s+single|\bone|\ba|\ban|一台|单台|1\s*台)\s*$")
R_KUAI_GPU = rc(rf"^\s*(?:\d{{1,3}}\s*g(?:b|ib)?\s*(?:的|显存的?)?\s*)?(?:[{MARKS}]|卡|显卡|gpu|npu)")
L_GPU_TIMES = rc(rf"[{MARKS}]\s*s?\s*(?:[x×*]|\s)\s*$")
L_GPU_BEFORE = rc(rf"[{MARKS}]\s*s?\s*$")
R_X_AFTER = rc(r"^\s*[x×](?![a-z0-9])")
R_END = rc(
    r"^\s*(?:[,.;:?!()]|$|\s(?:for|to|on|with|训|微调|部署|推理))|^\s*[训微部推跑用做，。、；：？！（）]"
)
R_NODES = _r(r"台|nodes?\b|machines?\b|servers?\b|boxes\b|hosts?\b")
R_NODE_OF = rc(r"^\s*(?:台|nodes?|machines?|servers?|boxes|hosts?)\s*(?:of|with|x|×|\*|,)?\s*")
R_MONEY_CNY = _r(r"元|块钱|块人民币|人民币|rmb\b|cny\b|yuan\b")
R_MONEY_USD = _r(r"美元|美金|刀\b|dollars?\b|usd\b|bucks\b")
R_CNY_PER_CARD_HOUR = _r(r"(?:元|块钱|块)\s*(?:/|每|一)\s*(?:张\s*)?卡\s*[·]?\s*(?:小)?时")
"""'8块钱一卡时', '8块一卡时', '8元每卡时': a price per GPU-hour in CNY, never a GPU count."""
R_ONE_CARD_HOUR = rc(r"^\s*卡\s*[·]?\s*(?:小)?时")
L_MONEY_END = rc(r"(?:元|块钱|块|美元|刀)\s*$")
R_PRICE_AFTER = rc(r"^\s*卡\s*[·]?\s*(?:小)?时\s*(?:要|是|为|:|：)?\s*[\d.]+\s*(?:元|块)")
R_BUDGET = _r1(
    r"(?:元|块钱?|人民币|rmb\b|cny\b|美元|美金|刀)?\s*+(?:的)?\s*+(?:预算|经费|资金|budget\b)"
)  # possessive
R_DGX = _r(rf"(?:台|套|个)?\s*(?:nvidia\s*)?(?:dgx|hgx)(?![\s\-]*(?:spark|station))[\s\-]*(?:[{MARKS}]|\b)")
R_BYTES = rc(r"^\s*(?P<u>gb|gib|g|tb|tib|t|mib|mb|m)(?![a-z])(?!\s*/\s*s(?:ec)?\b)")  # r36: GB/s a bandwidth
R_SEQ_TOKENS = _r(
    r"-?(?:tokens?|toks?)[\s\-]*(?:long\s+)?(?:sequences?|seqs?|contexts?|context\s+window|windows?|samples?)"
    r"|-?toks?(?:ens?)?\s*(?:per|each|a|/)\s*(?:request|req|user|query|conversation|session)\b"
)
R_TOKEN_MODEL = _r(r"-?(?:tokens?|词元)\s*(?:的)?\s*(?:model|模型|参数|params?|parameters?)")
R_DATA = _r(r"(?:的)?(?:训练)?(?:数据|语料)")
R_ACTIVE = _r(r"(?:active|activated|激活)")
R_TOTAL = _r(r"total\b(?!\s+(?:tokens?|context|length)\b)|总参数")  # r18: '8192 total tokens' no size
R_PARAMS = _r(
    r"-?(?:参数|params?\b|parameters?\b|的?模型|model\b|llm\b|dense\b|moe\b|policy\b|的?(?:中文)?(?:底座|基座|大模型|小模型))"
)
R_DAYS = _r(r"天|日(?!志)|days?\b|d\b")
R_WEEKS = _r(r"周|星期|礼拜|weeks?\b|wks?\b")
R_MONTHS = _r(r"个?月|months?\b|mos?\b")
R_YEARS = _r(r"年|years?\b")
R_SEQ = _r(
    r"(?:的)?(?:上下文|context\b|ctx\b|长度|序列|seq|窗口|max[\s_\-]*(?:seq|sequence|context|len)|tokens?\s+(?:of\s+)?context)"
    r"|(?:(?:以上|以内)\s*)?(?:的\s*)?长(?:上下文|文本|序列)"  # "100k 以上长上下文"
    r"|length\b|tokens?[\s\-]+long\b"  # "an 8k-length dataset", "8k-token-long documents"
)
R_SEQ_JOB = rc(
    r"^\s*(?:的\s*)?(?:dpo|sft|全参|全量|lora|qlora|长文本|微调|训练|推理|部署|inference\b|serving\b)"
)
"""A length in K before the job ("8K DPO 全参训练", "做 128k 的推理"): the sequence trained or served at."""
_DATA_QUALIFIER = (
    r"(?:(?:preference|training|train|chat|instruction|sft|dpo|rlhf|qa|q&a|labell?ed|human|comparison|ranked|"
    r"high[\s\-]quality|multi[\s\-]turn|synthetic|fine[\s\-]?tuning|偏好|训练|指令|问答|高质量|多轮|人工标注)[\s\-]*){0,2}"
)
"""Words people put between a count and its data noun: '20k preference pairs', '50k training examples'."""

R_SAMPLES = _r(
    r"条|" + _DATA_QUALIFIER + r"(?:rows?\b|samples?\b|examples?\b|records?\b|conversations?\b|dialogues?\b|"
    rf"documents?\b|文档|{SAMPLE_NOUNS}|pairs?\b|instructions?\b|cases?\b|(?:math|coding|code|reasoning|competition)\s+problems?\b"
    r"|problems\b(?=\s*\))|prompts?\s+(?:in\s+the\s+)?(?:dataset|data)\b)|道(?:数学)?题|(?:的)?数据集?(?![量并])|of\s+these|of\s+them|个?样本|组对话|篇|对(?![比于照话应齐])|组(?![卡机节服台\d])"
)
"""A count of data items (issue 22 item 8): rows, samples, examples, conversations, pairs, 条, 对, 组."""

R_PAIRS = _r(_DATA_QUALIFIER + r"pairs?\b|对(?![比于照话应齐])|组(?![卡机节服台对\d])")
"""Data counted in pairs or groups ('20k preference pairs', '2万对', '2万组偏好数据'): for DPO each is two
sequences (:attr:`estimator.models.SizingRequest.sequences_per_sample`)."""
R_EPOCHS = _r(r"-?(?:(?:完整|整|full|complete|whole|entire)(?:的|个)?[\s\-]*)?(?:epochs?\b|轮|遍|passes\b)")
R_CHARS = _r(r"字|汉字|characters?\b|chars?\b|words?\b")
R_DASH_GPU = rc(r"^-?gpus?\b")
R_RANGE = rc(r"^\s*(?:-|–|~|到|至|to\b|or\b|或者|或|还是)\s*")
R_LIST_K = rc(r"^\s*(?:,|，|、|and\b|和|与|及|以及)\s*(?:for\s+|at\s+|to\s+)?")
"""Two lengths in K listed ('32k and for 128k context'): the words after the second say what both are."""


@dataclass(slots=True)
class Role:
    role: str
    value: float
    tok: NumberToken
    conflict: bool = False
    extra: str | None = None  # currency, byte kind, unit notes


def seq_value(tok: NumberToken) -> float:
    """'32k' context → 32,768 (powers of two are binary k in model configs); '20k' → 20,000."""
    if tok.mag == "k":
        k = tok.value / 1000
        if k == int(k) and int(k) in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024):
            return k * 1024
    return tok.value


def _money_role(tok: NumberToken, value: float, rest: str, currency: str | None, left: str) -> Role:
    money = parse_money(("$" if currency == "USD" else "") + "1" + rest)
    per_hour = bool(money and money.per_gpu_hour) or bool(L_PRICE.search(left))
    return Role("price" if per_hour else "budget", value, tok, extra=currency)


class _Stop:
    """A rule decided that the number has no role (e.g. a percentage that is not an MFU)."""


NO_ROLE = _Stop()
Verdict = Role | _Stop | None
"""A rule's answer: a role, NO_ROLE (decided: none), or None (not this rule's case)."""


@dataclass(slots=True)
class _Around:
    """One number and its words: ``right`` (48 characters after it or a range's end), ``left`` (32 before)."""

    tok: NumberToken
    s: str
    nxt: NumberToken | None
    right: str
    left: str
    value: float
    word: bool
    range_max: float | None


def _around(tok: NumberToken, s: str, nxt: NumberToken | None) -> _Around:
    right, left, v = s[tok.end : tok.end + 48], s[max(0, tok.start - 32) : tok.start], tok.value
    range_max: float | None = None
    if nxt is not None:  # a range "8 to 16 A100", "15-30元/小时": read the words after the second number
        rm = R_RANGE.match(right)
        if not rm and tok.mag_scale == "K" and nxt.mag_scale == "K":
            rm = R_LIST_K.match(right)
            if rm and L_SEQ.search(left) and R_SAMPLES.match(s[nxt.end : nxt.end + 48]):
                rm = None  # s48b: a length, then samples: two settings
        if rm and tok.end + rm.end() == nxt.start:
            range_max = nxt.value
            if tok.mag is None and nxt.mag is not None and v < nxt.value:
                v *= magnitude_value(nxt.mag)
            right = s[nxt.end : nxt.end + 48]
    return _Around(tok, s, nxt, right, left, v, tok.kind == "word", range_max)


def _rates_and_money(a: _Around) -> Verdict:
    """Micro-batch, MFU percentages, money with a currency, prices per GPU-hour."""
    R, L, v, tok = a.right, a.left, a.value, a.tok
    if L_BATCH.search(L) and not a.word:
        return Role("batch", v, tok)
    if tok.raw == "一" and R_ONE_CARD_HOUR.match(R) and (L_MONEY_END.search(L) or R_PRICE_AFTER.match(R)):
        return NO_ROLE  # the "一" of "8块钱一卡时" / "一卡时8块": "per GPU-hour", not 1 GPU-hour
    if R_CNY_PER_CARD_HOUR.match(R) and not a.word:
        return Role("price", v, tok, extra="CNY")
    if R_PERCENT.match(R):
        near = a.s[max(0, tok.start - 16) : tok.end + 16]
        mfu = MFU_NEAR.search(near) or (("utili" in L or "利用率" in L) and L_MFU_DEGREE.search(L))
        return Role("mfu", v / 100, tok) if mfu else NO_ROLE
    if L_MFU.search(L) or ("utili" in L and L_MFU_DEGREE.search(L)):
        return Role("mfu", v / 100 if v > 1 else v, tok)
    if R_BUDGET.match(R) and not a.word:  # "100万预算", "我手里有100万的预算"
        currency = "USD" if re.match(r"^\s*(?:美元|美金|刀)", R) else "CNY" if R_MONEY_CNY.match(R) else None
        return Role("budget", v, tok, extra=currency)
    cm = L_CURRENCY.search(L)
    if cm:
        return _money_role(tok, v, R, "CNY" if cm.group("c") in ("¥", "rmb", "cny") else "USD", L)
    if R_MONEY_CNY.match(R):
        return _money_role(tok, v, R, "CNY", L)
    if R_MONEY_USD.match(R):
        return _money_role(tok, v, R, "USD", L)
    if L_PRICE.search(L) or (not a.word and bare_price(a.s, tok.start, tok.end)):  # "2.1/hr per H100"
        return Role("price", v, tok)
    return None


_BYTE_SCALE = {
    "g": 2**30,
    "gb": 2**30,
    "gib": 2**30,
    "t": 2**40,
    "tb": 2**40,
    "tib": 2**40,
    "m": 2**20,
    "mb": 2**20,
    "mib": 2**20,
}
_DECIMAL_FOR = {2**30: 1e9, 2**40: 1e12, 2**20: 1e6}


R_UNIFIED = rc(r"^\s*(?:of\s+)?(?:unified\s+memory|统一内存)")


R_MEM_NAME = rc(
    r"^\s*(?:的)?\s*(?P<name>(?:rtx\s*|tesla\s*|quadro\s*|radeon\s*)?[a-z]{1,4}[\s\-]?\d{2,5}[a-z]{0,3})\b"
)
"""A card-like name after a memory size ('24G 的 A5000', '48GB L20'): that card's memory."""
R_COUNT_MEM_NAME = rc(
    r"^\s*(?:张|块|x|×)?\s*\d{2,3}\s*g(?:b|ib)?\s*(?:的)?\s*(?:rtx\s*|tesla\s*|quadro\s*)?[a-z]{1,4}[\s\-]?\d{2,5}[a-z]{0,3}\b"
)
"""A count before a memory and a card-like name ('4 24GB A5000'): GPUs, even of a card not in the catalog."""
L_COUNT_WORD = rc(r"(?:\d\s*(?:张|块|片|x|×|\*)|\d\s+)\s*$")


def _bytes(a: _Around) -> Verdict:
    """Sizes in bytes: memory per card, total GPU memory, or training text ("20GB 纯文本")."""
    bm = R_BYTES.match(a.right)
    if not bm or a.word:
        return None
    unit, v, tok = bm.group("u"), a.value, a.tok
    scale = _BYTE_SCALE[unit]
    after = a.right[bm.end() :]
    gib = v * scale / 2**30
    if unit in ("gb", "gib") and _MIN <= gib <= 1024 and per_card_total(a.left, after, gib):
        return Role("gpu_mem", round(gib, 2), tok)  # PyTorch's OOM message: 'GPU 0; 39.59 GiB total capacity'
    if L_NEEDS_OR_USES.search(a.left[-24:]) and (R_MEMORY_WORD.match(after) or R_PER_CARD_USE.match(after)):
        return Role("bytes", v, tok)  # '只要 48GB 显存', 'used 22 GB of VRAM': needed or used, not a card
    total_word = L_MEM_TOTAL.search(a.left) or R_MEM_TOTAL_WORD.search(after[:32])
    if R_MEM_TOTAL.match(after) and (total_word or gib > largest_device_gib() or machine_total(a.left)):
        return Role("total_mem", gib, tok)  # "准备700G显存": more than any one device holds
    if unit in ("g", "gb", "gib") and (L_TOTAL_VRAM.search(a.left) or total_said(a.left, after)):
        return Role("total_mem", gib, tok)  # 'combined VRAM is 160GB', '总共 48GB', '48gb total'
    if unit in ("g", "gb", "gib", "mib", "mb", "m") and _MIN <= gib <= 1024:  # round 28 en: '20464M of VRAM'
        on_card = on_card_memory(a.left[-40:], after, a.s)  # 'OOM on 16 GB': one card's (s16)
        if (
            on_card or L_MY_VRAM.search(a.left) or R_OF_VRAM.match(after)
        ):  # "显存只有 8G", "12288 MiB of VRAM"; 'loads in 5 GB' beside a named card: a need, named
            kind, extra = card_memory_kind(on_card, a.left, after)  # s19: free, left or usable: tagged
            return Role(kind, round(gib, 2), tok, extra=extra)
    card_memory = L_GPU_PAREN.search(a.left) or R_UNIFIED.match(after)
    if unit in ("g", "gb", "gib") and _MIN <= v <= 1024 and card_memory and not R_MEM_DATA.match(after):
        return Role("gpu_mem", v, tok)
    if R_MEM_GPU.match(after) and unit in ("g", "gb", "gib") and _MIN <= v <= 1024:
        return Role("gpu_mem", v, tok)
    named_card = R_MEM_NAME.match(after)
    if unit in ("g", "gb", "gib") and _MIN <= v <= 1024 and named_card and L_COUNT_WORD.search(a.left):
        # "4 张 24G 的 A5000": the card's memory, and its name (kept when the catalog does not have it)
        return Role("gpu_mem", v, tok, extra="card:" + named_card.group("name"))
    if R_MEM_DATA.match(after):  # text sizes are decimal GB as people say them
        return Role("data_bytes", v * _DECIMAL_FOR[scale], tok)
    return Role("bytes", v, tok)


def _nodes_times_gpus(a: _Around) -> Verdict:
    """Nodes × GPUs per node, in every phrasing; the GPU count is their product ('2机16卡': the total, see
    :func:`bot.parse.node_words.ji_ka_count`)."""
    nxt, tok = a.nxt, a.tok
    glued = fp.GLUED_PRODUCT.match(a.right)
    rest = a.right[glued.end() :] if glued and not tok.mag else None  # s43: '2x8xH100' as '4x8 A100s'
    if rest is not None and (cw.CARDS_AFTER_PRODUCT.match(rest) or nw.R_NODE_TYPE.match(rest)):
        # "4x8 A100s": 4 nodes of 8 (the scanner does not read a number glued to x)
        return Role("count", a.value * int(glued.group("m")), tok, extra=f"per_node:{glued.group('m')}")
    if nxt is None or tok.mag or nxt.mag:
        return None
    gap, after = a.s[tok.end : nxt.start], a.s[nxt.end : nxt.end + 40]
    if fp.TIMES_GAP.fullmatch(gap) and (cw.CARDS_AFTER_PRODUCT.match(after) or nw.R_NODE_TYPE.match(after)):
        return Role(
            "count_nodes", a.value * nxt.value, tok, extra=str(nxt.start)
        )  # "4 x 8 A100s", "3 x 8x H100 nodes"
    if JI_KA_GAP.fullmatch(gap) and fp.CARD_AFTER.match(after):
        return Role("count_nodes", nw.ji_ka_count(a.value, nxt.value), tok, extra=str(nxt.start))
    if (NODE_GAP.fullmatch(gap) or GPU_NODE_GAP.fullmatch(gap)) and R_PER_NODE_GPUS.match(after):
        return Role("count_nodes", nw.listed_count(gap, a.value, nxt.value, after), tok, extra=str(nxt.start))
    if nw.TIMES_GAP.fullmatch(gap) and nw.R_GPU_NODES.match(after):  # "four 8-GPU H100 servers": 4 × 8
        return Role("count_nodes", a.value * nxt.value, tok, extra=str(nxt.start))
    return None


def _counts(a: _Around) -> Verdict:
    """GPU-hours, nodes × GPUs, budgets in 块, and GPU counts ("8卡", "A100 x 8", "64x H100")."""
    R, L, v, tok, nxt = a.right, a.left, a.value, a.tok, a.nxt
    if R_GPU_HOURS.match(R):
        return Role("gpu_hours", v, tok)
    nodes = _nodes_times_gpus(a)
    if nodes is not None:
        return nodes
    if R_PER_NODE.match(R) and not tok.mag:
        if L_ONE_NODE.search(L):  # "a single 8-GPU box", "一台8卡机器": that many GPUs
            return Role("count", v, tok)
        return Role("per_node", v, tok)
    if R_DGX.match(R) and not tok.mag and v <= 10_000:  # "2台DGX H100", "96 DGX A100 nodes": 8 GPUs each
        return Role("count", v * 8, tok, extra="dgx×8")
    if L_NODES_UNKNOWN.search(L):
        return NO_ROLE
    nm = R_NODE_OF.match(R)
    if nm and R_NODES.match(R) and not tok.mag:
        if nxt is not None and tok.end + nm.end() == nxt.start:
            after = a.s[nxt.end : nxt.end + 40]
            if R_COUNT_GPU.match(after) or R_COUNT_WORD.match(after) or R_DASH_GPU.match(after.lstrip()):
                return Role("count_nodes", v * nxt.value, tok, extra=str(nxt.start))
        if re.match(rf"\s*{_BETWEEN}(?:[{MARKS}]|服务器|机器)", R[nm.end() :]) and not L_SAME_NODES.search(L):
            return Role("count", v * 8, tok, extra="nodes×8")
        return NO_ROLE
    if L_BUDGET.search(L) and not R_COUNT_GPU.match(R) and not R_COUNT_WORD.match(R):  # 'budget is 8 H100s'
        period = _period_days(R)
        if period is not None:  # "预算两个月": a time budget, i.e. a deadline
            return Role("days", v * period, tok)
        return Role("budget", v, tok, extra="CNY" if R_KUAI.match(R) else None)
    km = R_KUAI.match(R)
    if km and not R_KUAI_GPU.match(R[km.end() :]) and v >= 64:
        return Role("budget", v, tok, extra="CNY")  # "5000块" is money, "4块4090" is cards
    nodes_of = None if tok.mag else nw.R_CARD_NODES.match(R)  # 'two A100 servers', 'one A100 server' (s29)
    if nodes_of and (nodes_of["many"] or v == 1) and not L_SAME_NODES.search(L):
        return Role("count", v * 8, tok, extra="nodes×8")
    count_like = bool(R_COUNT_GPU.match(R) or R_COUNT_WORD.match(R) or R_DASH_GPU.match(R) or km)
    count_like = count_like or bool(nw.R_WORDS_THEN_CARDS.match(R) and not tok.mag)  # '4 brand-new H100 GPUs'
    count_like = count_like or bool(R_COUNT_MEM_NAME.match(R) and not tok.mag)  # "4 24GB A5000"
    if not count_like and L_GPU_TIMES.search(L) and tok.mag is None and R_END.match(R):
        count_like = True  # "A100 x 8", "H100*8"
    if not count_like and tok.mag is None and L_GPU_BEFORE.search(L) and R_X_AFTER.match(R):
        count_like = True  # "L40S 64x"
    if count_like and tok.mag_scale in (None, "K"):
        on_cards = L_HARDWARE_ON.search(L) and tok.kind == "digits"  # '3100 tok/s on 8xH100': the cards
        rate_said = L_RATE.search(L[-20:]) and RATE_VALUE_RE.search(L[-32:])  # 'throughput of 8 H100': none
        if rate_said and not on_cards:  # 'tok/s on one H100': a per-GPU rate, not a count
            return NO_ROLE
        return Role("count", v, tok, extra=None if a.range_max is None else f"range:{a.range_max:g}")
    return None


def _data_and_size(a: _Around) -> Verdict:
    """Tokens (per sample, in total, of a prompt or a reply) and parameter counts."""
    R, L, v, tok = a.right, a.left, a.value, a.tok
    if R_TPS.match(R):
        return Role("tps", v, tok, extra="tokens")
    if R_SEQ_TOKENS.match(R) and not a.word:  # "2048-token sequences", "a 128k-token context"
        return Role("seq", seq_value(tok), tok)
    if R_TOKENS.match(R) and (L_SEQ.search(L) or at_a_length(L, v)) and not a.word:  # "context of 20k tokens"
        return Role("seq", seq_value(tok), tok)
    if R_PROMPTS.match(R) and not a.word:  # "with 8k prompts", "8k-token prompts"
        return Role("prompt", seq_value(tok), tok)
    if (R_TOKENS.match(R) or R_CHARS.match(R)) and L_SAMPLE_EACH.search(L):
        if R_TOKENS.match(R) and (L_PROMPT.search(L) or L_REPLY.search(L)):  # 'prompts average 3,000 tokens'
            return Role("prompt" if L_PROMPT.search(L) else "reply", v, tok)
        return Role("tps", v, tok, extra="tokens" if R_TOKENS.match(R) else "chars")
    if R_TOKEN_MODEL.match(R):
        return Role("tokens", v, tok, conflict=True)
    if (R_TOKENS.match(R) and not L_PER.search(L)) or (R_DATA.match(R) and tok.mag_scale in ("B", "T")):
        if L_PROMPT.search(L) or (("输入" in L or "input" in L) and fp.PROMPT_TAKES.search(L)):  # s47 r43
            return Role("prompt", v, tok)
        if (L_REPLY.search(L) or R_GENERATED.match(R)) and not fp.generated_data(v, R):  # s41; s43 100M
            return Role("reply", v, tok)
        return Role("tokens", v, tok, conflict=bool(L_MODEL_WORD.search(L)))
    if R_TOKENS.match(R) and a.word:
        return Role("tokens", v, tok)
    if (R_ACTIVE.match(R) or R_TOTAL.match(R) or nw.L_ACTIVE.search(L) or nw.L_TOTAL.search(L)) and (
        kind := nw.moe_size_kind(R, L, tok.mag_scale, R_ACTIVE, R_TOTAL)  # s45: '总参数47B激活13B'
    ):
        return Role(kind, v, tok)
    if R_PARAMS.match(R) and (not a.word or tok.mag_scale == "B") and v >= 1e5:  # s17: 'seven billion params'
        return Role("params", v, tok, conflict=bool(L_DATA_WORD.search(L)))
    return None


_PERIODS = ((R_DAYS, 1), (R_WEEKS, 7), (R_MONTHS, 30), (R_YEARS, 365))
"""Time words → days."""


def _period_days(right: str) -> int | None:
    """Days per unit when the words after a number are a time unit ("两个月" → 30), else None."""
    return next((days for pattern, days in _PERIODS if pattern.match(right)), None)


def _time_and_load(a: _Around) -> Verdict:
    """Deadlines (days, weeks, months, years), context length, concurrency, samples, epochs."""
    R, v, tok = a.right, a.value, a.tok
    if not L_PER.search(a.left):
        for pattern, days in _PERIODS:
            if pattern.match(R):
                return Role("days", v * days, tok)
    seq_word = R_SEQ.match(R) if tok.mag or not R_COUNTED_SEQS.match(R) else None  # not '16 sequences'
    if seq_word and not a.word and not (a.range_max is None and labels_next(a, seq_word.end())):
        return Role("seq", seq_value(tok), tok)
    if tok.mag_scale == "K" and R_SEQ_JOB.match(R) and not a.word:
        return Role("seq", seq_value(tok), tok)
    if R_CONC.match(R):
        return Role("concurrency", v, tok)
    if fp.OF_THEM.match(R) and of_the_card(a.s[: tok.start][-80:]):
        return Role("count", v, tok)  # "… on MI300X … on 256 of them": that many of the card just named
    if followup_gpu_count(tok, a.s, a.left, R):  # "what about on 4 of them", "what if we only have 256"
        return Role("count", v, tok, extra="followup")
    if (data := R_SAMPLES.match(R)) and not ((a.word and fp.OF_TH.match(R)) or in_one_prompt(a.left, R)):
        return Role("samples", v, tok, extra="pairs" if R_PAIRS.match(R) else None)  # not 'two of them'
    if (rounds := R_EPOCHS.match(R)) and not chat_rounds(a.left, R):  # not '每个对话达到 50 轮'
        return Role("epochs", v, tok)
    return NO_ROLE if a.word or data or rounds else None


def _left_words(a: _Around) -> Verdict:
    """Words before the number: "上下文32K", "并发 100", "预算100万", "模型有…"; a bare size last."""
    L, v, tok = a.left, a.value, a.tok
    for pattern, role in LEFT_ROLES:
        if pattern.search(L) and not (role == "concurrency" and label_of_previous(pattern, L)):
            if role in ("prompt", "reply") and a.right.lstrip().startswith(("character", "chars")):
                return NO_ROLE  # s36-gen2: '… of 50,000 characters', ~4 a token (字 stays one a token)
            if role == "budget" and _period_days(a.right) is not None:
                return Role("days", v * (_period_days(a.right) or 1), tok)
            return Role(role, seq_value(tok) if role == "seq" else v, tok)
    if L_TOKENS.search(L) and tok.mag_scale in ("B", "T", "M"):
        return Role("tokens", v, tok)
    if L_PARAMS.search(L) and tok.mag_scale in ("B", "T", "M"):
        return Role("params", v, tok)
    if tok.mag_scale in ("B", "T"):
        return Role("bare", v, tok, extra=tok.mag_scale)
    return None


_RULES = (_rates_and_money, _bytes, _counts, _data_and_size, _time_and_load, _left_words)
"""Right-hand words first, then left-hand words; the first rule with an answer decides."""


def classify(tok: NumberToken, s: str, nxt: NumberToken | None) -> Role | None:
    """The role of the number ``tok`` in the normalized text ``s`` (``nxt``: the number after it, for
    ranges and "2台8卡"), or None when its words give it none."""
    around = _around(tok, s, nxt)
    for rule in _RULES:
        verdict = rule(around)
        if verdict is not None:
            return None if verdict is NO_ROLE else verdict  # type: ignore[return-value]
    return None
