"""Question text → typed SizingRequest (Chinese and English).

The parse runs in fixed steps on one normalized string (design §4):

1. normalize: NFKC (full-width → ASCII), keycap digits, no zero-width/bidi/control characters,
   Traditional → Simplified key words, lower case, common typos, markup removed; prompt-injection
   sentences dropped; very long pasted input reduced to its prose (head and tail).
2. names: models (catalog ids and aliases, then family + version + size), precisions and
   parallelism settings (``TP=8``), GPUs (catalog ids/aliases + memory/form-factor variant) and
   GPU-like names not in the catalog. Each name is masked in the text (GPU → ``\\ue000``) so its
   digits are not read as numbers, while "8卡H20" / "64x H100" still see where the GPU was.
3. numbers (:mod:`bot.parse.numbers`), each given a role by the words attached to it: right-hand words
   first ("7B模型", "2T tokens", "8卡", "30天", "40% MFU"), then left-hand words ("模型有…",
   "上下文32K", "bs=1", "$2.50"). Bare sizes ("70B", "2T") fill params first, then tokens.
   "模型有130亿token，数据是2万亿参数" (words on both sides disagree) is a unit swap: the smaller
   number is the model.
4. stage, method, algorithm from keywords; everything assembled into a SizingRequest field by
   field, dropping values a field would reject (non-positive, NaN, absurd). Never raises.
"""

from __future__ import annotations

import difflib
import html
import math
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from bot.parse import lexicon as lx
from bot.parse.numbers import NumberToken, magnitude_value, parse_money, parse_number, scan_numbers
from estimator import catalog
from estimator.models import SizingRequest


def _rc(pattern: str) -> re.Pattern[str]:
    """Compile with ASCII \\b, \\w, \\d: CJK characters must not count as word characters."""
    return re.compile(pattern, re.ASCII)

Lang = Literal["zh", "en"]

LONG_INPUT_CHARS = 3000
"""Above this, pasted data lines are dropped and only the head and tail of the text are parsed."""
HEAD_CHARS, TAIL_CHARS = 1000, 3000

GPU_MARK = "\ue000"  # a catalog GPU was here
UNKNOWN_GPU_MARK = "\ue002"  # a GPU-like name not in the catalog was here
MODEL_MARK = "\ue001"  # a model name was here
_MARKS = GPU_MARK + UNKNOWN_GPU_MARK


class ParseResult(BaseModel):
    """What the parser understood from one message."""

    request: SizingRequest
    lang: Lang = Field(description="language of the question: any CJK → 'zh'")
    found: list[str] = Field(default_factory=list, description="request fields taken from the text")
    gpu_alternatives: list[str] = Field(default_factory=list, description="other GPU ids when comparing")
    unknown_gpu: str | None = Field(None, description="a GPU-like name not in the catalog, as typed")
    gpu_suggestions: list[str] = Field(default_factory=list, description="closest catalog GPU families")
    unknown_model: str | None = None
    model_suggestions: list[str] = Field(default_factory=list)
    truncated: bool = Field(False, description="the text was cut before parsing")
    out_of_scope: bool = False
    # Extras (not request fields): what else was said, for the dialogue and the reply.
    preference: bool = Field(False, description="DPO/PPO/GRPO/RLHF: preference tuning (stage stays finetune)")
    asks_cost: bool = Field(False, description="the question asks what it costs ('多少钱', 'how much')")
    gpu_memory_gib: float | None = Field(None, description="memory per GPU when stated ('A100 40G')")
    gpu_count_max: int | None = Field(None, description="upper end when a range of GPUs was given")
    data_bytes: float | None = Field(None, description="training text given in bytes ('20GB 纯文本')")
    notes: list[str] = Field(default_factory=list, description="parser decisions worth showing")
    ignored_numbers: list[str] = Field(
        default_factory=list, description="numbers dropped as absurd (> 1e18 or not finite), as typed"
    )
    nonpositive_numbers: list[str] = Field(
        default_factory=list, description="zero or negative counts and sizes, dropped, as typed ('0', '-8')"
    )


def detect_lang(text: str) -> Lang:
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"


# ---------------------------------------------------------------------------------------------
# 1. Normalization

_KEYCAP_RE = _rc("([0-9#*])\ufe0f?\u20e3")
_DROP_CATEGORIES = {"Cc", "Cf", "Co", "Cs"}
_KEEP_CONTROLS = {"\n", "\t"}
_TAG_RE = _rc(r"<[^<>\n]{0,80}>")
_MARKUP_RE = _rc(r"[*`#\[\]【】{}\"“”‘’|]|(?<![a-z0-9])_+|_+(?![a-z0-9])")
_WORD_RE = _rc(r"[a-z][a-z\-]*[a-z]\.?")
_DATA_LINE_RE = _rc(r'^\s*(?:[{\[<|]|"[^"]{0,40}"\s*:|\w+\s*[:=]\s*\S+\s*[,;]\s*\w+\s*[:=])')


def normalize(text: str) -> str:
    """NFKC, keycap digits, drop invisible/control characters, Traditional → Simplified, lower case."""
    s = _KEYCAP_RE.sub(r"\1", text)
    s = s.replace("，", ", ").replace("、", ", ")  # keep "1,000" but not "8，128" as a number
    s = unicodedata.normalize("NFKC", s)
    s = "".join(
        ch for ch in s if ch in _KEEP_CONTROLS or unicodedata.category(ch) not in _DROP_CATEGORIES
    )
    s = s.translate(lx.TRAD_TO_SIMP).lower()
    s = s.replace("\ufe0f", "")
    for wrong, right in lx.CN_TYPOS.items():
        s = s.replace(wrong, right)
    return _WORD_RE.sub(lambda m: lx.TYPOS.get(m.group(0), m.group(0)), s)


def _reduce_long(text: str) -> tuple[str, bool]:
    """Drop pasted data lines (JSON, tables, logs) from a long message; keep head and tail."""
    if len(text) <= LONG_INPUT_CHARS:
        return text, False
    lines = [ln for ln in text.splitlines() if ln.strip() and not _DATA_LINE_RE.match(ln)]
    s = "\n".join(lines)
    if len(s) > HEAD_CHARS + TAIL_CHARS:
        s = s[:HEAD_CHARS] + "\n" + s[-TAIL_CHARS:]
    return s, True


_SENTENCE_SPLIT_RE = _rc(r"(?<=[。!?！？\n])|(?<=\.)(?=\s)|(?<=:)(?=\s*问题)|(?<=问题:)")


def _strip_injection(s: str) -> str:
    if not lx.INJECTION_RE.search(s):
        return s
    parts = _SENTENCE_SPLIT_RE.split(s)
    return "".join(p for p in parts if not lx.INJECTION_RE.search(p))


def _power(m: re.Match[str]) -> str:
    """'10^40' → '1e40', '1.5×10^12' keeps its mantissa via the caller's text ('1.5 1e12' → handled below)."""
    base, exp = float(m.group(1)), int(m.group(2))
    if base == 10:
        return f" 1e{exp}"
    try:
        return f" {base**exp:g}"
    except OverflowError:
        return " 1e999"


_MANTISSA_POWER_RE = _rc(r"(\d+(?:\.\d+)?)\s*[x×*]\s*10\s*(?:\^|\*\*)\s*([+-]?\d{1,4})")


def _prepare(text: str) -> tuple[str, bool]:
    s, truncated = _reduce_long(text)
    s = _MANTISSA_POWER_RE.sub(lambda m: f"{m.group(1)}e{m.group(2)}", s)  # 4.2×10^22 → 4.2e22
    s = _POWER_RE.sub(_power, s)  # 10^40 → 1e40
    s = html.unescape(s)
    s = _TAG_RE.sub(" ", s)
    s = normalize(s)
    s = _MARKUP_RE.sub(" ", s)
    s = _CN_PERCENT_RE.sub(_cn_percent, s)
    s = _GLUED_KEY_RE.sub(r"\1 ", s)  # "mfu40%", "bs8": let the number stand alone
    s = _strip_injection(s)
    for cn, en in lx.CN_MODEL_NAMES:
        s = s.replace(cn, f" {en}")
    s = _R1_FULL_RE.sub("deepseek-r1", s)
    s = _DISTILL_RE.sub(r"\1", s)  # "R1-Distill-Qwen-32B" has the shape of Qwen 32B
    s = _R1_ALONE_RE.sub("deepseek-r1", s)
    return s, truncated


_GLUED_KEY_RE = _rc(r"(?<![a-z])(mfu|bs|batch|epochs?|ctx)(?=\d)")
_CN_PERCENT_RE = _rc(r"百分之([零〇一二两三四五六七八九十百点]+|\d+(?:\.\d+)?)")


def _cn_percent(m: re.Match[str]) -> str:
    """'百分之四十' → '40%' (so the percent rules see it)."""
    value = parse_number(m.group(1))
    return m.group(0) if value is None else f" {value:g}%"


_R1_FULL_RE = _rc(r"deepseek[\s\-_]*r1")
_DISTILL_RE = _rc(r"(?:deepseek-)?r1[\s\-_]*distill[\s\-_]*(qwen|llama)")
_R1_ALONE_RE = _rc(r"(?<![a-z0-9\-])r1(?![a-z0-9])")


def _mask(s: str, start: int, end: int, mark: str) -> str:
    return s[:start] + mark + " " * (end - start - 1) + s[end:]


# ---------------------------------------------------------------------------------------------
# 2a. Models

_VER = r"(?:v|r)?\d+(?:\.\d+)?"
_SIZE = r"\d+\s?[x*×]\s?\d+(?:\.\d+)?b|\d+(?:\.\d+)?\s?[bm]"
_SUFFIX = r"instruct|chat|base|hf|it|moe|coder|mini|small|medium|large|preview"


@dataclass(slots=True)
class _ModelKey:
    fam: str
    ver: str | None
    size: str | None
    act: str | None
    model_id: str


@dataclass(slots=True)
class _ModelIndex:
    loose: dict[str, str]
    compact: dict[str, str]
    keys: list[_ModelKey]
    regex: re.Pattern[str]


def _loose(s: str) -> str:
    return re.sub(r"[\s_]+", " ", s.replace("*", "x").replace("×", "x")).strip(" -_.")


def _compact(s: str) -> str:
    return re.sub(r"[^a-z0-9.\u4e00-\u9fff]", "", s.replace("*", "x").replace("×", "x"))


def _size_key(size: str | None) -> str | None:
    return None if size is None else re.sub(r"[\s\-_]", "", size).replace("*", "x").replace("×", "x")


def _ver_key(ver: str | None) -> str | None:
    return None if ver is None else re.sub(r"[\s\-_]", "", ver)


def _model_regex(families: list[str]) -> re.Pattern[str]:
    fams = "|".join(re.escape(f) for f in sorted(set(families), key=len, reverse=True))
    return _rc(
        rf"(?<![a-z0-9])(?P<fam>{fams})"
        rf"(?P<ver>[\s\-_]*{_VER}(?![\d.]*\s?[bm](?![a-z]))(?!\s?[x*×]\s?\d))?"
        rf"(?P<size>[\s\-_]*(?:{_SIZE})(?![a-z0-9]))?"
        r"(?P<act>[\s\-_]*a\d+(?:\.\d+)?b(?![a-z0-9]))?"
        rf"(?P<suf>(?:[\s\-_]*(?:{_SUFFIX})(?![a-z0-9]))*)"
    )


@cache
def _model_index() -> _ModelIndex:
    models = catalog.models()
    families = list(lx.MODEL_FAMILIES)
    for m in models.values():
        first = re.split(r"[\s\-_\d.]", m.id.lower(), maxsplit=1)[0]
        if first:
            families.append(first)
    regex = _model_regex(families)
    loose: dict[str, str] = {}
    compact: dict[str, str] = {}
    keys: list[_ModelKey] = []
    for m in models.values():
        for name in (m.id, *m.aliases):
            t = name.lower()
            for cn, en in lx.CN_MODEL_NAMES:
                t = t.replace(cn, en)
            loose.setdefault(_loose(t), m.id)
            compact.setdefault(_compact(t), m.id)
        km = regex.match(m.id.lower())
        if km:
            keys.append(_ModelKey(
                km.group("fam"), _ver_key(km.group("ver")), _size_key(km.group("size")),
                _ver_key(km.group("act")), m.id,
            ))
    return _ModelIndex(loose, compact, keys, regex)


def _size_value(size: str | None) -> float | None:
    """'72b' → 7.2e10, '500m' → 5e8; None for MoE names like '8x7b' (not a total)."""
    if not size:
        return None
    m = re.fullmatch(r"[\s\-_]*(\d+(?:\.\d+)?)\s?([bm])", size)
    if not m:
        return None
    return float(m.group(1)) * (1e9 if m.group(2) == "b" else 1e6)


def _version_number(ver: str | None) -> float:
    if not ver:
        return 0.0
    try:
        return float(re.sub(r"[^\d.]", "", ver) or 0)
    except ValueError:
        return 0.0


@dataclass(slots=True)
class _ModelMention:
    start: int
    end: int
    text: str
    model_id: str | None
    size: float | None
    active: float | None
    suggestions: list[str] = field(default_factory=list)


def _match_model(core: str, fam: str, ver: str | None, size: str | None, act: str | None) -> str | None:
    idx = _model_index()
    for key in (_loose(core), _compact(core)):
        mid = idx.loose.get(key) or idx.compact.get(key)
        if mid:
            return mid
    cands = [k for k in idx.keys if k.fam == fam]
    if size:
        cands = [k for k in cands if k.size == size]
    elif not ver:
        return None  # a bare family name ("Llama") is not a model
    if ver:
        cands = [k for k in cands if k.ver == ver]
    if act:
        cands = [k for k in cands if k.act in (None, act)]
    if not cands:
        return None
    return max(cands, key=lambda k: _version_number(k.ver)).model_id


def _model_suggestions(core: str, fam: str, size: str | None) -> list[str]:
    idx = _model_index()
    same_fam = [k for k in idx.keys if k.fam == fam]
    target = _size_value(size)

    def distance(k: _ModelKey) -> float:
        have = _size_value(k.size)
        return abs(math.log(have / target)) if have and target else math.inf

    ranked = sorted(same_fam, key=lambda k: (distance(k), -_version_number(k.ver)))
    out = [k.model_id for k in ranked[:3]]
    if not out:
        ids = {_compact(mid.lower()): mid for mid in catalog.models()}
        out = [ids[c] for c in difflib.get_close_matches(_compact(core), list(ids), n=3, cutoff=0.5)]
    return out


def _extract_models(s: str) -> tuple[str, list[_ModelMention]]:
    idx = _model_index()
    mentions: list[_ModelMention] = []
    for pat, _name, params in lx.ADJACENT_MODELS:
        for m in pat.finditer(s):
            mentions.append(_ModelMention(m.start(), m.end(), _loose(m.group(0)), None, params, None))
            s = _mask(s, m.start(), m.end(), MODEL_MARK)
    for m in idx.regex.finditer(s):
        fam, ver, size, act = m.group("fam"), m.group("ver"), m.group("size"), m.group("act")
        if not (ver or size or act):
            mid = idx.loose.get(fam)  # a family word that is itself an alias ("mixtral")
            if mid:
                mentions.append(_ModelMention(m.start(), m.end(), fam, mid, None, None))
                s = _mask(s, m.start(), m.end(), MODEL_MARK)
            continue
        if fam in lx.SHORT_FAMILIES and not (size or ver):
            continue
        core_end = m.end("act") if act else m.end("size") if size else m.end("ver")
        core = s[m.start():core_end]
        ver_k, size_k, act_k = _ver_key(ver), _size_key(size), _ver_key(act)
        mid = _match_model(core, fam, ver_k, size_k, act_k)
        active = _size_value(act_k[1:]) if act_k else None
        mention = _ModelMention(m.start(), m.end(), _loose(core), mid, _size_value(size_k), active)
        if mid is None:
            mention.suggestions = _model_suggestions(core, fam, size_k)
        mentions.append(mention)
        s = _mask(s, m.start(), m.end(), MODEL_MARK)
    mentions.sort(key=lambda mm: mm.start)
    return s, mentions


# ---------------------------------------------------------------------------------------------
# 2b. GPUs

@dataclass(slots=True)
class _GpuIndex:
    names: dict[str, str]  # normalized alias → gpu id
    regex: re.Pattern[str]
    families: dict[str, list[str]]  # family → ids


def _gpu_key(name: str) -> str:
    return " ".join(re.split(r"[\s\-_]+", name.lower().strip()))


_GPU_SPEC = r"(?:\d{2,3}\s*g(?:b|ib)?|pcie|sxm\d?|nvl|hbm\d?e?)"


@cache
def _gpu_index() -> _GpuIndex:
    names: dict[str, str] = {}
    families: dict[str, list[str]] = {}
    for g in catalog.gpus().values():
        families.setdefault(g.family, []).append(g.id)
        default = catalog.default_gpu_for_family(g.family)
        for alias in (g.id, g.family, *g.aliases):
            key = _gpu_key(alias)
            if key and (key not in names or (default and names[key] != default.id and g.id == default.id)):
                names[key] = g.id
    alts = sorted(names, key=len, reverse=True)
    body = "|".join(r"[\s\-_]*".join(re.escape(chunk) for chunk in key.split(" ")) for key in alts)
    regex = _rc(
        rf"(?:(?<![a-z0-9])|(?<=\dx))(?:nvidia\s*|geforce\s*|tesla\s*|amd\s*|instinct\s*|华为\s*)?(?P<name>{body})"
        rf"(?P<spec>(?:[\s\-_]*{_GPU_SPEC}(?![a-z0-9]))*)(?:s)?(?![a-z0-9])"
    )
    return _GpuIndex(names, regex, families)


@dataclass(slots=True)
class _GpuMention:
    start: int
    gpu_id: str
    memory_gib: float | None


_PRE_MEM_RE = _rc(r"(?P<mem>\d{2,3})\s*g(?:b|ib)?\s*(?:的|显存的?|vram)?\s*$")
_MEM_IN_SPAN_RE = _rc(r"(?<![a-z0-9])(\d{2,3})\s*g(?:b|ib)?(?![a-z])")


def _select_variant(gpu_id: str, span: str, memory: float | None) -> str:
    """The catalog variant meant: same family, the stated memory and form factor if any.

    'A100' → the family default (SXM4 80GB); 'A100 40G' / '40GB A100' → A100-SXM4-40GB;
    'A100 PCIe 40G' → A100-PCIe-40GB. A memory no variant has (A800 40G) keeps the named card.
    """
    family = catalog.gpu(gpu_id).family
    cands = [catalog.gpu(i) for i in _gpu_index().families.get(family, [gpu_id])]
    if memory is not None:
        cands = [g for g in cands if abs(g.memory_gib - memory) < 1] or cands
    for form in ("pcie", "nvl", "sxm"):
        if form in span:
            cands = [g for g in cands if form in g.id.lower()] or cands
            break
    ids = [g.id for g in cands]
    if gpu_id in ids:
        return gpu_id
    ranked = sorted(cands, key=lambda g: (not g.default_for_family, "pcie" in g.id.lower()))
    return ranked[0].id


@cache
def _largest_device_gib() -> float:
    """The most memory one discrete card has: a larger "显存" figure is a total over several
    (Macs are left out: their unified memory is not what "显存" sums)."""
    return max(g.memory_gib for g in catalog.gpus().values() if g.gpu_memory_fraction is None)


def _unified(gpu_id: str) -> bool:
    """Apple silicon: one chip per machine, sold with several memory sizes."""
    return catalog.gpu(gpu_id).gpu_memory_fraction is not None


def _extract_gpus(s: str) -> tuple[str, list[_GpuMention]]:
    idx = _gpu_index()
    found: list[_GpuMention] = []
    spans: list[tuple[int, int]] = []
    for m in idx.regex.finditer(s):
        gid = idx.names.get(_gpu_key(m.group("name")))
        if gid is None:
            continue
        start, end = m.start(), m.end()
        span = m.group(0)
        memory: float | None = None
        mem_m = _MEM_IN_SPAN_RE.search(span)
        if mem_m:
            memory = float(mem_m.group(1))
        pre = _PRE_MEM_RE.search(s[max(0, start - 12):start])
        if pre and memory is None:
            memory = float(pre.group("mem"))
            start = start - (len(pre.group(0)))
        after = re.match(r"\s*[(（]\s*(\d{2,3})\s*g(?:b|ib)?\s*[)）]", s[end:])
        if after and memory is None:
            memory = float(after.group(1))
        if memory is None:
            with_mem = re.match(r"\s*with\s+(\d{2,3})\s*g(?:b|ib)?", s[end:])
            if with_mem:
                memory = float(with_mem.group(1))
        found.append(_GpuMention(start, _select_variant(gid, span, memory), memory))
        spans.append((start, end))
    for start, end in reversed(spans):
        s = _mask(s, start, end, GPU_MARK)
    return s, found


def _extract_unknown_gpu(s: str) -> tuple[str, str | None, list[str]]:
    m = lx.UNKNOWN_GPU_RE.search(s)
    if not m:
        return s, None, []
    name = m.group(0).strip()
    families = sorted({g.family for g in catalog.gpus().values()})
    lower = {f.lower(): f for f in families}
    sugg: list[str] = []
    for pat, fams in lx.UNKNOWN_GPU_HINTS:
        if pat.search(name):
            sugg = [f for f in fams if f in families]
            break
    if not sugg:
        sugg = [lower[x] for x in difflib.get_close_matches(name, list(lower), n=3, cutoff=0.5)]
    return _mask(s, m.start(), m.end(), UNKNOWN_GPU_MARK), name, sugg


# ---------------------------------------------------------------------------------------------
# 3. Number roles

_FILL = r"[\s\-]*(?:\+|多|余|来|左右|个|~|≈)?[\s\-]*"


def _r(pattern: str) -> re.Pattern[str]:
    return _rc("^" + _FILL + "(?:" + pattern + ")")


R_PERCENT = _rc(r"^\s*%")
R_GPU_HOURS = _r(
    rf"(?:[{_MARKS}]\s*s?\s*)?(?:gpu|卡|card)[\s\-·]*(?:hours?|hrs?|小时|时|days?|天)|[{_MARKS}]\s*-?\s*(?:hours?|days?)"
)
R_COUNT_GPU = _r(rf"(?:[x×*]\s*)?(?:\d{{2,3}}\s*g(?:b|ib)?\s*(?:的)?\s*)?[{_MARKS}]")
R_COUNT_WORD = _r(
    r"(?:[x×*]\s*)?(?:\d{2,3}\s*g(?:b|ib)?\s+(?=gpus?\b|cards?\b))?(?:张(?!量)|片|颗|卡(?!时)|gpus?\b|cards?\b|graphics|accelerators?\b|npus?\b|devices?\b)"
)
R_KUAI = _r(r"块(?!钱)")
R_KUAI_GPU = _rc(rf"^\s*(?:\d{{1,3}}\s*g(?:b|ib)?\s*(?:的|显存的?)?\s*)?(?:[{_MARKS}]|卡|显卡|gpu|npu)")
L_GPU_TIMES = _rc(rf"[{_MARKS}]\s*s?\s*(?:[x×*]|\s)\s*$")
L_GPU_BEFORE = _rc(rf"[{_MARKS}]\s*s?\s*$")
R_X_AFTER = _rc(r"^\s*[x×](?![a-z0-9])")
R_END = _rc(r"^\s*(?:[,.;:?!()]|$|\s(?:for|to|on|with|训|微调|部署|推理))|^\s*[训微部推跑]")
R_NODES = _r(r"台|nodes?\b|machines?\b|servers?\b|boxes\b|hosts?\b")
R_NODE_OF = _rc(r"^\s*(?:台|nodes?|machines?|servers?|boxes|hosts?)\s*(?:of|with|x|×|\*|,)?\s*")
R_MONEY_CNY = _r(r"元|块钱|块人民币|人民币|rmb\b|cny\b")
R_MONEY_USD = _r(r"美元|美金|刀\b|dollars?\b|usd\b|bucks\b")
R_BYTES = _rc(r"^\s*(?P<u>gb|gib|g|tb|tib|t|mb|m)(?![a-z])")
R_TPS = _r(r"-?tokens?\s*(?:each|per\s+(?:sample|example|row|record|conversation|item)|/\s*条|每条)")
R_TOKENS = _r(r"-?(?:tokens?|toks?|词元)(?!\s*/\s*s)(?!\s*per\s+sec)")
R_TOKEN_MODEL = _r(r"-?(?:tokens?|词元)\s*(?:的)?\s*(?:model|模型|参数|params?|parameters?)")
R_DATA = _r(r"(?:的)?(?:训练)?(?:数据|语料)")
R_ACTIVE = _r(r"(?:active|activated|激活)")
R_TOTAL = _r(r"total\b|总参数")
R_PARAMS = _r(
    r"-?(?:参数|params?\b|parameters?\b|的?模型|model\b|llm\b|dense\b|moe\b|policy\b|的?(?:中文)?(?:底座|基座|大模型|小模型))"
)
R_DAYS = _r(r"天|日(?!志)|days?\b|d\b")
R_WEEKS = _r(r"周|星期|礼拜|weeks?\b|wks?\b")
R_MONTHS = _r(r"个?月|months?\b|mos?\b")
R_YEARS = _r(r"年|years?\b")
R_SEQ = _r(
    r"(?:的)?(?:上下文|context\b|ctx\b|长度|序列|seq|窗口|max[\s_\-]*(?:seq|sequence|context|len)|tokens?\s+(?:of\s+)?context)"
)
R_CONC = _r(
    r"(?:个|名|位|路)?\s*(?:并发|concurren|simultaneous|用户|users?\b|人同时|人在线|同时|people\b|qps\b|requests?\s+at\s+once)"
)
R_SAMPLES = _r(
    r"条|rows?\b|samples?\b|examples?\b|records?\b|conversations?\b|dialogues?\b|pairs?\b|instructions?\b|"
    r"of\s+these|of\s+them|个?样本|组对话|篇"
)
R_EPOCHS = _r(r"-?(?:epochs?\b|轮|遍|passes\b)")
R_CHARS = _r(r"字|汉字|characters?\b|chars?\b|words?\b")
R_DASH_GPU = _rc(r"^-?gpus?\b")
R_RANGE = _rc(r"^\s*(?:-|–|~|到|至|to\b|or\b|或)\s*")

L_BATCH = _rc(
    r"(?:\bbs|batch[\s_\-]*size|micro[\s_\-]*batch(?:[\s_\-]*size)?|\bmbs|max[\s_\-]*batch|batch|批大小)"
    r"\s*(?:=|:|为|是|of)?\s*$"
)
L_MFU = _rc(r"(?:mfu|利用率|utili[sz]ation)\s*(?:=|:|是|为|of|at|约|~|≈|大概|按)?\s*$")
MFU_NEAR = _rc(r"mfu|利用率|utili[sz]ation")
L_CURRENCY = _rc(r"(?P<c>us\$|\$|¥|rmb|cny|usd)\s*(?:~|≈|about|约)?\s*$")
L_PRICE = _rc(
    r"(?:每卡时|每卡每小时|每小时|单价|租金|per\s+gpu[\s\-]*hour|hourly|rent(?:s|ing)?\s+(?:for|at))"
    r"\s*(?:=|:|为|是|约|大概|about|around|~)?\s*$"
)
L_BUDGET = _rc(
    r"(?:预算|budget|花费|经费|资金|成本|spend)(?:有|是|为|:|约|大概|大约|only|of|about|around|~|\s)*$"
)
L_TOKENS = _rc(
    r"(?:数据|语料|data(?:set)?|corpus|训练数据|token数|tokens?)(?:量|集)?"
    r"(?:有|是|为|:|=|约|大概|大约|共|总共|一共|of|is|about|around|~|\s)*$"
)
L_PARAMS = _rc(r"(?:模型|model|参数量?|params?|size)(?:有|是|为|:|=|约|大概|大约|大小|is|of|about|~|\s)*$")
L_SEQ = _rc(
    r"(?:上下文|context(?:[\s_]+(?:length|window|len))?|ctx|seq(?:uence)?(?:[\s_]*len(?:gth)?)?|max_len|长度|拉满到"
    r"|pack到|窗口)"
    r"(?:=|:|为|是|到|of|达到|拉满到|长度|\s)*$"
)
L_CONC = _rc(r"(?:并发|concurrency|同时在线)(?:数|量)?(?:=|:|为|是|到|of|达到|\s)*$")
L_EPOCHS = _rc(r"epochs?\s*(?:=|:)?\s*$")
L_PER = _rc(r"(?:每|per|/)\s*$")
L_PROMPT = _rc(r"(?:prompts?|inputs?|输入|提示词?)\s*(?:of|is|are|约|大概|~|about|around|\s)*$")
L_REPLY = _rc(
    r"(?:replies|reply|responses?|outputs?|completions?|answers?|输出|回复|生成)\s*(?:of|约|大概|~|about|around|\s)*$"
)
L_SAMPLE_EACH = _rc(
    r"(?:每条|每个样本|每个|each|per\s+(?:sample|example|row)|averag\w*|平均"
    # "50k samples of 4k tokens", "50,000 samples x 4096 tokens"
    r"|(?:samples?|examples?|rows?|records?|conversations?|条)\s*(?:of|x|×|\*|with))"
    r"(?:大概|约|大约|roughly|about|around|~|of|\s)*$"
)
L_ON = _rc(r"(?:\bon|用|with|数据|语料)\s*(?:about|~|约)?\s*$")
L_RATE = _rc(r"tok(?:en)?s?\s*/\s*s|per\s+second|throughput|吞吐|每秒")
L_NODES_UNKNOWN = _rc(r"(?:几|多少)\s*台\s*$|how\s+many\s+(?:nodes?|machines?|servers?)\s*(?:of|with)?\s*$")
L_DATA_WORD = _rc(r"(?:数据|语料|data(?:set)?|corpus)(?:量|集)?(?:有|是|为|:|约|大概|is|of|\s)*$")
L_MODEL_WORD = _rc(r"(?:模型|model)(?:有|是|为|:|约|大概|is|of|\s)*$")

R_MEM_GPU = _rc(  # not "12G多显存" (an observed usage, not a card)
    r"^\s*(?:的)?\s*(?:左右|上下)?\s*(?:的)?\s*"
    r"(?:显存|vram|gpu|卡|显卡|card|memory\s+per|的卡|each|per\s+(?:gpu|card)|[" + _MARKS + "])"
)
R_MEM_TOTAL = _rc(  # "700G左右显存", "320GB of GPU memory", "2TB of VRAM"
    r"^\s*(?:的)?\s*(?:左右|上下)?\s*(?:的)?\s*"
    r"(?:显存|vram|of\s+(?:vram|(?:gpu\s+)?memory)|gpu\s+memory)"
)
L_MEM_TOTAL = _rc(
    r"(?:总共|一共|合计|总计|加起来|总显存|显存总量|准备|备了|total|in\s+total|combined|altogether)\D{0,12}$"
)
R_MEM_TOTAL_WORD = _rc(r"\b(?:in\s+total|total|combined|altogether)\b|总显存|显存总量|总共|一共")
R_MEM_DATA = _rc(r"^\s*(?:的)?\s*(?:纯文本|文本|text|数据|语料|data|corpus|of\s+(?:raw\s+)?(?:text|data))")
ENGLISH_GPU_WORDS = _rc(r"^\s*(?:gpus?|cards?)\b")


@dataclass(slots=True)
class _Role:
    role: str
    value: float
    tok: NumberToken
    conflict: bool = False
    extra: str | None = None  # currency, byte kind, unit notes


def _seq_value(tok: NumberToken) -> float:
    """'32k' context → 32,768 (powers of two are binary k in model configs); '20k' → 20,000."""
    if tok.mag == "k":
        k = tok.value / 1000
        if k == int(k) and int(k) in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024):
            return k * 1024
    return tok.value


def _money_role(tok: NumberToken, value: float, rest: str, currency: str | None, left: str) -> _Role:
    money = parse_money(("$" if currency == "USD" else "") + "1" + rest)
    per_hour = bool(money and money.per_gpu_hour) or bool(L_PRICE.search(left))
    return _Role("price" if per_hour else "budget", value, tok, extra=currency)


def _classify(tok: NumberToken, s: str, nxt: NumberToken | None) -> _Role | None:
    R = s[tok.end:tok.end + 48]
    L = s[max(0, tok.start - 32):tok.start]
    v = tok.value
    word = tok.kind == "word"

    # A range "8 to 16 A100", "15-30元/小时": read the words after the second number.
    range_max: float | None = None
    if nxt is not None:
        rm = R_RANGE.match(R)
        if rm and tok.end + rm.end() == nxt.start:
            range_max = nxt.value
            if tok.mag is None and nxt.mag is not None and v < nxt.value:
                v *= magnitude_value(nxt.mag)
            R = s[nxt.end:nxt.end + 48]

    if L_BATCH.search(L) and not word:
        return _Role("batch", v, tok)
    if R_PERCENT.match(R):
        near = s[max(0, tok.start - 16):tok.end + 16]
        return _Role("mfu", v / 100, tok) if MFU_NEAR.search(near) else None
    if L_MFU.search(L):
        return _Role("mfu", v / 100 if v > 1 else v, tok)
    cm = L_CURRENCY.search(L)
    if cm:
        cur = "CNY" if cm.group("c") in ("¥", "rmb", "cny") else "USD"
        return _money_role(tok, v, R, cur, L)
    if R_MONEY_CNY.match(R):
        return _money_role(tok, v, R, "CNY", L)
    if R_MONEY_USD.match(R):
        return _money_role(tok, v, R, "USD", L)
    if L_PRICE.search(L):
        return _Role("price", v, tok)
    bm = R_BYTES.match(R)
    if bm and not word:
        unit = bm.group("u")
        scale = {"g": 2**30, "gb": 2**30, "gib": 2**30, "t": 2**40, "tb": 2**40, "tib": 2**40,
                 "m": 2**20, "mb": 2**20}[unit]
        after = R[bm.end():]
        gib = v * scale / 2**30
        total_word = L_MEM_TOTAL.search(L) or R_MEM_TOTAL_WORD.search(after[:32])
        if R_MEM_TOTAL.match(after) and (total_word or gib > _largest_device_gib()):
            return _Role("total_mem", gib, tok)  # "准备700G显存": more than any one device holds
        if R_MEM_GPU.match(after) and unit in ("g", "gb", "gib") and 4 <= v <= 1024:
            return _Role("gpu_mem", v, tok)
        if R_MEM_DATA.match(after):
            # Text sizes are decimal GB as people say them ("20GB 纯文本" ≈ 2e10 bytes).
            return _Role("data_bytes", v * {2**30: 1e9, 2**40: 1e12, 2**20: 1e6}[scale], tok)
        return _Role("bytes", v, tok)
    if R_GPU_HOURS.match(R):
        return _Role("gpu_hours", v, tok)
    if L_NODES_UNKNOWN.search(L):
        return None
    nm = R_NODE_OF.match(R)
    if nm and R_NODES.match(R) and not tok.mag:
        if nxt is not None and tok.end + nm.end() == nxt.start:
            after = s[nxt.end:nxt.end + 40]
            if R_COUNT_GPU.match(after) or R_COUNT_WORD.match(after) or R_DASH_GPU.match(after.lstrip()):
                return _Role("count_nodes", v * nxt.value, tok, extra=str(nxt.start))
        rest = R[nm.end():]
        if re.match(rf"^\s*(?:[{_MARKS}]|服务器|机器)", rest):
            return _Role("count", v * 8, tok, extra="nodes×8")
        return None
    if L_BUDGET.search(L):
        return _Role("budget", v, tok, extra="CNY" if R_KUAI.match(R) else None)
    km = R_KUAI.match(R)
    if km and not R_KUAI_GPU.match(R[km.end():]) and v >= 64:
        return _Role("budget", v, tok, extra="CNY")  # "5000块" is money, "4块4090" is cards
    count_like = bool(R_COUNT_GPU.match(R) or R_COUNT_WORD.match(R) or R_DASH_GPU.match(R) or km)
    if not count_like and L_GPU_TIMES.search(L) and tok.mag is None and R_END.match(R):
        count_like = True  # "A100 x 8", "H100*8"
    if not count_like and tok.mag is None and L_GPU_BEFORE.search(L) and R_X_AFTER.match(R):
        count_like = True  # "L40S 64x"
    if count_like and tok.mag_scale in (None, "K"):
        if L_RATE.search(L[-20:]):
            return None
        return _Role("count", v, tok, extra=None if range_max is None else f"range:{range_max:g}")
    if R_TPS.match(R):
        return _Role("tps", v, tok, extra="tokens")
    if (R_TOKENS.match(R) or R_CHARS.match(R)) and L_SAMPLE_EACH.search(L):
        return _Role("tps", v, tok, extra="tokens" if R_TOKENS.match(R) else "chars")
    if R_TOKEN_MODEL.match(R):
        return _Role("tokens", v, tok, conflict=True)
    if (R_TOKENS.match(R) and not L_PER.search(L)) or (R_DATA.match(R) and tok.mag_scale in ("B", "T")):
        if L_PROMPT.search(L):
            return _Role("prompt", v, tok)
        if L_REPLY.search(L):
            return _Role("reply", v, tok)
        return _Role("tokens", v, tok, conflict=bool(L_MODEL_WORD.search(L)))
    if R_TOKENS.match(R) and word:
        return _Role("tokens", v, tok)
    if R_ACTIVE.match(R):
        return _Role("active", v, tok)
    if R_TOTAL.match(R):
        return _Role("total", v, tok)
    if R_PARAMS.match(R) and not word and v >= 1e5:
        return _Role("params", v, tok, conflict=bool(L_DATA_WORD.search(L)))
    if not L_PER.search(L):
        if R_DAYS.match(R):
            return _Role("days", v, tok)
        if R_WEEKS.match(R):
            return _Role("days", v * 7, tok)
        if R_MONTHS.match(R):
            return _Role("days", v * 30, tok)
        if R_YEARS.match(R):
            return _Role("days", v * 365, tok)
    if R_SEQ.match(R) and not word:
        return _Role("seq", _seq_value(tok), tok)
    if R_CONC.match(R):
        return _Role("concurrency", v, tok)
    if R_SAMPLES.match(R):
        return _Role("samples", v, tok)
    if R_EPOCHS.match(R):
        return _Role("epochs", v, tok)
    if word:
        return None
    # Left-hand words.
    if L_SEQ.search(L):
        return _Role("seq", _seq_value(tok), tok)
    if L_CONC.search(L):
        return _Role("concurrency", v, tok)
    if L_EPOCHS.search(L):
        return _Role("epochs", v, tok)
    if L_BUDGET.search(L):
        return _Role("budget", v, tok)
    if L_PROMPT.search(L):
        return _Role("prompt", v, tok)
    if L_REPLY.search(L):
        return _Role("reply", v, tok)
    if L_TOKENS.search(L) and tok.mag_scale in ("B", "T", "M"):
        return _Role("tokens", v, tok)
    if L_PARAMS.search(L) and tok.mag_scale in ("B", "T", "M"):
        return _Role("params", v, tok)
    if tok.mag_scale in ("B", "T"):
        return _Role("bare", v, tok, extra=tok.mag_scale)
    return None


# ---------------------------------------------------------------------------------------------
# 4. Stage, method, algorithm, precision

_SINGLE_CARD_RE = _rc(r"(?:单卡|单张|单块)(?!\s*(?:batch|bs|显存|的显存|吞吐|性能|速度|最|能放|放得下))")
_DUAL_CARD_RE = _rc(r"双卡|双\s*(?=(?:rtx|gtx)?\s*\d{4})|\bdual[\s\-]+(?:gpus?|cards?|(?:rtx\s*)?\d{4})")
"""'双卡', '双4090', 'dual 4090': two cards (not '双路', a two-socket server)."""
_ARTICLE_GPU_RE = _rc(
    rf"\b(?:does|will|can|could|would|is)\s+an?\s+(?:\d{{2,3}}\s*g(?:b|ib)?\s+)?(?:[{_MARKS}]|gpu\b|card\b)"
)
_MEM_CARD_RE = _rc(r"\d{1,3}\s*g(?:b|ib)?\s*显存的(?:笔记本)?(?:卡|显卡)")
_ASKS_COST_RE = _rc(
    r"多少钱|花多少|要花|费用|成本|价格多少|贵不贵|how\s+much|\bcosts?\b|\bprice\b|\bexpensive\b|\bbudget\s+for\b"
)
_CNY_WORD_RE = _rc(r"人民币|\brmb\b|\bcny\b|¥|元")
_USD_WORD_RE = _rc(r"\$|\busd\b|美元|美金|dollars?\b")
_UNIT_AFTER_RE = _rc(r"\s*(?:个\s*)?[a-z\u4e00-\u9fff]+")
ABSURD_NUMBER = 1e18
"""No model, dataset, cluster or budget in this domain is larger (the biggest token counts are ~1e14)."""
_POWER_RE = _rc(r"(?:[x×*]\s*)?(\d+(?:\.\d+)?)\s*(?:\^|\*\*)\s*([+-]?\d{1,4})")
_OFFLOAD_RE = _rc(r"offload|卸载到\s*(?:cpu|内存)|zero[- ]?infinity")
_PARALLEL_RE = _rc(r"(?<![a-z0-9])(?:tp|pp|dp|ep|cp|sp|zero)\s*[=:\-]?\s*\d+")


def _stage(s: str) -> str | None:
    if lx.CONTINUED_RE.search(s):
        return "continued_pretrain"
    if lx.FINETUNE_RE.search(s):
        return "finetune"
    if lx.PRETRAIN_RE.search(s):
        return "pretrain"
    if lx.INFERENCE_RE.search(s):
        return "inference"
    if lx.TRAIN_RE.search(s):
        return "pretrain"
    if lx.WEAK_INFERENCE_RE.search(s):
        return "inference"
    return None


def _method(s: str, stage: str | None, preference: bool) -> str | None:
    negated = bool(lx.NEGATED_LORA_RE.search(s))
    if not negated and lx.QLORA_RE.search(s):
        return "qlora"
    if not negated and lx.LORA_RE.search(s):
        return "lora"
    if stage in ("finetune", "continued_pretrain") and lx.FULL_RE.search(s):
        return "full"
    if stage == "continued_pretrain" or preference:
        return "full"
    return None


# ---------------------------------------------------------------------------------------------
# 5. Assembly

_CAPS: dict[str, float] = {
    "params_total": 1e16, "params_active": 1e16, "tokens": 1e18, "epochs": 1e4, "num_samples": 1e12,
    "tokens_per_sample": 1e7, "gpu_count": 1e7, "deadline_days": 36500, "budget": 1e13,
    "price_per_gpu_hour": 1e5, "seq_len": 1e8, "batch_size": 1e6, "concurrency": 1e9, "mfu": 1.0,
}
_INT_FIELDS = {"gpu_count", "seq_len", "batch_size", "concurrency"}
_POSITIVE_ROLES = {
    "count", "count_nodes", "tokens", "params", "active", "days", "budget", "price", "concurrency",
    "seq", "batch", "epochs", "samples", "gpu_hours", "prompt", "reply",
}  # fmt: skip
"""Roles whose quantity must be positive: a zero or negative one is reported as ignored."""


def _clean(name: str, value: Any) -> Any:
    """The value if the SizingRequest field would accept it and it is not absurd, else None."""
    if name not in _CAPS:
        return value
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    if not math.isfinite(v) or v <= 0 or v > _CAPS[name]:
        return None
    if name in _INT_FIELDS:
        iv = round(v)
        return iv if iv >= 1 else None
    return v


def _build_request(fields: dict[str, Any]) -> tuple[SizingRequest, list[str]]:
    clean = {k: _clean(k, v) for k, v in fields.items() if v is not None}
    clean = {k: v for k, v in clean.items() if v is not None}
    try:
        return SizingRequest(**clean), sorted(clean)
    except ValidationError:
        ok: dict[str, Any] = {}
        for k, v in clean.items():
            try:
                SizingRequest(**{k: v})
            except ValidationError:
                continue
            ok[k] = v
        return SizingRequest(**ok), sorted(ok)


def parse(text: str) -> ParseResult:
    """Parse one message. Never raises: on any internal error the result is simply empty."""
    raw = text if isinstance(text, str) else ""
    try:
        return _parse(raw)
    except Exception:
        return ParseResult(request=SizingRequest(), lang=detect_lang(raw), notes=["parse_error"])


def _parse(raw: str) -> ParseResult:
    lang = detect_lang(raw)
    s, truncated = _prepare(raw)
    dual = bool(_DUAL_CARD_RE.search(s))  # before GPU names are masked: "双4090"
    notes: list[str] = []
    out_of_scope = bool(lx.OUT_OF_SCOPE_RE.search(s))
    stage = _stage(s)
    algorithm: str | None = None
    for name, pat in lx.ALGORITHM_RES:
        if pat.search(s):
            algorithm = name
            break
    preference = algorithm in ("dpo", "ppo", "grpo")
    if algorithm is not None and stage in (None, "pretrain", "inference"):
        stage = "finetune"
    method = _method(s, stage, preference)

    # Names, masked so their digits are not read as numbers.
    s, models = _extract_models(s)
    precision: str | None = None
    for m in lx.PRECISION_RE.finditer(s):
        p = m.group("p").replace(" ", "").replace("-", "")
        precision = precision or lx.PRECISION_MAP.get(p, {"4bit": "int4", "8bit": "int8"}.get(p))
        s = _mask(s, m.start(), m.end(), " ")
    for m in _PARALLEL_RE.finditer(s):
        s = _mask(s, m.start(), m.end(), " ")
    s, gpus = _extract_gpus(s)
    s, unknown_gpu, gpu_suggestions = _extract_unknown_gpu(s)

    # Numbers and their roles. Absurd magnitudes (1e40 tokens, 10^30 params) are set aside and
    # reported, so they neither become a field nor steal a neighbour's role.
    ignored: list[str] = []
    for tok in scan_numbers(s):
        if not (math.isfinite(tok.value) and abs(tok.value) <= ABSURD_NUMBER):
            ignored.append(tok.raw.strip())
            # its unit word goes too, so "1e40 tokens 7B" keeps 7B a model size
            unit = _UNIT_AFTER_RE.match(s, tok.end)
            s = _mask(s, tok.start, unit.end() if unit else tok.end, " ")
    toks = scan_numbers(s)
    roles: list[_Role] = []
    consumed: set[int] = set()
    for i, tok in enumerate(toks):
        if tok.start in consumed:
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        role = _classify(tok, s, nxt)
        if role is None:
            continue
        if role.role == "count_nodes" and role.extra:
            consumed.add(int(role.extra))
            role.role = "count"
            role.extra = None
        elif role.extra and role.extra.startswith("range:") and nxt is not None:
            consumed.add(nxt.start)
        roles.append(role)
    # "0 GPUs", "-8张A100", "-100 tokens": say they were set aside instead of dropping them silently
    unusable = [r for r in roles if r.role in _POSITIVE_ROLES and r.value <= 0]
    nonpositive = [r.tok.raw.strip() for r in unusable]
    roles = [r for r in roles if r not in unusable]

    def first(name: str) -> _Role | None:
        return next((r for r in roles if r.role == name), None)

    f: dict[str, Any] = {"stage": stage, "method": method, "algorithm": algorithm}

    # Model and parameters.
    model_mention = next((mm for mm in models if mm.model_id), None)
    unknown = next((mm for mm in models if mm.model_id is None), None)
    params: float | None = None
    active: float | None = None
    params_from_model = False
    if model_mention is not None:
        spec = catalog.model(model_mention.model_id)
        f["model"] = spec.id
        if model_mention.size:
            params = model_mention.size
            active = model_mention.active
            if active is None and spec.params_active and abs(spec.params_total - params) / params < 0.1:
                active = spec.params_active
        else:
            params, active = spec.params_total, spec.params_active
        params_from_model = True
    elif unknown is not None:
        params, active = unknown.size, unknown.active
        params_from_model = params is not None

    explicit_params = first("params")
    explicit_tokens = first("tokens")
    total_role = first("total")
    if total_role is not None:
        params = total_role.value
    if first("active") is not None:
        active = first("active").value  # type: ignore[union-attr]
    tokens = explicit_tokens.value if explicit_tokens else None
    if not params_from_model and total_role is None and explicit_params is not None:
        params = explicit_params.value
        swap = explicit_params.conflict or (explicit_tokens is not None and explicit_tokens.conflict)
        if swap and tokens is not None and params > tokens:
            params, tokens = tokens, params
            notes.append("unit_swap")
    for bare in (r for r in roles if r.role == "bare"):
        is_t = bare.extra == "T" or bare.value >= 1e12
        if is_t and tokens is None and (params is not None or bare.value >= 1e12):
            tokens = bare.value
        elif not is_t and params is None:
            params = bare.value
        elif tokens is None and L_ON.search(s[max(0, bare.tok.start - 12):bare.tok.start]):
            tokens = bare.value
    f["params_total"] = params
    if active is not None and params is not None and active < params:
        f["params_active"] = active

    # Training data.
    samples = first("samples")
    tps = first("tps")
    epochs = first("epochs")
    f["num_samples"] = samples.value if samples else None
    f["tokens_per_sample"] = tps.value if tps else None
    if tps is not None and tps.extra == "chars":
        # Chinese characters ≈ tokens for Qwen/GLM-style tokenizers (≈1–1.5 chars per token);
        # the count stays per-sample only, total tokens are left to the dialogue to confirm.
        notes.append("chars_as_tokens")
    if tokens is None and samples is not None and tps is not None and tps.extra == "tokens":
        tokens = samples.value * tps.value
    f["epochs"] = epochs.value if epochs else None
    data = first("data_bytes")
    data_bytes = data.value if data else None

    # Serving context: "prompts ~2k tokens and replies ~500" → 2,500 tokens per sequence.
    seq = first("seq")
    prompt, reply = first("prompt"), first("reply")
    if seq is not None:
        f["seq_len"] = seq.value
    elif prompt is not None and (stage == "inference" or reply is not None):
        f["seq_len"] = prompt.value + (reply.value if reply else 0)
    if stage == "inference" and tokens is not None and explicit_tokens is not None:
        tokens = None  # serving has no training tokens
    f["tokens"] = tokens
    if f["stage"] is None and tokens is not None:
        f["stage"] = "pretrain"  # training tokens without a stage word: pre-training (design §4)

    # GPUs.
    if gpus:
        f["gpu"] = gpus[0].gpu_id
    alternatives = []
    for g in gpus[1:]:
        if g.gpu_id != gpus[0].gpu_id and g.gpu_id not in alternatives:
            alternatives.append(g.gpu_id)
    gpu_memory = next((g.memory_gib for g in gpus if g.memory_gib), None)
    if gpu_memory is None and first("gpu_mem") is not None:
        gpu_memory = first("gpu_mem").value  # type: ignore[union-attr]
    count = first("count")
    total_mem = first("total_mem")
    if total_mem is not None and count is None:
        f["total_memory_gib"] = total_mem.value
    count_max: int | None = None
    if count is not None:
        f["gpu_count"] = count.value
        if count.extra and count.extra.startswith("range:"):
            count_max = round(float(count.extra.split(":", 1)[1]))
            notes.append("gpu_count_range_min")
        elif count.extra == "nodes×8":
            notes.append("nodes_assumed_8_gpus")
    elif _SINGLE_CARD_RE.search(s) or _ARTICLE_GPU_RE.search(s) or _MEM_CARD_RE.search(s):
        f["gpu_count"] = 1
    elif dual:
        f["gpu_count"] = 2
    elif gpus and _unified(gpus[0].gpu_id):
        f["gpu_count"] = 1  # "M2 Ultra 能跑 70B 吗": one Mac is one device

    # Time, money, efficiency, serving.
    days = first("days")
    f["deadline_days"] = days.value if days else None
    budget, price = first("budget"), first("price")
    f["budget"] = budget.value if budget else None
    f["price_per_gpu_hour"] = price.value if price else None
    currency = (budget.extra if budget else None) or (price.extra if price else None)
    if currency is None:
        cny, usd = _CNY_WORD_RE.search(s), _USD_WORD_RE.search(s)
        if cny and (not usd or cny.start() < usd.start()):
            currency = "CNY"
        elif usd:
            currency = "USD"
    f["currency"] = currency
    mfu = first("mfu")
    f["mfu"] = mfu.value if mfu else None
    batch = first("batch")
    f["batch_size"] = batch.value if batch else None
    conc = first("concurrency")
    f["concurrency"] = conc.value if conc else None
    if f["concurrency"] is None and stage == "inference" and batch is not None:
        f["concurrency"] = batch.value  # serving: max batch = concurrent sequences
    if precision is None and method == "qlora":
        precision = "int4"
    f["precision"] = precision
    f["gpu_count_max"] = count_max
    # "8块24G显存的卡": size the job on a card of that memory; "M2 Ultra 64GB": that configuration
    if not gpus or (gpu_memory and _unified(gpus[0].gpu_id)):
        f["gpu_memory_gib"] = gpu_memory
    if _OFFLOAD_RE.search(s):
        f["offload"] = True

    request, found = _build_request(f)
    return ParseResult(
        request=request,
        lang=lang,
        found=found,
        gpu_alternatives=alternatives,
        unknown_gpu=unknown_gpu if not gpus else None,
        gpu_suggestions=gpu_suggestions if not gpus else [],
        unknown_model=unknown.text if unknown is not None and model_mention is None else None,
        model_suggestions=unknown.suggestions if unknown is not None and model_mention is None else [],
        truncated=truncated,
        out_of_scope=out_of_scope,
        preference=preference,
        asks_cost=bool(_ASKS_COST_RE.search(s)),
        gpu_memory_gib=gpu_memory,
        gpu_count_max=count_max,
        data_bytes=data_bytes,
        notes=notes,
        ignored_numbers=ignored,
        nonpositive_numbers=nonpositive,
    )
