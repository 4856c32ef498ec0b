"""Issue 23 item 7, start-up (session 11, part boot): ``re``'s own compiles come from the stored regex code
too (:mod:`bot.regex_store`). ``re.compile`` (module-level patterns of bot, Jinja, Babel, pydantic, the
standard library) reads ``re._cache`` first; the store answers its misses with the pattern made from
the build's code, ``==`` the one ``re`` compiles, and leaves any other pattern to ``re``'s compiler."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot import regex_store
from bot.parse.regex import write_codes
from bot.regex_store import StoredCache, codes_key, load_codes

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = (
    "7B模型1万亿token要多少A100",
    "部署70B推理需要几张A100",
    "serve Llama-3-70B on 4 H100 with vLLM, 32 users",
)

RECORD = (
    "import contextlib, io, json, re, sys\n"
    "re._MAXCACHE = 1 << 30\n"
    "from bot.cli import main\n"
    "for q in sys.argv[1:]:\n"
    "    for fmt in ('text', 'html', 'json', 'markdown'):\n"
    "        with contextlib.redirect_stdout(io.StringIO()):\n"
    "            main(['ask', '--format', fmt, '--', q])\n"
    "print(json.dumps(sorted((p, f) for t, p, f in list(re._cache) if t is str and not f & 129)))\n"
)
"""What the build records (hatch_build.CatalogsHook._recorded_patterns): every string pattern ``re``
compiles while ``ask`` answers in every format."""

COUNT = (
    "import contextlib, io, json, re, sys\n"
    "import re._compiler as c\n"
    "from_source = []\n"
    "real = c.compile\n"
    "c.compile = lambda p, f=0: from_source.append(p) or real(p, f)\n"
    "import bot.regex_store as s\n"
    "re._cache = {}\n"
    "if sys.argv[1] != '-':\n"
    "    assert s.install(sys.argv[1])\n"
    "from bot.cli import main\n"
    "out = io.StringIO()\n"
    "with contextlib.redirect_stdout(out):\n"
    "    for fmt in ('text', 'json'):\n"
    "        main(['ask', '--format', fmt, '--', sys.argv[2]])\n"
    "print(json.dumps([out.getvalue(), [p for p in from_source if isinstance(p, str)]]))\n"
)
"""``ask`` after ``import bot`` with ``re``'s cache emptied, from the store at argv[1] ('-': none): its
output and the string patterns ``re``'s compiler parsed."""


def _run(code: str, *args: str) -> str:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SIZING_BOT_", "TELEGRAM_", "FEISHU_"))}
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        env={**base, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"},  # Babel joins a set into one pattern
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[set[tuple[str, int]], Path]:
    patterns = {(p, int(f)) for p, f in json.loads(_run(RECORD, *QUESTIONS))}
    path = tmp_path_factory.mktemp("store") / "codes.marshal"
    assert write_codes(str(path), patterns) == len(patterns) > 150
    return patterns, path


def test_every_pattern_ask_compiles_is_made_from_the_store_and_is_the_same(recorded, monkeypatch) -> None:
    patterns, path = recorded
    codes = load_codes(str(path))
    assert set(codes) == patterns
    from_source: list[str] = []
    real = re._compiler.compile
    monkeypatch.setattr(re._compiler, "compile", lambda p, f=0: from_source.append(p) or real(p, f))
    for pattern, flags in sorted(patterns):
        monkeypatch.setattr(re, "_cache", StoredCache(codes))
        made = re.compile(pattern, flags)
        assert from_source == [], pattern[:80]
        monkeypatch.setattr(re, "_cache", {})
        assert made == re.compile(pattern, flags), pattern[:80]  # flags, source and code
        assert made.groupindex == re.compile(pattern, flags).groupindex
        from_source.clear()


def test_a_pattern_not_stored_debug_flags_or_bytes_compile_as_before(recorded, monkeypatch) -> None:
    patterns, path = recorded
    monkeypatch.setattr(re, "_cache", StoredCache(load_codes(str(path))))
    unseen = r"(?<![a-z0-9])never-stored-\d+"
    assert re.search(unseen, "x never-stored-42").group() == "never-stored-42"
    assert (str, unseen, 0) in re._cache  # kept by re itself, as before
    assert re.compile(b"never-stored") == re.compile(b"never-stored")
    pattern, flags = min(patterns)
    with pytest.raises(KeyError):
        re._cache[str, pattern, flags | re.DEBUG]


def test_the_cache_keeps_re_s_size(recorded, monkeypatch) -> None:
    patterns, path = recorded
    cache = StoredCache(load_codes(str(path)), {(str, f"x{i}", 0): None for i in range(re._MAXCACHE)})
    pattern, flags = min(patterns)
    assert cache[str, pattern, flags].pattern == pattern
    assert len(cache) == re._MAXCACHE and (str, "x0", 0) not in cache  # the oldest dropped, as re does


def test_a_file_for_another_interpreter_or_none_stores_nothing(recorded, tmp_path, monkeypatch) -> None:
    _, path = recorded
    assert load_codes(str(path), ("cpython-00", 0, 4)) == {}
    assert load_codes(str(tmp_path / "absent.marshal")) == {}
    monkeypatch.setattr(re, "_cache", {})
    assert regex_store.install(str(tmp_path / "absent.marshal")) is False
    assert type(re._cache) is dict
    assert regex_store.install(str(path)) is True and isinstance(re._cache, StoredCache)
    assert load_codes(str(path)) is load_codes(str(path), codes_key())  # read once


def test_ask_compiles_no_pattern_from_source_with_the_store_and_answers_the_same(recorded) -> None:
    _, path = recorded
    for question in QUESTIONS[:2]:
        stored_out, stored_compiled = json.loads(_run(COUNT, str(path), question))
        plain_out, plain_compiled = json.loads(_run(COUNT, "-", question))
        assert stored_out == plain_out
        assert stored_compiled == [] and len(plain_compiled) > 60
