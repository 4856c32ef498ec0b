"""Review item 5: the parse fast paths read patterns with CPython's private regex parser
(:mod:`bot.parse.sre_private`); when it cannot be imported, or parses into another form, the parser
still imports and gives the same answers by the full path (every rule, every settings reader, no
gates)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.parse import parse, regex_gate, role_dispatch, settings_scan, sre_private
from tests.test_parse_role_dispatch import _texts

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import builtins, json

real_import = builtins.__import__

def no_private_re(name, globals=None, locals=None, fromlist=(), level=0):
    private = {"_parser", "_constants", "_compiler"}
    ours = (globals or {}).get("__name__", "").startswith("bot.")
    if name == "re" and set(fromlist or ()) & private and ours:
        raise ImportError("no re._parser here")
    return real_import(name, globals, locals, fromlist, level)

builtins.__import__ = no_private_re
from bot.parse import assemble, parse, regex_gate, role_dispatch, settings_scan, sre_private
from tests.test_parse_role_dispatch import _texts

assert sre_private._parser is None and not sre_private.OK
texts = _texts()
first = repr(parse(texts[0]))
assemble._PARSES = 1
parse(texts[0])  # a second message: the hooks run
assert not role_dispatch._TABLE and not settings_scan._TABLE
assert regex_gate.gate_literals(r"\bfoo|\bbar") is None
print(json.dumps([first] + [repr(parse(t)) for t in texts], ensure_ascii=False))
"""


def test_without_the_private_regex_parser_every_answer_is_the_same() -> None:
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout.strip().splitlines()[-1])
    texts = _texts()
    assert len(texts) > 900
    want = [repr(parse(t)) for t in texts]
    assert got[0] == want[0]
    diff = [t for t, g, w in zip(texts, got[1:], want, strict=True) if g != w]
    assert not diff, diff[:5]


def test_a_parser_of_another_form_turns_the_fast_paths_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert sre_private.OK and sre_private.shape_ok()
    monkeypatch.setattr(sre_private, "_parser", SimpleNamespace(parse=lambda p, f: []))
    assert not sre_private.shape_ok()
    monkeypatch.undo()
    text = "full finetune llama-3-8b, tp 2, lora rank 16, 1T tokens on 64 h100 for 30 days"
    fast = repr(parse(text))
    monkeypatch.setattr(sre_private, "OK", False)
    role_dispatch.warm()
    settings_scan.warm()
    assert not role_dispatch._TABLE and not settings_scan._TABLE
    assert regex_gate.gate_literals(r"\bfoo|\bbar") is None
    assert repr(parse(text)) == fast
    monkeypatch.undo()
    role_dispatch.warm()
    settings_scan.warm()
    assert role_dispatch._TABLE and settings_scan._TABLE
    assert regex_gate.gate_literals(r"\bfoo|\bbar") == frozenset({"foo", "bar"})
