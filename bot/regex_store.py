"""Stored regex code for every pattern ``sizing-bot ask`` compiles, not only the parser's own (issue 23
item 7, start-up).

The build (``hatch_build.py``) stores the compiled code of each pattern in
``bot/parse/_compiled_regex.marshal`` (:mod:`bot.parse.regex` reads the parser's patterns from it). The
parser's lazily built patterns go through :func:`bot.parse.regex.compile_pattern`, but ~90 module-level
``re.compile`` calls of ``bot`` (and ~60 of Jinja, Babel, pydantic and the standard library) went to
``re``'s compiler: ~15–30 ms CPU of a ~300 ms ``ask`` (bench/RESULTS.md, session 11).

:func:`install` gives ``re`` a cache (``re._cache``, a dict keyed by ``(type, pattern, flags)``) whose
missing keys are looked up in the store: a pattern the store holds is made by ``_sre.compile`` from its
stored code (what ``re.compile`` does after parsing it; the build stores only code that gives a pattern
``==`` the one ``re.compile`` makes), any other falls through to ``re``'s compiler as before. The store is
keyed by the interpreter (``cache_tag``, ``_sre.MAGIC``, ``_sre.CODESIZE``), as ``.pyc`` files are; a
file for another interpreter, or none (a checkout not built), stores nothing. Where ``re`` reads its
cache another way (CPython 3.12+ pops the key), nothing changes: every pattern compiles as before.
"""

from __future__ import annotations

import _sre
import contextlib
import marshal
import os
import re
import sys
from array import array
from typing import Any

CODES_FILE = os.path.join(os.path.dirname(__file__), "parse", "_compiled_regex.marshal")
"""Stored regex code (written by the build, gitignored; may be absent)."""


class Codes(dict):  # type: ignore[type-arg]
    """(pattern, flags) → the marshalled arguments of ``_sre.compile`` after the pattern (:func:`from_store`).

    ``more``: the rest of the store, marshalled (the patterns a plain ``ask`` never compiles: ~2/3 of the
    file, ~6M of the ~10M instructions that reading all of it cost; bench/RESULTS.md session 30
    s30-spgate), read into the table by :func:`stored_code` on the first pattern the table lacks whose
    :func:`key_sum` is in ``more_sums`` (a pattern stored nowhere, such as Babel's plural-rule pattern,
    whose text follows the hash seed, leaves it unread)."""

    __slots__ = ("more", "more_sums")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.more = b""
        self.more_sums: frozenset[int] = frozenset()


def key_sum(key: tuple[str, int]) -> int:
    """A checksum of (pattern, flags) that does not follow the hash seed (CRC-32 of the pattern's UTF-8,
    lone surrogates kept, xor the flags): which patterns ``Codes.more`` holds. Equal sums of different
    patterns only read ``more`` for nothing."""
    import zlib

    return zlib.crc32(key[0].encode("utf-8", "surrogatepass")) ^ key[1]


CODE_TYPE = next((t for t in "HIL" if array(t).itemsize == _sre.CODESIZE), "I")
"""The array type of one regex code word (``_sre.CODESIZE`` bytes)."""

_SKIPPED_FLAGS = re.DEBUG | 1
"""re.DEBUG and re.TEMPLATE (1): re's compiler prints or warns for these, so they are left to it."""
_loaded: dict[tuple[str, tuple[str, int, int]], Codes] = {}


def codes_key() -> tuple[str, int, int]:
    """What stored code is valid for: the interpreter (``cpython-311``) and its regex engine's version."""
    return (sys.implementation.cache_tag or "", _sre.MAGIC, _sre.CODESIZE)


def load_codes(path: str = CODES_FILE, key: tuple[str, int, int] | None = None) -> Codes:
    """The stored code of ``path`` ((pattern, flags) → ``_sre.compile``'s other arguments, the code as
    bytes) for the interpreter ``key`` (default :func:`codes_key`), read once per path and key; empty
    when the file is absent, unreadable or for another interpreter."""
    key = key or codes_key()
    codes = _loaded.get((path, key))
    if codes is None:
        codes = Codes()
        try:
            with open(path, "rb") as fh:
                data = marshal.loads(fh.read())  # load(fh) reads a few bytes per call: 12 → 5 ms
            if isinstance(data, dict) and data.get("key") == key:
                codes.update(data["patterns"])
                codes.more = data.get("more", b"")
                codes.more_sums = data.get("more_sums", frozenset())
        except (OSError, EOFError, ValueError, TypeError, KeyError):
            codes = Codes()
        _loaded[path, key] = codes
    return codes


def stored_code(codes: Codes, key: tuple[str, int]) -> Any:
    """The stored code of ``key`` ((pattern, flags)) in ``codes``, reading the rest of the store
    (``codes.more``) into it the first time a pattern is not in its first part; None when not stored."""
    stored = codes.get(key)
    if stored is None and codes.more and key_sum(key) in codes.more_sums:
        more, codes.more = codes.more, b""
        with contextlib.suppress(EOFError, ValueError, TypeError):
            codes.update(marshal.loads(more))
        stored = codes.get(key)
    return stored


def from_store(pattern: str, stored: bytes | tuple[Any, ...]) -> re.Pattern[str] | None:
    """The compiled ``pattern`` from its ``stored`` code (the marshalled tuple of ``_sre.compile``'s other
    arguments, as the build writes it, or that tuple); None when this engine refuses the code.

    Each pattern's code is marshalled on its own inside the store: reading the store makes ~1,600 bytes
    objects instead of ~1,600 tuples with their dicts, and a start unmarshals only the patterns it
    compiles (~−7M instructions of ``ask``'s start-up; bench/RESULTS.md session 18)."""
    try:
        if type(stored) is bytes:
            stored = marshal.loads(stored)
        final_flags, code, groups, groupindex, indexgroup = stored
        return _sre.compile(
            pattern, final_flags, array(CODE_TYPE, code).tolist(), groups, groupindex, indexgroup
        )
    except (TypeError, ValueError, RuntimeError, EOFError):
        return None


class StoredCache(dict):  # type: ignore[type-arg]
    """``re``'s pattern cache, whose misses are answered from the stored code when it holds the pattern.

    ``re._compile`` reads ``_cache[type(pattern), pattern, flags]`` and compiles on ``KeyError``; a miss
    here makes the pattern from the store and keeps it as ``re`` would (oldest dropped at ``re``'s
    size), or raises ``KeyError`` so that ``re`` compiles it."""

    __slots__ = ("codes",)

    def __init__(self, codes: Codes, *args: Any) -> None:
        super().__init__(*args)
        self.codes = codes

    def __missing__(self, key: Any) -> re.Pattern[str]:
        kind, pattern, flags = key
        if kind is str and type(flags) is int and not flags & _SKIPPED_FLAGS:
            stored = stored_code(self.codes, (pattern, flags))
            made = from_store(pattern, stored) if stored is not None else None
            if made is not None:
                if len(self) >= getattr(re, "_MAXCACHE", 512):
                    with contextlib.suppress(StopIteration, RuntimeError, KeyError):
                        del self[next(iter(self))]
                self[key] = made
                return made
        raise KeyError(key)


def release() -> None:
    """Empty every loaded table in place (a long-running bot after its warm-up: ~2 MiB of stored code for
    patterns already compiled). The tables stay registered, so nothing is read again; a pattern compiled
    later is compiled from its source as without a store: the same pattern."""
    for codes in _loaded.values():
        codes.clear()
        codes.more = b""


def install(path: str = CODES_FILE) -> bool:
    """Answer ``re``'s cache misses from the store at ``path`` (once per process; kept entries stay).
    False when nothing is stored for this interpreter or ``re`` has no such cache."""
    if isinstance(getattr(re, "_cache", None), StoredCache):
        return True
    codes = load_codes(path)
    if not (codes or codes.more) or type(getattr(re, "_cache", None)) is not dict:
        return False
    re._cache = StoredCache(codes, re._cache)  # type: ignore[attr-defined]
    return True
