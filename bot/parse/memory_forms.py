"""How people write each card's memory (issue 24, round 3), written as the form the memory rules of
:mod:`bot.parse.roles` read ('with 24 gb each'): a verb after the cards ("they have 24G", "each card has
32GB", "GPUs that come with 48 GB"); memory in use out of each card's ("23643MiB / 24576MiB", "75GB out
of 80GB": the first named as in use); cards "of" a memory ("8 GPUs of 64GB"); a memory kind before "each"
("32GB of HBM2 each"); "all are N G", "each N G" ("都是 32G 的", "每张 48G": '每张卡 48g 显存'); s37: "I
only have 24GB", "我有 24G" (bot.parse.i_have). Never system memory: a size before RAM words stays.
"""

from __future__ import annotations

import re

from bot.later_names import slash_options
from bot.parse.card_floor import SMALLEST_CARD_GIB
from bot.parse.memory_beside import USED_OF_RE, _sub, _used_of, alt_memories, card_variants, mac_memory
from bot.parse.one_card import each_of
from bot.parse.regex import rc
from bot.parse.unified_ram import GATE_RE as UNIFIED_GATE_RE
from bot.parse.unified_ram import device_memory
from bot.parse.unit_cues import ALT_MEMORY, ALT_MEMORY_GATE, KIND_EACH, KIND_EACH_GATE, USED_OF, USED_OF_GATE

_NOT_RAM = r"(?!\s*(?:of\s+)?(?:ram|system|cpu|host|ddr|内存|disk|ssd|storage))"
HAVE_MEMORY_RE = rc(
    r"\b(?P<subj>they|each(?:\s+(?:card|gpu|one|device))?|(?:the\s+)?(?:cards?|gpus?)|which|that|i|we|(?<=\bmy\s)"
    r"(?P<card>(?:rtx\s*)?(?:[a-z]{1,2}\d{2,4}|\d{3,4})(?:\s*(?:ti|super|xtx|xt|ada))?s?))(?:['’]ve)?\s+(?:only\s+)?"
    r"(?:(?:have\s+|has\s+)?got|have|has|comes?\s+with|carry|carries)\s+(?:only\s+|just\s+)?(?P<gb>\d{1,3})"
    r"\s*(gb|gib|g)\b" + _NOT_RAM
)
"""'they have 24G', 'GPUs that come with 48 GB' ('that'/'which' only after a card: 'a server that has 256GB'
is the host's); r15 'my 4090 has 24GB' (not 'a 70b has 140GB'); s37 'I only have 24GB'; s38 'I've got'."""
_CARD_BEFORE_RE = rc(
    r"(?:\b(?:gpus?|cards?|accelerators?|ti|super|pcie|sxm\d?)|\d{2,4}[a-z]{0,3}s?)\s*,?\s*$"
)
HOST_HAS_RE = rc(
    r"\b(?P<host>servers?|machines?|mac(?:book)?(?:\s+(?:studio|mini|pro|air))?|nodes?|box|workstations?|laptops?"
    r"|pcs?|computers?|hosts?|cpus?|(?:core\s+)?ultra\s?[579](?:\s*\d{3}[a-z]{0,2})?)"  # round 28: a CPU
    r"(?P<mid>(?:\s+(?!gpus\b|cards\b|[a-z]{1,2}\d{2,4}s\b)[a-z0-9]+){0,3}?\s+(?:(?:that|which|it)\s+)?)"
    r"(?:(?:has|have|comes?\s+with)\s+(?:only\s+|just\s+)?(?P<v>\d{1,4})\s*(?P<u>gb|gib|g|tb|t)\b"
    r"(?!\s*(?:of\s+)?(?:vram|gpu|显存|video|hbm|gddr))"
    r"(?:\s+(?:of\s+)?(?:unified\s+|system\s+)?(?:memory|ram))?"
    r"|with\s+(?P<v2>\d{1,4})\s*(?P<u2>gb|gib|g|tb|t)\s+(?:of\s+)?(?:unified\s+|system\s+)?(?:memory|ram)\b)"
)
"""'a server that has 256GB memory', 'a Mac Studio that has 192GB', 'a box with 512 GB of unified memory';
round 28 en: a CPU as the machine ('an Ultra5 with 16GB of memory', 'an i7-12700 with 32 GB memory', written
'core cpu' by then): the host's (or unified) memory, never a card's: written 'N gb host memory', named by
:func:`bot.parse.prose_forms.host_memory` (no field)."""


MY_CARD_HAS_RE = rc(
    r"我的\s*(?P<card>(?:rtx\s*)?(?:[a-z]{1,2}\d{2,4}|\d{3,4})(?:\s*(?:ti|super|xtx|xt|d))?)\s*(?:显卡|卡)?\s*"
    r"(?:只有|有|是)\s*(?P<gb>\d{1,3})\s*(?:gb|gib|g)\b" + _NOT_RAM
)
"""'我的 4090 有 24G' (round 15): my card's memory, as 'my 4090 has 24GB' (:data:`HAVE_MEMORY_RE`)."""


def _host_has(m: re.Match[str]) -> str:
    value, unit = (m.group("v"), m.group("u")) if m.group("v") else (m.group("v2"), m.group("u2"))
    return f"{m.group('host')}{m.group('mid')}{value}{unit} host memory"


def _have_memory(m: re.Match[str]) -> str:
    """'with N gb each' for ``m`` of :data:`HAVE_MEMORY_RE`, unless 'that'/'which' follows no card."""
    if m.group("subj") in ("i", "we"):  # 'I only have 24GB' (s37): its reader imported on a match
        from bot.parse.i_have import i_have

        return i_have(m, " vram")
    if m.group("subj") in ("that", "which") and not _CARD_BEFORE_RE.search(m.string[: m.start()][-24:]):
        return m.group(0)
    card = f"{m.group('card')} " if m.group("card") else ""  # 'my 4090 has 24gb': the card kept
    return f"{card}with {m.group('gb')} gb each"


CARDS_OF_MEMORY_RE = rc(r"\b(gpus?|cards?)\s+of\s+(\d{2,3})\s*(gb|gib|g)\b" + _NOT_RAM)
"""'8 GPUs of 64GB', '4 cards of 48G'."""
CARDS_TIMES_MEMORY_RE = rc(r"(\bgpus?|\bcards?|卡)\s*[x×*]\s*(\d{2,3})\s*(?:gb|gib|g)\b" + _NOT_RAM)
"""'6 machines x 8 cards x 16GB', '2 台 x 8 卡 x 80G': the cards' memory, each (s17: the 16 was unread)."""


def _cards_times(m: re.Match[str]) -> str:
    return f"{m.group(1)} with {m.group(2)} gb each" if m.group(1) != "卡" else f"卡，显存 {m.group(2)}g "


KIND_EACH_RE = rc(
    r"(\d{1,3})\s*(gb|gib|g)\s+(?:of\s+(?:hbm\d?e?|gddr\d\w?|vram|gpu\s+memory|memory|显存)|available|free|usable)"
    r"\s+each\b"
)
"""'32GB of HBM2 each', '24 GB of VRAM each', '22 GiB available each' (s17: what each card has free)."""


ALL_ARE_RE = rc(
    r"(?:都是|均为|全是|全部是|都为|我们?(?:只|就|仅|才)?有|每(?:(?:张|块)(?:卡|显卡)?|卡|块卡)\s*(?:都)?(?:可用|空闲|剩余)?(?:显存)?(?:是|有|为)?)\s*(\d{2,3}|\d{4,6}(?=\s*mi?b))"
    r"\s*(?:g|gb|gib|mib|mb)\b" + _NOT_RAM + r"(?:\s*(?:的)?\s*显存)?"
)
"""'都是 32G 的', '每张 48G', '每张 22528MiB', s37 '我有 24G': each card's memory, '每张卡 48g 显存'."""


_NOT_TOTAL = r"(?!\s*(?:(?:in\s+)?(?:total|combined|altogether|overall|all)\b|总|合计|一共|共计))"
CARD_THEN_MEMORY_RE = rc(
    r"(?<![a-z])(?<!on\s)(?<!in\s)(?<!per\s)(?P<w>gpus?|cards?)(?:\s+(?:is|are)\s+(?:only\s+|just\s+)?|\s*)"
    r"(?P<n>\d{1,3})\s*(?:gb|gib|g)\b"
    + _NOT_RAM
    + _NOT_TOTAL
    + r"(?:\s*(?:of\s+)?(?:vram|gpu\s+memory|memory))?"
    r"|(?<![\d每])(?<![\d]\s)(?P<zw>显卡|卡)\s*(?:是|只有|最大|就|才|\((?=\s*\d{1,3}\s*g(?:b|ib)?\s*\)))?\s*"
    r"(?P<zn>\d{1,3})\s*(?:gb|gib|g)\b\)?"  # round 37: in brackets ('RTX5090 的显卡（32G）')
    r"(?!\s*(?:的)?\s*(?:显存|内存))" + _NOT_RAM + _NOT_TOTAL
)
"""A card word, then its memory ('one gpu 24gb', 'A100 GPU 40GB', '一张卡 24G'): that card's memory,
written as the forms above ('gpu with 24 gb each', '卡，显存 24g'), as 'a 24GB GPU' and '24G 显存的卡' are
read, as a card of that memory (the substitution says so); round 19: a copula or a limit between ('一张显卡是
8g', '单卡只有 16g', '单卡最大 16g'); s46 round 42, in English ('My server GPU is only 48G', 'my card is
24GB'; never 'the weights on GPU is 15GB'); round 37: the memory in brackets ('RTX5090 的显卡（32G）').
A total ('2 gpus 48gb in total', '两张卡 48G 总共'): the total rules."""


def _card_then_memory(m: re.Match[str]) -> str:
    n = m.group("n") or m.group("zn")
    if not SMALLEST_CARD_GIB <= int(n) <= 288:  # no card's memory ('gpu 1', 'cards 512g' in all)
        return m.group(0)
    return f"{m.group('w')} with {n} gb{each_of(m)}" if m.group("w") else f"{m.group('zw')}，显存 {n}g "


COUNT_THEN_MEMORY_RE = rc(
    r"(?<![\d.一两二三四五六七八九十])(?P<c>\d{1,3}|[一两二三四五六七八九十]{1,2})\s*(?:(?:张|块)\s*(?:显卡|卡)?|(?:显卡|卡))"
    r"\s*(?P<n>\d{1,3})\s*(?:gb|gib|g)\b"
    r"(?!\s*(?:的\s*)?(?:显存|内存|显卡|卡|[a-z0-9]))" + _NOT_RAM + _NOT_TOTAL
)
"""A count of cards, then a memory with no card named ('8 卡 80G', '4 张 24G', '8卡 80G 训练'; round 12):
each card's memory, written '8 张卡，每张卡 80g 显存', as '两卡 48G' and '4 块 24G 的卡' were read (before,
the memory was left unread and the job sized on the default card: 4 × A100 80GB for '4 卡 24G'). Only a
memory some card has (:data:`CARD_MEMORIES`): '2 卡 160G' is left to the total rules."""
CARD_MEMORIES = frozenset(
    {6, 8, 10, 11, 12, 16, 20, 22, 24, 32, 40, 44, 45, 46, 48, 64, 80, 94, 96, 141, 144, 192, 288}
)
"""Memories cards are sold with, in GB (consumer 6–32, workstation 44–48, data-center 16–288)."""


def _count_then_memory(m: re.Match[str]) -> str:
    """The count may be in Chinese numerals ('两张 40G 就加载不进去了'; round 15 zh: the 40 was unread)."""
    if int(m.group("n")) not in CARD_MEMORIES or m.group("c") in ("0", "零"):
        return m.group(0)
    return f"{m.group('c')} 张卡，每张卡 {m.group('n')}g 显存 "


CARD_WITH_MEMORY_RE = rc(
    r"(?<![a-z0-9\-])(?P<card>(?:rtx\s?)?\d{4}(?:\s?ti)?|[ahlvtbp]\d{2,3}[a-z]{0,3}|a\d{4}|mi\d{3}x?|910b\d?)(?:s|\s+(?:gpus?|cards?))?"
    r"\s+with\s+(?:only\s+|just\s+)?(?P<n>\d{2,3})\s*(?:gb|gib|g)\b(?!\s*(?:of\s+)?(?:unified\s+)?(?:memory|ram))"
    + _NOT_RAM
    + _NOT_TOTAL
)
"""A card, then 'with' its memory ('V100s with 16 GB', 'a 4090 with 24GB'): that card's memory, written
'v100 16gb' as the card rules read it (s17: before, the number was left unread). Memory or RAM words after
it, or a total word, leave it as written (a host's memory, the cards' sum)."""


VERDICTS_ZH = (
    # s20 round 14: the verdicts asked or reported with a verb ('16G 可以吗', '24G 跑不起来', '12G 装得下吗')
    "可不可以", "可以吗", "可以么", "可以嘛", "可以不", "能不能跑", "能不能用", "能跑起来吗",
    "能跑吗", "能跑么", "能用吗", "能用么", "跑得起来吗", "跑得动吗", "跑得动么", "跑得了吗",
    "装得下吗", "放得下吗", "塞得下吗", "撑得住吗", "扛得住吗", "跑不起来", "跑不动", "跑不了",
    "装不下", "放不下", "塞不下", "吃不消", "扛不住", "撑不住", "不太行", "不够使",
    "会爆", "爆了", "爆显存", "溢出", "能行么", "行么", "行嘛",
    "不太够", "不大够", "不够用", "不够", "不行", "不足", "不满足", "够不够", "够用吗", "够用么",
    "够吗", "够么", "够嘛", "够了吗", "足够吗", "能行吗", "行不行", "行吗",
)  # fmt: skip
"""Every way a Chinese message says whether a memory suffices (a longer word before its prefix)."""
VERDICTS_EN = (
    r"(?:is|was|are|were)(?:\s*n['’]?t|\s+not)?\s+(?:still\s+|just\s+|really\s+)?"
    r"(?:enough|sufficient|insufficient|too\s+small|too\s+little)"
    r"|(?:does|do|did|will|would|wo|can|could)(?:\s*n['’]?t|\s+not)\s+(?:work|fit|suffice|cut\s+it|do|run\s+it|hold\s+it)\b"
    r"|(?:cannot|can\s+not)\s+(?:work|fit|suffice|run\s+it|hold\s+it)\b"
)
"""'24GB is not enough', "16gb wasn't enough", '24GB is enough?': the English verdicts."""
NOT_ENOUGH_RE = rc(
    r"(?<![\d.])(\d{1,3})\s*g(?:b|ib)?\s*(?:的)?\s*(?:显存)?\s*"
    r"(?:(都|也|还|就|完全|根本|明显|肯定|好像|似乎)?\s*(" + "|".join(VERDICTS_ZH) + r")"
    r"|(?:of\s+(?:vram|gpu\s+memory)\s+)?(" + VERDICTS_EN + r"))"
)
"""'16G 都不够', '24G 显存也不够', '24G 不够', '24G 够吗', '16G 够不够用', '24GB is not enough': the card
the job ran out of (or asks about), one card of that memory (s17: '都/也/还 不够' only; round 13 zh:
every verdict of :data:`VERDICTS_ZH` and :data:`VERDICTS_EN`, with or without an adverb; before, '24G 不够'
was unread and the job sized on the default card), written '在 16g 显卡上都不够' / 'on a 24gb card is not
enough' as the on-card rule (:func:`bot.parse.role_left.on_card_memory`) reads it."""
MACHINE_MEMORY_RE = rc(r"\b(?:machine|node|server|box)'?s\s+(\d{2,4})\s*(?:gb|gib|g)\b" + _NOT_RAM)
"""'the machine's 640gb of GPU memory': the GPU memory of the whole machine, written '640gb in total' (s17:
was unread). Without GPU words beside it or tensor parallelism in the message ('the server's 128GB is shared
with other jobs') it is the host's RAM, written '128gb of ram'
(review of s17: was read as one 4090 of 128 GB)."""
_GPU_WORDS_RE = rc(r"gpu|vram|hbm|显存|显卡|cards?\b")
_PARALLEL_RE = rc(r"\btp\s*=\s*\d|tensor[\s_\-]*parallel")
"""Tensor parallelism in the message ('with tp=4'): the memory split is the cards'."""


def _machine_memory(m: re.Match[str]) -> str:
    s = m.string
    if _GPU_WORDS_RE.search(s, max(0, m.start() - 20), m.end() + 24) or _PARALLEL_RE.search(s):
        return f"{m.group(1)}gb in total"
    return f"{m.group(1)}gb of ram"


KEY_MEMORY_RE = rc(
    r"(?P<key>显存|单卡显存|每卡显存|显卡显存|vram|gpu[\s_\-]*(?:memory|mem))\s*(?:大小|容量|size)?\s*"
    r"(?:[:：=]|is|为|是|有)\s*(?P<n>\d{1,3}(?:\.\d+)?)\s*(?P<u>gb|gib|g)\b" + _NOT_RAM
)
"""A card's memory written as a setting ('显存: 40GB', '显存大小：40G', 'VRAM: 48GB', 'GPU memory = 24 GB' — a
hardware line as people paste it, 'GPU: 1*A100, 显存: 40GB, 内存: 50GB'): written '显存 40g', the form the
memory rules read (host memory, '内存: 50GB', stays the host's)."""


_RAM_BEFORE_RE = rc(r"(?:内存|ram|系统|cpu|主机|机器|服务器|硬盘|磁盘)\s*(?:都|也|均|全)?\s*$")


_NOT_CARD_BEFORE_RE = rc(
    r"(?:内存|ram|主机|硬盘|磁盘|数据集?|语料|文件|权重|weights?|of\s+ram|system\s+memory)\s*(?:是|有|就|of)?\s*$"
)


IS_ENOUGH_RE = rc(
    r"\b(?:is|are|would|will|was)\s+(?:only\s+|just\s+)?(\d{1,3})\s*g(?:b|ib)?\s+(?:of\s+(?:vram|gpu\s+memory)\s+)?"
    r"(?:(?:be\s+)?(?:enough|sufficient|ok|okay|fine)|work|do\b|suffice|cut\s+it|handle\s+it|fit\s+it|run\s+it)"
    r"|\b(?:can|could)\s+(?:only\s+|just\s+)?(\d{1,3})\s*g(?:b|ib)?\s+(?:of\s+(?:vram|gpu\s+memory)\s+)?"
    r"(?:work|do\b|handle|run|fit|hold|serve|train)"
)
"""'Is 24GB enough', 'would 16 GB of VRAM be enough': the verdict asked first (round 13), written 'is it
enough on a 24gb card' as :data:`NOT_ENOUGH_RE`'s English forms are."""


_CLAUSE_END_RE = rc(r"[，,;；。!?！？\n]")
_HOST_WORD_RE = rc(r"内存|\b(?:d?ram|system\s+memory|host\s+memory|cpu\s+memory)\b")
_CARD_WORD_RE = rc(r"显存|显卡|vram|\bgpu|\bcards?\b")


def _host_clause(m: re.Match[str]) -> bool:
    """Whether the clause of ``m`` or the one before names the host's memory with no card word after it
    ('机器内存 16G 不够，换 32G 够吗': the 32G is RAM too; review of s19, it had made a 32G card)."""
    s = m.string
    ends = [e.end() for e in _CLAUSE_END_RE.finditer(s, 0, m.start())]
    start = ends[-2] if len(ends) > 1 else 0
    host = [h.end() for h in _HOST_WORD_RE.finditer(s, start, m.start())]
    return bool(host) and _CARD_WORD_RE.search(s, host[-1], m.end()) is None


_CARD_MODEL_BEFORE_RE = rc(
    r"(?<![a-z0-9.\-])(?:[a-z]{1,4}\d{2,4}[a-z]{0,2}|\d{4}(?:\s?(?:ti\s+super|ti|d|super))?"
    r"|m[1-5](?:\s*(?:pro|max|ultra))?)\s*$"
)
"""A card's model right before the memory ('a100 ', '4090', 'l40s', 'a6000', an Apple chip 'm2 ultra'; not a
model's size '14b'): the memory is that card's variant (a Mac's unified memory), read with its name. A Chinese
measure word may touch it ('2张4090 48G': the look-behind names Latin letters and digits only; s20: '4060 ti
16g 够吗' was read as a need; s23: 'm2 ultra 192G能跑吗' was too; not :data:`_CARD_NAME_BEFORE_RE` below)."""


def _not_enough(m: re.Match[str]) -> str:
    """'在 Ng 显卡上都不够' for ``m`` of :data:`NOT_ENOUGH_RE`, unless the words before it are the host's
    memory or the data ('内存 64G 都不够', '数据集 16G 也不行': review of s17, both were read as a card)."""
    if _NOT_CARD_BEFORE_RE.search(m.string[max(0, m.start() - 14) : m.start()]) or _host_clause(m):
        return m.group(0)
    if _CARD_MODEL_BEFORE_RE.search(m.string[max(0, m.start() - 18) : m.start()]):
        return m.group(0)  # '1张A100 40G够吗': the named card's variant, read with its name (s19 merge)
    if m.group(4):  # English: 'on a 24gb card is not enough'
        return f"on a {m.group(1)}gb card {m.group(4)}"
    return f"在 {m.group(1)}g 显卡上{m.group(2) or ''}{m.group(3)}"


def _is_enough(m: re.Match[str]) -> str:
    """'is it enough on a Ng card' for ``m`` of :data:`IS_ENOUGH_RE`, unless host memory is its clause's or
    the one before's ('16GB of RAM is not enough, is 32GB enough?': RAM too, review of s19)."""
    return m.group(0) if _host_clause(m) else f"is it enough on a {m.group(1) or m.group(2)}gb card"


def _each_card(m: re.Match[str]) -> str:
    """'每张卡 N g 显存' for ``m`` of :data:`ALL_ARE_RE`, unless the words before it are about system memory
    ('服务器内存都是 512G') or N is no card's memory."""
    before = m.string[max(0, m.start() - 8) : m.start()]
    n = round(int(m[1]) / 1024) if len(m[1]) > 3 else int(m[1])
    if _RAM_BEFORE_RE.search(before) or not SMALLEST_CARD_GIB <= n <= 288:  # nvidia-smi MiB: 22528MiB
        return m.group(0)
    if m[0][0] == "我":  # '我有 24G' (s37): a rare form, its reader imported on a match
        from bot.parse.i_have import i_have

        return i_have(m, "" if m[0].endswith("显存") else " 显存")
    return f"每张卡 {n}g 显存 "


def _u(i: int) -> str:
    return rf"(?P<n{i}>\d{{1,4}}(?:\.\d+)?)\s*(?:gb|gib|g)\b"


MEMORY_NEED_RE = rc(
    r"(?:推理|训练|微调|部署)\s*(?:的)?\s*显存\s*(?:大小)?\s*(?:[:：=]|是|为|需要|要|约)\s*(?:约|大约)?\s*"
    + _u(1)
    + r"|显存\s*(?:需要|要|占用|需求)\s*(?:是|为|约|大约)?\s*"
    + _u(2)
    + r"|(?:需要|要求|要|占用|必须要?|必需|起码要?|用到|消耗)\s*(?:约|大约)?\s*"
    + _u(3)
    + r"\s*(?:的)?\s*显存(?!\s*(?:的)?\s*(?:卡|显卡|gpu))"
    + r"|\b(?:inference|training|fine[\s\-]?tuning|serving)\s+(?:vram|gpu\s+memory|memory)\s*(?:is|=|:|of)\s*"
    + _u(4)
    + r"|\b(?:needs?|requires?)\s+(?:about\s+|around\s+|roughly\s+|~\s*)?"
    + _u(5)
    + r"\s+(?:of\s+)?(?:vram|gpu\s+memory|memory)"
    + r"|(?:至少|起码|最少|最低)\s*(?:都)?\s*(?:得|要|需要)\s*(?:单卡|每张卡)?\s*(?:一张|一块|单张)?\s*"
    + _u(6)
    + r"\s*(?:的)?\s*(?:gpu|显卡|卡|显存)"
    + r"|\bat\s+least\s+(?:an?\s+|one\s+)?"
    + _u(7)
    + r"\s*(?:gpus?|cards?|of\s+vram|vram)\b"
)
"""A memory stated as what the model needs ('推理显存是 140GB', '需要 140G 显存', 'inference VRAM is 140GB',
'needs 140GB of VRAM'): a requirement, not the cards' memory — written 'memoryneed N' and named
(``stated_need``); the sizing computes the need itself. Round 10: the least card a question asks about
('是不是单卡至少得 48G 的 GPU 才能微调', 'at least a 48GB GPU'), never the memory of the card named. Round 14:
a requirement said as one ('是不是硬性要求 24G 显存', '必须 24G 显存吗', '起码要 16G', r20 '要用到 80G')."""
_NEED_GATE = re.compile(
    r"需要|要|占用|需求|必须|必需|need|requir|inference|training|tuning|serving|至少|最少|起码|最低|least"
)
_NEED_WORD_GATE = re.compile(r"显存|mem|vram|至少|最少|起码|最低|least")
MEMORY_NEED_MARK_RE = re.compile(r"memoryneed (\d{1,4}(?:\.\d+)?)")


_ASKS_NEED_RE = re.compile(
    r"\b(?:needs?|needed|requires?|required|must|have\s+to|has\s+to|should|do\s+(?:i|we)|does\s+it|is\s+it"
    r"|would|enough)\b|\?"
)
"""An asking or needing cue in the clause of an English 'at least N GB' (review of session 15): 'do I need
at least a 48GB GPU?' asks a need; 'nodes have 8 GPUs with at least 80GB VRAM each' states the cards."""
_CLAUSE_END_RE = re.compile(r"[.,;!\n。，；！]")


def _need(m: re.Match[str]) -> str:
    if m.group("n7") and not _asks_need(m):
        return m.group(0)  # a card's memory stated as a floor ('with at least 80GB VRAM each')
    return f" memoryneed {next(v for v in m.groups() if v)} "


def _asks_need(m: re.Match[str]) -> bool:
    """Whether the clause around match ``m`` asks about or states a need (:data:`_ASKS_NEED_RE`)."""
    s = m.string
    start = max((e.end() for e in _CLAUSE_END_RE.finditer(s, 0, m.start())), default=0)
    end = next((e.start() for e in _CLAUSE_END_RE.finditer(s, m.end())), len(s))
    return _ASKS_NEED_RE.search(s, start, end) is not None


def memory_forms(s: str) -> str:
    """The normalized text ``s`` with each card's memory written 'with N gb each'; one C-level search
    gates each rule (most messages have none of these forms)."""
    if any(map(s.__contains__, ALT_MEMORY)) and ALT_MEMORY_GATE.search(s):
        s = alt_memories(s)  # '12G 或者 16G 的显卡' (round 14): one sized, the other named
    if _NEED_WORD_GATE.search(s) and _NEED_GATE.search(s):
        s = _sub(MEMORY_NEED_RE, _need, s)
    if ("核" in s or "core" in s) and UNIFIED_GATE_RE.search(s):  # s51: 'M3 Max with a 40-core GPU and 64GB'
        from bot.parse.cores_memory import cores_memory

        s = cores_memory(s)
    # 'a Strix Halo with 128GB of RAM', 'a DGX Spark (GB10, 128 GB)': the device's memory (round 14, s28)
    if ("ram" in s or "memory" in s or "内存" in s or ")" in s or "运存" in s) and UNIFIED_GATE_RE.search(s):
        s = device_memory(s)  # s30: and a phone with no model named ('我的手机是 12GB 内存')
    s = mac_memory(s)  # 'a Mac Studio that has 192GB': the Mac's unified memory (session 9)
    if "我的" in s:
        s = _sub(MY_CARD_HAS_RE, r"\g<card> with \g<gb> gb each", s)
    if _HAVE_GATE.search(s) or _HOST_WITH_GATE.search(s):
        s = _sub(HOST_HAS_RE, _host_has, s)
        s = HAVE_MEMORY_RE.sub(_have_memory, s)
    if any(map(s.__contains__, USED_OF)) and USED_OF_GATE.search(s):  # s36-gen2: a slash offers options
        s = USED_OF_RE.sub(_used_of, card_variants(slash_options(s) if "/" in s else s))
    if _CARDS_OF_GATE.search(s):
        s = _sub(CARDS_OF_MEMORY_RE, r"\1 with \2 gb each", s)
    if _CARDS_TIMES_GATE.search(s):
        s = _sub(CARDS_TIMES_MEMORY_RE, _cards_times, s)
    if any(map(s.__contains__, KIND_EACH)) and KIND_EACH_GATE.search(s):
        s = _sub(KIND_EACH_RE, r"\1 gb each", s)
    if _ALL_ARE_GATE.search(s):
        s = ALL_ARE_RE.sub(_each_card, s)
    if _CARD_THEN_GATE.search(s):
        s = _sub(COUNT_THEN_MEMORY_RE, _count_then_memory, s)  # '8 卡 80G' (round 12)
        s = CARD_THEN_MEMORY_RE.sub(_card_then_memory, s)
    if _NOT_ENOUGH_GATE.search(s):
        s = _sub(NOT_ENOUGH_RE, _not_enough, s)
        s = _sub(IS_ENOUGH_RE, _is_enough, s)
    if _MACHINE_MEMORY_GATE.search(s):
        s = _sub(MACHINE_MEMORY_RE, _machine_memory, s)
    if _CARD_WITH_GATE.search(s):
        s = _sub(CARD_WITH_MEMORY_RE, r"\g<card> \g<n>gb", s)
    if _KEY_MEMORY_GATE.search(s):
        s = _sub(KEY_MEMORY_RE, _key_memory, s)
    return s


_HAVE_GATE = re.compile(r"(?:have|has|got|come with|comes with|carr\w*)\s+(?:only\s+|just\s+)?\d")
_HOST_WITH_GATE = re.compile(
    r"with\s+\d{1,4}\s*(?:gb|gib|g|tb|t)\s+(?:of\s+)?(?:unified\s+|system\s+)?(?:memory|ram)"
)
_CARDS_OF_GATE = re.compile(r"(?:gpu|card)s?\s+of\s+\d")
_KEY_MEMORY_GATE = re.compile(r"(?:显存|vram|memory|mem)\s*(?:大小|容量|size)?\s*(?:[:：=]|is|为|是|有)\s*\d")
_CARDS_TIMES_GATE = re.compile(r"(?:gpu|card|卡)s?\s*[x×*]\s*\d")
_CARD_WITH_GATE = re.compile(r"(?:\d|gpus?|cards?)\s*s?\s+with\s+(?:only\s+|just\s+)?\d{2,3}\s*g")
_CARD_THEN_GATE = re.compile(
    r"(?:gpu|card|gpus|cards|卡|张|块)\s*(?:是|只有|最大|就|才|\(|\s+(?:is|are)\s+(?:only\s+|just\s+)?)?\s*\d{1,3}\s*g"
)
_ALL_ARE_GATE = re.compile(r"[是为有张块卡用闲余]\s*(?:\d\d\d?\s*g|\d{4,6}\s*mi?b)|每[张块]\S{0,5}显存\s*\d")
_NOT_ENOUGH_GATE = re.compile(
    r"\d\s*g(?:b|ib)?\s*(?:的)?\s*(?:显存)?\s*(?:都|也|还|就|完全|根本|明显|肯定|好像|似乎)?\s*"
    r"(?:够|不|行|可|能|跑|装|放|塞|吃|扛|撑|会爆|爆|溢|足)"
    r"|\d\s*g(?:b|ib)?\s+(?:of\s+(?:vram|gpu\s+memory)\s+)?(?:is|was|are|were|does|do|did|will|would|wo|can|could|cannot)(?:n['’]?t)?\b"
    r"|\b(?:is|are|would|will|was|can|could)\s+(?:only\s+|just\s+)?\d{1,3}\s*g"
)
_MACHINE_MEMORY_GATE = re.compile(r"(?:machine|node|server|box)'?s\s+\d")


_TOTAL_BEFORE_RE = rc(r"(?:total|combined|overall|aggregate|pooled)\s*(?:gpu\s*)?$|[总合共计]\s*$")


def _key_memory(m: re.Match[str]) -> str:
    """'显存 N' for a card's memory written as a setting; all the cards' memory together ('combined VRAM is
    160GB', '总显存: 96G') stays as written, for the total-memory rule (bot.parse.role_left.L_TOTAL_VRAM)."""
    if _TOTAL_BEFORE_RE.search(m.string[max(0, m.start() - 12) : m.start()]):
        return m.group(0)
    return f"显存 {m.group('n')}{m.group('u')} "
