"""Numbers inside a machine's specification are no figure of the job (issue 24, round 10).

People describe their machine with the model numbers of its parts and the peak rate of its chip: 'cpu
i7-12700H', 'Xeon Gold 6348', 'Ryzen 9 7950X', '910B（280T）'. Before, the digits were read as figures:
'i7-12700H' as 12,700 hours (the 'H' of a laptop chip is no hour), '910B（280T）' as 280 trillion
training tokens, 'Xeon 8480+' as an unread 8480. This module blanks such a part number (its family word
stays: 'core cpu', 'xeon cpu', 'ryzen cpu') and a chip's peak rate written right after the card, as
:data:`bot.parse.normalize._HOST_RE` blanks an address.

CPU model numbers, by their makers' naming (Intel: 'Core i3/i5/i7/i9-' then 4–5 digits and a letter
suffix such as K, F, H, HX, U, T; 'Core Ultra 5/7/9 NNN'; Xeon 'Gold/Silver/Platinum/Bronze/W' and 'E3/E5/E7-
NNNN vN', 'Xeon 8480+'; AMD: 'EPYC NNNN', 'Threadripper (PRO) NNNN', 'Ryzen 3/5/7/9 (PRO) NNNN' with its
suffix). A chip's peak rate: a number with 'T' / 'TFLOPS' / 'TOPS' in brackets right after a card-like
token ('910B（280T）', 'A100 (312 TFLOPS)'), or 100 or more 'T' right after it with no data word
after ('910B 280T'; never '2T tokens', '1T 数据'; 'A100 150 TFLOPS' unbracketed may be a measured rate and
stays for the rate readers).
"""

from __future__ import annotations

import re

from bot.parse.regex import rc, words_gate
from bot.parse.unit_cues import LAPTOP_AFTER

CPU_MODEL_RE = rc(
    r"(?<![a-z0-9])(?:"
    r"(?:core\s*)?i[3579]\s*-?\s*\d{4,5}[a-z]{0,3}"
    r"|core\s*ultra\s*[3579]\s*-?\s*\d{3}[a-z]{0,2}"
    r"|xeon\s*(?:(?:gold|silver|platinum|bronze|w|max)\s*-?\s*)?(?:e[357]\s*-?\s*)?\d{4,5}[a-z]{0,2}\+?"
    r"(?:\s*v\d)?"
    r"|(?:epyc|threadripper(?:\s*pro)?)\s*\d{4,5}[a-z]{0,2}"
    r"|至强\s*(?:金牌|银牌|铂金|gold|silver|platinum)?\s*-?\s*[a-z]?\d{4,5}[a-z]{0,2}\+?|霄龙\s*\d{4,5}[a-z]{0,2}"
    r"|ryzen\s*(?:ai\s*)?[3579]\s*(?:pro\s*)?(?:hx\s*)?\d{3,4}[a-z0-9]{0,3}"
    r")(?![a-z0-9])"
)
"""A CPU by its model number (lower-cased text): 'i7-12700h', 'xeon gold 6348', 'xeon e5-2680 v4',
'xeon 8480+', 'epyc 9654', 'ryzen 9 7950x', '至强金牌 6330', '霄龙 9654' (s45 review B6); a bare Intel/AMD
model number with its suffix right before a CPU word ('my 12700H CPU', '7840HS 处理器': s51, r43 en: read as
12,700 hours before) is :data:`BARE_CPU_RE`'s."""

BARE_CPU_RE = rc(
    r"(?<![a-z0-9.])\d{4,5}(?:hx|hs|hk|h|u|kf|ks|k|f|x3d|x)"
    r"(?=\s*(?:cpus?\b(?!\s*-?\s*(?:time|hours?\b))|processors?\b|处理器))"
)
"""A bare CPU model number with its maker's suffix right before a CPU word ('12700h cpu', '7840hs 处理器',
'13900k cpu'; never '2000h cpu time' / 'cpu hours'): blanked, the CPU word stays."""

CARD_RATE_RE = rc(
    r"(?<=[a-z0-9])(?:\s*\(\s*\d{2,4}(?:\.\d)?\s*(?:t|tflops|tops)(?:\s*(?:each|per\s+(?:card|gpu|chip)|每张|每卡))?\s*\)"
    r"|\s+[1-9]\d{2,3}\s*t(?![a-z])(?!\s*(?:tok|token|数据|语料|的数据|条|个|字|/\s*s)))"
)
"""A chip's peak rate right after the card's name: '910b(280t)', 'a100 (312 tflops)', '910b 280t'; never a
speed in t/s (round 36 en: llama-bench's 'pp512 4000 t/s' is 4000 tokens/s, 'pp512' no card)."""

_CARD_BEFORE_RE = rc(r"(?:910[a-c]\d?|[a-z]{1,3}\d{2,4}[a-z]?)$")
"""The token right before a rate: a card-like name ('910b', 'a100', 'h20', 'rtx4090'), not any word."""

LAPTOP_CARD_RE = rc(
    r"(笔记本(?:电脑)?|游戏本|\blaptop|\bnotebook)\s*(?:是|上|的|里|用的是|配的是|配的|带的|配(?:了|有)?|带(?:了|有)?|有|with|has|having|'s|:|,)?"
    r"\s*(?:an?\s+|一张|一块)?\s*(?=(?:nvidia\s*)?(?:geforce\s*)?(?:rtx|gtx)\s*\d)"
)
"""A laptop and its card ('笔记本是 NVIDIA GeForce RTX 3060 6GB', 'my laptop has an RTX 4070'): a laptop holds
one GPU, so the card is one card (written '笔记本 1 张 rtx …' / 'laptop with 1 rtx …' for the count rules) —
unless another machine with a count of cards is said ('a laptop with an RTX 4090 and a server with 4x RTX
4090'): then the count rules choose between the two setups (review of session 15)."""

CARD_LAPTOP_RE = rc(
    r"(?<![a-z0-9])(?P<card>(?:nvidia\s*)?(?:geforce\s*)?(?:rtx|gtx)?\s*\d{3,4}\s*(?:ti|super)?)\s*[\-_]?\s*"
    r"(?:laptop|notebook|mobile|max[\s\-]?q|笔记本版?|移动版|移动端)(?:\s*(?:gpu|显卡|版))?(?![a-z0-9])"
)
"""A card's laptop variant named after it ('RTX 3050 Ti Laptop', 'RTX 4060 Laptop GPU', '3080 Mobile',
'RTX 4070 Max-Q', '4060 笔记本版'): the laptop's one card, as :data:`LAPTOP_CARD_RE` reads it with the
laptop named first, written 'laptop with 1 rtx 3050 ti' (round 13: before, the word after the card left an
unknown card unread and the job sized on the default card)."""

OTHER_MACHINE_RE = rc(
    r"服务器|台式机|台式|主机|工作站|集群|机器|\b(?:server|desktop|workstation|rig|cluster|node|box|pc)s?\b"
)
"""Another machine besides the laptop ('server', '台式机')."""

COUNT_OF_CARDS_RE = rc(
    r"(?<![a-z0-9.\-])(?:\d{1,3}|two|three|four|five|six|eight|ten|sixteen|[两二三四五六七八十])\s*(?:x|×|\*)?\s*"
    r"(?:张|块|卡|片|(?:nvidia\s*)?(?:geforce\s*)?(?:rtx|gtx|gpus?|cards?|[ahlvb]\d{2,3}\b|\d{4}\b))"
)
"""A count of cards ('4x rtx 4090', '两张 3090', 'eight gpus')."""

ARC_NUMBER_RE = rc(r"(?<![a-z0-9])arc\s+((?:310|380|580|750|770|[35][57]0m|730m|770m)(?![0-9a-z.]))")
"""An Intel Arc card by its number without the series letter ('Intel ARC 770 GPU', 'an ARC 770M'): the
A-series (ark.intel.com: Arc A310, A380, A580, A750, A770; laptops A350M, A370M, A550M, A570M, A730M,
A770M), written with its letter so the number is the card's name, never a count of 770 GPUs (r43 en)."""

_LAPTOP_AFTER_GATE = rc(r"\d\s*(?:ti|super)?\s*[\-_]?\s*(?:laptop|notebook|mobile|max[\s\-]?q|笔记本|移动)")
"""One C-level search before :data:`CARD_LAPTOP_RE` (most messages name no laptop card)."""
_GATE_WORDS = ("i3", "i5", "i7", "i9", "ultra", "xeon", "epyc", "至强", "霄龙", "threadripper", "ryzen")
_GATE = words_gate((*_GATE_WORDS, "t)", "t ", "flops", "tops"))
"""Literal words every part number or rate holds: most messages skip both patterns."""


def without_specs(s: str) -> str:
    """``s`` (normalized, lower-cased) with CPU model numbers written as 'cpu', a chip's peak rate after
    its card blanked (see the module docstring) and a laptop's card counted as one
    (:data:`LAPTOP_CARD_RE`)."""
    if " arc " in s or s.startswith(
        "arc "
    ):  # r43 en: Intel's Arc cards by their number alone ('an Intel ARC 770 GPU', 'an ARC 770M')
        s = ARC_NUMBER_RE.sub(r"arc a\1", s)
    if ("笔记本" in s or "游戏本" in s or "laptop" in s or "notebook" in s) and not _other_machine_count(s):
        s = LAPTOP_CARD_RE.sub(_one_card, s)
    laptop_after = any(map(s.__contains__, LAPTOP_AFTER)) and _LAPTOP_AFTER_GATE.search(s)
    if laptop_after and not _other_machine_count(s):
        s = CARD_LAPTOP_RE.sub(r" laptop with 1 \g<card> ", s)
    if ("cpu" in s or "处理器" in s or "processor" in s) and BARE_CPU_RE.search(s):
        s = BARE_CPU_RE.sub(" ", s)
    if not _GATE.search(s):
        return s
    s = CPU_MODEL_RE.sub(_cpu_family, s)
    out, last = [], 0
    for m in CARD_RATE_RE.finditer(s):
        if _CARD_BEFORE_RE.search(s[max(0, m.start() - 12) : m.start()]):
            out.append(s[last : m.start()] + " " * (m.end() - m.start()))
            last = m.end()
    return "".join(out) + s[last:] if out else s


_RATE_NUMBER_RE = rc(r"(\d+(?:\.\d)?)\s*(tflops|tops|t)")


def peak_rates(s: str) -> list[tuple[str, str]]:
    """Each chip's peak rate written after its card in ``s`` (normalized, before :func:`without_specs`
    blanks it), named as typed: ('peak: 280 TFLOPS', 'catalog_peak') — the sizing times the card with
    its catalog's peak (estimator.catalog; the request has no peak-rate field), so the stated one is not
    used (review of session 15: it was blanked silently)."""
    if not _GATE.search(s):
        return []
    out = []
    for m in CARD_RATE_RE.finditer(s):
        if _CARD_BEFORE_RE.search(s[max(0, m.start() - 12) : m.start()]):
            n = _RATE_NUMBER_RE.search(m.group(0))
            if n:
                unit = "TOPS" if n.group(2) == "tops" else "TFLOPS"
                out.append((f"peak: {n.group(1)} {unit}", "catalog_peak"))
    return out


def _other_machine_count(s: str) -> bool:
    """Whether ``s`` names a machine besides the laptop and a count of cards (the laptop's card then
    is not the only setup: its count is left to the count rules)."""
    return bool(OTHER_MACHINE_RE.search(s)) and bool(COUNT_OF_CARDS_RE.search(s))


def _cpu_family(m: re.Match[str]) -> str:
    """The CPU's family word without its number ('ryzen 7900x' → 'ryzen cpu', 'i7-12700h' → 'core cpu'): the
    host-CPU words (:data:`bot.parse.words.ARTICLE_GPU_RE`) still see a CPU before a card."""
    word = m.group(0).lstrip()
    word = "xeon" if word[:2] == "至强" else "epyc" if word[:2] == "霄龙" else word
    family = next((f for f in ("xeon", "epyc", "threadripper", "ryzen") if word.startswith(f)), "core")
    return f" {family} cpu "


def _one_card(m: re.Match[str]) -> str:
    """'笔记本 1 张 ' for a Chinese word, 'laptop with 1 ' for an English one."""
    word = m.group(1)
    return f"{word} 1 张 " if word[0] > "~" else f"{word} with 1 "
