"""Step 2b: GPU names (catalog ids/aliases + memory/form-factor variant) and GPU-like names not in
the catalog, masked in the text so their digits are not read as numbers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from bot.later_names import called_card, counted_number
from bot.parse import fixed_patterns as fp
from bot.parse import lexicon as lx
from bot.parse.card_vendors import UNKNOWN_GPU_VENDORS
from bot.parse.gpu_table import GpuTable
from bot.parse.name_store import GpuIndexData, stored_gpu_index
from bot.parse.normalize import GPU_MARK, UNKNOWN_GPU_MARK, mask
from bot.parse.regex import LazyPattern, compile_pattern, rc
from estimator import catalog

_GPU_SPEC = r"(?:\d{2,3}\s*g(?:b|ib)?|pcie|sxm\d?|nvl|hbm\d?e?)"


_NOT_A_VARIANT = (
    r"(?![\s\-_]*(?:ti|super)(?![a-z0-9])|(?<=\d{4})[\s\-_]*d(?:[\s\-_]*v2)?(?![a-z0-9_]|[\-.][a-z0-9]))"
    r"(?:(?<!m[1-5])|(?![\s\-_]*(?:pro|max|ultra)(?![a-z0-9])))"
    r"(?:(?<!halo)|(?![\s\-_]*3\d{2}(?![\d.])))"
)
"""No card name ends where a Ti / Super variant's word follows: 'RTX 3060 Ti' is not the RTX 3060 (its own
GA104 chip, 8 GB, 448 GB/s against the 3060's 12 GB, 360 GB/s; NVIDIA's RTX 3060 family spec page). A
variant in the catalog matches its own longer alias first ('3090 ti', '4070 super', '4090 d'); one not in
it is left to :data:`bot.parse.lexicon.UNKNOWN_GPU_RE` and named as typed (s21 fixa #7). s25: NVIDIA's
China 'D' parts likewise ('RTX 5090 D', 'RTX 5090 D v2': 24 GB, not the RTX 5090's 32 GB, en13-012): only
after a GeForce-style 4-digit number and with a right boundary, so 'A100 d_model 4096', 'H100 d-model',
'A100 d.' keep their card (review s25 item 5). An Apple base chip's name ('MacBook Pro M3', 'M4') does not
end where Pro / Max / Ultra follows: 'MacBook Pro M3 Max' is the M3 Max (400 GB/s), not the M3 (100 GB/s;
s25 trial #1). s48: 'Strix Halo' does not end where a Ryzen AI Max SKU follows ('a Strix Halo 388 with
64GB' is another chip than the 395 the catalog sizes as Strix Halo, named as typed; 'Strix Halo 395' has its
own alias)."""

_VENDOR_WORDS = ("nvidia", "geforce", "tesla", "amd", "instinct", "华为")
"""Words that may come before a card's name ('NVIDIA A100', '华为 910B')."""
_SEPARATOR_CHARS = " \t\n\r\f\v-_"
"""What ``[\\s\\-_]`` matches (ASCII mode)."""


def _first_chars(keys: list[str]) -> str:
    """Every character a match of the names ``keys`` (normalized, chunks joined by spaces; the pattern
    joins chunks with ``[\\s\\-_]*``) or of a vendor word can start with, as a character class body."""
    chars = {word[0] for word in _VENDOR_WORDS}
    for key in keys:
        for chunk in key.split(" "):
            if chunk:
                chars.add(chunk[0])
                break
            chars.update(_SEPARATOR_CHARS)  # an empty first chunk: the separator may start the name
    return "".join(re.escape(c) for c in sorted(chars))


def _gpu_pattern(body: str, starts: str) -> LazyPattern:
    """The pattern of the card names ``body`` (an alternation), whose matches all start with a character
    of the class ``starts`` (:func:`_first_chars`). That look-ahead changes no match; it spares the
    engine the alternation of ~360 names at every position where no name can start (a Chinese character,
    a space, punctuation: ~65 → ~20 µs a message)."""
    return rc(_gpu_source(body, starts))


def _gpu_source(body: str, starts: str) -> str:
    """The source of :func:`_gpu_pattern`."""
    vendors = "|".join(rf"{re.escape(word)}\s*" for word in _VENDOR_WORDS)
    return (
        rf"(?:(?<![a-z0-9])|(?<=\dx))(?<!bi[\s\-_])(?<!mr[\s\-_])"  # s33: not Iluvatar's BI-V100 / MR-V100
        rf"(?=[{starts}])(?:{vendors})?(?P<name>{body}){_NOT_A_VARIANT}"
        rf"(?P<spec>(?:[\s\-_]*{_GPU_SPEC}(?![a-z0-9]))*)(?:s)?(?:(?![a-z0-9])|(?=x\d{{1,4}}x\d))"
    )


def _table_pattern(body: str, starts: str) -> re.Pattern[str]:
    """:func:`_gpu_pattern` compiled now, for :class:`bot.parse.gpu_table.GpuTable`."""
    return re.compile(_gpu_source(body, starts), re.ASCII)


@dataclass(slots=True)
class _GpuIndex:
    """The catalog's GPU names and the pattern that finds them.

    The pattern is one alternation of every name (6.5 kB, ~27 ms to compile). The first text a process
    reads (``sizing-bot ask``: the only one) is matched with the alternation of just the names whose
    every literal chunk occurs in it: a name with a chunk absent from the text cannot match, so the
    matches are the same; later texts (the bot) go through :class:`~bot.parse.gpu_table.GpuTable`: at
    each place a name may start, the same pattern over just the names beginning with the character
    there (the full alternation's matches, one small pattern per first character, built once)."""

    names: dict[str, str]  # normalized alias → gpu id
    alternatives: list[tuple[str, tuple[str, ...]]]  # (regex of a name, its literal chunks), longest first
    families: dict[str, list[str]]  # family → ids
    regex: LazyPattern  # every name
    table: GpuTable  # every name, by first character
    texts: int = 0

    def pattern_for(self, text: str) -> LazyPattern | GpuTable | None:
        """The pattern to find names in ``text`` (None: no name can occur in it)."""
        self.texts += 1
        if self.texts > 1:
            return self.table
        named = [(alt, chunks) for alt, chunks in self.alternatives if all(c in text for c in chunks)]
        body = "|".join(alt for alt, _ in named)
        return _gpu_pattern(body, _first_chars([" ".join(chunks) for _, chunks in named])) if body else None


def _gpu_key(name: str) -> str:
    return " ".join(fp.NAME_SEPARATORS.split(name.lower().strip()))


def is_gpu_name(name: str) -> bool:
    """Whether ``name`` is a card's name (a catalog alias, or a name like one: 'A100', 'Titan V')."""
    return _gpu_key(name) in _gpu_index().names or bool(lx.UNKNOWN_GPU_RE.fullmatch(name.lower().strip()))


@cache
def _gpu_index() -> _GpuIndex:
    gpus = catalog.gpus()
    stored = stored_gpu_index(gpus)  # the build's, when built from this catalog by this code
    names, alternatives, families, starts = built_gpu_names(gpus) if stored is None else stored
    regex = _gpu_pattern("|".join(alt for alt, _ in alternatives), starts)
    table = GpuTable(
        [(alt, chunks[0][:1]) for alt, chunks in alternatives], _table_pattern, starts, _VENDOR_WORDS
    )
    return _GpuIndex(names, alternatives, families, regex, table)


def built_gpu_names(gpus: dict[str, catalog.GpuSpec]) -> GpuIndexData:
    """The catalog ``gpus``' names, each name's regex and chunks (longest first), the families' ids and the
    names' first characters (what the build stores: bot.parse.name_store)."""
    names: dict[str, str] = {}
    families: dict[str, list[str]] = {}
    for g in gpus.values():
        families.setdefault(g.family, []).append(g.id)
        default = catalog.default_gpu_for_family(g.family)
        for alias in (g.id, g.family, *g.aliases):
            key = _gpu_key(alias)
            if key and (key not in names or (default and names[key] != default.id and g.id == default.id)):
                names[key] = g.id
    alternatives = [
        (r"[\s\-_]*".join(re.escape(chunk) for chunk in key.split(" ")), tuple(key.split(" ")))
        for key in sorted(names, key=len, reverse=True)
    ]
    return names, alternatives, families, _first_chars(list(names))


@dataclass(slots=True)
class GpuMention:
    start: int
    gpu_id: str
    memory_gib: float | None
    memory_per_card_stated: bool = False
    """The memory was written as one card's, never a total: a modified card's ('2080ti 魔改 22G') or glued
    to the card's name as a variant's ('A800-128G'). (s49: was ``modded``, which said only the first.)"""


_PRE_MEM_RE = rc(
    r"(?P<mem>\d{2,3})\s*g(?:b|ib)?\s*(?:的|显存的?|vram)?\s*(?:(?:魔改|改装)(?:版)?(?:的)?|mod(?:ded|ified)?)?\s*$"
)
_AFTER_MEM_RE = rc(
    r"(?P<node>\s*(?:服务器|机器|节点|nodes?|servers?|machines?|boxes|gpus|cards))?\s*[(（]\s*(?:(?P<n>\d{1,2})\s*[x×*]\s*)?"
    r"(?P<gib>\d{2,3})\s*g(?:b|ib)?(?:\s*each|\s*每[张块卡])?\s*[)）]"
)
"""The memory in brackets after a card: 'A100 (40G)', 'DGX-A100 (8X40G)', 'A100 服务器（8×40G）' (eight
cards of 40 GB each), 'V100 GPUs (32GB)' (how :mod:`bot.parse.plural_cards` writes 'V100s (32GB)')."""
_MOD_MEM_RE = rc(
    r"\s*(?:[(（]\s*)?(?:魔改|改装|mod(?:ded|ified)?)\s*(?:版|过)?\s*(?:的)?\s*(?:到|成|为|to|with)?\s*"
    r"(?P<gib>\d{2,3})\s*g(?:b|ib)?(?![a-z])"
)
"""A modified card's memory after its name: '2080ti 魔改 22G', '4090 modded to 48GB' (cards resold with
doubled memory chips): the memory sized is the stated one (estimator.resolve)."""
_TIMES_MEM_RE = rc(
    r"\s*[x×*]\s*(?P<n>\d{1,4})\s*(?:[x×*]|[(（]|\s)\s*(?P<gib>\d{2,3})\s*g(?:b|ib)?(?![a-z])(?:\s*[)）])?"
)
"""Card × count × memory: 'A100x8x80G'; session 22: the memory after a space or in brackets ('A800*8 80G',
'H100 x8 (80GB)')."""
_MEM_IN_SPAN_RE = rc(r"(?<![a-z0-9])(\d{2,3})\s*g(?:b|ib)?(?![a-z])")


_NODES_BEFORE_RE = rc(
    r"(?:\d|[一二两三四五六七八九十])\s*(?:个\s*)?(?:台|节点|nodes?|machines?|servers?)\s*$"
)


def _card_count(after: re.Match[str], before: str) -> bool:
    """Whether the count in a memory after a card ('A100x8x80G', 'H200（8*141G）') is the cards': not
    when the brackets follow a node word or a node count ('三台 A100 服务器（8×40G）': per node, read as
    nodes × cards by :mod:`bot.parse.node_words`)."""
    groups = after.groupdict()
    if groups.get("n") is None or groups.get("node"):
        return False
    return after.re is _TIMES_MEM_RE.compiled or not _NODES_BEFORE_RE.search(before)


SAME_NAME = {"RTX-6000-Ada": ("Quadro-RTX-6000", "RTX-PRO-6000-Blackwell")}
"""Cards a bare name is also people's name for (a bare 'RTX 6000' reads as the Ada card; its memory, 24 or
96 GB, names the Quadro or the PRO Blackwell one: s35-fixa #5)."""


def _select_variant(gpu_id: str, span: str, memory: float | None) -> str:
    """The catalog variant meant: same family, the stated memory and form factor if any.

    'A100' → the family default (SXM4 80GB); 'A100 40G' / '40GB A100' → A100-SXM4-40GB;
    'A100 PCIe 40G' → A100-PCIe-40GB. A memory no variant has (A800 40G) keeps the named card.
    """
    family = catalog.gpu(gpu_id).family
    cands = list(map(catalog.gpus().__getitem__, _gpu_index().families.get(family, [gpu_id])))  # no frames
    if memory is not None:  # the memory names a card of the same name: 'RTX 6000 (96GB)' (s35-fixa #5)
        same = [*cands, *map(catalog.gpus().__getitem__, SAME_NAME.get(gpu_id, ()))]
        cands = [g for g in same if abs(g.memory_gib - memory) < 1] or cands
    for form in ("pcie", "nvl", "sxm"):
        if form in span:
            cands = [g for g in cands if form in g.id.lower()] or cands
            break
    ids = [g.id for g in cands]
    if gpu_id in ids:
        return gpu_id
    ranked = sorted(cands, key=lambda g: (not g.default_for_family, "pcie" in g.id.lower()))
    return ranked[0].id


def variant_of_memory(gpu_id: str, memory_gib: float | None) -> str:
    """The catalog variant of ``gpu_id``'s family with the memory stated for each card (GiB), in any word
    order ('A100 GPU 40GB', '40G 的 A100', 'A100 with 40 GB' → A100-SXM4-40GB; s11 trial: the 80 GB card
    was kept with 40 GiB beside it), of the same form factor when the family has one; ``gpu_id`` itself when
    no variant has that memory (a modified card, an unknown size)."""
    if memory_gib is None or abs(catalog.gpu(gpu_id).memory_gib - memory_gib) < 1:
        return gpu_id
    return _select_variant(gpu_id, gpu_id.lower(), memory_gib)


@cache
def largest_device_gib() -> float:
    """The most memory one discrete card has: a larger "显存" figure is a total over several
    (Macs are left out: their unified memory is not what "显存" sums)."""
    return max(g.memory_gib for g in catalog.gpus().values() if g.gpu_memory_fraction is None)


def card_total(card: GpuMention, memory: float) -> bool:
    """Whether ``memory`` said beside ``card`` with no count is several such cards' memory
    (:func:`bot.parse.card_memory.beyond_one_card`, over the variants of its family)."""
    if unified(card.gpu_id) or card.memory_per_card_stated:
        return False
    family = catalog.gpu(card.gpu_id).family
    variants = [
        g.memory_gib
        for g in map(catalog.gpus().__getitem__, _gpu_index().families.get(family, [card.gpu_id]))
    ]
    from bot.parse.card_memory import beyond_one_card

    return beyond_one_card(card.gpu_id, memory, variants)


def family_memory(gpu_id: str) -> float:
    """The most memory (GiB) any catalog variant of the family of ``gpu_id`` has (A100 → 80)."""
    family = catalog.gpu(gpu_id).family
    ids = _gpu_index().families.get(family, [gpu_id])
    return max(catalog.gpus()[g].memory_gib for g in ids)


def unified(gpu_id: str) -> bool:
    """Apple silicon: one chip per machine, sold with several memory sizes."""
    return catalog.gpu(gpu_id).gpu_memory_fraction is not None


def one_box(gpus: list[GpuMention]) -> bool:
    """The cards named are machines of one GPU each (a DGX Spark, a Mac: ``gpus_per_node`` 1), so
    '两台 DGX Spark' is two devices, not two machines of eight (s31 trial)."""
    return bool(gpus) and catalog.gpu(gpus[0].gpu_id).gpus_per_node == 1


def extract_gpus(s: str) -> tuple[str, list[GpuMention]]:
    idx = _gpu_index()
    found: list[GpuMention] = []
    spans: list[tuple[int, int]] = []
    rewrites: list[tuple[int, int, str]] = []
    pattern = idx.pattern_for(s)
    for m in pattern.finditer(s) if pattern is not None else ():
        gid = idx.names.get(_gpu_key(m.group("name")))
        laptop = gid is not None and _LAPTOP_BEFORE_RE.search(s[max(0, m.start() - 24) : m.start()])
        if laptop:
            gid = _laptop_part(idx.names, _gpu_key(m.group("name")))  # its laptop part, else unknown
        if gid is None or (m.group("name").isdigit() and counted_number(s, m.end(), m.start("name"))):
            continue  # '5070 samples', '4090 条数据': a count, not the card (s46 fixrev #4)
        start, end = m.start(), m.end()
        span = m.group(0)
        memory: float | None = None
        per_card = False
        mem_m = _MEM_IN_SPAN_RE.search(span) or (laptop and _ALIAS_MEMORY_RE.search(span))
        if mem_m:
            memory = float(fp.NON_DIGIT.sub("", mem_m.group(0)))
            per_card = span[mem_m.start() - 1 : mem_m.start()] == "-"  # 'A800-128G': a variant's name
        pre = _PRE_MEM_RE.search(s[max(0, start - 12) : start])
        if pre and memory is None:
            memory, per_card = float(pre.group("mem")), bool(fp.MODDED.search(pre.group(0)))
            start = start - (len(pre.group(0)))
        after = _AFTER_MEM_RE.match(s, end) or _TIMES_MEM_RE.match(s, end) or _MOD_MEM_RE.match(s, end)
        if after and memory is None:
            memory = float(after.group("gib"))
            if "n" in after.re.groupindex and _card_count(after, s[max(0, start - 12) : start]):
                # "A100x8x80G", s21: "H200（8*141G）" → "A100 x 8": the count, read as one
                rewrites.append((end, after.end(), f" x {after.group('n')}"))
            elif after.re is _MOD_MEM_RE.compiled:  # "魔改 22G": the card's, not a number left to read
                end, per_card = after.end(), True
        if memory is None:
            with_mem = fp.WITH_MEMORY.match(s[end:])
            if with_mem:  # 'A100 with 40 GB': the card's memory, read with it (not a number left)
                memory, end = float(with_mem.group(1)), end + with_mem.end()
        if memory is not None and (each := fp.MEMORY_EACH.match(s, end)):
            end = each.end()  # '32x H200 141GB each': the memory's 'each' (fp.MEMORY_EACH, s50 #1)
        found.append(GpuMention(start, _select_variant(gid, span, memory), memory, per_card))
        spans.append((start, end))
    if "m1" in s or "m2" in s or "m3" in s or "m4" in s:  # a bare Apple base chip: bot.parse.bare_chips
        _bare_chips(s, idx, found, spans)
    for start, end, text in rewrites:
        s = s[:start] + text.ljust(end - start) + s[end:]
    for start, end in reversed(spans):
        s = mask(s, start, end, GPU_MARK)
    return s, found


def _bare_chips(s: str, idx: _GpuIndex, found: list[GpuMention], spans: list[tuple[int, int]]) -> None:
    """Add each bare Apple base chip typed with its memory that no catalog name took to ``found``."""
    from bot.parse.bare_chips import bare_chips

    for start, end, alias, memory in bare_chips(s):
        gid = idx.names.get(alias)
        if gid is not None and not any(a < end and start < b for a, b in spans):
            found.append(GpuMention(start, _select_variant(gid, alias, memory), memory))
            spans.append((start, end))


def _laptop_part(names: dict[str, str], key: str) -> str | None:
    """The laptop part of the card named ``key`` ('4060' → RTX-4060-Laptop), None when the catalog has none.
    A desktop alias that carries a memory ('4060 8g', the desktop RTX 4060's) is looked up without it:
    '笔记本4060 8G' is the RTX 4060 Laptop with its 8 GB stated (s26 trial #2: before, no '4060 8g laptop'
    name matched and the card was called uncatalogued), the memory then read from the span as for any card."""
    gid = names.get(key + " laptop")
    if gid is None and (bare := _ALIAS_MEMORY_RE.sub("", key)) != key:
        gid = names.get(bare + " laptop")
    return gid


_ALIAS_MEMORY_RE = rc(r"\s+\d{1,3}\s*g(?:b|ib)?$")
"""A memory that ends a card's alias after a space ('4060 8g', '4070 12g'; not the 'A10G's letter)."""


_LAPTOP_BEFORE_RE = rc(
    r"(?:笔记本(?:电脑)?|游戏本|laptop|notebook)(?:\s*(?:with\s*1|1\s*张))?[\s:：,，]*(?:是|上|的|里)?\s*(?:nvidia\s*)?$"
)
"""A laptop said right before a card ('笔记本 4090', and 'laptop with 1 rtx 4090' / '笔记本 1 张 rtx 4080' as
bot.parse.hardware_specs writes 'RTX 4090 Laptop', 'my laptop has an RTX 4080'): the card is the laptop
part of that number, a catalog entry of its own ('RTX 4090 Laptop': 16 GB at 576 GB/s, not the desktop
card's 24 GB at 1,008 GB/s; s21 fixa #6), or, with none in the catalog, an unknown card named as typed
(:data:`_LAPTOP_CARD_RE`)."""
_LAPTOP_CARD_RE = rc(
    r"(?:笔记本(?:电脑)?|游戏本|laptop|notebook)(?:\s*(?:with\s*1|1\s*张))?[\s:：,，]*(?:是|上|的|里)?\s*"
    r"(?P<card>(?:nvidia\s*)?(?:geforce\s*)?(?:rtx|gtx)?[\s\-]*\d{4}(?:[\s\-]*(?:ti|super))?)(?![a-z0-9])"
)
"""A laptop's card with no laptop part in the catalog ('笔记本 3050', 'RTX 2070 Laptop'): named as typed,
'… laptop', never sized as the desktop card of that number."""


_CASED = {"rtx": "RTX", "gtx": "GTX", "nvidia": "NVIDIA", "geforce": "GeForce", "ti": "Ti", "super": "Super"}
"""How NVIDIA writes the words of a card's name (the laptop card named as typed: 'RTX 2070 Laptop')."""


def extract_unknown_gpu(s: str) -> tuple[str, str | None, list[str]]:
    laptop = (
        _LAPTOP_CARD_RE.search(s)
        if ("laptop" in s or "笔记本" in s or "游戏本" in s or "notebook" in s)
        else None
    )
    if laptop is not None:
        words = [_CASED.get(w, w) for w in laptop.group("card").replace("-", " ").split()]
        name = " ".join([*words, "Laptop"])
        start, end = laptop.span("card")
        return mask(s, start, end, UNKNOWN_GPU_MARK), name, gpu_suggestions(name)
    for m in lx.UNKNOWN_GPU_RE.finditer(s):  # a loop, not next(genexpr): no generator frame a parse
        from bot.parse.accelerator_family import family_only

        if not _active_size(s, m) and not (GPU_MARK in s and family_only(m.group(0))):
            break  # a family word beside a catalog card ('AMD GPUs (MI210 64GB)') is that card's
    else:
        cue = "called " in s or "named " in s or "叫" in s  # 'a card called Foo X1' (s41 trial #8)
        if not cue or (m := called_card(s)) is None:
            return s, None, []
    if not any(map(str.isdigit, m.group(0))):  # s46: a family, then a member of it typed with its model
        from bot.parse.accelerator_family import member_after

        m = member_after(s, m) or m
    name = m.group(0).strip().lstrip("\ue003")  # 'an A3' in a message about Ascend (bot.parse.normalize)
    name = name[:-1] if name[-1:] == "s" and name[-2:-1].isdigit() else name  # s37: 'two GTX 1080s'
    s = mask(s, m.start(), m.end(), UNKNOWN_GPU_MARK)
    if _JOINED_MEMORY_RE.match(s, m.end()):  # 'H20e-141G', 'MLU370-48G' (round 15)
        s = (
            s[: m.end()] + " " + s[m.end() + 1 :]
        )  # the card's memory, not a minus sign ('-141' was named nonpositive)
    return s, name, gpu_suggestions(name)


_JOINED_MEMORY_RE = re.compile(r"[-_]\d{1,3}\s*(?:gb|gib|g)\b")
"""A memory joined to an unknown card's name by a hyphen ('H20e-141G*6', 'MLU370-48G'): that card's memory."""


_LETTERS = compile_pattern(r"[a-z]+")
"""A card name's leading letters (:func:`series`)."""


def _active_size(s: str, m: re.Match[str]) -> bool:
    """'a12b' right after a size ('120b-a12b'): the active parameters of an MoE, not a GPU."""
    before = s[max(0, m.start() - 12) : m.start()]
    return bool(_ACTIVE.fullmatch(m.group(0))) and bool(_SIZE_END.search(before))


_ACTIVE = compile_pattern(r"a\d+(?:\.\d+)?b")
"""An MoE's active size as a name ('a12b'; fullmatch)."""
_SIZE_END = compile_pattern(r"\d(?:\.\d+)?b[\-_]?$")
"""A size right before it ('120b-')."""


def gpu_suggestions(name: str, n: int = 3) -> list[str]:
    """Catalog families to suggest for an unknown card, only on a real name match: its vendor's cards
    (vendor words in :data:`bot.parse.card_vendors.UNKNOWN_GPU_VENDORS`), or cards of its series — the same
    model letters (:func:`series`: 'H300' → H800 / H200 / H100, 'MI355X' → MI300X …) — closest in name
    first. None otherwise: string similarity alone pairs unrelated cards (Cambricon's MLU370 scored
    nearest to AMD's MI300X), and a vendor with no card in the catalog (Moore Threads, MetaX) has none
    to offer; the reply then says how to give the card's memory and speed instead."""
    import difflib  # here: only an unknown card needs it (start-up)

    vendor = next((v for pat, v in UNKNOWN_GPU_VENDORS if pat.search(name)), None)
    from bot.parse.accelerator_family import family_only, huawei_npu

    if "npu" in name.lower():  # s37-gen: a bare 'NPU', the NPUs the catalog holds; s37-rev: never another's
        return _largest_families("Huawei", 99)[:SHOWN_SUGGESTIONS] if huawei_npu(name) else []

    if vendor is not None and family_only(name):  # 'AMD 的卡', 'AMD GPUs': more than are shown, the largest
        largest = _largest_families(vendor, 99)
        if len(largest) > SHOWN_SUGGESTIONS:
            return largest[:SHOWN_SUGGESTIONS]
    from bot.parse.accelerator_family import family_only

    if vendor is None and family_only(name):  # 'H 卡', 'H cards' (s28): the NVIDIA H line, largest first
        return [f for f in _largest_families("NVIDIA", 99) if series(f) == "h"][:SHOWN_SUGGESTIONS]
    if vendor is not None:
        pool = sorted({g.family for g in catalog.gpus().values() if g.vendor == vendor})
        return sorted(pool, key=lambda f: -difflib.SequenceMatcher(None, name, f.lower()).ratio())[:n]
    typed = series(name)
    lower = {f.lower(): f for f in catalog.families() if typed and series(f) == typed}
    return [lower[c] for c in difflib.get_close_matches(name, list(lower), n=n, cutoff=0.0)]


SHOWN_SUGGESTIONS = 4
"""How many suggestions a reply shows (bot.render.understood: ``gpu_suggestions[:4]``)."""


def _largest_families(vendor: str, n: int) -> list[str]:
    """A vendor's catalog families, the most memory per card first (ties by name), ``n`` of them: for a
    family typed without a model whose vendor has more parts than a reply shows ('AMD GPUs', s28) the
    datacenter parts people mean (MI350X / MI355X / MI325X / MI300X at 288/288/256/192 GB,
    estimator/data/gpus.toml), not the nearest names by spelling (Radeon PRO W7800 / W7900 / MI210)."""
    most: dict[str, float] = {}
    for g in catalog.gpus().values():
        if g.vendor == vendor:
            most[g.family] = max(most.get(g.family, 0.0), g.memory_gib)
    return sorted(most, key=lambda f: (-most[f], f))[:n]


_BRAND_WORDS = ("nvidia", "geforce", "tesla", "quadro", "rtx", "gtx", "titan", "ascend", "huawei", "amd")
"""Brand words before a card's model letters ('Tesla P100', 'RTX A6000'): not its series."""


def series(name: str) -> str:
    """A card's model letters, brand words dropped: 'H100' → 'h', 'MI300X' → 'mi', 'RTX A6000' → 'a',
    'MLU370' → 'mlu', 'RTX 4090' → '' (digits only: no series of letters)."""
    key = fp.NAME_SEPARATOR.sub("", name.lower())
    stripped = True
    while stripped:
        stripped = False
        for word in _BRAND_WORDS:
            if key.startswith(word) and len(key) > len(word):
                key, stripped = key[len(word) :], True
    m = _LETTERS.match(key)
    return m.group(0) if m else ""


_PLURAL_NAME_RE = rc(r"(?:rtx\s*|nvidia\s*|tesla\s*)?[a-z0-9\-]*?\d[a-z0-9\-]*?s(?![a-z0-9])")


def plural_card(s: str, card: GpuMention) -> bool:
    """Whether ``card`` is written in the plural in ``s`` ('4090s', 'H100s'): the name less its final
    's' is the same card ('L40S' less its 's' is not: the S is part of that card's name)."""
    m = _PLURAL_NAME_RE.match(s, card.start)
    if m is None:
        return False
    _, singular = extract_gpus(m.group()[:-1])
    return any(g.gpu_id == card.gpu_id for g in singular)
