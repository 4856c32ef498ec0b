"""Which values of one setting a message lists (issue 24, s36-lists), read from what the parse kept and
the normalized message: the reading half of :mod:`bot.core.per_value` (core runs no regex on the message;
tests/test_core_one_pass.py). Imported only where bot.core.per_value is.

- a field named with its list ('concurrency: 20' named as another setup, reason ``other_setup``): its key;
- GPU counts: a count range read from a written list ('1, 2 or 4 A100', '2、4 或 8 张卡') — the items of the
  list, each a count; a range written with a dash or 'to' ('2–8 cards', '2 到 8 卡') is not a list;
- context lengths in k ('8k, 32k and 128k'): the first the request's length, the others named as not used;
- card memories ('6GB … 12GB 可以吗'): the request's memory and the other sizes in GB named as not used.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.parse import ParseResult
    from estimator.models import SizingRequest

LISTED_NUMBERS = re.compile(
    r"\d\s*[kg]?\s*(?:,|，|、|/|\bor\b|\band\b|或|和|还是|及)\s*(?:(?:for|at|with|on)\s+|[用在按])?\s*\d"
    r"|\d\s*k?\s*(?:-|–|~|\b(?:up\s+)?to\b|(?:一直)?到|至)\s*(?:up\s+to\s+)?\d",  # s41: a range's ends
    re.I,
)
RANGE_CUE = re.compile(r"\d\s*[km]?\s*(?:-|–|~|\b(?:up\s+)?to\b|\band\b|(?:一直)?到|至|和)", re.I)
"""A number followed by a range's joiner: the gate of bot.parse.value_range (s41)."""
"""Two numbers written as a list ('1, 2 or 4', '10、20', '8k and 32k', '24G 还是 48G', 'for 16k and for
64k'): a message that may list values of one
setting (bot.core.per_value)."""
SETTINGS = ("gpu_count", "concurrency", "seq_len", "gpu_memory_gib", "batch_size")
"""The settings a list of values gets a row each for (the estimator has a cheap figure per value)."""
MAX_ROWS = 6
"""At most this many values sized (each is one estimate); a longer list keeps its first six."""
_NAMED = ("other_setup", "repeated", "unread", "measured_load")
_WORD_PREFIXES = ("precision: ", "model: ")
"""How the parse names another weight format or model (s39): a list of them (bot.parse.name_list)."""
_SEP = r"\s*(?:,|，|、|/|\bor\b|\band\b|或者?|和|还是|及)\s*(?:(?:for|at|with|on)\s+|[用在按]\s*)?"
"""A list's separator, a preposition repeated after it read with it ('for 16k and for 64k', '16k 还是用
64k')."""
RUN_RE = re.compile(rf"(?<![\d.\-–~])\d{{1,6}}(?:{_SEP}\d{{1,6}})+(?![\d.%]|\s*(?:-|–|~|到|至|\bto\b))", re.I)
"""Numbers written as a list ('1, 2 or 4', '10、20、50', '4 or 8'), not a range's ends ('2–8')."""
K_RUN_RE = re.compile(rf"\d{{1,4}}\s*k(?:{_SEP}\d{{1,4}}\s*k)+(?![a-z])", re.I)
"""Lengths in k written as a list ('8k, 32k and 128k', '4k/8k')."""
MEM_RUN_RE = re.compile(rf"(?<![\d.])\d{{1,3}}\s*gi?b?(?:{_SEP}\d{{1,3}}\s*gi?b?)+(?![a-z\d])", re.I)
"""Card memories written as a list, each with its unit ('24G 还是 48G 的卡', 'a 24GB or 48GB card'): a choice
between the sizes, asked with or without a question mark after the last."""
REFUSED_RE = re.compile(
    r"(?:不要|不用|不需要|无需|用不着|别|没必要"
    r"|\bnot|\bno|\bno need for|\bdon'?t need|\binstead of|\brather than)\s*$",
    re.I,
)
"""A value refused before a 'list' ('不要 128k，32k 就够了', 'not 128k, 32k is enough'): the value said after
it replaces the refused one, the two are no options to size side by side (s36-cin, len-zh-042)."""


def _runs(pattern: re.Pattern[str], s: str):
    """The written lists of ``pattern`` in ``s`` whose first value is not refused (:data:`REFUSED_RE`)."""
    return (m for m in pattern.finditer(s) if not REFUSED_RE.search(s, max(0, m.start() - 16), m.start()))


ASKED_MEMORY_RE = re.compile(
    r"\s*gi?b?\s*(?:的卡|的|卡)?\s*(?:呢|可以|行吗|行不行|够吗|够不够|能行|能跑|\?|？|(?:card|gpu|one)?\s*\?)",
    re.I,
)
"""A memory asked about as the other option, after its number ('12GB 可以吗？', '12G 的呢', '12GB?')."""


def _asked(s: str, number: str) -> bool:
    """Whether ``number`` is written in ``s`` as a memory in GB a question follows (ASKED_MEMORY_RE)."""
    found = re.finditer(rf"(?<![\d.]){re.escape(number)}(?=\s*g)", s, re.I)
    return any(ASKED_MEMORY_RE.match(s, m.end()) for m in found)


def _memories(s: str, mem: float | None, named: list[str]) -> list[float]:
    """The items of a written list of memories in GB (:data:`MEM_RUN_RE`) holding the request's memory ``mem``
    and a number named as not used, in the order written, else []."""
    if not mem:
        return []
    for m in _runs(MEM_RUN_RE, s):
        items = [float(v) for v in re.findall(r"\d+", m.group(0))]
        if mem in items and any(_num(t) in items for t in named if t.isdigit()):
            return list(dict.fromkeys(items))
    return []


def _num(text: str) -> float | None:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kK])?\s*", text)
    if m is None:
        return None
    return float(m.group(1)) * (1024 if m.group(2) else 1)


def _counts(s: str, first: int, last: int) -> list[float]:
    """The items of the written list holding both ends of a count range ('1, 2 or 4'), else []."""
    for m in _runs(RUN_RE, s):
        items = [int(v) for v in re.findall(r"\d+", m.group(0))]
        if first in items and last in items and items == sorted(set(items)):
            return [float(v) for v in items]
    return []


CARDS_AT_RE = re.compile(r"(?<![\w.])(\d{1,3})\s*(?:张|块)?\s*(?:cards?\b|gpus?\b|npus?\b|hpus?\b|显卡|卡)")
"""A count written with its card word ('2 cards', '2 GPUs', '2 张卡', '2卡')."""


def _with_between(s: str, first: int, last: int) -> list[float]:
    """The ends of a count range and each count written with its card word between their mentions, in order
    (s48-workmiss, en31-005: 'on 1 card failed, on 2 cards failed, on 4 cards succeeded' was the rows 1 and 4,
    the 2 dropped in silence; :data:`CARDS_AT_RE`)."""
    cue = "卡" in s or "card" in s or "pu" in s  # C tests first: no search without a card word
    said = [int(m.group(1)) for m in CARDS_AT_RE.finditer(s)] if cue else []
    # only counts written between the ends' own mentions ('1 card …, 2 cards …, 4 cards'), never a count said
    # after them of something else ('4 or 8 L4; another service uses 6 GPUs')
    inner = said[said.index(first) + 1 : said.index(last)] if first in said and last in said else []
    return [float(v) for v in sorted({first, last, *(v for v in inner if first < v < last)})]


NODE_AFTER_RE = re.compile(
    r"\s*(?:[a-z][\w.\-]*\s+)?(?:nodes?|machines?|servers?|instances?|hosts?)\b|\s*(?:个节点|节点|台|机(?!器人))",
    re.I,
)
"""What follows a list of node counts: a node word, one name between ('2, 4 or 8 p5.48xlarge nodes'), or
its Chinese counters ('2、4 或 8 台', '2 或 4 个节点', '2、4 机')."""


def node_list(s: str, count: int) -> tuple[int, list[int]] | None:
    """(GPUs per node, the node counts) of a written list of node counts ('2, 4 or 8 nodes (8x H100 each)',
    '2、4 或 8 台 8 卡 H100 节点') whose last item times a whole number above one is ``count``, the GPUs the
    parse read for the last item (nodes × GPUs per node, bot.parse.count_forms); else None. Gated at its
    call site (bot.parse.assemble.NODE_WORDS) by a node word in the message."""
    for m in _runs(RUN_RE, s):
        if not NODE_AFTER_RE.match(s, m.end()) or _clause_break(s, m):
            continue
        items = [int(v) for v in re.findall(r"\d+", m.group(0))]
        per, rest = divmod(count, items[-1]) if items[-1] else (0, 1)
        if not rest and per > 1 and items == sorted(set(items)):
            return per, items
    return None


GPU_RANGE_RE = re.compile(
    r"(?<![\d.,])(\d{1,3}(?:,\d{3})*|\d+)\s*(?:-|–|~|\b(?:up\s+)?to\b|到|至)\s*(\d{1,3}(?:,\d{3})*|\d+)"
    r"\s*(?:gpus?\b|cards?\b|张卡|张|块|卡)",
    re.I,
)
"""A range of GPU counts written with its unit ('from 32 to 1,024 GPUs', '32 到 1024 张卡')."""


def _clause_break(s: str, m: re.Match[str]) -> bool:
    """Whether run ``m`` is no list: its first number ends a setting ('batch_size=1，4 台', 'zero3，16 台': a
    letter, '=' or '_' before it) or only a Chinese comma, a clause's break, joins its numbers ('1，4 台')."""
    before = s[m.start() - 1 : m.start()] if m.start() else ""
    return (
        (before.isalpha() and before.isascii())
        or before in ("=", "_", ":")
        or not re.search(r"\d\s*(?:,|、|/|\bor\b|\band\b|或|和|还是|及)", m.group(0))
    )


def gpu_range_low(s: str, count: int) -> int | None:
    """The low end of a range of GPU counts (:data:`GPU_RANGE_RE`) whose high end is ``count``, the GPUs the
    parse read from nodes × GPUs per node ('up to 256 nodes with 4x A100 per node, scaling from 32 to 1,024
    GPUs': 32), else None (s41)."""
    for m in GPU_RANGE_RE.finditer(s):
        lo, hi = (int(g.replace(",", "")) for g in m.groups())
        if hi == count and 0 < lo < hi:
            return lo
    return None


def list_start(s: str, first: int, last: int) -> int:
    """The lowest count of a written list whose last two items a count range was read from ('1, 2 or 4
    A100' read as 2 to 4): the range starts at the list's first item, so the answer sizes every count the
    list names, the rows (bot.core.per_value) each; ``first`` when no such list is written (s39 fixl2 #3)."""
    counts = _counts(s, first, last)
    return int(counts[0]) if counts and counts[0] < first else first


def _items(s: str, first: int, others: list[int], setup: list[int] | None = None) -> list[float]:
    """The items of the written list holding ``first`` and every number in ``others``, or whose every other
    item the parse named as another setup's (``setup``: the loads of '100、120、150 并发都通过' beside other
    numbers named unread, s39; bot.parse.count_forms.LOAD_LIST_RE), else []."""
    for m in _runs(RUN_RE, s):
        items = [int(v) for v in re.findall(r"\d+", m.group(0))]
        if first in items and (set(others) <= set(items) or set(items) - {first} <= set(setup or ())):
            return [float(v) for v in dict.fromkeys(items)]  # s39: or each other item another setup's
    return []


CARDS_AFTER_RE = re.compile(r"\s*(?:[x×*]\s*)?(?:张|块|卡|片|gpus?\b|cards?\b|[a-z]{1,4}[\s-]?\d)", re.I)
"""What follows a list of GPU counts: a card counter or word ('1/2/4 张', '1, 2 or 4 GPUs') or a card's name
('1/2/4 A100', '1、2、4 x H100'), s42."""


def _count_items(s: str, count: int, unread: list[int]) -> list[float]:
    """The items of a written list of GPU counts whose last is ``count``, the count the parse read, and
    whose other items it left unread (``unread``): '用 1/2/4 张 A100 微调', 'on 1/2/4 A100' (s42, issue 24
    item 4). The list must rise and be followed by a card word or name (:data:`CARDS_AFTER_RE`); else []."""
    for m in _runs(RUN_RE, s):
        items = [int(v) for v in re.findall(r"\d+", m.group(0))]
        rising = items == sorted(set(items)) and items[-1] == count
        if rising and set(items[:-1]) <= set(unread) and CARDS_AFTER_RE.match(s, m.end()):
            return [float(v) for v in items]
    return []


def _lengths(s: str, first: int, others: list[str]) -> list[float]:
    """The lengths of a written list in k holding the request's and the other lengths named, else []."""
    for m in _runs(K_RUN_RE, s):
        items = [int(v) * 1024 for v in re.findall(r"\d+", m.group(0))]
        if first in items and all(_num(t) in items for t in others):
            return [float(v) for v in items]
    return []


KEYED_RUN_RE = re.compile(
    rf"(?<![\w.\-])(?P<k>-{{0,2}}[a-z_][\w.\-]*)\s*=\s*\d{{1,6}}(?![\d.])"
    rf"(?:{_SEP}(?P=k)\s*=\s*\d{{1,6}}(?![\d.]))+",
    re.I,
)
"""One launcher or config key written with each of its values as options ('GPUS_PER_NODE=1 or
GPUS_PER_NODE=2', 'per_device_train_batch_size=2 / per_device_train_batch_size=4', 'nproc_per_node=4 或
nproc_per_node=8'; s46 leftovers #3): the key repeated, joined by a list's separator (:data:`_SEP`)."""
KEY_SETTINGS = (("batch", "batch_size"), ("gpu", "gpu_count"), ("nproc", "gpu_count"))
"""A word in the key → the setting its values are (the first that the key holds): a micro-batch key
('per_device_train_batch_size') before a GPU one, as 'batch' never names a count of GPUs."""


def keyed_list(s: str, request: SizingRequest) -> tuple[str, list[float]] | None:
    """(setting, its values in the order written) of a key written with each of its options
    (:data:`KEYED_RUN_RE`) when the request's value of that setting is one of them, else None. Gated at its
    call site by two '=' in the message."""
    for m in KEYED_RUN_RE.finditer(s):
        key = m.group("k").lower()
        setting = next((field for word, field in KEY_SETTINGS if word in key), None)
        if setting is None:
            continue
        items = [float(v) for v in re.findall(r"=\s*(\d+)", m.group(0))]
        if getattr(request, setting) in items and len(set(items)) > 1:
            return setting, list(dict.fromkeys(items))
    return None


def listed(parsed: ParseResult, request: SizingRequest) -> tuple[str, list] | None:
    """(setting, every value asked, the sized one first) of a list of values of one setting, else None."""
    named = [(t, why) for t, why in parsed.unused_numbers if why in _NAMED]
    keyed: dict[str, list[float]] = {}
    for text, why in named:
        key, _, value = text.partition(":")
        v = _num(value) if why in ("other_setup", "measured_load") and value else None  # s46: a sweep's
        if key.strip() in SETTINGS and v is not None and getattr(request, key.strip()) is not None:
            keyed.setdefault(key.strip(), [float(getattr(request, key.strip()))]).append(v)
    if keyed:
        key, values = next(iter(keyed.items()))
        return key, list(dict.fromkeys(values))
    s = parsed.normalized or ""
    if any(t.startswith(_WORD_PREFIXES) for t, _ in named):  # s39: formats or model sizes written as a list
        from bot.parse.name_list import names_listed  # imported when used: start-up

        if found := names_listed(s, request, [t for t, _ in named]):
            return found
    if s.count("=") > 1 and (found := keyed_list(s, request)) is not None:  # 'GPUS_PER_NODE=1 or …=2'
        return found
    bare = [int(t) for t, why in named if why != "repeated" and t.strip().isdigit()]
    setup = [int(t) for t, why in named if why == "other_setup" and t.strip().isdigit()]
    for key in ("concurrency", "batch_size") if bare else ():  # '并发 10、20、50': the items of its list
        first = getattr(request, key)
        items = _items(s, first, bare, setup if key == "concurrency" else None) if first else []
        if len(items) > 1:
            return key, items
    if bare and request.gpu_count and not request.gpu_count_max:  # s42: '1/2/4 张 A100', 'on 1/2/4 A100'
        counts = _count_items(s, int(request.gpu_count), bare)
        if len(counts) > 1:
            return "gpu_count", counts
    if request.gpu_count and request.gpu_count_max:
        counts = _counts(s, request.gpu_count, request.gpu_count_max)
        if len(counts) < 2 and parsed.node_counts:  # s41: node counts, each × GPUs per node
            counts = [float(n) for n in parsed.node_counts]
        if len(counts) > 1:
            return "gpu_count", counts
        # s47 review B6: 'on 4 H100s vs 8 H100s' served — no GPUs → days table shows a count range there,
        # so each end gets its row (else the second count went unsaid)
        if (
            request.stage in (None, "inference") and not request.tokens
        ) or "gpu_counts_worked" in parsed.notes:  # s49: counts tried, the last worked
            return "gpu_count", _with_between(s, int(request.gpu_count), int(request.gpu_count_max))
    if RANGE_CUE.search(s):  # s41: a range's ends ('concurrency 4 to 64', '16k 到 128k'): a row each
        from bot.parse.value_range import ranged  # imported when used: start-up

        if (found := ranged(parsed, request)) is not None:
            return found if found[1] else None  # s42: [] a length range sized at its longer end
    if request.gpu_count and request.gpu_count_max:  # a count range: no other list read beside it
        return None
    in_k = [t for t, _ in named if re.fullmatch(r"\d{1,4}\s*[kK]", t.strip())]
    if in_k and request.seq_len:
        lengths = _lengths(s, request.seq_len, in_k)
        return ("seq_len", lengths) if len(lengths) > 1 else None
    mem = request.gpu_memory_gib
    # the other memory asked as the other option ('如果不行，12GB 可以吗', 'what about the 12GB?', named
    # other_setup by bot.parse) or a second memory a question follows ('6GB 能跑吗？12GB 可以吗？', repeated)
    said = [re.sub(r"\s*gi?b?$", "", t.strip(), flags=re.I) for t, why in named if why != "unread"]
    run = _memories(s, mem, [re.sub(r"\s*gi?b?$", "", t.strip(), flags=re.I) for t, _ in named])
    if len(run) > 1:  # '24G 还是 48G 的卡', '24G, 48G or 80G': the items of the written list
        return "gpu_memory_gib", run
    sizes = [_num(t) for t in said if _num(t) and _asked(s, t)]
    if mem and sizes:
        return "gpu_memory_gib", list(dict.fromkeys([float(mem), *sizes]))
    return None


def num(text: str) -> float | None:
    """A value named as not used ('20', '32k') as a number, else None."""
    return _num(text)


KEY_OF = {"model": "params_total"}
"""The setting of a row whose values the parse names under another key ('model: 13B': a size, s39)."""


def value_of(text: str, setting: str) -> float | str | None:
    """The number of a value named as not used, a memory's 'GB' dropped for ``gpu_memory_gib``; a weight
    format's name for ``precision`` and a bare size's parameters for ``params_total`` (s39)."""
    if setting in ("precision", "params_total"):
        from bot.parse.name_list import named_value

        return named_value(text, setting)
    if setting == "seq_len" and (m := re.fullmatch(r"\s*(\d+)\s*[mM]\s*", text)):
        return float(int(m.group(1)) * 1024 * 1024)  # s42: '1M' of context (bot.parse.value_range._UNIT)
    v = re.sub(r"\s*gi?b?$", "", text.strip(), flags=re.I) if setting == "gpu_memory_gib" else text
    return _num(v)


def lists_numbers(text: str) -> bool:
    """Whether ``text`` writes two numbers as a list (:data:`LISTED_NUMBERS`), or one key with each of its
    values (:data:`KEYED_RUN_RE`, behind two '=' in the text): the gate of the rows."""
    if LISTED_NUMBERS.search(text) is not None:
        return True
    return text.count("=") > 1 and KEYED_RUN_RE.search(text) is not None
