"""The parser's index of catalog model names (split off :mod:`bot.parse.models`, session 39): each model's
id and aliases lower-cased, their Chinese family words replaced, compacted and keyed by family, version
and size; the family alternation. Built on a process's first question, or read back from the build's
store (:mod:`bot.parse.name_store`, whose key covers this file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from bot.parse import fixed_patterns as fp
from bot.parse import lexicon as lx
from bot.parse.name_store import stored_model_index, stored_model_index_for
from bot.parse.regex import LazyPattern, compile_pattern, rc, starts_with_one_of
from estimator import catalog

_VER = r"(?:v|r)?\d+(?:\.\d+)?"
_SIZE = r"\d+\s?[x*×]\s?\d+(?:\.\d+)?b|\d+(?:\.\d+)?\s?[bm]"
_NOT_A_COUNT = (
    r"(?![\d.]*\s*(?:个|位|名|人|张|卡|块|台|路|条|并发|用户|(?:concurrent|simultaneous)\b|users?\b|people\b"
    r"|persons?\b|requests?\b|reqs?\b|sessions?\b|clients?\b|gpus?\b|cards?\b|nodes?\b|seqs?\b"
    r"|sequences?\b|streams?\b))"
)
"""After a family's version: 'Gemma 8 个用户', 'Qwen 8 users' count users or cards, not a version 8."""
_SUFFIX = r"instruct|chat|base|hf|it|moe|coder|mini|small|medium|large|preview"
_SEPARATORS = compile_pattern(r"[\s\-_/:]+")
_NAME_TOKEN = compile_pattern(r"[a-z0-9.+]+|[\u3400-\u9fff]+")


@dataclass(slots=True)
class _ModelKey:
    fam: str
    ver: str | None
    size: str | None
    act: str | None
    model_id: str


@dataclass(slots=True)
class _ModelIndex:
    names: dict[str, str]
    """compact alias (no separators) → model id"""
    starts: LazyPattern
    """where a catalog name can begin (the first token of every alias)"""
    keys: list[_ModelKey]
    regex: LazyPattern
    families: tuple[str, ...] = ()
    """every family word (lexicon and catalog), for a family named alone"""


def _compact(s: str) -> str:
    """An alias without separators: 'qwen/qwen2.5-72b-instruct' → 'qwenqwen2.572binstruct'."""
    return _SEPARATORS.sub("", s.replace("*", "x").replace("×", "x"))


def _english_family(name: str) -> str:
    """Chinese family names as the normalized text has them ('千问72b' → 'qwen72b')."""
    t = name.lower()
    for cn, en in lx.CN_MODEL_NAMES:
        t = t.replace(cn, en)
    return t


def _size_key(size: str | None) -> str | None:
    return None if size is None else fp.SIZE_GAPS.sub("", size).replace("*", "x").replace("×", "x")


def _ver_key(ver: str | None) -> str | None:
    return None if ver is None else fp.NAME_SEPARATOR.sub("", ver)


def _longest_first(word: str) -> tuple[int, str]:
    """Longest first, then in text order: one alternation text in every process (a set's order moves
    with the hash seed), so its stored regex code is found (bot.parse.regex); same-length words never meet."""
    return (-len(word), word)


def _model_regex(families: list[str]) -> LazyPattern:
    fams = "|".join(re.escape(f) for f in sorted(set(families), key=_longest_first))
    return rc(
        rf"(?<![a-z0-9])(?<![a-z0-9][\-_]){starts_with_one_of(families)}(?P<fam>{fams})"
        rf"(?P<ver>[\s\-_]*{_VER}(?![\d.]*\s?[bm](?![a-z]))(?!\s?[x*×]\s?\d){_NOT_A_COUNT})?"
        rf"(?P<size>(?:[\s\-_]*|\s*的\s*)(?:{_SIZE})(?![a-z0-9]))?"
        r"(?P<act>[\s\-_]*a\d+(?:\.\d+)?b(?![a-z0-9]))?"
        rf"(?P<suf>(?:[\s\-_]*(?:{_SUFFIX})(?![a-z0-9]))*)"
    )


@cache
def _model_index() -> _ModelIndex:
    stored = stored_model_index_for(catalog.model_rows())  # the files' rows: no ModelSpec built (~15M)
    if stored is None:
        models = catalog.models()
        stored = stored_model_index(models)  # the build's, when built from this catalog by this code
        if stored is None:
            return built_model_index(models)
    by_alias, starts, keys, regex, families = stored
    return _ModelIndex(by_alias, rc(starts), [_ModelKey(*k) for k in keys], rc(regex), families)


def built_model_index(models: dict[str, catalog.ModelSpec]) -> _ModelIndex:
    """The index of the catalog ``models``' names (what the build stores: bot.parse.name_store)."""
    families = list(lx.MODEL_FAMILIES)
    names: dict[str, str] = {}
    firsts: set[str] = set()
    for m in models.values():
        first = re.split(r"[\s\-_\d.]", m.id.lower(), maxsplit=1)[0]
        if first:
            families.append(first)
        for name in (m.id, *m.aliases):
            t = _english_family(name)
            names.setdefault(_compact(t), m.id)
            tokens = _NAME_TOKEN.findall(t)
            if tokens:
                firsts.add(tokens[0])
    regex = _model_regex(families)
    starts = rc(
        r"(?<![a-z0-9._])"
        + starts_with_one_of(firsts)
        + "(?:"
        + "|".join(re.escape(f) for f in sorted(firsts, key=_longest_first))
        + ")"
    )
    keys: list[_ModelKey] = []
    for m in models.values():
        km = regex.match(m.id.lower())
        if km:
            keys.append(
                _ModelKey(
                    km.group("fam"),
                    _ver_key(km.group("ver")),
                    _size_key(km.group("size")),
                    _ver_key(km.group("act")),
                    m.id,
                )
            )
    return _ModelIndex(names, starts, keys, regex, tuple(sorted(set(families))))
