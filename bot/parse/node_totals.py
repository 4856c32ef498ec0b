"""A node count said after the machines' size (s32 trial): 'H100 nodes, each with 8 GPUs, 4 nodes' and
mixed machines, 'two 8-GPU nodes and one 4-GPU node', '两台 8 卡加一台 4 卡'.

Before, the size was read as the count and the machines were dropped (8 GPUs sized for 4 nodes of 8); a
mixed list sized its first machine kind only (16 of 20). A cluster's GPUs are its machines × the GPUs in each
(Narayanan et al. 2021 §3: p × t × d GPUs over n nodes of g), summed over machine kinds.
"""

from __future__ import annotations

import re

from bot.parse.numbers import CN_DIGITS, ENGLISH_WORD_NUMBERS

_NUM = r"(\d{1,4}|an?|one|two|three|four|five|six|seven|eight|[一两二三四五六七八])"
_WORDS = {"a": 1, "an": 1} | ENGLISH_WORD_NUMBERS | CN_DIGITS
"""The words of :data:`_NUM` as numbers (bot.parse.numbers' own tables)."""

SIZE_THEN_NODES_RE = re.compile(
    r"(?<![\w.])(?P<card>(?:[a-z][a-z0-9\-]*\s+){0,2}?)(?P<w>nodes|servers|machines|hosts)\s*,?\s*"
    r"(?:each\s+)?(?:with|of|having|holding)\s+(?P<n>\d{1,2})\s*(?:gpus?|cards?|accelerators?)(?:\s+each)?"
    r"\s*[,;，]\s*(?:and\s+|with\s+|in\s+total\s+|total\s+)?(?:of\s+)?(?P<k>\d{1,4})\s*(?:nodes?|servers?|machines?|hosts?)\b"
)
"""'H100 nodes, each with 8 GPUs, 4 nodes' (normalized 'h100 nodes with 8 gpus, 4 nodes'): the machines'
size first, their count after, written '4 h100 nodes with 8 gpus' as the node rules read it."""

_EN_KIND = rf"{_NUM}\s+(\d{{1,2}})\s*-?\s*(?:gpu|card)s?\s+(?:nodes?|servers?|machines?|boxe?s?|hosts?)"
_ZH_KIND = (
    rf"{_NUM}\s*(?:个\s*)?(?:台|个节点)\s*(?:机器|服务器)?\s*(\d{{1,2}}|[一两二四八])\s*(?:张|块)?\s*卡"
)
_JOIN = r"\s*(?:,?\s*(?:and|plus)\s+|\+|加上?|和|以及|及|、|，|,)\s*"
MIXED_NODES_RE = re.compile(
    rf"(?<![\w.])(?:{_EN_KIND}(?:{_JOIN}{_EN_KIND})+|{_ZH_KIND}(?:{_JOIN}{_ZH_KIND})+)"
)
"""'two 8-GPU nodes and one 4-GPU node', '2 台 8 卡 + 1 台 4 卡', '两台 8 卡加一台 4 卡': machine kinds
listed, each a count and its GPUs; written as their sum of GPUs."""
_KIND_RE = re.compile(rf"{_EN_KIND}|{_ZH_KIND}")
GATE = re.compile(
    r"(?:nodes|servers|machines|hosts)\s*,?\s*(?:each\s+)?(?:with|of|having|holding)\s+\d|台|节点|-gpu"
)


def _value(word: str) -> int:
    return int(word) if word.isdigit() else _WORDS[word]


def _total(m: re.Match[str]) -> str:
    total = 0
    for k in _KIND_RE.finditer(m.group(0)):
        g = [x for x in k.groups() if x is not None]
        total += _value(g[0]) * _value(g[1])
    return f"{total} gpus"


def node_totals(s: str) -> str:
    """``s`` (normalized text) with a node count after the machines' size written count first, and a
    list of machine kinds written as their GPUs in all (module doc); the text as it was when neither."""
    if SIZE_THEN_NODES_RE.search(s):
        s = SIZE_THEN_NODES_RE.sub(r"\g<k> \g<card>nodes with \g<n> gpus", s)
    if MIXED_NODES_RE.search(s):
        s = MIXED_NODES_RE.sub(_total, s)
    return s
