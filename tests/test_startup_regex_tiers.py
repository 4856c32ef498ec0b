"""Issue 23 item 7, start-up (session 30, part s30-spgate): the regex store in two parts
(:class:`bot.regex_store.Codes`). A start reads only the patterns a plain ``ask`` compiles (recorded by the
build, hatch_build._PLAIN_ASK); the rest is read on the first pattern the first part lacks that the rest
holds, and a pattern stored nowhere (Babel's plural-rule pattern, whose text follows the hash seed) leaves
it unread. Patterns are the same either way."""

from __future__ import annotations

import re

import pytest

from bot.parse.regex import compile_pattern, write_codes
from bot.regex_store import StoredCache, key_sum, load_codes, release

FIRST = {(r"(\d+)\s*(?:张|块)", 0), (r"\bH100\b", int(re.IGNORECASE))}
REST = {(r"(?P<n>\d+(?:\.\d+)?)\s*(?:T|B)\b", 0), ("配置|参数|命令", int(re.IGNORECASE)), ("\ud800x", 0)}


def _store(tmp_path):
    path = tmp_path / "codes.marshal"
    assert write_codes(str(path), FIRST | REST, FIRST) == 5
    return load_codes(str(path))


def test_a_start_reads_only_the_first_part(tmp_path) -> None:
    codes = _store(tmp_path)
    assert set(codes) == FIRST and codes.more
    assert codes.more_sums == frozenset(key_sum(k) for k in REST)
    cache = StoredCache(codes)
    assert cache[str, r"\bH100\b", int(re.IGNORECASE)] == re.compile(r"\bH100\b", re.IGNORECASE)
    assert set(codes) == FIRST  # a hit reads nothing more


def test_a_pattern_stored_nowhere_leaves_the_rest_unread(tmp_path) -> None:
    codes = _store(tmp_path)
    cache = StoredCache(codes)
    with pytest.raises(KeyError):  # a pattern not stored is re's to compile
        cache[str, r"\b(and|or|is|not|mod|[nfivw])\b", 0]
    assert set(codes) == FIRST and codes.more


def test_a_pattern_of_the_rest_reads_it_once(tmp_path, monkeypatch) -> None:
    codes = _store(tmp_path)
    cache = StoredCache(codes)
    pattern = r"(?P<n>\d+(?:\.\d+)?)\s*(?:T|B)\b"
    made = cache[str, pattern, 0]
    assert made == re.compile(pattern) and made.groupindex == {"n": 1}
    assert set(codes) == FIRST | REST and not codes.more
    monkeypatch.setattr("bot.parse.regex._stored", codes)
    made = compile_pattern("配置|参数|命令", int(re.IGNORECASE))
    assert made == re.compile("配置|参数|命令", re.IGNORECASE)


def test_the_parser_reads_the_rest_too_and_release_drops_it(tmp_path, monkeypatch) -> None:
    codes = _store(tmp_path)
    monkeypatch.setattr("bot.parse.regex._stored", codes)
    assert compile_pattern("\ud800x") == re.compile("\ud800x")
    assert not codes.more and len(codes) == 5
    codes2 = _store(tmp_path)
    monkeypatch.setitem(__import__("bot.regex_store").regex_store._loaded, ("x", ("y", 0, 0)), codes2)
    release()
    assert not codes2 and not codes2.more
