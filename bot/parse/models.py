"""Step 2a: model names (catalog ids and aliases, then family + version + size), masked in the text."""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, field
from functools import cache

from bot.parse import lexicon as lx
from bot.parse.normalize import MODEL_MARK, mask
from bot.parse.regex import LazyPattern, rc
from estimator import catalog

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


def _model_regex(families: list[str]) -> LazyPattern:
    fams = "|".join(re.escape(f) for f in sorted(set(families), key=len, reverse=True))
    return rc(
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
class ModelMention:
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


def extract_models(s: str) -> tuple[str, list[ModelMention]]:
    idx = _model_index()
    mentions: list[ModelMention] = []
    for pat, _name, params in lx.ADJACENT_MODELS:
        for m in pat.finditer(s):
            mentions.append(ModelMention(m.start(), m.end(), _loose(m.group(0)), None, params, None))
            s = mask(s, m.start(), m.end(), MODEL_MARK)
    for m in idx.regex.finditer(s):
        fam, ver, size, act = m.group("fam"), m.group("ver"), m.group("size"), m.group("act")
        if not (ver or size or act):
            mid = idx.loose.get(fam)  # a family word that is itself an alias ("mixtral")
            if mid:
                mentions.append(ModelMention(m.start(), m.end(), fam, mid, None, None))
                s = mask(s, m.start(), m.end(), MODEL_MARK)
            continue
        if fam in lx.SHORT_FAMILIES and not (size or ver):
            continue
        core_end = m.end("act") if act else m.end("size") if size else m.end("ver")
        core = s[m.start():core_end]
        ver_k, size_k, act_k = _ver_key(ver), _size_key(size), _ver_key(act)
        mid = _match_model(core, fam, ver_k, size_k, act_k)
        active = _size_value(act_k[1:]) if act_k else None
        mention = ModelMention(m.start(), m.end(), _loose(core), mid, _size_value(size_k), active)
        if mid is None:
            mention.suggestions = _model_suggestions(core, fam, size_k)
        mentions.append(mention)
        s = mask(s, m.start(), m.end(), MODEL_MARK)
    mentions.sort(key=lambda mm: mm.start)
    return s, mentions
